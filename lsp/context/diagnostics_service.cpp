// The editor's diagnostics: notification, `diagnostics` method, edit-result hook; see
// diagnostics_service.h.
#include "lsp/context/diagnostics_service.h"

#include "lsp/context/diagnostics_report.h"
#include "lsp/protocol/error_json.h"
#include "lsp/protocol/params_reader.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::context {

using lsp::ServiceCallback;
using lsp::ServiceOutcome;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// After a set for the edit's version arrived: this long without another before it counts as
/// settled (two language servers on one buffer report one after the other).
constexpr int kQuietMs = 40;
constexpr int kMaxWaitMs = 30000;
/// Per list (introduced, removed) in an edit result; the `diagnostics` method's total.
constexpr std::size_t kMaxEditRows = 20;
constexpr std::size_t kMaxListedRows = 500;

constexpr const char* kNoEditorNote =
    "no editor is attached: diagnostics come from the editor's own language servers, forwarded "
    "by the hashline plugin (Neovim, VS Code)";
constexpr const char* kNothingSentNote =
    "the editor has sent no diagnostics: the hashline plugins for Neovim and VS Code forward "
    "them; a plain LSP client without the plugin does not";

int defaultWaitMs() {
  if (const char* value = std::getenv("HASHLINE_DIAGNOSTICS_WAIT_MS")) {
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    if (end != value && *end == '\0' && parsed >= 0 && parsed <= kMaxWaitMs)
      return static_cast<int>(parsed);
  }
  return 500;
}

struct Feature {
  Feature(lsp::LspServer& server, lsp::HashlineService& service)
      : server(server), service(service), default_wait_ms(defaultWaitMs()) {}
  lsp::LspServer& server;
  lsp::HashlineService& service;
  DiagnosticsStore store;
  int default_wait_ms;
};

std::string sessionOf(const json& params) {
  auto it = params.find("session");
  return it != params.end() && it->is_string() && !it->get<std::string>().empty()
             ? it->get<std::string>()
             : "default";
}

/// Anchors against the document as it is now, recording rows as `session`'s observation.
struct CurrentText {
  std::optional<lsp::DocumentSnapshot> snapshot;
  AnchorSource source;
};
CurrentText currentText(Feature& f, const lsp::ServiceTarget& target, const std::string& session) {
  CurrentText out;
  Result<lsp::DocumentSnapshot> now = f.service.backendFor(target).snapshot(target);
  if (!now || !now->exists) return out;
  out.snapshot = std::move(*now);
  Observation& observation = f.service.observations().observe(session, target.key);
  out.source.text = &out.snapshot->text;
  out.source.version = out.snapshot->version;
  out.source.tier = observation.tier(f.service.options().default_tier);
  out.source.log = out.snapshot->open ? &out.snapshot->open->document.changeLog() : nullptr;
  out.source.cache = out.snapshot->cache;
  out.source.observation = &observation;
  if (out.snapshot->open) out.snapshot->open->document.keepSnapshot(); // as a read does
  return out;
}

// --- the `diagnostics` method -------------------------------------------------------------------

void listDiagnostics(lsp::HashlineService& service, Feature* f, const json& params,
                     ServiceCallback done) {
  lsp::ParamsReader fields(params, "diagnostics");
  std::optional<std::string> uri, path, severity_name;
  if (!fields.optString({"uri"}, uri) || !fields.optString({"path"}, path) ||
      !fields.choice({"severity"}, severity_name,
                     {"error", "warning", "information", "info", "hint"}))
    return done(*fields.error);
  const Severity worst_allowed = severity_name ? *severityFromName(*severity_name) : Severity::Hint;
  json result = {{"status", "ok"}, {"files", json::array()}};
  std::optional<lsp::ServiceTarget> named;
  if (uri || path) { // confined to the workspace like every request, editor or not
    lsp::DocumentRef ref{uri, path};
    Result<lsp::ServiceTarget> target = service.locate(ref);
    if (!target) return done(lsp::refusalToJSON(std::move(target).error()));
    named = *target;
  }
  if (!f) {
    result["available"] = false;
    result["note"] = kNoEditorNote;
    return done(std::move(result));
  }
  std::vector<DiagnosticsSetPtr> sets;
  if (named) {
    if (DiagnosticsSetPtr set = f->store.find(named->key)) sets.push_back(set);
  } else {
    sets = f->store.all();
  }
  result["available"] = f->store.anyReceived();
  if (!f->store.anyReceived()) {
    result["note"] = kNothingSentNote;
    return done(std::move(result));
  }
  if (named && sets.empty())
    result["note"] =
        "no language server in the editor has reported on " + f->service.displayName(*named);
  const std::string session = sessionOf(params);
  std::size_t listed = 0, left = 0;
  for (const DiagnosticsSetPtr& set : sets) {
    std::vector<const EditorDiagnostic*> shown;
    for (const EditorDiagnostic& item : set->items)
      if (item.severity <= worst_allowed) shown.push_back(&item);
    if (shown.empty() && !named) continue;
    lsp::DocumentRef ref;
    ref.uri = set->uri;
    Result<lsp::ServiceTarget> target = f->service.locate(ref);
    if (!target) continue;
    CurrentText current = currentText(*f, *target, session);
    json file = {{"uri", target->uri}, {"diagnostics", json::array()}};
    if (target->path) file["path"] = *target->path;
    if (set->version) file["version"] = *set->version;
    if (current.snapshot) file["documentVersion"] = current.snapshot->version;
    file["counts"] = severityCounts(set->items);
    for (const EditorDiagnostic* item : shown) {
      if (listed >= kMaxListedRows) {
        ++left;
        continue;
      }
      file["diagnostics"].push_back(diagnosticToJSON(*item, current.source));
      ++listed;
    }
    if (set->dropped) file["dropped"] = set->dropped;
    result["files"].push_back(std::move(file));
  }
  if (left) {
    result["truncated"] = true;
    result["note"] = std::to_string(left) + " more diagnostic(s) not shown (at most " +
                     std::to_string(kMaxListedRows) + ")";
    result["hint"] = "name a file (path) or raise the bar (severity: \"error\")";
  }
  done(std::move(result));
}

// --- diagnostics in edit results ---------------------------------------------------------------

/// One applied result waiting for the diagnostics of the documents it changed.
struct Gather {
  json result;
  ServiceCallback done;
  int outstanding = 0;
  void finishOne() {
    if (--outstanding == 0) done(std::move(result));
  }
};

/// One document of an applied result: waits for the editor's set for `version`.
class DocumentWait : public std::enable_shared_from_this<DocumentWait> {
public:
  DocumentWait(Feature& f, std::shared_ptr<Gather> gather, json* slot, lsp::ServiceTarget target,
               std::int64_t version, DiagnosticsSetPtr before, std::string session)
      : f_(f), gather_(std::move(gather)), slot_(slot), target_(std::move(target)),
        version_(version), before_(std::move(before)), session_(std::move(session)),
        deadline_(f.server.io()), quiet_(f.server.io()), started_(Clock::now()) {}

  void start(int wait_ms) {
    DiagnosticsSetPtr now = f_.store.find(target_.key);
    if (now && now->version && *now->version >= version_) latest_ = now;
    if (wait_ms == 0) return finish(latest_ != nullptr);
    auto self = shared_from_this();
    waiter_ = f_.store.waitFor(target_.key, version_,
                               [self](const DiagnosticsSetPtr& set) { self->arrived(set); });
    deadline_.expires_after(std::chrono::milliseconds(wait_ms));
    deadline_.async_wait([self](const boost::system::error_code& error) {
      if (!error) self->finish(false);
    });
    if (latest_) arrived(latest_);
  }

private:
  void arrived(const DiagnosticsSetPtr& set) {
    if (finished_) return;
    latest_ = set;
    auto self = shared_from_this();
    quiet_.expires_after(std::chrono::milliseconds(kQuietMs)); // cancels a pending wait
    quiet_.async_wait([self](const boost::system::error_code& error) {
      if (!error) self->finish(true);
    });
  }

  void finish(bool settled) {
    if (finished_) return;
    finished_ = true;
    if (waiter_) f_.store.cancel(waiter_);
    deadline_.cancel();
    quiet_.cancel();
    compose(settled);
    gather_->finishOne();
  }

  void compose(bool settled) {
    const auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_).count();
    DiagnosticsSetPtr after = latest_ ? latest_ : f_.store.find(target_.key);
    json out = {{"settled", settled}, {"waitedMs", waited}};
    if (after && after->version) out["version"] = *after->version;
    static const std::vector<EditorDiagnostic> none;
    const std::vector<EditorDiagnostic>& old_items = before_ ? before_->items : none;
    const std::vector<EditorDiagnostic>& new_items = after ? after->items : none;
    const DiagnosticsDelta delta = compareDiagnostics(old_items, new_items);
    CurrentText current = currentText(f_, target_, session_);
    json introduced = json::array(), removed = json::array();
    for (std::size_t i = 0; i < delta.introduced.size() && i < kMaxEditRows; ++i)
      introduced.push_back(diagnosticToJSON(new_items[delta.introduced[i]], current.source));
    // A removed diagnostic's line is the one it had before the edit: no anchor.
    for (std::size_t i = 0; i < delta.removed.size() && i < kMaxEditRows; ++i)
      removed.push_back(diagnosticToJSON(old_items[delta.removed[i]], AnchorSource{}));
    out["introduced"] = std::move(introduced);
    out["removed"] = std::move(removed);
    out["counts"] = severityCounts(new_items);
    if (delta.introduced.size() > kMaxEditRows || delta.removed.size() > kMaxEditRows)
      out["more"] = {
          {"introduced", delta.introduced.size() - std::min(delta.introduced.size(), kMaxEditRows)},
          {"removed", delta.removed.size() - std::min(delta.removed.size(), kMaxEditRows)}};
    if (!settled)
      out["note"] = "the editor reported no diagnostics for version " + std::to_string(version_) +
                    " within " + std::to_string(waited) + " ms; shown: its latest set" +
                    (after && after->version ? " (version " + std::to_string(*after->version) + ")"
                                             : std::string()) +
                    "; ask again with the diagnostics request, or pass diagnosticsWaitMs";
    (*slot_)["diagnostics"] = std::move(out);
  }

  Feature& f_;
  std::shared_ptr<Gather> gather_;
  json* slot_;
  lsp::ServiceTarget target_;
  std::int64_t version_;
  DiagnosticsSetPtr before_;
  std::string session_;
  boost::asio::steady_timer deadline_, quiet_;
  Clock::time_point started_;
  DiagnosticsSetPtr latest_;
  std::uint64_t waiter_ = 0;
  bool finished_ = false;
};

/// The wait the params ask for: nullopt to skip diagnostics.
std::optional<int> requestedWait(const Feature& f, const json& params) {
  if (auto skip = params.find("diagnostics");
      skip != params.end() && skip->is_boolean() && !skip->get<bool>())
    return std::nullopt;
  if (auto wait = params.find("diagnosticsWaitMs");
      wait != params.end() && wait->is_number_integer())
    return static_cast<int>(std::clamp<std::int64_t>(wait->get<std::int64_t>(), 0, kMaxWaitMs));
  return f.default_wait_ms;
}

ServiceCallback withDiagnostics(Feature* f, const json& params, ServiceCallback done) {
  if (!f->store.anyReceived()) return done;
  const std::optional<int> wait_ms = requestedWait(*f, params);
  if (!wait_ms) return done;
  // The sets as they are before the edit (shared, immutable).
  auto before = std::make_shared<std::map<std::string, DiagnosticsSetPtr>>();
  for (const DiagnosticsSetPtr& set : f->store.all())
    before->emplace(set->key, set);
  return [f, before, wait = *wait_ms, session = sessionOf(params),
          done = std::move(done)](ServiceOutcome outcome) mutable {
    json* result = std::get_if<json>(&outcome);
    if (!result || !result->is_object() || result->value("status", "") != "applied")
      return done(std::move(outcome));
    auto gather = std::make_shared<Gather>();
    gather->result = std::move(*result);
    gather->done = std::move(done);
    // The documents the result names: itself (edit forms) or its files (patch, undo, ...).
    std::vector<json*> slots;
    if (gather->result.contains("uri")) slots.push_back(&gather->result);
    for (const char* list : {"files", "applied"})
      if (auto it = gather->result.find(list); it != gather->result.end() && it->is_array())
        for (json& entry : *it)
          if (entry.is_object() && entry.contains("uri")) slots.push_back(&entry);
    std::vector<std::shared_ptr<DocumentWait>> waits;
    for (json* slot : slots) {
      const json& uri = (*slot)["uri"];
      auto version = slot->find("version");
      if (!uri.is_string() || version == slot->end() || !version->is_number_integer()) continue;
      lsp::DocumentRef ref;
      ref.uri = uri.get<std::string>();
      Result<lsp::ServiceTarget> target = f->service.locate(ref);
      if (!target || !target->open) continue; // disk files have no editor diagnostics
      auto known = before->find(target->key);
      if (known == before->end() && !f->store.find(target->key)) {
        (*slot)["diagnostics"] = {
            {"available", false},
            {"note", "no language server in the editor has reported on this document"}};
        continue;
      }
      waits.push_back(std::make_shared<DocumentWait>(
          *f, gather, slot, *target, version->get<std::int64_t>(),
          known == before->end() ? nullptr : known->second, session));
    }
    if (waits.empty()) return gather->done(std::move(gather->result));
    gather->outstanding = static_cast<int>(waits.size());
    for (auto& wait_for : waits)
      wait_for->start(wait);
  };
}

void onDiagnostics(Feature* f, const json& params) {
  DiagnosticsNotice notice;
  if (auto problem = parseDiagnosticsNotice(params, notice)) {
    log::warn("ignoring hashline/diagnostics: ", *problem);
    return;
  }
  lsp::DocumentRef ref;
  ref.uri = notice.uri;
  Result<lsp::ServiceTarget> target = f->service.locate(ref);
  if (!target) {
    log::debug("ignoring hashline/diagnostics for ", notice.uri, ": ", target.error().message);
    return;
  }
  if (target->open)
    if (Result<lsp::DocumentSnapshot> now = f->service.backendFor(*target).snapshot(*target))
      for (EditorDiagnostic& item : notice.items)
        item.line_text = lineTextForMatching(now->text, item.line);
  DiagnosticsSet set;
  set.key = target->key;
  set.uri = notice.uri;
  set.version = notice.version;
  set.items = std::move(notice.items);
  set.received = Clock::now();
  log::debug("hashline/diagnostics: ", set.items.size(), " for ", notice.uri, " version ",
             set.version ? std::to_string(*set.version) : std::string("-"));
  f->store.update(std::move(set));
}

} // namespace

void addNoEditorDiagnostics(lsp::HashlineService& service) {
  service.addMethod("diagnostics", [&service](const json& params, ServiceCallback done) {
    listDiagnostics(service, nullptr, params, std::move(done));
  });
}

void registerDiagnostics(lsp::LspServer& server, lsp::HashlineService& service) {
  // Lives as long as the service (never destroyed, as the service itself).
  static auto& features = *new std::vector<std::unique_ptr<Feature>>();
  features.push_back(std::make_unique<Feature>(server, service));
  Feature* f = features.back().get();
  server.methods().addNotification("hashline/diagnostics",
                                   [f](json params) { onDiagnostics(f, params); });
  service.addMethod("diagnostics", [f](const json& params, ServiceCallback done) {
    listDiagnostics(f->service, f, params, std::move(done));
  });
  service.addResultHook([f](const std::string&, const json& params, ServiceCallback done) {
    return withDiagnostics(f, params, std::move(done));
  });
}

} // namespace hashline::context
