// ServiceFixture; see service_fixture.h.
#include "tests/lsp/support/service_fixture.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace hashline::test {

void ServiceFixture::start(ServiceTimeouts timeouts) {
  char pattern[] = "/tmp/hashline-service-test.XXXXXX";
  root_ = std::filesystem::canonical(::mkdtemp(pattern));
  std::filesystem::create_directories(root_ / ".state");
  std::filesystem::create_directories(root_ / ".run");
  ::setenv("HASHLINE_STATE_DIR", (root_ / ".state").c_str(), 1);
  ::setenv("HASHLINE_RUNTIME_DIR", (root_ / ".run").c_str(), 1);
  ::setenv("HASHLINE_APPLY_TIMEOUT_MS", std::to_string(timeouts.apply_ms).c_str(), 1);
  ::setenv("HASHLINE_CONFIRM_TIMEOUT_MS", std::to_string(timeouts.confirm_ms).c_str(), 1);
  client_ = std::make_unique<LspClient>();
  client_->initialize(json::object(), {{"rootUri", "file://" + root_.string()}});
}

void ServiceFixture::TearDown() {
  if (client_) {
    EXPECT_TRUE(client_->outputProblems().empty());
    client_->shutdownAndExit();
    client_.reset();
  }
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

void ServiceFixture::writeFile(const std::string& name, const std::string& text) {
  std::filesystem::create_directories((root_ / name).parent_path());
  std::ofstream(root_ / name, std::ios::binary) << text;
}

std::string ServiceFixture::readFile(const std::string& name) const {
  std::ifstream in(root_ / name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

EditorModel& ServiceFixture::open(const std::string& name, const std::string& text,
                                  std::int64_t version) {
  std::string uri = uriOf(name);
  models_[uri] = std::make_unique<EditorModel>(uri, text, version);
  client_->didOpen(uri, text, version);
  return *models_[uri];
}

ServiceFixture::json ServiceFixture::service(const std::string& method, json params) {
  return client_->callResult("hashline/" + method, std::move(params));
}

std::int64_t ServiceFixture::startService(const std::string& method, json params) {
  return client_->request("hashline/" + method, std::move(params));
}

ServiceFixture::json ServiceFixture::finish(std::int64_t id) {
  json response = client_->waitResponse(id);
  EXPECT_TRUE(response.contains("result")) << response.dump();
  return response.value("result", json());
}

ServiceFixture::json ServiceFixture::nextApplyEdit() {
  return client_->waitServerRequest("workspace/applyEdit");
}

void ServiceFixture::applyAndConfirm(const json& request) {
  const json& change = request["params"]["edit"]["documentChanges"][0];
  EditorModel& buffer = *models_.at(change["textDocument"]["uri"].get<std::string>());
  EXPECT_EQ(change["textDocument"]["version"], buffer.version) << "edit not versioned exactly";
  std::vector<json> changes = buffer.applyTextEdits(change["edits"]);
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, changes);
  client_->respond(request["id"], {{"applied", true}});
}

void ServiceFixture::type(const std::string& name, std::size_t begin, std::size_t end,
                          const std::string& text) {
  EditorModel& buffer = model(name);
  json change = buffer.replaceBytes(begin, end, text);
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, {change});
}

void ServiceFixture::typeLineAt(const std::string& name, std::size_t line,
                                const std::string& text) {
  std::size_t at = model(name).lineBytes(line).first;
  type(name, at, at, text + "\n");
}

std::string ServiceFixture::anchorOf(const json& read_result, std::uint32_t line) {
  for (const json& row : read_result["lines"])
    if (row["line"] == line) return row["anchor"];
  ADD_FAILURE() << "line " << line << " not in " << read_result.dump();
  return "";
}

void ServiceFixture::expectMirrorMatches(const std::string& name) {
  json snapshot = client_->snapshot(uriOf(name));
  EXPECT_EQ(snapshot["sha256"], sha256Hex(model(name).text)) << "mirror and editor differ";
  EXPECT_EQ(snapshot["version"], model(name).version);
}

} // namespace hashline::test
