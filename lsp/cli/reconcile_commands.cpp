// The reconciliation's CLI subcommands; see reconcile_commands.h.
#include "lsp/cli/reconcile_commands.h"

#include "lsp/agent/agent_router.h"
#include "lsp/cli/agent_commands.h"
#include "lsp/cli/arguments.h"
#include "lsp/cli/render.h"
#include "lsp/protocol/error_json.h"

#include <cstdio>

namespace hashline::cli {

using nlohmann::json;

namespace {

constexpr const char* kConflicts =
    "usage: hashline conflicts [PATH] [--json] [--workspace DIR]\n"
    "Lists the disk writes the editor's sidecar kept out of open buffers because they overlap\n"
    "unsaved typing, with both sides. Take one with `hashline resolve ID --take theirs`.\n";
constexpr const char* kResolve =
    "usage: hashline resolve ID --take theirs|ours [--json] [--workspace DIR]\n"
    "theirs: the disk's lines replace yours in the buffer (a journaled edit; CONFLICT if your\n"
    "lines changed since). ours: keep your lines and drop the conflict.\n";

struct Parsed {
  GlobalOptions global;
  std::vector<std::string> positional;
  std::string take;
  std::string error;
};

Parsed parse(std::vector<std::string> raw) {
  Parsed parsed;
  Arguments args(std::move(raw));
  while (!args.done() && args.error.empty()) {
    if (takeGlobalOption(args, parsed.global) || args.option("--take", parsed.take)) continue;
    if (!args.positional(parsed.positional)) break;
  }
  if (!args.error.empty()) parsed.error = args.error;
  return parsed;
}

std::string renderConflicts(const json& result) {
  std::string out;
  for (const json& conflict : result["conflicts"]) {
    const std::int64_t line = conflict["line"], end = conflict["endLine"];
    out += conflict["id"].get<std::string>() + "  " + conflict["path"].get<std::string>() + "  " +
           (end >= line ? "lines " + std::to_string(line) + "-" + std::to_string(end)
                        : "before line " + std::to_string(line)) +
           "\n  yours:\n";
    for (const char* side : {"ours", "theirs"}) {
      if (std::string(side) == "theirs") out += "  on disk:\n";
      std::string text = conflict[side];
      std::size_t at = 0;
      while (at < text.size()) {
        std::size_t end_of_line = text.find('\n', at);
        if (end_of_line == std::string::npos) end_of_line = text.size();
        out += "    | " + text.substr(at, end_of_line - at) + "\n";
        at = end_of_line + 1;
      }
    }
  }
  out += std::to_string(result["conflicts"].size()) + " open conflict(s)\n";
  return out;
}

int call(const char* command, const std::string& method, json params, const Parsed& parsed) {
  agent::AgentRouter router(routerOptions(parsed.global));
  lsp::ServiceOutcome outcome = router.call(method, std::move(params));
  if (auto* fault = std::get_if<lsp::RpcError>(&outcome)) {
    if (parsed.global.json)
      std::printf("%s\n", json{{"error", lsp::toJSON(*fault)}}.dump(2).c_str());
    std::fprintf(stderr, "hashline %s: %s\n", command, fault->message.c_str());
    return 2;
  }
  const json& result = std::get<json>(outcome);
  if (parsed.global.json) std::printf("%s\n", result.dump(2).c_str());
  printWarning(result);
  if (isRefusal(result)) {
    std::string text = renderRefusal(result);
    std::fwrite(text.data(), 1, text.size(), stderr);
    return 1;
  }
  if (parsed.global.json) return 0;
  std::string text = method == "conflicts"
                         ? renderConflicts(result)
                         : "took " + result.value("take", std::string()) + " for " +
                               result.value("conflict", std::string()) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

} // namespace

int runConflictsCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("conflicts", kConflicts, parsed.error);
  if (parsed.positional.size() > 1 || !parsed.take.empty())
    return subcommandUsage("conflicts", kConflicts, "unexpected argument");
  json params = json::object();
  if (!parsed.positional.empty()) params["path"] = parsed.positional[0];
  return call("conflicts", "conflicts", std::move(params), parsed);
}

int runResolveCommand(std::vector<std::string> args) {
  Parsed parsed = parse(std::move(args));
  if (!parsed.error.empty()) return subcommandUsage("resolve", kResolve, parsed.error);
  if (parsed.positional.size() != 1)
    return subcommandUsage("resolve", kResolve, "name one conflict (c1)");
  if (parsed.take != "theirs" && parsed.take != "ours")
    return subcommandUsage("resolve", kResolve, "--take must be theirs or ours");
  return call("resolve", "resolve", {{"conflict", parsed.positional[0]}, {"take", parsed.take}},
              parsed);
}

} // namespace hashline::cli
