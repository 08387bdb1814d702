// The parameters of agent service calls, parsed from JSON (one shape for every transport).
//
// Every method addresses a document by `uri` (file:// or untitled:) or `path` (absolute, or
// relative to the first workspace root) and names its caller with `session` (default
// "default"), `agent` and `turn`; `confirm` (bool, any call that edits) asks that the edit be
// sent to the editor for the user's confirmation (LSP change annotations), overriding the
// session default. Edit forms (DESIGN §5):
//   edit      {edits: [{op, anchor?, end?, content?}], dry_run?}
//   replace   {old, new, replace_all?} or {edits: [{old, new, replace_all?}]}
//   headtail  {head, tail, new} or {edits: [{head, tail, new}]}
//   range     {start, end, content, version} or {edits: [{start, end, content, version}]}
//   draft     {draft}
//   ed        {script, version?}
//   patch     {patch}                       (files named inside the patch)
// Every member is read by the one ParamsReader (lsp/protocol/params_reader.h): a wrong type or
// an unknown enum value (tier, format, op) is an RpcError (-32602) naming the JSON path, before
// any service code runs; wrong *content* (a bad anchor) is left to the engine, which refuses it
// with an error code. `turn` is an integer >= 1, versions integers >= 0. Pure; no I/O.
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/forms/head_tail.h"
#include "engine/forms/line_range.h"
#include "engine/forms/replace.h"
#include "engine/verify/anchored_edit.h"
#include "lsp/rpc/rpc_error.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct DocumentRef {
  std::optional<std::string> uri;
  std::optional<std::string> path;
  /// What the caller wrote, for messages.
  std::string spelled() const { return uri ? *uri : path ? *path : std::string(); }
};

struct CallerIdentity {
  std::string session = "default";
  std::string agent;
  std::optional<std::int64_t> turn;
  std::optional<bool> confirm; // unset: the session default
};

enum class ReadFormat { Both, Rows, Text };

struct ReadRequest {
  DocumentRef document;
  CallerIdentity caller;
  std::optional<std::uint32_t> from;
  std::optional<std::uint32_t> to;
  std::optional<Tier> tier;
  /// What the result carries: the rows (`lines`), the joined rows (`text`), or both (default).
  /// A client that uses only one halves the reply ("format": "rows" | "text" | "both").
  ReadFormat format = ReadFormat::Both;
};

enum class FormKind { Anchors, Replace, HeadTail, Range, Draft, Ed };

/// "edit", "replace", "headtail", "range", "draft", "ed".
std::string_view formMethod(FormKind kind);

struct FormRequest {
  FormKind kind = FormKind::Anchors;
  DocumentRef document;
  CallerIdentity caller;
  bool dry_run = false;
  std::vector<AnchoredEdit> anchored;          // edit
  std::vector<forms::OldNewEdit> replacements; // replace
  std::vector<forms::HeadTailEdit> head_tails; // headtail
  std::vector<forms::LineRangeEdit> ranges;    // range
  std::string text;                            // draft text / ed script
  std::optional<std::int64_t> version;         // ed: the version line numbers refer to
};

struct PatchRequest {
  std::string patch;
  CallerIdentity caller;
  bool dry_run = false;
};

struct StatusRequest {
  CallerIdentity caller;
  /// The params named a session: the result says what that session observed.
  bool names_session = false;
};

/// Parsers: nullopt on success, else the InvalidParams error naming the JSON path.
std::optional<RpcError> parseReadRequest(const nlohmann::json& params, ReadRequest& out);
std::optional<RpcError> parseFormRequest(FormKind kind, const nlohmann::json& params,
                                         FormRequest& out);
std::optional<RpcError> parsePatchRequest(const nlohmann::json& params, PatchRequest& out);
std::optional<RpcError> parseStatusRequest(const nlohmann::json& params, StatusRequest& out);
/// The caller fields alone (session, agent, turn >= 1, confirm) of `method`'s params.
std::optional<RpcError> parseCaller(const std::string& method, const nlohmann::json& params,
                                    CallerIdentity& out);

} // namespace hashline::lsp
