// The agent subcommands of the CLI; see agent_commands.h.
#include "lsp/cli/agent_commands.h"

#include "lsp/cli/render.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/platform/memory_tuning.h"
#include "lsp/service/service_options.h"
#include "lsp/support/log.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <unistd.h>

namespace hashline::cli {

using nlohmann::json;

namespace {

constexpr const char* kGlobalHelp =
    "global options (before or after the command):\n"
    "  --session ID      the agent session (default: $HASHLINE_SESSION, else \"default\");\n"
    "                    an edit needs a read of the file by the same session first\n"
    "  --agent NAME      who is editing (recorded in the journal)\n"
    "  --turn T          the agent's turn number (recorded in the journal)\n"
    "  --workspace DIR   the workspace root for disk mode (default: $HASHLINE_WORKSPACE, else the\n"
    "                    nearest directory above the current one holding .git, else the current)\n"
    "  --json            print the result object as JSON instead of text\n"
    "  --confirm         send the edit for the editor user's confirmation (change annotations)\n"
    "  --diagnostics-wait MS  an edit waits up to MS (default 500) for the editor's diagnostics\n"
    "                    of the new text and reports what it introduced and removed\n"
    "  --no-diagnostics  do not wait for or report diagnostics\n"
    "  --log-level L     error, warn (default), info or debug; the log goes to stderr\n"
    "  --disk            when the editor's sidecar for the workspace is gone (SIDECAR_GONE),\n"
    "                    work on the disk anyway — ask the user first: the editor may hold\n"
    "                    unsaved changes that a disk write leaves behind\n"
    "  -h, --help        show this help\n"
    "\n"
    "The command talks to the editor's `hashline lsp` whose workspace holds the file (edits land\n"
    "in the open buffer, unsaved text included); with no editor it works on the disk directly.\n"
    "When the editor still runs but its sidecar died or does not answer, edits are refused with\n"
    "SIDECAR_GONE and reads come from the disk with a warning on stderr (`warning` in --json).\n"
    "exit status: 0 ok or applied, 1 refused (the error code is printed first on stderr), 2 "
    "usage.\n";

int usage(const std::string& command, const std::string& usage_text, const std::string& problem) {
  std::fprintf(stderr, "hashline %s: %s\n\n%s\n%s", command.c_str(), problem.c_str(),
               usage_text.c_str(), kGlobalHelp);
  return 2;
}

std::optional<std::string> readAll(std::istream& in) {
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

/// `-` → stdin; otherwise the file's bytes. nullopt (with `problem`) when unreadable.
std::optional<std::string> readSource(const std::string& source, std::string& problem) {
  if (source == "-") return readAll(std::cin);
  std::ifstream in(source, std::ios::binary);
  if (!in) {
    problem = "cannot read '" + source + "'";
    return std::nullopt;
  }
  return readAll(in);
}

/// One subcommand's options: value options, boolean flags, and how many positionals it takes.
struct Spec {
  std::string name;
  std::string usage;
  std::vector<std::string> values;
  std::vector<std::string> flags;
  std::size_t max_positionals = 1;
};

struct Parsed {
  GlobalOptions global;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
  std::vector<std::string> positionals;
  bool help = false;
  std::string error;

  bool has(const std::string& name) const { return values.count(name) > 0; }
  const std::string& value(const std::string& name) const { return values.at(name); }
  bool flag(const std::string& name) const { return flags.count(name) > 0; }
};

Parsed parse(const Spec& spec, std::vector<std::string> raw) {
  Parsed parsed;
  Arguments args(std::move(raw));
  while (!args.done() && args.error.empty()) {
    if (args.flag("-h") || args.flag("--help")) {
      parsed.help = true;
      return parsed;
    }
    if (takeGlobalOption(args, parsed.global)) continue;
    bool consumed = false;
    for (const auto& name : spec.values) {
      std::string value;
      if (args.option(name, value)) {
        parsed.values[name] = value;
        consumed = true;
        break;
      }
    }
    for (const auto& name : spec.flags) {
      if (consumed) break;
      if (args.flag(name)) {
        parsed.flags[name] = true;
        consumed = true;
      }
    }
    if (consumed) continue;
    const std::string& next = args.peek();
    if (next.size() > 1 && next[0] == '-' && next != "-") {
      parsed.error = "unknown option '" + next + "'";
      return parsed;
    }
    parsed.positionals.push_back(args.take());
  }
  if (!args.error.empty()) parsed.error = args.error;
  if (parsed.error.empty() && parsed.positionals.size() > spec.max_positionals)
    parsed.error = "unexpected argument '" + parsed.positionals[spec.max_positionals] + "'";
  return parsed;
}

/// Common shape of a document command: `hashline NAME PATH ...`.
struct Command {
  Spec spec;
  /// Builds params from parsed options; returns false with `problem` on a usage error.
  std::function<bool(const Parsed&, json&, std::string&)> build;
  std::string method;
  bool needs_path = true;
  /// When set: the method for these options (read --symbol asks `symbol`).
  std::function<std::string(const Parsed&)> method_for = {};
};

int runCommand(const Command& command, std::vector<std::string> raw) {
  Parsed parsed = parse(command.spec, std::move(raw));
  if (parsed.help) {
    std::printf("%s\n%s", command.spec.usage.c_str(), kGlobalHelp);
    return 0;
  }
  if (!parsed.error.empty()) return usage(command.spec.name, command.spec.usage, parsed.error);
  json params = json::object();
  if (command.needs_path) {
    if (parsed.positionals.empty())
      return usage(command.spec.name, command.spec.usage, "missing PATH");
    params["path"] = parsed.positionals[0];
  }
  std::string problem;
  if (!command.build(parsed, params, problem))
    return usage(command.spec.name, command.spec.usage, problem);
  const std::string method = command.method_for ? command.method_for(parsed) : command.method;
  return runServiceCall(command.spec.name, method, std::move(params), parsed.global);
}

/// Reads a JSON edits value: an array, or an object with `edits`.
bool parseEdits(const std::string& text, json& edits, std::string& problem) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    problem = "--edits is not valid JSON";
    return false;
  }
  if (value.is_object())
    if (auto edits_member = value.find("edits"); edits_member != value.end())
      value = json(*edits_member);
  if (value.is_object()) value = json::array({value});
  if (!value.is_array()) {
    problem = "--edits must be a JSON array of edits (or an object with \"edits\")";
    return false;
  }
  edits = std::move(value);
  return true;
}

/// `--edits JSON`, `--edits -`, a positional `-`, or stdin when nothing was given.
bool editsFrom(const Parsed& parsed, json& edits, std::string& problem, bool stdin_by_default) {
  std::string text;
  if (parsed.has("--edits") && parsed.value("--edits") != "-") {
    text = parsed.value("--edits");
  } else if (parsed.has("--edits") || stdin_by_default ||
             (parsed.positionals.size() > 1 && parsed.positionals[1] == "-")) {
    text = *readAll(std::cin);
  } else {
    problem = "give the edits with --edits JSON (or - for stdin)";
    return false;
  }
  return parseEdits(text, edits, problem);
}

bool requireValue(const Parsed& parsed, const std::string& name, std::string& problem) {
  if (parsed.has(name)) return true;
  problem = "missing " + name;
  return false;
}

bool integerValue(const Parsed& parsed, const std::string& name, json& out, std::string& problem) {
  auto value = parseInteger(parsed.value(name));
  if (!value) {
    problem = name + " takes an integer, not '" + parsed.value(name) + "'";
    return false;
  }
  out = *value;
  return true;
}

} // namespace

bool takeGlobalOption(Arguments& args, GlobalOptions& global) {
  std::string value;
  if (args.flag("--json")) {
    global.json = true;
    return true;
  }
  if (args.flag("--confirm")) {
    global.confirm = true;
    return true;
  }
  if (args.flag("--disk")) {
    global.disk = true;
    return true;
  }
  if (args.option("--session", value)) {
    global.session = value;
    return true;
  }
  if (args.flag("--no-diagnostics")) {
    global.no_diagnostics = true;
    return true;
  }
  if (args.option("--diagnostics-wait", value)) {
    auto wait = parseInteger(value);
    if (!wait || *wait < 0 || *wait > 30000)
      args.error = "--diagnostics-wait takes milliseconds (0..30000), not '" + value + "'";
    else
      global.diagnostics_wait_ms = *wait;
    return true;
  }
  if (args.option("--agent", value)) {
    global.agent = value;
    return true;
  }
  if (args.option("--workspace", value)) {
    global.workspace = value;
    return true;
  }
  if (args.option("--log-level", value)) {
    global.log_level = value;
    return true;
  }
  if (args.option("--turn", value)) {
    auto turn = parseInteger(value);
    if (!turn)
      args.error = "--turn takes an integer, not '" + value + "'";
    else
      global.turn = *turn;
    return true;
  }
  return false;
}

agent::RouterOptions routerOptions(const GlobalOptions& global) {
  agent::RouterOptions options;
  options.workspace = global.workspace;
  options.force_disk = global.disk;
  return options;
}

void printWarning(const json& result) {
  std::string text = renderWarning(result);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

int runServiceCall(const std::string& command, const std::string& method, json params,
                   const GlobalOptions& global) {
  if (auto level = log::levelFromName(global.log_level))
    log::setLevel(*level);
  else {
    std::fprintf(stderr, "hashline %s: unknown log level '%s'\n", command.c_str(),
                 global.log_level.c_str());
    return 2;
  }
  if (global.session)
    params["session"] = *global.session;
  else if (const char* session = std::getenv("HASHLINE_SESSION"); session && *session)
    params["session"] = session;
  else
    params["session"] = "default";
  if (global.agent)
    params["agent"] = *global.agent;
  else if (!params.contains("agent"))
    params["agent"] = "cli";
  if (global.turn) params["turn"] = *global.turn;
  if (global.confirm) params["confirm"] = true;
  if (global.no_diagnostics) params["diagnostics"] = false;
  if (global.diagnostics_wait_ms) params["diagnosticsWaitMs"] = *global.diagnostics_wait_ms;
  // Human output prints the joined rows: the per-row objects are not needed (nor built).
  if ((method == "read" || method == "symbol") && !global.json) params["format"] = "text";

  agent::RouterOptions options = routerOptions(global);
  // An edit may wait for a person to confirm it in the editor: wait longer than the sidecar does.
  options.sidecar_timeout = std::max(options.sidecar_timeout,
                                     lsp::ServiceOptions::fromEnvironment().confirm_apply_timeout +
                                         std::chrono::seconds(10));
  agent::AgentRouter router(options);
  lsp::ServiceOutcome outcome = router.call(method, std::move(params));

  if (auto* fault = std::get_if<lsp::RpcError>(&outcome)) {
    if (global.json) std::printf("%s\n", json{{"error", lsp::toJSON(*fault)}}.dump(2).c_str());
    std::fprintf(stderr, "hashline %s: %s (JSON-RPC %d)\n", command.c_str(), fault->message.c_str(),
                 fault->code);
    return 2;
  }
  const json& result = std::get<json>(outcome);
  bool refused = isRefusal(result);
  if (global.json) std::printf("%s\n", result.dump(2).c_str());
  printWarning(result);
  if (refused) {
    std::string text = renderRefusal(result);
    std::fwrite(text.data(), 1, text.size(), stderr);
    return 1;
  }
  if (!global.json) {
    auto cwd = disk::currentDirectory();
    std::string text = renderResult(method, result, cwd ? *cwd : std::string());
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  return 0;
}

int runReadCommand(std::vector<std::string> args) {
  static const Command command{
      {"read",
       "usage: hashline read PATH [--from N] [--to M | --symbol NAME] [--tier line|block|chain]\n"
       "Prints the file as anchored rows `LINE:LLL:BBB→text` after a header line (path, version,\n"
       "tier, lines). Copy anchors from these rows into edits; the read also records, for the\n"
       "session, what was seen, so later edits can be verified against it.\n"
       "--symbol NAME reads just that symbol's lines (Class.method, Class::method or method),\n"
       "as the editor's language server locates them (see hashline outline PATH).\n",
       {"--from", "--to", "--tier", "--symbol"},
       {}},
      [](const Parsed& parsed, json& params, std::string& problem) {
        if (parsed.has("--symbol") && (parsed.has("--from") || parsed.has("--to"))) {
          problem = "--symbol reads the symbol's own lines: leave out --from/--to";
          return false;
        }
        if (parsed.has("--symbol")) params["symbol"] = parsed.value("--symbol");
        if (parsed.has("--from") && !integerValue(parsed, "--from", params["from"], problem))
          return false;
        if (parsed.has("--to") && !integerValue(parsed, "--to", params["to"], problem))
          return false;
        if (parsed.has("--tier")) params["tier"] = parsed.value("--tier");
        return true;
      },
      "read",
      true,
      [](const Parsed& parsed) { return std::string(parsed.has("--symbol") ? "symbol" : "read"); }};
  return runCommand(command, std::move(args));
}

int runOutlineCommand(std::vector<std::string> args) {
  static const Command command{
      {"outline",
       "usage: hashline outline PATH\n"
       "Lists the file's symbols (functions, classes, methods, ...) with their line spans, one\n"
       "`FROM-TO kind Qualified.name` per line, as the editor's language server reports them for\n"
       "the live buffer (the file must be open in the editor). Read one with --symbol NAME.\n",
       {},
       {}},
      [](const Parsed&, json&, std::string&) { return true; },
      "outline"};
  return runCommand(command, std::move(args));
}

int runEditCommand(std::vector<std::string> args) {
  static const Command command{
      {"edit",
       "usage: hashline edit PATH [--edits JSON | -] [--dry-run]\n"
       "Applies anchored edits, verified against what the session read. JSON is an array of\n"
       "edits (from stdin when --edits is absent or -), each one object named by op:\n"
       "  "
       "{\"op\":\"replace\",\"anchor\":\"12:c3d:rst\",\"end\":\"14:abc:rst\",\"content\":\"...\"}\n"
       "  {\"op\":\"insert_after\",\"anchor\":\"12:c3d:rst\"|\"0\"|\"EOF\",\"content\":\"...\"}\n"
       "  {\"op\":\"insert_before\",\"anchor\":\"...\",\"content\":\"...\"}\n"
       "  {\"op\":\"delete\",\"anchor\":\"...\",\"end\":\"...\"}     "
       "{\"op\":\"write\",\"content\":\"...\"}\n"
       "Anchors use the numbering of the read; the batch is verified whole before anything\n"
       "changes. --dry-run shows the diff without writing.\n",
       {"--edits"},
       {"--dry-run"},
       2},
      [](const Parsed& parsed, json& params, std::string& problem) {
        if (!editsFrom(parsed, params["edits"], problem, true)) return false;
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "edit"};
  return runCommand(command, std::move(args));
}

int runReplaceCommand(std::vector<std::string> args) {
  static const Command command{
      {"replace",
       "usage: hashline replace PATH --old TEXT --new TEXT [--all] [--dry-run]\n"
       "       hashline replace PATH --edits JSON|- [--dry-run]\n"
       "Replaces the unique occurrence of --old (every one with --all). Matching is exact first,\n"
       "then tolerant of trailing spaces, Unicode forms and typographic quotes; the match must be\n"
       "unique (AMBIGUOUS otherwise). --edits takes [{\"old\",\"new\",\"replace_all\"?}, ...].\n",
       {"--old", "--new", "--edits"},
       {"--all", "--dry-run"},
       2},
      [](const Parsed& parsed, json& params, std::string& problem) {
        if (parsed.has("--edits") || (parsed.positionals.size() > 1)) {
          if (!editsFrom(parsed, params["edits"], problem, false)) return false;
        } else {
          if (!requireValue(parsed, "--old", problem) || !requireValue(parsed, "--new", problem))
            return false;
          params["old"] = parsed.value("--old");
          params["new"] = parsed.value("--new");
          if (parsed.flag("--all")) params["replace_all"] = true;
        }
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "replace"};
  return runCommand(command, std::move(args));
}

int runHeadTailCommand(std::vector<std::string> args) {
  static const Command command{
      {"headtail",
       "usage: hashline headtail PATH --head TEXT --tail TEXT --new TEXT [--dry-run]\n"
       "Replaces the span from the unique line(s) matching --head to the nearest following\n"
       "--tail (both included) with --new.\n",
       {"--head", "--tail", "--new"},
       {"--dry-run"}},
      [](const Parsed& parsed, json& params, std::string& problem) {
        for (const char* name : {"--head", "--tail", "--new"})
          if (!requireValue(parsed, name, problem)) return false;
        params["head"] = parsed.value("--head");
        params["tail"] = parsed.value("--tail");
        params["new"] = parsed.value("--new");
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "headtail"};
  return runCommand(command, std::move(args));
}

int runRangeCommand(std::vector<std::string> args) {
  static const Command command{
      {"range",
       "usage: hashline range PATH --start S --end E --at V (--content TEXT | -) [--dry-run]\n"
       "Replaces lines S..E (1-based, inclusive) as numbered at version V (the version a read\n"
       "printed); edits made since are rebased exactly, and a changed line is refused.\n",
       {"--start", "--end", "--at", "--content"},
       {"--dry-run"},
       2},
      [](const Parsed& parsed, json& params, std::string& problem) {
        for (const char* name : {"--start", "--end", "--at"})
          if (!requireValue(parsed, name, problem)) return false;
        if (!integerValue(parsed, "--start", params["start"], problem) ||
            !integerValue(parsed, "--end", params["end"], problem) ||
            !integerValue(parsed, "--at", params["version"], problem))
          return false;
        if (parsed.has("--content") && parsed.value("--content") != "-")
          params["content"] = parsed.value("--content");
        else if (parsed.has("--content") ||
                 (parsed.positionals.size() > 1 && parsed.positionals[1] == "-"))
          params["content"] = *readAll(std::cin);
        else {
          problem = "give the new text with --content TEXT (or - for stdin)";
          return false;
        }
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "range"};
  return runCommand(command, std::move(args));
}

namespace {

/// Heap that `patch` may fault in as transparent huge pages (virtual: untouched, it costs nothing).
constexpr std::size_t kHugeHeapBytes = std::size_t(512) << 20;

/// Grows the heap by `bytes` of address space and asks for transparent huge pages on it, then
/// hands it back to malloc (kept: the trim threshold is above it). A fresh 4 KiB page costs a
/// fault, which on a virtual machine can cost more than the bytes it holds; a 60 MB file's read,
/// rope and line tables fault in ~50k pages (three quarters of `patch`'s CPU time at 1M lines on
/// the benchmark VM), 2 MiB pages cut that to ~100. Best effort: without THP (or when the
/// address space is refused) pages are ordinary.
void reserveHugePageHeap(std::size_t bytes) {
#if defined(HASHLINE_SANITIZED)
  (void)bytes; // a sanitizer's allocator is not glibc's heap
#else
  constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
  void* block = std::malloc(bytes);
  if (block == nullptr) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(kHugePage - 1);
  if (end > begin) platform::adviseHugePages(reinterpret_cast<void*>(begin), end - begin);
  std::free(block);
#endif
}

} // namespace

int runPatchCommand(std::vector<std::string> args) {
  // A one-shot process that handles a large file's text a few times over (read, plan, write):
  // freed blocks stay in the heap for the next copy instead of going back to the kernel as
  // mappings to be faulted in page by page again (a quarter of the CPU time at 1M lines).
  platform::keepFreedMemoryInHeap(std::size_t(1) << 30);
  reserveHugePageHeap(kHugeHeapBytes);
  static const Command command{
      {"patch",
       "usage: hashline patch FILE|- [--dry-run]\n"
       "Applies a codex-style patch (*** Begin Patch ... *** End Patch) read from FILE or stdin.\n"
       "Paths inside are relative to the workspace root. The whole patch is verified before\n"
       "anything is written; a failing hunk refuses all of it.\n",
       {},
       {"--dry-run"}},
      [](const Parsed& parsed, json& params, std::string& problem) {
        std::string source = parsed.positionals.empty() ? "-" : parsed.positionals[0];
        auto text = readSource(source, problem);
        if (!text) return false;
        params["patch"] = *text;
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "patch",
      false};
  return runCommand(command, std::move(args));
}

int runDraftCommand(std::vector<std::string> args) {
  static const Command command{
      {"draft",
       "usage: hashline draft PATH (--draft FILE | -) [--dry-run]\n"
       "Applies a lazy draft: the new version of a region where lines like\n"
       "`// ... existing code ...` stand for unchanged code; each elision must be located by a\n"
       "unique context match.\n",
       {"--draft"},
       {"--dry-run"},
       2},
      [](const Parsed& parsed, json& params, std::string& problem) {
        std::string source = parsed.has("--draft") ? parsed.value("--draft") : "-";
        auto text = readSource(source, problem);
        if (!text) return false;
        params["draft"] = *text;
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "draft"};
  return runCommand(command, std::move(args));
}

int runEdCommand(std::vector<std::string> args) {
  static const Command command{
      {"ed",
       "usage: hashline ed PATH [--at V] (--script S | -) [--dry-run]\n"
       "Runs an ed-style script: a, i, c, d, m, t and s/re/rep/ commands addressed by anchors, or\n"
       "by line numbers at version V (--at).\n",
       {"--at", "--script"},
       {"--dry-run"},
       2},
      [](const Parsed& parsed, json& params, std::string& problem) {
        if (parsed.has("--at") && !integerValue(parsed, "--at", params["version"], problem))
          return false;
        if (parsed.has("--script") && parsed.value("--script") != "-")
          params["script"] = parsed.value("--script");
        else
          params["script"] = *readAll(std::cin);
        if (parsed.flag("--dry-run")) params["dry_run"] = true;
        return true;
      },
      "ed"};
  return runCommand(command, std::move(args));
}

int runStatusCommand(std::vector<std::string> args) {
  static const Command command{
      {"status",
       "usage: hashline status\n"
       "Shows where commands go (the editor's sidecar or the disk), the workspace roots, the open\n"
       "documents and what the session has read.\n",
       {},
       {},
       0},
      [](const Parsed&, json&, std::string&) { return true; },
      "status",
      false};
  return runCommand(command, std::move(args));
}

} // namespace hashline::cli
