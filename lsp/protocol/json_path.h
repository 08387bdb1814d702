// Reading typed values out of JSON while remembering *where* a value was wrong.
//
// Every protocol struct has `bool fromJSON(const json&, T&, JsonPath)`. On failure the first
// problem is recorded in the JsonPath's Root as a path like
// `params.contentChanges[2].range.start.line` plus a reason, which the server returns in the
// -32602 InvalidParams message (clangd's llvm::json::Path, in small).
//
// Threading: none; a Root and its paths live on one stack frame.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::lsp {

class JsonPath {
public:
  /// Owns the first error seen while parsing one value.
  struct Root {
    explicit Root(std::string name = "params") : name(std::move(name)) {}
    std::string name;
    bool failed = false;
    std::string error_path;
    std::string error_message;
    /// "params.textDocument.uri: expected a string, got 42"
    std::string describe() const { return error_path + ": " + error_message; }
  };

  explicit JsonPath(Root& root) : root_(&root) {}
  JsonPath field(std::string_view name) const {
    return JsonPath(root_, this, name, 0, Kind::Field);
  }
  JsonPath index(std::size_t i) const { return JsonPath(root_, this, {}, i, Kind::Index); }

  /// Records `message` at this path unless an earlier error was recorded. Returns false, so
  /// parsers can `return path.report("...")`.
  bool report(std::string message) const;
  std::string toString() const;

private:
  enum class Kind { Top, Field, Index };
  JsonPath(Root* root, const JsonPath* parent, std::string_view field, std::size_t index, Kind kind)
      : root_(root), parent_(parent), field_(field), index_(index), kind_(kind) {}

  Root* root_;
  const JsonPath* parent_ = nullptr;
  std::string_view field_;
  std::size_t index_ = 0;
  Kind kind_ = Kind::Top;
};

/// "a string", "an integer", ... plus a short rendering of the value, for messages.
std::string describeJSON(const nlohmann::json& value);

bool fromJSON(const nlohmann::json& value, std::string& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, bool& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, std::int64_t& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, std::uint32_t& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, nlohmann::json& out, JsonPath path);

template <class T>
bool fromJSON(const nlohmann::json& value, std::optional<T>& out, JsonPath path) {
  if (value.is_null()) {
    out.reset();
    return true;
  }
  T parsed{};
  if (!fromJSON(value, parsed, path)) return false;
  out = std::move(parsed);
  return true;
}

template <class T> bool fromJSON(const nlohmann::json& value, std::vector<T>& out, JsonPath path) {
  if (!value.is_array()) return path.report("expected an array, got " + describeJSON(value));
  out.clear();
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    T element{};
    if (!fromJSON(value[i], element, path.index(i))) return false;
    out.push_back(std::move(element));
  }
  return true;
}

/// Maps the members of one JSON object: `ObjectReader r(v, p); return r && r.map("uri", x.uri)
/// && r.mapOptional("version", x.version);`
class ObjectReader {
public:
  ObjectReader(const nlohmann::json& value, JsonPath path);
  explicit operator bool() const { return object_ != nullptr; }

  /// A required member.
  template <class T> bool map(std::string_view key, T& out) {
    const nlohmann::json* member = find(key);
    if (!member) return path_.field(key).report("missing");
    return fromJSON(*member, out, path_.field(key));
  }
  /// An optional member: absent leaves `out` as it is (null is passed to fromJSON, so
  /// std::optional members become nullopt).
  template <class T> bool mapOptional(std::string_view key, T& out) {
    const nlohmann::json* member = find(key);
    if (!member) return true;
    return fromJSON(*member, out, path_.field(key));
  }
  const nlohmann::json* find(std::string_view key) const;

private:
  const nlohmann::json* object_ = nullptr;
  JsonPath path_;
};

} // namespace hashline::lsp
