// checkJournalParams: the journal methods' parameter table; see journal_params.h.
#include "lsp/journal/journal_params.h"

#include "engine/journal/journal_op.h"

#include <map>
#include <set>
#include <vector>

namespace hashline::lsp {

using nlohmann::json;

namespace {

enum class Kind { String, PositiveInteger, Boolean, OpId, HunkId, DiffKind, TurnAction };

struct Field {
  const char* name;
  Kind kind;
};

/// Fields every journal method may carry (the caller's identity and options).
const std::vector<Field>& commonFields() {
  static const std::vector<Field> fields = {{"session", Kind::String},
                                            {"agent", Kind::String},
                                            {"confirm", Kind::Boolean},
                                            {"dry_run", Kind::Boolean},
                                            {"dryRun", Kind::Boolean}};
  return fields;
}

const std::map<std::string, std::vector<Field>>& methodFields() {
  static const std::map<std::string, std::vector<Field>> fields = {
      {"undo", {{"op", Kind::OpId}, {"id", Kind::OpId}, {"turn", Kind::PositiveInteger}}},
      {"reject",
       {{"hunk", Kind::HunkId},
        {"id", Kind::HunkId},
        {"op", Kind::HunkId},
        {"turn", Kind::PositiveInteger}}},
      {"rewind", {{"turn", Kind::PositiveInteger}, {"path", Kind::String}, {"uri", Kind::String}}},
      {"accept", {{"hunk", Kind::HunkId}, {"op", Kind::HunkId}, {"turn", Kind::PositiveInteger}}},
      {"pending", {{"turn", Kind::PositiveInteger}, {"path", Kind::String}, {"uri", Kind::String}}},
      {"log",
       {{"turn", Kind::PositiveInteger},
        {"path", Kind::String},
        {"uri", Kind::String},
        {"limit", Kind::PositiveInteger}}},
      {"diff",
       {{"op", Kind::OpId},
        {"turn", Kind::PositiveInteger},
        {"kind", Kind::DiffKind},
        {"path", Kind::String},
        {"uri", Kind::String}}},
      {"turn", {{"action", Kind::TurnAction}, {"turn", Kind::PositiveInteger}}},
  };
  return fields;
}

bool positiveInteger(const json& value) {
  return (value.is_number_unsigned() && value.get<std::uint64_t>() >= 1) ||
         (value.is_number_integer() && value.get<std::int64_t>() >= 1);
}

/// What is wrong with `value` for `kind`; empty when it is fine.
std::string problemOf(Kind kind, const json& value) {
  switch (kind) {
  case Kind::String:
    return value.is_string() ? "" : "expected a string";
  case Kind::Boolean:
    return value.is_boolean() ? "" : "expected true or false";
  case Kind::PositiveInteger:
    return positiveInteger(value) ? "" : "expected a positive integer";
  case Kind::OpId:
  case Kind::HunkId: {
    if (positiveInteger(value)) return "";
    const char* expected = kind == Kind::OpId ? "expected an op id (an integer, or \"12\")"
                                              : "expected a hunk id (\"12#3\") or an op id";
    if (!value.is_string()) return expected;
    std::optional<journal::HunkRef> ref = journal::parseHunkRef(value.get<std::string>());
    if (!ref || ref->op == 0) return expected;
    return "";
  }
  case Kind::DiffKind:
    return value.is_string() && (value == "commit" || value == "net")
               ? ""
               : "expected \"commit\" or \"net\"";
  case Kind::TurnAction:
    return value.is_string() && (value == "begin" || value == "end" || value == "current")
               ? ""
               : "expected \"begin\", \"end\" or \"current\"";
  }
  return "";
}

} // namespace

std::optional<RpcError> checkJournalParams(const std::string& method, const json& params) {
  if (!params.is_object())
    return RpcError::make(RpcErrorCode::InvalidParams, method + " takes an object of params");
  auto specific = methodFields().find(method);
  if (specific == methodFields().end()) return std::nullopt;
  for (const std::vector<Field>* fields : {&commonFields(), &specific->second}) {
    for (const Field& field : *fields) {
      auto it = params.find(field.name);
      if (it == params.end() || it->is_null()) continue;
      std::string problem = problemOf(field.kind, *it);
      if (!problem.empty())
        return RpcError::make(RpcErrorCode::InvalidParams, std::string(field.name) + ": " +
                                                               problem + " (got " + it->dump() +
                                                               "); nothing was changed");
    }
  }
  return std::nullopt;
}

} // namespace hashline::lsp
