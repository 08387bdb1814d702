// HashlineService: routing, reads, single-document edits, status, and the ledger the backends
// journal through; see hashline_service.h. Patches across files live in patch_run.cpp.
#include "lsp/service/hashline_service.h"

#include "engine/anchors/reader.h"
#include "engine/verify/fresh_anchors.h"
#include "lsp/agent/discovery.h"
#include "lsp/context/context_service.h"
#include "lsp/context/diagnostics_service.h"
#include "lsp/context/search_service.h"
#include "lsp/context/symbols_service.h"
#include "lsp/journal/journal_service.h"
#include "lsp/platform/process.h"
#include "lsp/protocol/error_json.h"
#include "lsp/reconcile/reconciler.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/result_json.h"
#include "lsp/service/service_target.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"
#include "lsp/version.h"

#include <algorithm>
#include <set>

namespace hashline::lsp {

using nlohmann::json;

std::unique_ptr<HashlineService> HashlineService::forEditor(LspServer& server,
                                                            ServiceOptions options) {
  EditorLink link;
  link.io = &server.io();
  link.documents = &server.documents();
  link.apply_edit = [&server](json params, std::chrono::milliseconds timeout,
                              std::function<void(CallResponse)> reply) {
    server.call("workspace/applyEdit", std::move(params), std::move(reply), timeout);
  };
  link.supports_change_annotations = [&server] {
    return server.clientParams().capabilities.changeAnnotationSupport;
  };
  link.editor_process = [&server]() -> std::int64_t {
    const std::optional<std::int64_t>& pid = server.clientParams().processId;
    return pid && *pid > 0 ? *pid : platform::parentProcessId();
  };
  link.confirm_default = [&server]() -> std::optional<bool> {
    const json& options = server.clientParams().initializationOptions;
    if (!options.is_object()) return std::nullopt;
    auto it = options.find("confirmEdits");
    if (it == options.end() || !it->is_boolean()) return std::nullopt;
    return it->get<bool>();
  };
  return std::make_unique<HashlineService>(
      std::move(link), [&server] { return server.workspaceRoots(); }, options);
}

std::unique_ptr<HashlineService> HashlineService::forDisk(std::vector<std::string> roots,
                                                          ServiceOptions options) {
  auto service = std::make_unique<HashlineService>(
      std::nullopt, [roots = std::move(roots)] { return roots; }, options);
  addDiskModeConflictMethods(*service); // no editor: nothing is reconciled
  return service;
}

HashlineService::HashlineService(std::optional<EditorLink> editor,
                                 std::function<std::vector<std::string>()> roots,
                                 ServiceOptions options)
    : editor_(std::move(editor)), disk_(std::move(roots), *this), options_(options),
      journal_(std::make_unique<JournalService>(*this)) {
  if (editor_) {
    buffers_ =
        std::make_unique<BufferBackend>(*editor_, options_, static_cast<ChangeLedger&>(*this));
    // A document the editor opens (again, after a sidecar died) settles the journal intents of
    // edits sent to it; keystrokes never touch the journal.
    open_listener_ = editor_->documents->addListener([this](const DocumentEvent& event) {
      if (event.kind == DocumentEvent::Opened) journal_->onDocumentOpened();
    });
  }
  context::addSearchMethod(*this);        // `search`: live buffers and the disk (lsp/context)
  context::addNoEditorDiagnostics(*this); // the editor's feature replaces it (lsp/context)
  context::addNoEditorContext(*this);     // likewise
  context::addNoEditorSymbols(*this);     // likewise
}

HashlineService::~HashlineService() {
  if (editor_) editor_->documents->removeListener(open_listener_);
}

ProcessIdentity HashlineService::editorProcess() const {
  if (!editor_ || !editor_->editor_process) return {};
  const std::int64_t pid = editor_->editor_process();
  if (pid != editor_seen_.pid) // read once: the editor's start time does not change
    editor_seen_ = {pid, agent::processStartTime(pid)};
  return editor_seen_;
}

std::vector<std::string> HashlineService::methods() const {
  std::vector<std::string> names = {"draft", "ed",   "edit",    "headtail", "patch",
                                    "range", "read", "replace", "status"};
  for (const std::string& name : JournalService::methodNames())
    names.push_back(name);
  for (const auto& [name, handler] : added_methods_)
    names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string HashlineService::displayName(const Target& target) const {
  if (target.resolved && !target.resolved->relative.empty()) return target.resolved->relative;
  if (!target.path) return target.uri;
  for (const std::string& root : disk_.roots())
    if (target.path->size() > root.size() + 1 && target.path->rfind(root + "/", 0) == 0)
      return target.path->substr(root.size() + 1);
  return *target.path;
}

Result<ServiceTarget> HashlineService::locate(const DocumentRef& ref) const {
  return locateTarget(ref, editor_ ? editor_->documents : nullptr, disk_);
}

DocumentBackend& HashlineService::backendFor(const ServiceTarget& target) {
  if (target.open && buffers_) return *buffers_;
  return disk_;
}

Tier HashlineService::tierFor(const std::string& session, const std::string& key) const {
  const Observation* observation = observations_.find(session, key);
  return observation ? observation->tier(options_.default_tier) : options_.default_tier;
}

std::vector<AnchoredRow> HashlineService::freshAnchors(const Committed& landed,
                                                       const std::string& session) {
  const ServiceTarget& where = landed.destination ? *landed.destination : landed.target;
  const OpenDocument* open = where.open && editor_ ? editor_->documents->find(where.key) : nullptr;
  return issueFreshAnchors(landed.edit.after, landed.edit.version_after, landed.planned.tier,
                           landed.planned.changed_lines, options_.context_lines,
                           open ? &open->document.changeLog() : nullptr,
                           open ? &buffers_->cacheFor(where.key) : nullptr,
                           &observations_.observe(session, where.key));
}

void HashlineService::call(const std::string& raw_method, json params, ServiceCallback done) {
  // Accept "read", "hashline/read" and "hashline.read" alike.
  std::string method = raw_method;
  for (const char* prefix : {"hashline/", "hashline."})
    if (method.rfind(prefix, 0) == 0) method = method.substr(std::string(prefix).size());
  // No params, or Lua's empty table (Neovim encodes `{}` as `[]`): an empty object.
  if (params.is_null() || (params.is_array() && params.empty())) params = json::object();
  // Kept for the fault path below: `done` itself is moved into the method that runs.
  ServiceCallback fault_reply = done;
  try {
    if (method == "read") {
      ReadRequest request;
      if (auto error = parseReadRequest(params, request)) return done(*error);
      return read(request, std::move(done));
    }
    static const std::map<std::string, FormKind> forms = {
        {"edit", FormKind::Anchors},      {"replace", FormKind::Replace},
        {"headtail", FormKind::HeadTail}, {"range", FormKind::Range},
        {"draft", FormKind::Draft},       {"ed", FormKind::Ed}};
    static const std::set<std::string> confirmable = {
        "edit", "replace", "headtail", "range", "draft", "ed", "patch", "undo", "reject", "rewind"};
    if (confirmable.count(method)) {
      CallerIdentity caller;
      if (auto error = parseCaller(method, params, caller)) return done(*error);
      done = withConfirmation(caller, std::move(done));
      for (const ResultHook& hook : result_hooks_)
        done = hook(method, params, std::move(done));
    }
    if (auto form = forms.find(method); form != forms.end()) {
      FormRequest request;
      if (auto error = parseFormRequest(form->second, params, request)) return done(*error);
      return edit(std::move(request), std::move(done));
    }
    if (method == "patch") {
      PatchRequest request;
      if (auto error = parsePatchRequest(params, request)) return done(*error);
      return patch(std::move(request), std::move(done));
    }
    if (method == "status") {
      StatusRequest request;
      if (auto error = parseStatusRequest(params, request)) return done(*error);
      return status(request, std::move(done));
    }
    if (method == "pending") done = withConflicts(params, std::move(done));
    if (JournalService::handles(method)) return journal_->call(method, params, std::move(done));
    if (auto added = added_methods_.find(method); added != added_methods_.end())
      return added->second(params, std::move(done));
  } catch (const std::exception& e) {
    log::error("hashline ", method, " failed: ", e.what());
    return fault_reply(RpcError::make(RpcErrorCode::InternalError,
                                      "internal error in " + method + ": " + e.what()));
  }
  done(RpcError::make(RpcErrorCode::MethodNotFound, "unknown hashline method " + raw_method));
}

ServiceCallback HashlineService::withConfirmation(const CallerIdentity& caller,
                                                  ServiceCallback done) const {
  Confirmation confirmation = Confirmation::Off;
  if (buffers_)
    confirmation = buffers_->confirmationFor(caller.confirm);
  else if (caller.confirm.value_or(options_.confirm_edits))
    confirmation = Confirmation::Unsupported; // no editor: written to disk without asking
  return [confirmation, done = std::move(done)](ServiceOutcome outcome) {
    if (json* result = std::get_if<json>(&outcome); result && result->is_object())
      (*result)["confirmation"] = std::string(confirmationName(confirmation));
    done(std::move(outcome));
  };
}

void HashlineService::read(const ReadRequest& request, ServiceCallback done) {
  Result<Target> target = locate(request.document);
  if (!target) return done(refusalToJSON(target.error()));
  Result<DocumentSnapshot> now = backendFor(*target).snapshot(*target);
  if (now && !now->exists) { // reading a file that does not exist: FILE_NOT_FOUND
    Result<DiskText> text = disk_.load(*target->resolved, false);
    if (!text) return done(refusalToJSON(text.error()));
    now = backendFor(*target).snapshot(*target);
  }
  if (!now) return done(refusalToJSON(now.error()));
  if (now->open) now->open->document.keepSnapshot(); // text forms compare against what was read
  Observation& observation = observations_.observe(request.caller.session, target->key);
  const Tier tier = request.tier ? *request.tier : observation.tier(options_.default_tier);
  Result<ReadView> view =
      readWindow(now->text, now->version, tier, request.from, request.to,
                 now->open ? &now->open->document.changeLog() : nullptr, now->cache);
  if (!view) return done(refusalToJSON(view.error()));
  observation.recordRead(*view);
  done(readResultJSON(std::move(*view), target->uri, target->path, request.format));
}

ChangePlanner HashlineService::formPlanner(std::shared_ptr<const FormRequest> request,
                                           const Target& target) {
  const std::string key = target.key;
  const std::string name = target.open ? target.uri : target.path.value_or(target.uri);
  return
      [this, request, key, name](const DocumentSnapshot& now, bool retry) -> Result<PlannedChange> {
        TextState state = now.state();
        PlanContext context{state};
        context.observation = observations_.find(request->caller.session, key);
        // Anchors into an open buffer from a read this sidecar never saw (it restarted):
        // NOT_OBSERVED shows the lines they name with fresh anchors, recorded here as issued, so
        // the agent can retry with them. (Disk files keep the plain NOT_OBSERVED: read first.)
        if (!context.observation && request->kind == FormKind::Anchors && now.open)
          context.observation = &observations_.observe(request->caller.session, key);
        context.cache = now.cache;
        context.document = now.open ? &now.open->document : nullptr;
        context.retry = retry;
        context.path = name;
        context.default_tier = options_.default_tier;
        context.context_lines = options_.context_lines;
        Result<PlannedChange> change = asUpdate(planForm(*request, context));
        if (change && !now.exists) change->kind = AppliedEdit::Kind::Create; // a `write` creates it
        return change;
      };
}

void HashlineService::preview(const FormRequest& request, const Target& target,
                              ServiceCallback done) {
  Result<DocumentSnapshot> now = backendFor(target).snapshot(target);
  if (!now) return done(refusalToJSON(now.error()));
  auto shared = std::make_shared<const FormRequest>(request);
  Result<PlannedChange> planned = formPlanner(shared, target)(*now, false);
  if (!planned) return done(refusalToJSON(planned.error()));
  EditSummary summary;
  summary.uri = target.uri;
  summary.path = target.path;
  summary.backend = target.backendName();
  summary.version_before = summary.version_after = now->version;
  summary.plan = &planned->edit.plan;
  summary.diff = documentDiff(planned->edit.before, planned->edit.after, displayName(target));
  summary.preview = true;
  done(editResultJSON(summary));
}

void HashlineService::edit(FormRequest request, ServiceCallback done) {
  Result<Target> target = locate(request.document);
  if (!target) return done(refusalToJSON(target.error()));
  if (request.dry_run) return preview(request, *target, std::move(done));
  auto shared = std::make_shared<const FormRequest>(std::move(request));
  Commit commit;
  commit.target = *target;
  commit.plan = formPlanner(shared, *target);
  commit.intent = {std::string(formMethod(shared->kind)), shared->caller};
  commit.confirm = shared->caller.confirm;
  commit.journal_late = true;
  backendFor(*target).commit(std::move(commit), [this, shared, target = *target,
                                                 done =
                                                     std::move(done)](Result<Committed> outcome) {
    if (!outcome) return done(refusalToJSON(outcome.error()));
    const Committed& landed = *outcome;
    EditSummary summary;
    summary.uri = landed.edit.uri;
    summary.path = target.path;
    summary.backend = target.backendName();
    summary.version_before = landed.edit.version_before;
    summary.version_after = landed.edit.version_after;
    summary.plan = &landed.planned.plan;
    summary.anchors = freshAnchors(landed, shared->caller.session);
    summary.diff = documentDiff(landed.planned.before, landed.planned.after, displayName(target));
    summary.attempts = landed.attempts;
    done(editResultJSON(summary));
  });
}

void HashlineService::status(const StatusRequest& request, ServiceCallback done) {
  json documents = json::array();
  if (editor_) {
    for (const std::string& uri : editor_->documents->uris()) {
      const OpenDocument* open = editor_->documents->find(uri);
      if (!open) continue;
      json entry = {{"uri", open->uri},
                    {"version", open->document.version()},
                    {"languageId", open->languageId},
                    {"lineCount", open->document.text().lineCount()},
                    {"desynced", open->desynced()}};
      if (open->desynced()) entry["desyncReason"] = open->desyncReason();
      documents.push_back(std::move(entry));
    }
    std::sort(documents.begin(), documents.end(),
              [](const json& a, const json& b) { return a["uri"] < b["uri"]; });
  }
  json result = {{"status", "ok"},
                 {"mode", editor_ ? "editor" : "disk"},
                 {"pid", platform::currentProcessId()},
                 {"version", std::string(programVersion())},
                 {"workspaceRoots", disk_.roots()},
                 {"documents", std::move(documents)},
                 {"methods", methods()},
                 {"tier", std::string(tierName(options_.default_tier))}};
  if (editor_) result["encoding"] = std::string(encodingName(editor_->documents->encoding()));
  for (const auto& [name, field] : status_fields_)
    result[name] = field();
  // How an edit that does not say `confirm` goes to the editor (the session default).
  if (buffers_)
    result["confirmation"] = std::string(confirmationName(buffers_->confirmationFor(std::nullopt)));
  if (request.names_session) {
    std::size_t observed = 0;
    for (const auto& [key, observation] : observations_.entries())
      if (key.first == request.caller.session && observation.observed()) ++observed;
    result["session"] = {{"id", request.caller.session}, {"observedDocuments", observed}};
  }
  done(std::move(result));
}

ServiceCallback HashlineService::withConflicts(const json& params, ServiceCallback done) const {
  auto conflicts = added_methods_.find("conflicts");
  if (conflicts == added_methods_.end()) return done;
  return [list = conflicts->second, params, done = std::move(done)](ServiceOutcome outcome) {
    json* result = std::get_if<json>(&outcome);
    if (result && result->is_object() && result->value("status", "") != "refused")
      list(params, [result](ServiceOutcome listed) {
        if (const json* found = std::get_if<json>(&listed); found && found->contains("conflicts"))
          (*result)["conflicts"] = (*found)["conflicts"];
      });
    done(std::move(outcome));
  };
}

void HashlineService::addMethod(std::string name, MethodHandler handler) {
  added_methods_[std::move(name)] = std::move(handler);
}

void HashlineService::applyToBuffer(const std::string& key, std::string method,
                                    CallerIdentity caller, BufferPlanner planner,
                                    OwnEditDone done) {
  Commit commit;
  commit.target.key = key;
  commit.target.open = true;
  commit.target.uri = key;
  if (const OpenDocument* open = editor_->documents->find(key)) {
    commit.target.uri = open->uri;
    commit.target.path = fileUriToPath(open->uri);
  }
  commit.plan = [planner = std::move(planner)](const DocumentSnapshot& now, bool retry) {
    return asUpdate(planner(*now.open, retry));
  };
  commit.intent = {std::move(method), std::move(caller)};
  commit.confirm = false; // the sidecar's own edit: never asks
  commit.journal_late = true;
  buffers_->commit(std::move(commit), [done = std::move(done)](Result<Committed> outcome) {
    if (!outcome) return done(std::move(outcome).error(), 0);
    BufferApplied applied;
    applied.uri = outcome->edit.uri;
    applied.version_before = outcome->edit.version_before;
    applied.version_after = outcome->edit.version_after;
    applied.planned = std::move(outcome->planned);
    applied.committed = outcome->edit.after;
    applied.attempts = outcome->attempts;
    done(std::move(applied), outcome->op);
  });
}

void HashlineService::announce(const AppliedEdit& edit, std::uint64_t op) {
  // Who did it, in which session, as which op: one line a person can follow in the log.
  const std::string who = !edit.caller.agent.empty() ? edit.caller.agent
                          : edit.reverts.empty()     ? std::string("an unnamed agent")
                                                     : std::string("user");
  log::info("applied ", edit.method, op != 0 ? " op " + std::to_string(op) : std::string(), " by ",
            who, ", session ", edit.caller.session, ": ", edit.path.value_or(edit.uri), " (",
            edit.backend == AppliedEdit::Backend::Buffer ? "buffer" : "disk", ", version ",
            edit.version_before, " → ", edit.version_after, ")");
  if (observer_) observer_(edit);
}

std::uint64_t HashlineService::recordLanded(const AppliedEdit& edit) {
  std::uint64_t op = journal_->onApplied(edit);
  announce(edit, op);
  return op;
}

std::string HashlineService::beginBufferIntent(const AppliedEdit& edit,
                                               const std::string& document) {
  return journal_->beginBufferEdit(edit, document);
}

void HashlineService::abortBufferIntent(const std::string& id, const std::string& why) {
  journal_->abortBufferEdit(id, why);
}

std::uint64_t HashlineService::recordAround(const AppliedEdit& edit, const GatedWrite& write) {
  bool landed = false;
  std::uint64_t op = journal_->aroundDiskWrite(
      edit, [&](const disk::PublishGate& gate) { return landed = write(gate); });
  if (landed) announce(edit, op); // `write` filled in its version_after
  return op;
}

} // namespace hashline::lsp
