// HashlineService: routing, reads, single-document edits and status; see hashline_service.h.
// Patches across files live in patch_run.cpp.
#include "lsp/service/hashline_service.h"

#include "engine/anchors/reader.h"
#include "lsp/journal/journal_service.h"
#include "lsp/protocol/error_json.h"
#include "lsp/reconcile/reconciler.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/fresh_anchors.h"
#include "lsp/service/result_json.h"
#include "lsp/service/service_target.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"
#include "lsp/version.h"

#include <algorithm>
#include <set>
#include <unistd.h>

namespace hashline::lsp {

using nlohmann::json;

namespace {

/// The journal record of an edit that landed in an open buffer.
AppliedEdit bufferEditRecord(std::string method, const CallerIdentity& caller,
                             const BufferApplied& applied, std::optional<std::string> path) {
  AppliedEdit record;
  record.backend = AppliedEdit::Backend::Buffer;
  record.method = std::move(method);
  record.caller = caller;
  record.uri = applied.uri;
  record.path = std::move(path);
  record.version_before = applied.version_before;
  record.version_after = applied.version_after;
  record.before = applied.planned.before;
  record.after = applied.committed;
  record.plan = applied.planned.plan;
  return record;
}

} // namespace

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
    : editor_(std::move(editor)), disk_(std::move(roots)), options_(options),
      journal_(std::make_unique<JournalService>(*this)) {
  if (editor_) {
    applier_ = std::make_unique<BufferApplier>(*editor_, options_);
    // A document's line hash cache lives while it is open; a reopen starts a new history.
    cache_listener_ = editor_->documents->addListener([this](const DocumentEvent& event) {
      if (event.kind == DocumentEvent::Opened || event.kind == DocumentEvent::Closed)
        caches_.erase(event.key);
    });
  }
}

HashlineService::~HashlineService() {
  if (editor_) editor_->documents->removeListener(cache_listener_);
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

LineHashCache& HashlineService::cacheFor(const std::string& key) {
  return caches_[key];
}

Result<HashlineService::Target> HashlineService::locate(const DocumentRef& ref) const {
  return locateTarget(ref, editor_ ? editor_->documents : nullptr, disk_);
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
  if (applier_)
    confirmation = applier_->confirmationFor(caller.confirm);
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
  const std::string& session = request.caller.session;
  Observation& observation = observations_.observe(session, target->key);
  auto tierOf = [&] {
    return request.tier ? *request.tier : observation.tier(options_.default_tier);
  };
  if (target->open) {
    Result<const OpenDocument*> readable = editor_->documents->readable(target->key);
    if (!readable) return done(refusalToJSON(readable.error()));
    OpenDocument& open = *editor_->documents->find(target->key);
    open.document.keepSnapshot(); // text forms compare against what was read
    Result<ReadView> view =
        readWindow(open.document.text(), open.document.version(), tierOf(), request.from,
                   request.to, &open.document.changeLog(), &cacheFor(target->key));
    if (!view) return done(refusalToJSON(view.error()));
    observation.recordRead(*view);
    return done(readResultJSON(std::move(*view), open.uri, target->path, request.format));
  }
  Result<DiskText> text = disk_.load(*target->resolved, false);
  if (!text) return done(refusalToJSON(text.error()));
  Result<ReadView> view = readWindow(text->text, text->version, tierOf(), request.from, request.to);
  if (!view) return done(refusalToJSON(view.error()));
  observation.recordRead(*view);
  done(readResultJSON(std::move(*view), target->uri, target->path, request.format));
}

void HashlineService::edit(FormRequest request, ServiceCallback done) {
  Result<Target> target = locate(request.document);
  if (!target) return done(refusalToJSON(target.error()));
  if (target->open) return editBuffer(std::move(request), std::move(*target), std::move(done));
  editDisk(request, *target, std::move(done));
}

void HashlineService::editBuffer(FormRequest request, Target target, ServiceCallback done) {
  auto shared = std::make_shared<FormRequest>(std::move(request));
  const std::string key = target.key;
  BufferPlanner planner = [this, shared, key](OpenDocument& open, bool retry) {
    TextState state = TextState::ofDocument(open.document);
    PlanContext context{state};
    context.observation = observations_.find(shared->caller.session, key);
    context.cache = &cacheFor(key);
    context.document = &open.document;
    context.retry = retry;
    context.path = open.uri;
    context.default_tier = options_.default_tier;
    context.context_lines = options_.context_lines;
    return planForm(*shared, context);
  };

  if (shared->dry_run) {
    Result<const OpenDocument*> readable = editor_->documents->readable(key);
    if (!readable) return done(refusalToJSON(readable.error()));
    OpenDocument& open = *editor_->documents->find(key);
    Result<PlannedEdit> planned = planner(open, false);
    if (!planned) return done(refusalToJSON(planned.error()));
    EditSummary summary{
        open.uri,      target.path, "buffer", open.document.version(), open.document.version(),
        &planned->plan};
    summary.diff = documentDiff(planned->before, planned->after, displayName(target));
    summary.preview = true;
    return done(editResultJSON(summary));
  }

  std::string label = "hashline " + std::string(formMethod(shared->kind));
  applier_->apply(
      key, label, std::move(planner),
      [this, shared, target, done = std::move(done)](Result<BufferApplied> outcome) {
        if (!outcome) return done(refusalToJSON(outcome.error()));
        BufferApplied& applied = *outcome;
        OpenDocument* open = editor_->documents->find(target.key);
        Observation& observation = observations_.observe(shared->caller.session, target.key);
        std::vector<AnchoredRow> fresh =
            issueFreshAnchors(applied.committed, applied.version_after, applied.planned.tier,
                              applied.planned.changed_lines, options_.context_lines,
                              open ? &open->document.changeLog() : nullptr,
                              open ? &cacheFor(target.key) : nullptr, &observation);
        if (open) open->document.keepSnapshot();
        report(bufferRecord(*shared, target, applied));
        EditSummary summary{
            applied.uri,           target.path,          "buffer", applied.version_before,
            applied.version_after, &applied.planned.plan};
        summary.anchors = std::move(fresh);
        summary.diff =
            documentDiff(applied.planned.before, applied.planned.after, displayName(target));
        summary.attempts = applied.attempts;
        done(editResultJSON(summary));
      },
      shared->caller.confirm,
      // Reported EDITOR_TIMEOUT, then applied by the editor after all: journal what landed.
      [this, shared, target](BufferApplied applied) {
        report(bufferRecord(*shared, target, applied));
      });
}

AppliedEdit HashlineService::bufferRecord(const FormRequest& request, const Target& target,
                                          const BufferApplied& applied) const {
  return bufferEditRecord(std::string(formMethod(request.kind)), request.caller, applied,
                          target.path);
}

void HashlineService::editDisk(const FormRequest& request, const Target& target,
                               ServiceCallback done) {
  Result<DiskText> text = disk_.load(*target.resolved, true);
  if (!text) return done(refusalToJSON(text.error()));
  TextState state = text->state();
  PlanContext context{state};
  context.observation = observations_.find(request.caller.session, target.key);
  context.path = target.resolved->real_path;
  context.default_tier = options_.default_tier;
  context.context_lines = options_.context_lines;
  Result<PlannedEdit> planned = planForm(request, context);
  if (!planned) return done(refusalToJSON(planned.error()));
  EditSummary summary{target.uri,    target.path,   "disk",
                      text->version, text->version, &planned->plan};
  summary.diff = documentDiff(planned->before, planned->after, displayName(target));
  if (request.dry_run) {
    summary.preview = true;
    return done(editResultJSON(summary));
  }
  AppliedEdit record;
  record.backend = AppliedEdit::Backend::Disk;
  record.kind = text->exists() ? AppliedEdit::Kind::Update : AppliedEdit::Kind::Create;
  record.method = std::string(formMethod(request.kind));
  record.caller = request.caller;
  record.uri = target.uri;
  record.path = target.path;
  record.version_before = text->exists() ? text->version : 0;
  record.before = planned->before;
  record.after = planned->after;
  record.plan = planned->plan;
  // The journal holds an fsynced intent of this edit until the atomic write returned, so a kill
  // at any point leaves the file unchanged or changed and undoable (docs/journal.md).
  std::optional<Result<disk::Fingerprint>> written;
  journal_->aroundDiskWrite(record, [&] {
    written = disk_.commit(*text, planned->after);
    return written->ok();
  });
  if (!*written) return done(refusalToJSON(written->error()));
  summary.version_after = DiskBackend::versionOf(**written);
  summary.anchors =
      issueFreshAnchors(planned->after, summary.version_after, planned->tier,
                        planned->changed_lines, options_.context_lines, nullptr, nullptr,
                        &observations_.observe(request.caller.session, target.key));
  record.version_after = summary.version_after;
  report(record);
  done(editResultJSON(summary));
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
                 {"pid", ::getpid()},
                 {"version", std::string(programVersion())},
                 {"workspaceRoots", disk_.roots()},
                 {"documents", std::move(documents)},
                 {"methods", methods()},
                 {"tier", std::string(tierName(options_.default_tier))}};
  if (editor_) result["encoding"] = std::string(encodingName(editor_->documents->encoding()));
  // How an edit that does not say `confirm` goes to the editor (the session default).
  if (applier_)
    result["confirmation"] = std::string(confirmationName(applier_->confirmationFor(std::nullopt)));
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
  std::optional<std::string> path;
  if (const OpenDocument* open = editor_->documents->find(key)) path = fileUriToPath(open->uri);
  std::string label = "hashline " + method;
  applier_->apply(
      key, std::move(label), std::move(planner),
      [this, key, method, caller, path, done = std::move(done)](Result<BufferApplied> outcome) {
        if (!outcome) return done(std::move(outcome), 0);
        if (OpenDocument* open = editor_->documents->find(key)) open->document.keepSnapshot();
        std::uint64_t op = report(bufferEditRecord(method, caller, *outcome, path));
        done(std::move(outcome), op);
      },
      /*confirm=*/false,
      [this, method, caller, path](BufferApplied applied) { // landed after a timeout
        report(bufferEditRecord(method, caller, applied, path));
      });
}

std::uint64_t HashlineService::report(const AppliedEdit& edit) {
  log::info("applied ", edit.method, " to ", edit.uri, " (",
            edit.backend == AppliedEdit::Backend::Buffer ? "buffer" : "disk", ", version ",
            edit.version_before, " → ", edit.version_after, ")");
  std::uint64_t op = journal_->onApplied(edit);
  if (observer_) observer_(edit);
  return op;
}

} // namespace hashline::lsp
