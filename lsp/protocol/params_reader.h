// ParamsReader: the one reader of agent method params (every front end: LSP commands, the agent
// socket, MCP tools, the CLI) into typed request structs, in the ObjectReader style of
// json_path.h. Each accessor takes the member's names (the first is the documented one, the
// others are accepted aliases; null counts as absent), checks its JSON type strictly — an
// integer is an integer (not 2.0, not "1x"), a boolean a boolean, a string a string, an enum
// one of its names — and records the first problem as an InvalidParams RpcError naming the
// path: "invalid params for rewind: params.turn: expected an integer, got a string (\"latest\")".
// Accessors return false once a problem was seen, so parsers chain them with &&.
//
// Threading: none. Pure; no I/O.
#pragma once

#include "lsp/rpc/rpc_error.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::lsp {

class ParamsReader {
public:
  using Names = std::initializer_list<const char*>;

  /// Reads the members of `object` (the params of `method`, found at `where`, e.g.
  /// "params.edits[2]"). A non-object is reported at once; an empty array reads as an empty
  /// object (Neovim's Lua encodes an empty table as `[]`).
  ParamsReader(const nlohmann::json& object, std::string method, std::string where = "params");

  /// The first member present and not null among `names`.
  const nlohmann::json* find(Names names) const;
  bool has(Names names) const { return find(names) != nullptr; }

  bool string(Names names, std::string& out, bool required);
  bool optString(Names names, std::optional<std::string>& out);
  /// Absent leaves `out` as it is.
  bool boolean(Names names, bool& out);
  bool optBoolean(Names names, std::optional<bool>& out);
  /// An integer >= `minimum`.
  bool integer(Names names, std::optional<std::int64_t>& out, bool required,
               std::int64_t minimum = std::numeric_limits<std::int64_t>::min());
  /// A line number: an integer in [0, 2^32).
  bool line(Names names, std::optional<std::uint32_t>& out, bool required);
  /// A string that is one of `allowed`.
  bool choice(Names names, std::optional<std::string>& out,
              std::initializer_list<std::string_view> allowed);
  /// An id given as a string ("12", "12#2") or a positive integer (12), as text.
  bool idText(Names names, std::optional<std::string>& out);

  /// Records `what` at member `name` unless a problem was recorded already; returns false.
  bool fail(const char* name, const std::string& what);
  /// Records `what` at the object itself; returns false.
  bool failHere(const std::string& what);

  const std::string& method() const { return method_; }
  const std::string& where() const { return where_; }
  bool ok() const { return !error; }

  std::optional<RpcError> error;

private:
  const nlohmann::json& object_;
  std::string method_;
  std::string where_;
};

/// The InvalidParams error "invalid params for METHOD: WHERE: WHAT".
RpcError invalidParams(const std::string& method, const std::string& where,
                       const std::string& what);

} // namespace hashline::lsp
