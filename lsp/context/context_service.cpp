// The user's selection and visible documents: notification and `context` method; see
// context_service.h.
#include "lsp/context/context_service.h"

#include "engine/anchors/reader.h"
#include "lsp/context/editor_context.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

namespace hashline::context {

using lsp::ServiceCallback;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kMaxSelectionBytes = 64 * 1024;
constexpr std::uint32_t kMaxSelectionLines = 200;

constexpr const char* kNoEditorNote =
    "no editor is attached: the selection and visible documents come from the hashline plugin "
    "in the editor (Neovim, VS Code)";
constexpr const char* kNothingSentNote =
    "the editor has not reported a selection: the hashline plugins for Neovim and VS Code send "
    "it (unless turned off: Neovim share_selection = false, VS Code hashline.shareSelection); a "
    "plain LSP client without the plugin does not";

struct Feature {
  Feature(lsp::LspServer& server, lsp::HashlineService& service)
      : server(server), service(service) {}
  lsp::LspServer& server;
  lsp::HashlineService& service;
  EditorContextStore store;
};

std::string sessionOf(const json& params) {
  auto it = params.find("session");
  return it != params.end() && it->is_string() && !it->get<std::string>().empty()
             ? it->get<std::string>()
             : "default";
}

std::int64_t ageMs(const EditorContext& context) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - context.received)
      .count();
}

json position(std::uint32_t line, std::uint32_t character) {
  return {{"line", line + 1}, {"character", character}};
}

/// A document of the report, resolved against the workspace and its live text.
struct Resolved {
  lsp::ServiceTarget target;
  lsp::DocumentSnapshot snapshot;
};

std::optional<Resolved> resolve(Feature& f, const ContextDocument& document) {
  lsp::DocumentRef ref;
  ref.uri = document.uri;
  Result<lsp::ServiceTarget> target = f.service.locate(ref);
  if (!target) return std::nullopt; // outside the roots, or not a file
  Result<lsp::DocumentSnapshot> now = f.service.backendFor(*target).snapshot(*target);
  if (!now || !now->exists) return std::nullopt;
  return Resolved{*target, std::move(*now)};
}

json documentHeader(const Resolved& resolved, const ContextDocument& document) {
  json out = {{"uri", resolved.target.uri}, {"documentVersion", resolved.snapshot.version}};
  if (resolved.target.path) out["path"] = *resolved.target.path;
  if (document.version) out["version"] = *document.version;
  return out;
}

/// One selection of `resolved`'s live text: its text and the anchored rows of its lines.
json selectionJSON(Feature& f, Resolved& resolved, const EditorRange& range,
                   const std::string& session) {
  const Rope& text = resolved.snapshot.text;
  json out = {{"from", position(range.start_line, range.start_character)},
              {"to", position(range.end_line, range.end_character)},
              {"empty", range.empty()}};
  const PositionEncoding encoding = f.server.encoding();
  Result<std::size_t> begin =
      text.byteOfPosition({range.start_line, range.start_character}, encoding);
  Result<std::size_t> end = text.byteOfPosition({range.end_line, range.end_character}, encoding);
  if (!begin || !end) {
    out["note"] = "the selection is past the end of the document as it is now";
    return out;
  }
  const std::size_t cut = std::min(*end, *begin + kMaxSelectionBytes);
  out["text"] = text.slice(*begin, cut);
  bool truncated = cut < *end;
  // The selected lines: a selection ending at a line's start does not take that line.
  const std::uint32_t first = range.start_line + 1;
  std::uint32_t last = range.end_line + 1;
  if (!range.empty() && range.end_character == 0 && range.end_line > range.start_line) --last;
  if (last - first + 1 > kMaxSelectionLines) {
    last = first + kMaxSelectionLines - 1;
    truncated = true;
  }
  Observation& observation = f.service.observations().observe(session, resolved.target.key);
  lsp::OpenDocument* open = resolved.snapshot.open;
  Result<ReadView> view = readWindow(
      text, resolved.snapshot.version, observation.tier(f.service.options().default_tier), first,
      last, open ? &open->document.changeLog() : nullptr, resolved.snapshot.cache);
  if (view) {
    if (open) open->document.keepSnapshot(); // as a read does
    observation.recordRead(*view);
    out["rows"] = formatRows(view->rows);
  }
  if (truncated) {
    out["truncated"] = true;
    out["hint"] = "read the rest with hashline read PATH --from " + std::to_string(first);
  }
  return out;
}

void answerContext(Feature* f, const json& params, ServiceCallback done) {
  if (!f) return done(json{{"status", "ok"}, {"available", false}, {"note", kNoEditorNote}});
  const EditorContext* latest = f->store.latest();
  if (f->store.sharingOff())
    return done(json{{"status", "ok"},
                     {"available", false},
                     {"note", "the user turned selection sharing off in the editor"}});
  if (!latest)
    return done(json{{"status", "ok"}, {"available", false}, {"note", kNothingSentNote}});
  const std::string session = sessionOf(params);
  json result = {
      {"status", "ok"},          {"available", true},
      {"ageMs", ageMs(*latest)}, {"encoding", std::string(encodingName(f->server.encoding()))},
      {"active", nullptr},       {"visible", json::array()}};
  bool active_has_selection = false;
  if (latest->active)
    if (std::optional<Resolved> resolved = resolve(*f, *latest->active)) {
      json active = documentHeader(*resolved, *latest->active);
      active["selections"] = json::array();
      for (const EditorRange& range : latest->active->ranges)
        active["selections"].push_back(selectionJSON(*f, *resolved, range, session));
      active_has_selection =
          !latest->active->ranges.empty() && !latest->active->ranges.front().empty();
      if (latest->active->version && *latest->active->version != resolved->snapshot.version)
        active["note"] = "the buffer changed after the editor reported the selection: positions "
                         "are those of version " +
                         std::to_string(*latest->active->version);
      result["active"] = std::move(active);
    }
  for (const ContextDocument& document : latest->visible) {
    std::optional<Resolved> resolved = resolve(*f, document);
    if (!resolved) continue;
    json entry = documentHeader(*resolved, document);
    entry["ranges"] = json::array();
    for (const EditorRange& range : document.ranges)
      entry["ranges"].push_back({{"from", range.start_line + 1}, {"to", range.end_line + 1}});
    result["visible"].push_back(std::move(entry));
  }
  if (!active_has_selection)
    if (const EditorContext* earlier = f->store.latestSelection(); earlier && earlier->active)
      if (std::optional<Resolved> resolved = resolve(*f, *earlier->active)) {
        json entry = documentHeader(*resolved, *earlier->active);
        entry["ageMs"] = ageMs(*earlier);
        entry["selection"] = selectionJSON(*f, *resolved, earlier->active->ranges.front(), session);
        result["latestSelection"] = std::move(entry);
      }
  done(std::move(result));
}

void onContext(Feature* f, const json& params) {
  EditorContext context;
  if (auto problem = parseContextNotice(params, context)) {
    log::warn("ignoring hashline/context: ", *problem);
    return;
  }
  context.received = Clock::now();
  log::debug("hashline/context: active ", context.active ? context.active->uri : "-", ", ",
             context.visible.size(), " visible");
  f->store.update(std::move(context));
}

} // namespace

void addNoEditorContext(lsp::HashlineService& service) {
  service.addMethod("context", [](const json& params, ServiceCallback done) {
    answerContext(nullptr, params, std::move(done));
  });
}

void registerContext(lsp::LspServer& server, lsp::HashlineService& service) {
  // Lives as long as the service (never destroyed, as the service itself).
  static auto& features = *new std::vector<std::unique_ptr<Feature>>();
  features.push_back(std::make_unique<Feature>(server, service));
  Feature* f = features.back().get();
  server.methods().addNotification("hashline/context", [f](json params) { onContext(f, params); });
  service.addMethod("context", [f](const json& params, ServiceCallback done) {
    answerContext(f, params, std::move(done));
  });
}

} // namespace hashline::context
