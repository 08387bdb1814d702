// ServiceFixture: a real `hashline lsp` over pipes (tests/lsp/support's LspClient) with a temp
// workspace, where the test plays the editor with EditorModel buffers: it opens documents,
// answers workspace/applyEdit (apply + didChange + applied:true, or refuse, or drop, or stay
// silent) and types between the server's steps. Timeouts of the apply pipeline are shortened
// through the environment the server inherits (they bound waits; no assertion depends on time).
#pragma once

#include "tests/lsp/support/editor_model.h"
#include "tests/lsp/support/lsp_client.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <string>

namespace hashline::test {

struct ServiceTimeouts {
  int apply_ms = 2000;
  int confirm_ms = 300;
};

class ServiceFixture : public ::testing::Test {
protected:
  using json = nlohmann::json;

  void SetUp() override { start(ServiceTimeouts{}); }
  void TearDown() override;

  void start(ServiceTimeouts timeouts);
  std::string pathOf(const std::string& name) const { return (root_ / name).string(); }
  std::string uriOf(const std::string& name) const { return "file://" + pathOf(name); }
  void writeFile(const std::string& name, const std::string& text);
  std::string readFile(const std::string& name) const;

  EditorModel& open(const std::string& name, const std::string& text, std::int64_t version = 1);
  EditorModel& model(const std::string& name) { return *models_.at(uriOf(name)); }

  /// hashline/<method> and its result (fails the test on a JSON-RPC error).
  json service(const std::string& method, json params);
  /// Sends hashline/<method> without waiting; returns the request id.
  std::int64_t startService(const std::string& method, json params);
  json finish(std::int64_t id);

  /// The next workspace/applyEdit request.
  json nextApplyEdit();
  /// Plays a well-behaved editor: applies the edit to the model, sends didChange, replies true.
  void applyAndConfirm(const json& request);
  /// The user types: replaces bytes of `name`'s buffer and sends the didChange.
  void type(const std::string& name, std::size_t begin, std::size_t end, const std::string& text);
  /// Inserts a whole line before 0-based `line`.
  void typeLineAt(const std::string& name, std::size_t line, const std::string& text);

  /// read + the anchor of 1-based `line`.
  std::string anchorOf(const json& read_result, std::uint32_t line);
  /// The mirror's SHA-256 equals the model's.
  void expectMirrorMatches(const std::string& name);

  std::filesystem::path root_;
  std::unique_ptr<LspClient> client_;
  std::map<std::string, std::unique_ptr<EditorModel>> models_; // by uri
};

} // namespace hashline::test
