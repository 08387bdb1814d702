// DocumentStore: the mirror of the editor's open buffers — URI → hashline::Document.
//
// The LSP server feeds it didOpen / didChange / didClose in arrival order, with ranges in the
// negotiated position encoding; features (snapshot, read, edit) look documents up here. Keys
// are canonical URIs (uri.h), so `file:///a%20b` and `file:///a b` are one document, while each
// entry remembers the client's own spelling for replies and workspace/applyEdit.
//
// Sync rules (issue 2, DESIGN §2): a change that does not apply — a range past the end, inside
// a surrogate pair or a UTF-8 sequence, ending before it starts, a version not above the
// current one — marks the document DESYNCED. Nothing is guessed: a desynced document refuses
// reads and edits until a didOpen or a full-text change brings the whole text again. A
// notification whose changes include a full text resynchronizes from that change on.
//
// Listeners (`addListener`) hear every open, change, close and save after the store applied it —
// the agent service uses this to confirm that an edit it sent (workspace/applyEdit) really reached
// the mirror with the predicted text. A change event carries the text before the notification
// and its content changes, so a listener can replay intermediate states.
//
// Threading: not thread-safe; used only on the server's thread. No I/O, no JSON.
#pragma once

#include "engine/support/result.h"
#include "engine/text/document.h"
#include "engine/text/encoding.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hashline::lsp {

struct OpenDocument {
  OpenDocument(std::string uri, std::string languageId, std::int64_t version, std::string_view text)
      : uri(std::move(uri)), languageId(std::move(languageId)), document(version, text) {}

  std::string uri; // as the client spelled it
  std::string languageId;
  Document document;
  /// Set when the server could not even read a didChange for this document (malformed
  /// params): the change was lost, so the mirror is out of sync whatever `document` says.
  std::string lost_change;

  bool desynced() const { return document.desynced() || !lost_change.empty(); }
  std::string desyncReason() const {
    return lost_change.empty() ? document.desyncReason() : lost_change;
  }
};

/// What one didChange did to the mirror.
struct ChangeOutcome {
  enum Kind {
    Applied,        // in sync, now at the new version
    Resynced,       // was desynced; a full-text change brought it back
    BecameDesynced, // this notification broke sync (`reason`)
    StillDesynced,  // was desynced and no full text came (`reason` is the original cause)
    NotOpen,        // no didOpen for this URI
  } kind = Applied;
  std::string reason;
};

/// What happened to one document, told to listeners after the store applied it.
struct DocumentEvent {
  enum Kind { Opened, Changed, Closed, WillSave, Saved } kind = Changed;
  std::string key;                                     // canonical URI
  const OpenDocument* document = nullptr;              // null for Closed
  Rope before;                                         // Changed: the text before this notification
  std::int64_t before_version = 0;                     // Changed: the version before it
  const std::vector<ContentChange>* changes = nullptr; // Changed
  ChangeOutcome outcome;                               // Changed
};

class DocumentStore {
public:
  using Listener = std::function<void(const DocumentEvent& event)>;
  /// Registers a listener; returns an id for removeListener.
  std::size_t addListener(Listener listener);
  void removeListener(std::size_t id);

  explicit DocumentStore(PositionEncoding encoding = PositionEncoding::Utf16)
      : encoding_(encoding) {}

  void setEncoding(PositionEncoding encoding) { encoding_ = encoding; }
  /// Whether the client counts a lone CR as a line break (see Document::setLoneCrIsLineBreak);
  /// applies to the documents open now and to later ones.
  void setLoneCrIsLineBreak(bool is_line_break);
  PositionEncoding encoding() const { return encoding_; }

  /// didOpen. A document already open under the URI is replaced (the editor resent the whole
  /// text, which also cures a desync); returns true in that case.
  bool open(std::string uri, std::string languageId, std::int64_t version, std::string_view text);
  /// didChange: applies `changes` in order and moves the document to `version`.
  ChangeOutcome change(std::string_view uri, std::int64_t version,
                       const std::vector<ContentChange>& changes);
  /// Marks an open document desynced because one of its changes could not be read; false if
  /// the URI is not open.
  bool markLostChange(std::string_view uri, std::string reason);
  /// didClose; false if the URI was not open.
  bool close(std::string_view uri);
  /// willSave: tells listeners (WillSave) that the editor is about to write the document; false
  /// if the URI is not open.
  bool willSave(std::string_view uri);
  /// didSave: tells listeners (Saved) that the editor wrote the document to disk; false if the
  /// URI is not open.
  bool saved(std::string_view uri);

  OpenDocument* find(std::string_view uri);
  const OpenDocument* find(std::string_view uri) const;
  /// The open document for a filesystem path (file: URIs), if any.
  const OpenDocument* findByPath(std::string_view path) const;

  /// The document for a read or an edit: FILE_NOT_FOUND when not open, DESYNCED (with the
  /// cause) when the mirror lost sync.
  Result<const OpenDocument*> readable(std::string_view uri) const;

  /// Client spellings of all open URIs (unordered).
  std::vector<std::string> uris() const;
  std::size_t size() const { return documents_.size(); }

private:
  void tell(const DocumentEvent& event);
  /// willSave / didSave: tells listeners `kind` for an open document.
  bool tellSave(std::string_view uri, DocumentEvent::Kind kind);
  ChangeOutcome applyChange(OpenDocument* open, std::int64_t version,
                            const std::vector<ContentChange>& changes);

  PositionEncoding encoding_;
  bool lone_cr_is_line_break_ = true;
  std::map<std::size_t, Listener> listeners_;
  std::size_t next_listener_ = 1;
  std::unordered_map<std::string, OpenDocument> documents_; // key: canonicalUri
};

} // namespace hashline::lsp
