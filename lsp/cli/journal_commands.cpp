// The journal's CLI subcommands; see journal_commands.h.
#include "lsp/cli/journal_commands.h"

#include "lsp/agent/agent_router.h"
#include "lsp/cli/agent_commands.h"
#include "lsp/cli/arguments.h"
#include "lsp/cli/render.h"
#include "lsp/protocol/error_json.h"
#include "lsp/support/log.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace hashline::cli {

using nlohmann::json;

namespace {

struct Parsed {
  GlobalOptions global;
  std::vector<std::string> positional;
  std::string path, limit, kind;
  bool dry_run = false;
  std::string error;
};

Parsed parse(std::vector<std::string> raw) {
  Parsed parsed;
  Arguments args(std::move(raw));
  while (!args.done() && args.error.empty()) {
    if (takeGlobalOption(args, parsed.global)) continue;
    if (args.flag("--dry-run")) {
      parsed.dry_run = true;
      continue;
    }
    if (args.option("--path", parsed.path) || args.option("--limit", parsed.limit) ||
        args.option("--kind", parsed.kind))
      continue;
    if (!args.positional(parsed.positional)) break;
  }
  if (!args.error.empty()) parsed.error = args.error;
  return parsed;
}

std::string hunkLines(const json& hunk) {
  if (hunk["line"].is_null()) return "changed since";
  std::int64_t line = hunk["line"], count = hunk.value("lines", 0);
  if (count <= 1) return "line " + std::to_string(line);
  return "lines " + std::to_string(line) + "-" + std::to_string(line + count - 1);
}

} // namespace

std::string renderJournalResult(const std::string& method, const json& result) {
  std::string out;
  if (method == "log") {
    for (const json& op : result["ops"]) {
      char when[32] = "";
      std::time_t seconds = static_cast<std::time_t>(op.value("time", std::int64_t{0}) / 1000);
      std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&seconds));
      out += "op " + std::to_string(op["op"].get<std::uint64_t>()) + "  " + when + "  " +
             op["method"].get<std::string>() + "  " + op["name"].get<std::string>() + "  session " +
             op["session"].get<std::string>() + " turn " +
             std::to_string(op["turn"].get<std::int64_t>());
      if (!op["agent"].get<std::string>().empty())
        out += "  agent " + op["agent"].get<std::string>();
      if (!op["inEffect"].get<bool>()) out += "  (undone)";
      out += "\n";
      for (const json& hunk : op["hunks"])
        out += "    " + hunk["id"].get<std::string>() + "  line " +
               std::to_string(hunk["line"].get<std::int64_t>()) + "  -" +
               std::to_string(hunk["removedLines"].get<std::int64_t>()) + " +" +
               std::to_string(hunk["lines"].get<std::int64_t>()) + "  " +
               hunk["state"].get<std::string>() + "\n";
    }
    if (result["ops"].empty() && !result.contains("bufferIntents")) out += "the journal is empty\n";
    for (const json& intent : result.value("bufferIntents", json::array())) {
      // A buffer edit whose landing is not (yet) known: not an op (nothing to undo), said so.
      const std::string state = intent.value("state", "");
      out += "(" + state + ")  " + intent.value("method", "") + "  " + intent.value("name", "") +
             "  session " + intent.value("session", "") + " turn " +
             std::to_string(intent.value("turn", std::int64_t{0}));
      if (!intent.value("agent", "").empty()) out += "  agent " + intent.value("agent", "");
      out += "  sent at version " + std::to_string(intent.value("sentAtVersion", std::int64_t{0}));
      out += state == "unknown" ? ": whether it landed cannot be told, so it is not an op (check "
                                  "the file; `hashline undo` cannot take it back)"
             : state == "in-flight" ? ": awaiting the editor's confirmation"
                                    : ": the sidecar died before the editor confirmed it";
      if (!intent.value("why", "").empty()) out += " — " + intent.value("why", "");
      out += "\n";
    }
    return out;
  }
  if (method == "pending") {
    for (const json& file : result["files"]) {
      out += file["name"].get<std::string>() + " (" + file["backend"].get<std::string>() + ")\n";
      for (const json& hunk : file["hunks"])
        out += "  " + hunk["id"].get<std::string>() + "  " + hunkLines(hunk) + "  " +
               hunk["method"].get<std::string>() + " by " +
               (hunk["agent"].get<std::string>().empty() ? std::string("?")
                                                         : hunk["agent"].get<std::string>()) +
               ", turn " + std::to_string(hunk["turn"].get<std::int64_t>()) + "\n";
    }
    out += std::to_string(result["count"].get<std::int64_t>()) + " pending hunk(s)\n";
    if (result.contains("conflicts") && !result["conflicts"].empty())
      out += std::to_string(result["conflicts"].size()) +
             " disk write conflict(s) kept out of open buffers: `hashline conflicts` shows them\n";
    return out;
  }
  if (method == "diff") return result.value("diff", "");
  if (method == "turn")
    return "session " + result["session"].get<std::string>() + ": turn " +
           std::to_string(result["turn"].get<std::int64_t>()) + "\n";
  if (method == "accept") {
    out = "accepted";
    for (const json& id : result["accepted"])
      out += " " + id.get<std::string>();
    if (result["accepted"].empty()) out += " nothing (no pending hunks there)";
    return out + "\n";
  }
  // undo, reject, rewind: applied or preview.
  bool preview = result.value("status", "") == "preview";
  out = std::string(preview ? "preview (nothing written): " : "") + method;
  json reverted = preview ? result["reverts"] : result["reverted"];
  out += " reverted";
  for (const json& id : reverted)
    out += " " + id.get<std::string>();
  out += "\n";
  if (!preview)
    for (const json& op : result["ops"])
      out += "  as op " + std::to_string(op["op"].get<std::uint64_t>()) + " on " +
             op["name"].get<std::string>() + " (" + op["backend"].get<std::string>() + ")\n";
  return out + result.value("diff", "");
}

namespace {

int call(const char* command, const std::string& method, json params, const Parsed& parsed,
         bool caller_turn) {
  const GlobalOptions& global = parsed.global;
  if (auto level = log::levelFromName(global.log_level)) log::setLevel(*level);
  if (global.session)
    params["session"] = *global.session;
  else if (const char* session = std::getenv("HASHLINE_SESSION"); session && *session)
    params["session"] = session;
  if (global.agent) params["agent"] = *global.agent;
  if (global.turn && caller_turn) params["turn"] = *global.turn;
  if (!parsed.path.empty()) params["path"] = parsed.path;
  if (parsed.dry_run) params["dry_run"] = true;

  agent::AgentRouter router(routerOptions(global));
  lsp::ServiceOutcome outcome = router.call(method, std::move(params));
  if (auto* fault = std::get_if<lsp::RpcError>(&outcome)) {
    if (global.json) std::printf("%s\n", json{{"error", lsp::toJSON(*fault)}}.dump(2).c_str());
    std::fprintf(stderr, "hashline %s: %s\n", command, fault->message.c_str());
    return 2;
  }
  const json& result = std::get<json>(outcome);
  if (global.json) std::printf("%s\n", result.dump(2).c_str());
  printWarning(result);
  if (isRefusal(result)) {
    std::string text = renderRefusal(result);
    for (const char* list : {"applied", "rolledBack"})
      if (result.contains(list) && !result[list].empty())
        text += std::string(list) + ": " + result[list].dump() + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
    return 1;
  }
  if (!global.json) {
    std::string text = renderJournalResult(method, result);
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  return 0;
}

constexpr const char* kUndo =
    "usage: hashline undo OP [--dry-run] [global flags]\n"
    "Reverses op OP (see `hashline log`) on the file as it is now; "
    "CONFLICT and nothing written\nwhen someone changed its lines since.\n";
constexpr const char* kReject = "usage: hashline reject OP#K [--dry-run]\n"
                                "Reverses one hunk of an op, keeping everything else.\n";
constexpr const char* kAccept = "usage: hashline accept (OP | OP#K | --turn T [--session S])\n"
                                "Marks hunks reviewed (they leave `hashline pending`).\n";
constexpr const char* kRewind =
    "usage: hashline rewind (--turn T | --session S) [--path P] [--dry-run]\n"
    "Reverses every op of a turn (or a session), newest first, verified as a whole first;\n"
    "with --path only that file.\n";
constexpr const char* kLog = "usage: hashline log [--session S] [--turn T] [--path P] "
                             "[--limit N] [--json]\n";
constexpr const char* kDiff = "usage: hashline diff (OP | --turn T [--session S]) "
                              "[--kind commit|net] [--path P]\n";
constexpr const char* kTurn = "usage: hashline turn [begin|end|current] [--session S]\n";
constexpr const char* kPending = "usage: hashline pending [--session S] [--turn T] [--path P]\n";

} // namespace

int runUndoCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("undo", kUndo, parsed.error);
  if (parsed.positional.size() != 1) return subcommandUsage("undo", kUndo, "name one op");
  return call("undo", "undo", {{"op", parsed.positional[0]}}, parsed, true);
}

int runRejectCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("reject", kReject, parsed.error);
  if (parsed.positional.size() != 1)
    return subcommandUsage("reject", kReject, "name one hunk (OP#K)");
  return call("reject", "reject", {{"hunk", parsed.positional[0]}}, parsed, true);
}

int runAcceptCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("accept", kAccept, parsed.error);
  json params = json::object();
  if (parsed.positional.size() == 1)
    params["hunk"] = parsed.positional[0];
  else if (parsed.positional.empty() && parsed.global.turn)
    params["turn"] = *parsed.global.turn;
  else
    return subcommandUsage("accept", kAccept, "name one op or hunk, or --turn T");
  return call("accept", "accept", params, parsed, false);
}

int runRewindCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("rewind", kRewind, parsed.error);
  if (!parsed.positional.empty()) return subcommandUsage("rewind", kRewind, "unexpected argument");
  if (!parsed.global.turn && !parsed.global.session)
    return subcommandUsage("rewind", kRewind,
                           "name the turn (--turn T) or the session (--session S)");
  json params = json::object();
  if (parsed.global.turn) params["turn"] = *parsed.global.turn;
  return call("rewind", "rewind", params, parsed, false);
}

int runLogCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("log", kLog, parsed.error);
  if (!parsed.positional.empty()) return subcommandUsage("log", kLog, "unexpected argument");
  json params = json::object();
  if (parsed.global.turn) params["turn"] = *parsed.global.turn;
  if (!parsed.limit.empty()) {
    std::optional<std::int64_t> limit = parseInteger(parsed.limit);
    if (!limit || *limit < 1)
      return subcommandUsage("log", kLog,
                             "--limit takes a positive integer, not '" + parsed.limit + "'");
    params["limit"] = *limit;
  }
  return call("log", "log", params, parsed, false);
}

int runDiffCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("diff", kDiff, parsed.error);
  json params = json::object();
  if (parsed.positional.size() == 1)
    params["op"] = parsed.positional[0];
  else if (parsed.positional.empty() && parsed.global.turn)
    params["turn"] = *parsed.global.turn;
  else
    return subcommandUsage("diff", kDiff, "name one op, or --turn T");
  if (!parsed.kind.empty()) params["kind"] = parsed.kind;
  return call("diff", "diff", params, parsed, false);
}

int runTurnCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("turn", kTurn, parsed.error);
  if (parsed.positional.size() > 1) return subcommandUsage("turn", kTurn, "one action");
  json params = {{"action", parsed.positional.empty() ? "begin" : parsed.positional[0]}};
  if (parsed.global.turn) params["turn"] = *parsed.global.turn;
  return call("turn", "turn", params, parsed, false);
}

int runPendingCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("pending", kPending, parsed.error);
  json params = json::object();
  if (parsed.global.turn) params["turn"] = *parsed.global.turn;
  return call("pending", "pending", params, parsed, false);
}

} // namespace hashline::cli
