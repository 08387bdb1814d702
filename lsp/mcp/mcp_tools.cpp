// The hashline MCP tools: schemas, descriptions, and the call path; see mcp_tools.h.
#include "lsp/mcp/mcp_tools.h"

#include "lsp/cli/render.h"
#include "lsp/mcp/journal_tools.h"

#include <set>

namespace hashline::mcp {

using nlohmann::json;

namespace {

constexpr const char* kAnchors =
    "Anchors: hashline_read prints each line as `LINE:LLL:BBB→text`; the part before → "
    "(e.g. `12:c3d:rst`) is that line's anchor. Copy anchors exactly from your latest read; "
    "never invent or compute them. ";

// The error vocabulary is shared by every editing tool; it lives once in the server's
// instructions (errorVocabulary(), sent with `initialize`) and each description points there.
constexpr const char* kErrors = "Refusals start with an error code (see the server instructions). ";

const json kPath = {{"type", "string"},
                    {"description",
                     "File path, absolute or relative to the workspace root (the directory the "
                     "MCP server runs in, or its --workspace)."}};
const json kDryRun = {{"type", "boolean"},
                      {"description", "Verify and show the diff without writing anything."}};
const json kConfirm = {{"type", "boolean"},
                       {"description", "Ask the user to confirm in the editor first (see the "
                                       "server instructions)."}};

json object(json properties, json required) {
  return json{{"type", "object"},
              {"properties", std::move(properties)},
              {"required", std::move(required)},
              {"additionalProperties", false}};
}

json tool(const std::string& name, const std::string& title, const std::string& description,
          json schema, bool read_only) {
  return json{{"name", name},
              {"title", title},
              {"description", description},
              {"inputSchema", std::move(schema)},
              {"annotations",
               {{"readOnlyHint", read_only},
                {"destructiveHint", false},
                {"idempotentHint", read_only},
                {"openWorldHint", false}}}};
}

json anchoredEditSchema() {
  return json{
      {"type", "object"},
      {"properties",
       {{"op",
         {{"type", "string"},
          {"enum", {"replace", "insert_after", "insert_before", "delete", "write"}},
          {"description",
           "replace: lines anchor..end (end optional) become content. insert_after / "
           "insert_before: content goes after/before the anchor line (insert_after also takes "
           "\"0\" for the top of the file and \"EOF\" for the end). delete: remove lines "
           "anchor..end. write: replace the whole file with content (no anchor)."}}},
        {"anchor",
         {{"type", "string"},
          {"description", "Anchor of the first line, copied from a read, e.g. \"12:c3d:rst\"."}}},
        {"end",
         {{"type", "string"},
          {"description", "Anchor of the last line of the range (inclusive); omit for one line."}}},
        {"content",
         {{"type", "string"},
          {"description",
           "The new lines, joined by \\n, without the `LINE:LLL:BBB→` prefixes. An empty string "
           "with replace deletes the lines."}}}}},
      {"required", {"op"}},
      {"additionalProperties", false}};
}

json readTool() {
  return tool(
      "hashline_read", "Read a file with line anchors",
      std::string("Read a file (or lines from..to) as anchored rows `LINE:LLL:BBB→text`, with a "
                  "header giving its version. Read before you edit: edits are only accepted for "
                  "files this session has read, and are verified against what you saw. ") +
          kAnchors + "Reads are cheap: read again whenever an edit is refused as stale.",
      object(
          {{"path", kPath},
           {"from",
            {{"type", "integer"}, {"minimum", 1}, {"description", "First line (1-based)."}}},
           {"to", {{"type", "integer"}, {"minimum", 1}, {"description", "Last line (inclusive)."}}},
           {"symbol",
            {{"type", "string"},
             {"description",
              "Instead of from/to: just this symbol's lines (Class.method or method), located by "
              "the editor's language server; hashline_outline lists them."}}},
           {"tier",
            {{"type", "string"},
             {"enum", {"line", "block", "chain"}},
             {"description",
              "Anchor strength: line (LINE:LLL), block (default; also checks the 8-line "
              "block), chain (also checks everything above since the last checkpoint)."}}}},
          {"path"}),
      true);
}

json editTool() {
  return tool(
      "hashline_edit", "Edit lines by anchor",
      std::string("Edit a file by anchors from your latest hashline_read. Give all edits of one "
                  "change in one call: they use the numbering of the read, are verified together "
                  "and applied together (or not at all). Prefer this for precise line edits. ") +
          "Copy anchors exactly from your latest read. " + kErrors +
          "On success the result shows the diff and fresh anchors of the changed lines; use "
          "those (or re-read) for the next edit.",
      object({{"path", kPath},
              {"edits", {{"type", "array"}, {"minItems", 1}, {"items", anchoredEditSchema()}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path", "edits"}),
      false);
}

json replaceTool() {
  json old_new = {{"type", "object"},
                  {"properties",
                   {{"old", {{"type", "string"}}},
                    {"new", {{"type", "string"}}},
                    {"replace_all", {{"type", "boolean"}}}}},
                  {"required", {"old", "new"}},
                  {"additionalProperties", false}};
  return tool(
      "hashline_replace", "Replace text",
      std::string("Replace an exact text in a file: `old` must occur exactly once (or set "
                  "replace_all). Matching tolerates trailing whitespace, Unicode forms and "
                  "typographic quotes, but the match must be unique. Give either old/new or "
                  "edits: [{old, new, replace_all?}] (matched against the original text). The "
                  "file must have been read first. ") +
          kErrors,
      object({{"path", kPath},
              {"old",
               {{"type", "string"}, {"description", "The text to find (several lines allowed)."}}},
              {"new", {{"type", "string"}, {"description", "Its replacement."}}},
              {"replace_all", {{"type", "boolean"}, {"description", "Replace every occurrence."}}},
              {"edits", {{"type", "array"}, {"minItems", 1}, {"items", old_new}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path"}),
      false);
}

json headTailTool() {
  return tool(
      "hashline_headtail", "Replace a span by its first and last lines",
      std::string("Replace the span that starts at the unique line(s) matching `head` and ends "
                  "at the nearest following line(s) matching `tail` (both included) with `new`. "
                  "Handy for rewriting a whole function without quoting its body. ") +
          kErrors,
      object({{"path", kPath},
              {"head", {{"type", "string"}, {"description", "The first line(s) of the span."}}},
              {"tail", {{"type", "string"}, {"description", "The last line(s) of the span."}}},
              {"new", {{"type", "string"}, {"description", "The replacement for the whole span."}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path", "head", "tail", "new"}),
      false);
}

json rangeTool() {
  return tool(
      "hashline_range", "Replace a line range at a version",
      std::string("Replace lines start..end (1-based, inclusive) as numbered in the read at "
                  "`version` (the version in the read's header). Later edits are rebased "
                  "exactly; if one of these lines changed, the edit is refused. ") +
          kErrors,
      object({{"path", kPath},
              {"start", {{"type", "integer"}, {"minimum", 1}}},
              {"end", {{"type", "integer"}, {"minimum", 1}}},
              {"version", {{"type", "integer"}, {"description", "The version of the read."}}},
              {"content", {{"type", "string"}, {"description", "The new lines, joined by \\n."}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path", "start", "end", "version", "content"}),
      false);
}

json patchTool() {
  return tool(
      "hashline_patch", "Apply a patch (codex apply_patch format)",
      std::string("Apply a patch in the apply_patch format: `*** Begin Patch`, then per file "
                  "`*** Add File: PATH` (lines prefixed +), `*** Delete File: PATH`, or "
                  "`*** Update File: PATH` (optional `*** Move to: PATH`) with hunks starting "
                  "`@@` (optional context line) and lines prefixed ' ', '-' or '+', then "
                  "`*** End Patch`. Paths are relative to the workspace root. The whole patch is "
                  "verified before anything is written; if any hunk fails nothing is applied. ") +
          kErrors,
      object({{"patch", {{"type", "string"}, {"description", "The full patch text."}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"patch"}),
      false);
}

json draftTool() {
  return tool(
      "hashline_draft", "Apply a lazy draft",
      std::string("Give the new version of a region of the file, writing a line such as "
                  "`// ... existing code ...` wherever unchanged code is left out. Each elision "
                  "is located by a unique match of the lines around it; unmatched or ambiguous "
                  "context is refused. ") +
          kErrors,
      object({{"path", kPath},
              {"draft", {{"type", "string"}, {"description", "The draft text."}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path", "draft"}),
      false);
}

json edTool() {
  return tool(
      "hashline_ed", "Run an ed script",
      std::string("Run an ed-style script: commands a (append), i (insert), c (change), d "
                  "(delete), m (move), t (copy) and s/re/rep/ addressed by anchors (e.g. "
                  "`12:c3d:rst,14:abc:rstd` deletes lines 12-14, `12:c3d:rsta` appends after line "
                  "12) or by line numbers at `version`. Text for a/i/c follows on the next "
                  "lines, ended by a line with a single `.`. Addresses refer to the original "
                  "text; `,` or `%` is the whole file; s uses RE2 regular expressions (no "
                  "backreferences or lookaround; \\1-\\9 and & in the replacement). ") +
          kErrors,
      object({{"path", kPath},
              {"script", {{"type", "string"}}},
              {"version",
               {{"type", "integer"},
                {"description", "The version line numbers refer to (from a read's header)."}}},
              {"dry_run", kDryRun},
              {"confirm", kConfirm}},
             {"path", "script"}),
      false);
}

json statusTool() {
  return tool("hashline_status", "Where edits go",
              "Show whether edits go to an editor's buffers (the sidecar) or to the "
              "disk, the workspace roots, and the open documents.",
              object(json::object(), json::array()), true);
}

json searchTool() {
  return tool(
      "hashline_search", "Search the workspace, live buffers included",
      std::string("Find lines matching a regular expression (RE2; `literal: true` for plain "
                  "text) across the workspace: files open in the editor are searched in their "
                  "live text, unsaved typing included, the rest on disk (.gitignore'd and binary "
                  "files skipped). Hits are anchored rows `LINE:LLL:BBB→text` per file, counted "
                  "as read: edit from them directly. ") +
          kAnchors,
      object(
          {{"pattern", {{"type", "string"}, {"description", "RE2 regex, or text with literal."}}},
           {"literal", {{"type", "boolean"}, {"description", "Match the pattern as text."}}},
           {"ignore_case", {{"type", "boolean"}, {"description", "Case-insensitive."}}},
           {"paths",
            {{"type", "array"},
             {"items", {{"type", "string"}}},
             {"description", "Files or directories to search (default: the workspace)."}}},
           {"globs",
            {{"type", "array"},
             {"items", {{"type", "string"}}},
             {"description", "Keep files matching, e.g. \"*.cpp\"; \"!G\" drops them."}}},
           {"max_hits",
            {{"type", "integer"}, {"minimum", 1}, {"description", "At most this many rows."}}}},
          {"pattern"}),
      true);
}

json diagnosticsTool() {
  return tool(
      "hashline_diagnostics", "The editor's diagnostics",
      "List the errors and warnings the editor's own language servers report (unsaved text "
      "included) for a file, or every file they reported on, as anchored rows `LINE:LLL:BBB "
      "severity source: message`. Edits report the diagnostics they introduced or removed "
      "already; use this to look before editing or after the editor caught up.",
      object({{"path", kPath},
              {"severity",
               {{"type", "string"},
                {"enum", {"error", "warning", "information", "hint"}},
                {"description", "Only this severity or worse."}}}},
             json::array()),
      true);
}

json contextTool() {
  return tool("hashline_context", "What the user has selected in the editor",
              "The file the user is focused on in the editor, their selection in it (its text, "
              "and its lines as anchored rows `LINE:LLL:BBB→text`, counted as read: edit from "
              "them directly), the latest non-empty selection, and the files visible with their "
              "line spans. Use it when the user says \"this\" or \"here\".",
              object(json::object(), json::array()), true);
}

json outlineTool() {
  return tool("hashline_outline", "A file's symbols and their lines",
              "List the symbols of a file open in the editor (functions, classes, methods, ...) "
              "with their line spans, one `FROM-TO kind Qualified.name` per line, as the "
              "editor's language server reports them for the live buffer. Read one with "
              "hashline_read and symbol.",
              object({{"path", kPath}}, {"path"}), true);
}

} // namespace

const char* errorVocabulary() {
  return "If an edit is refused the result is an error whose text starts with a code: "
         "STALE_ANCHOR / STALE_VERSION (the file changed since your read: use the fresh anchors "
         "shown, or read again, then retry), NOT_OBSERVED (read the file first), ANCHOR_UNKNOWN / "
         "MALFORMED_ANCHOR (you miscopied an anchor: copy it again from a read), AMBIGUOUS_ANCHOR "
         "/ "
         "AMBIGUOUS (several places match: add context or use anchors), NOT_FOUND (the text is not "
         "there: read the file), OVERLAPPING_EDITS (merge the edits), NO_CHANGE (the edit changes "
         "nothing), OUTSIDE_WORKSPACE (the path is outside the workspace), NOT_TEXT (binary file), "
         "INVALID_ARGUMENTS (an argument has the wrong type or name: fix it as the message says), "
         "SYMBOL_NOT_FOUND (list the symbols with hashline_outline) / NO_SYMBOLS (no language "
         "server: read by lines), "
         "EDITOR_REJECTED / EDITOR_TIMEOUT / DESYNCED / IO_ERROR (retry once, then tell the user), "
         "SIDECAR_GONE (the editor's hashline sidecar died or hangs: tell the user to restart it "
         "in the editor, then read again; never work around it). "
         "Nothing is written when an edit is refused.";
}

json toolDefinitions(const ToolSelection& selection) {
  json all = toolDefinitions();
  json offered = json::array();
  for (json& definition : all)
    if (selection.offers(definition["name"].get<std::string>()))
      offered.push_back(std::move(definition));
  return offered;
}

json toolDefinitions() {
  json tools = json::array({readTool(), editTool(), replaceTool(), headTailTool(), rangeTool(),
                            patchTool(), draftTool(), edTool(), searchTool(), diagnosticsTool(),
                            contextTool(), outlineTool(), statusTool()});
  for (json& journal_tool : journalToolDefinitions())
    tools.push_back(std::move(journal_tool));
  return tools;
}

bool isTool(const std::string& name) {
  static const std::set<std::string> names = {
      "hashline_read",   "hashline_edit",        "hashline_replace", "hashline_headtail",
      "hashline_range",  "hashline_patch",       "hashline_draft",   "hashline_ed",
      "hashline_search", "hashline_diagnostics", "hashline_context", "hashline_outline",
      "hashline_status"};
  return names.count(name) > 0 || isJournalTool(name);
}

json callTool(agent::AgentRouter& router, const ToolCaller& caller, const std::string& name,
              const json& arguments, ResultShape shape) {
  std::string method = name.substr(std::string("hashline_").size());
  if (method == "read" && arguments.is_object() && arguments.contains("symbol")) method = "symbol";
  json params = arguments;
  params["session"] = caller.session;
  params["agent"] = caller.agent;
  lsp::ServiceOutcome outcome = router.call(method, std::move(params));
  if (auto* fault = std::get_if<lsp::RpcError>(&outcome)) {
    return json{{"content",
                 {{{"type", "text"},
                   {"text", "INVALID_ARGUMENTS: " + fault->message +
                                "\nhint: check the tool's input schema and retry"}}}},
                {"isError", true}};
  }
  json& result = std::get<json>(outcome);
  bool refused = cli::isRefusal(result);
  // A SIDECAR_GONE warning (answered from the disk) comes first: the model must see it.
  std::string text =
      cli::renderWarning(result) + cli::renderResult(method, result, router.diskRoots().front());
  json answer{{"content", {{{"type", "text"}, {"text", std::move(text)}}}}, {"isError", refused}};
  if (shape == ResultShape::TextAndStructured) answer["structuredContent"] = std::move(result);
  return answer;
}

} // namespace hashline::mcp
