// DocumentStore: open/change/close bookkeeping and the desync/resync rules.
#include "lsp/workspace/document_store.h"

#include "lsp/support/uri.h"

namespace hashline::lsp {

std::size_t DocumentStore::addListener(Listener listener) {
  std::size_t id = next_listener_++;
  listeners_.emplace(id, std::move(listener));
  return id;
}

void DocumentStore::removeListener(std::size_t id) {
  listeners_.erase(id);
}

void DocumentStore::tell(const DocumentEvent& event) {
  if (listeners_.empty()) return;
  // Copy: a listener may add or remove listeners while being told.
  std::vector<Listener> listeners;
  for (const auto& [id, listener] : listeners_)
    listeners.push_back(listener);
  for (const auto& listener : listeners)
    listener(event);
}

bool DocumentStore::open(std::string uri, std::string languageId, std::int64_t version,
                         std::string_view text) {
  std::string key = canonicalUri(uri);
  bool replaced = documents_.erase(key) > 0;
  auto [it, inserted] =
      documents_.try_emplace(key, std::move(uri), std::move(languageId), version, text);
  if (!lone_cr_is_line_break_) it->second.document.setLoneCrIsLineBreak(false);
  DocumentEvent event;
  event.kind = DocumentEvent::Opened;
  event.key = std::move(key);
  event.document = &it->second;
  tell(event);
  return replaced;
}

void DocumentStore::setLoneCrIsLineBreak(bool is_line_break) {
  lone_cr_is_line_break_ = is_line_break;
  for (auto& [key, open] : documents_)
    open.document.setLoneCrIsLineBreak(is_line_break);
}

ChangeOutcome DocumentStore::change(std::string_view uri, std::int64_t version,
                                    const std::vector<ContentChange>& changes) {
  OpenDocument* open = find(uri);
  if (!open) return {ChangeOutcome::NotOpen, "no didOpen for " + std::string(uri)};
  DocumentEvent event;
  event.kind = DocumentEvent::Changed;
  event.key = canonicalUri(uri);
  event.document = open;
  event.before = open->document.text();
  event.before_version = open->document.version();
  event.changes = &changes;
  event.outcome = applyChange(open, version, changes);
  tell(event);
  return event.outcome;
}

ChangeOutcome DocumentStore::applyChange(OpenDocument* open, std::int64_t version,
                                         const std::vector<ContentChange>& changes) {
  Document& doc = open->document;

  if (open->desynced()) {
    // Changes before the last full text no longer matter; from it on, apply normally.
    std::size_t last_full = changes.size();
    for (std::size_t i = changes.size(); i-- > 0;)
      if (!changes[i].range_start && !changes[i].range_end) {
        last_full = i;
        break;
      }
    if (last_full == changes.size()) return {ChangeOutcome::StillDesynced, open->desyncReason()};
    std::vector<ContentChange> tail(changes.begin() + last_full, changes.end());
    Status status = doc.applyChanges(version, tail, encoding_);
    if (!status.ok()) return {ChangeOutcome::BecameDesynced, status.error().message};
    open->lost_change.clear();
    return {ChangeOutcome::Resynced, {}};
  }

  Status status = doc.applyChanges(version, changes, encoding_);
  if (!status.ok()) return {ChangeOutcome::BecameDesynced, status.error().message};
  return {ChangeOutcome::Applied, {}};
}

bool DocumentStore::markLostChange(std::string_view uri, std::string reason) {
  OpenDocument* open = find(uri);
  if (!open) return false;
  if (!open->desynced()) open->lost_change = std::move(reason);
  return true;
}

bool DocumentStore::close(std::string_view uri) {
  std::string key = canonicalUri(uri);
  if (documents_.erase(key) == 0) return false;
  DocumentEvent event;
  event.kind = DocumentEvent::Closed;
  event.key = std::move(key);
  event.document = nullptr;
  tell(event);
  return true;
}

bool DocumentStore::willSave(std::string_view uri) {
  return tellSave(uri, DocumentEvent::WillSave);
}

bool DocumentStore::saved(std::string_view uri) {
  return tellSave(uri, DocumentEvent::Saved);
}

bool DocumentStore::tellSave(std::string_view uri, DocumentEvent::Kind kind) {
  std::string key = canonicalUri(uri);
  auto it = documents_.find(key);
  if (it == documents_.end()) return false;
  DocumentEvent event;
  event.kind = kind;
  event.key = std::move(key);
  event.document = &it->second;
  tell(event);
  return true;
}

OpenDocument* DocumentStore::find(std::string_view uri) {
  auto it = documents_.find(canonicalUri(uri));
  return it == documents_.end() ? nullptr : &it->second;
}

const OpenDocument* DocumentStore::find(std::string_view uri) const {
  auto it = documents_.find(canonicalUri(uri));
  return it == documents_.end() ? nullptr : &it->second;
}

const OpenDocument* DocumentStore::findByPath(std::string_view path) const {
  return find(pathToFileUri(path));
}

Result<const OpenDocument*> DocumentStore::readable(std::string_view uri) const {
  const OpenDocument* open = find(uri);
  if (!open)
    return Error::make(ErrorCode::FileNotFound,
                       "the document " + std::string(uri) + " is not open in the editor");
  if (open->desynced()) {
    Error error =
        Error::make(ErrorCode::Desynced, "the mirror of " + open->uri +
                                             " lost sync with the editor: " + open->desyncReason());
    error.data.path = open->uri;
    return error;
  }
  return open;
}

std::vector<std::string> DocumentStore::uris() const {
  std::vector<std::string> out;
  out.reserve(documents_.size());
  for (const auto& [key, open] : documents_)
    out.push_back(open.uri);
  return out;
}

} // namespace hashline::lsp
