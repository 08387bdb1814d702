// The journal's MCP tool definitions; see journal_tools.h.
#include "lsp/mcp/journal_tools.h"

#include <set>

namespace hashline::mcp {

using nlohmann::json;

namespace {

json schema(json properties, json required) {
  return json{{"type", "object"},
              {"properties", std::move(properties)},
              {"required", std::move(required)},
              {"additionalProperties", false}};
}

json tool(const std::string& name, const std::string& title, const std::string& description,
          json input, bool read_only) {
  return json{{"name", name},
              {"title", title},
              {"description", description},
              {"inputSchema", std::move(input)},
              {"annotations",
               {{"readOnlyHint", read_only},
                {"destructiveHint", false},
                {"idempotentHint", read_only},
                {"openWorldHint", false}}}};
}

const json kPath = {
    {"type", "string"},
    {"description", "Only this file (absolute or relative to the workspace root)."}};
const json kTurn = {{"type", "integer"}, {"description", "A turn number (see hashline_log)."}};
const json kOp = {{"type", "string"}, {"description", "An op id from hashline_log, e.g. \"12\"."}};
const json kHunk = {{"type", "string"},
                    {"description", "A hunk id `OP#K` from hashline_log or hashline_pending, "
                                    "e.g. \"12#2\"."}};
const json kDryRun = {{"type", "boolean"},
                      {"description", "Show the diff of the reversal without writing anything."}};

constexpr const char* kConflict =
    " If anyone (the user included) changed those lines since, the answer is CONFLICT naming the "
    "lines and nothing is written: read the file and fix it by hand instead; never retry blindly.";

} // namespace

json journalToolDefinitions() {
  json tools = json::array();
  tools.push_back(tool("hashline_log", "Journal of applied edits",
                       "List the edits that were applied (ops, oldest first): op id, method, "
                       "file, turn, and hunk ids `OP#K` with their lines and review state.",
                       schema({{"path", kPath},
                               {"turn", kTurn},
                               {"limit", {{"type", "integer"}, {"description", "Newest N ops."}}}},
                              json::array()),
                       true));
  tools.push_back(tool("hashline_diff", "Diff of an op or a turn",
                       "Unified diff of one op (kind \"commit\", the default for op) or of a "
                       "turn from its start to now (kind \"net\", the default for turn; empty "
                       "when the turn's edits cancel out; the user's own typing is not in it).",
                       schema({{"op", kOp},
                               {"turn", kTurn},
                               {"kind", {{"type", "string"}, {"enum", {"commit", "net"}}}},
                               {"path", kPath}},
                              json::array()),
                       true));
  tools.push_back(tool("hashline_undo", "Undo one op",
                       std::string("Reverse one op's changes on the file as it is now; the "
                                   "user's other edits stay. The undo is itself an op (it can be "
                                   "undone).") +
                           kConflict,
                       schema({{"op", kOp}, {"dry_run", kDryRun}}, {"op"}), false));
  tools.push_back(tool("hashline_rewind", "Rewind a turn",
                       std::string("Reverse every op of a turn, newest first, across files — "
                                   "verified for all files before any is written; with `path` "
                                   "only that file goes back.") +
                           kConflict,
                       schema({{"turn", kTurn}, {"path", kPath}, {"dry_run", kDryRun}}, {"turn"}),
                       false));
  tools.push_back(
      tool("hashline_turn", "Start a new turn",
           "Mark a turn boundary: later edits belong to a new turn, so they can be "
           "rewound together. Call at the start of each task step.",
           schema({{"action", {{"type", "string"}, {"enum", {"begin", "end", "current"}}}}},
                  json::array()),
           false));
  tools.push_back(tool("hashline_pending", "Unreviewed agent hunks",
                       "List applied hunks nobody accepted or rejected yet, per file, with the "
                       "line where each is now.",
                       schema({{"path", kPath}, {"turn", kTurn}}, json::array()), true));
  tools.push_back(tool("hashline_accept", "Accept hunks",
                       "Mark a hunk (`OP#K`), an op, or a whole turn as reviewed.",
                       schema({{"hunk", kHunk}, {"turn", kTurn}}, json::array()), false));
  tools.push_back(
      tool("hashline_reject", "Reject one hunk",
           std::string("Reverse one hunk (`OP#K`) and keep the op's other hunks.") + kConflict,
           schema({{"hunk", kHunk}, {"dry_run", kDryRun}}, {"hunk"}), false));
  return tools;
}

bool isJournalTool(const std::string& name) {
  static const std::set<std::string> names = {
      "hashline_log",  "hashline_diff",    "hashline_undo",   "hashline_rewind",
      "hashline_turn", "hashline_pending", "hashline_accept", "hashline_reject"};
  return names.count(name) > 0;
}

} // namespace hashline::mcp
