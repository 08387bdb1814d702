// BufferApplier: the apply pipeline for documents open in the editor (DESIGN §6, issue 3 item 4).
//
// For each request, on the document's queue (one edit in flight per document):
//  1. plan against the mirror's current version (the Planner re-verifies anchors / re-matches);
//  2. send ONE `workspace/applyEdit` with ONE versioned TextDocumentEdit — the URI as the client
//     spelled it, `version` = the exact mirror version — holding the minimal TextEdits
//     (engine/diff) in the negotiated position encoding;
//  3. decide from the editor's answer AND the mirror:
//     - the mirror reaches the predicted text (replaying each content change of every didChange,
//       so an edit that arrives split over several notifications, or followed by the user's
//       typing in the same one, is seen) → applied at that version;
//     - `applied:true` but the mirror never shows the prediction within the confirm timeout
//       (Neovim 0.7 answers so for edits it dropped) → not applied;
//     - `applied:false` or an error reply → not applied (EDITOR_REJECTED); no reply within the
//       apply timeout → EDITOR_TIMEOUT;
//     - not applied and the document's version moved (the user typed) → re-plan on the new
//       version and resend, at most `max_retries` times — but only if the lines the previous
//       attempt targeted are untouched since it was sent (so an edit that partly landed is never
//       applied twice); otherwise STALE_VERSION.
// Confirmation (issue 9): an edit whose request (or session) asks for it is sent with every
// TextEdit annotated (`annotationId`, defined in `changeAnnotations` with `needsConfirmation:
// true`) when the client declared `changeAnnotationSupport` — else plain, as always. Such an
// edit waits `confirm_apply_timeout` for the answer (a human decides), and `applied:false` is
// final: EDITOR_REJECTED with a hint that the user declined, never resent (no second prompt).
// Late landings: an edit that got no answer in time is reported EDITOR_TIMEOUT, but the editor
// may still apply it (a slow client, a person who confirms after the timeout). For ten minutes
// the pipeline keeps watching the mirror for that edit's predicted text; if it appears, the
// caller's `late` callback gets what landed (the service journals it, so it can be undone).
// Threading: single-threaded, on the server's io_context.
#pragma once

#include "engine/support/result.h"
#include "lsp/rpc/json_rpc.h"
#include "lsp/service/document_queue.h"
#include "lsp/service/edit_planner.h"
#include "lsp/service/service_options.h"
#include "lsp/workspace/document_store.h"

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

/// How an edit goes to the editor with respect to the user's confirmation.
enum class Confirmation {
  Off,         // not asked for: plain TextEdits
  Requested,   // annotated with needsConfirmation: true
  Unsupported, // asked for, but the client has no changeAnnotationSupport: plain TextEdits
};
/// "off", "requested", "unsupported" (the `confirmation` field of results).
std::string_view confirmationName(Confirmation confirmation);

/// What the pipeline needs from the LSP server.
struct EditorLink {
  boost::asio::io_context* io = nullptr;
  DocumentStore* documents = nullptr;
  /// Sends `workspace/applyEdit` with `params`; `reply` runs once with the editor's answer, or
  /// TimedOut after `timeout`.
  std::function<void(nlohmann::json params, std::chrono::milliseconds timeout,
                     std::function<void(CallResponse)> reply)>
      apply_edit;
  /// Whether the client declared workspace.workspaceEdit.changeAnnotationSupport (unset: no).
  std::function<bool()> supports_change_annotations;
  /// The client's session default for confirmation (initializationOptions.confirmEdits), if it
  /// gave one; it wins over ServiceOptions::confirm_edits.
  std::function<std::optional<bool>()> confirm_default;
  /// The editor's process id (initialize's processId, else the parent); unset: unknown.
  std::function<std::int64_t()> editor_process;
};

/// Plans the edit against the document as it is now; `retry` after a version race.
using BufferPlanner = std::function<Result<PlannedEdit>(OpenDocument& document, bool retry)>;

struct BufferApplied {
  std::string uri; // client spelling
  std::int64_t version_before = 0;
  std::int64_t version_after = 0;
  PlannedEdit planned; // the plan that landed
  Rope committed;      // the mirror's text at version_after
  int attempts = 1;
  Confirmation confirmation = Confirmation::Off;
};

using BufferDone = std::function<void(Result<BufferApplied> outcome)>;
/// The journal's view of an edit's sends (lsp/journal/buffer_intent.h). `sending` runs right
/// before each workspace/applyEdit goes out, with the attempt's plan and the version it is sent
/// for; a second call means the previous attempt did not land (a retry). `not_landed` runs once
/// the last attempt sent is known not to have landed (refused, dropped, or the retry gave up) —
/// never after EDITOR_TIMEOUT, a closed connection or document, or a lost sync, when nobody can
/// tell yet (the late landing, or a later process, settles it).
struct BufferSends {
  std::function<void(const OpenDocument& open, const PlannedEdit& planned, std::int64_t version)>
      sending;
  std::function<void(const std::string& why)> not_landed;
};
/// An edit already reported EDITOR_TIMEOUT that the mirror then showed landing after all.
using BufferLate = std::function<void(BufferApplied applied)>;

class BufferApplier {
public:
  BufferApplier(EditorLink link, ServiceOptions options);
  ~BufferApplier();
  BufferApplier(const BufferApplier&) = delete;
  BufferApplier& operator=(const BufferApplier&) = delete;

  /// Queues an edit of the document `key` (canonical URI); `done` runs exactly once. `confirm`:
  /// the request's wish for the user's confirmation (unset: the session default). `late` runs at
  /// most once, after `done` reported EDITOR_TIMEOUT, if the edit lands later after all.
  void apply(const std::string& key, std::string label, BufferPlanner planner, BufferDone done,
             std::optional<bool> confirm = std::nullopt, BufferLate late = nullptr,
             BufferSends sends = {});
  /// How long an edit that timed out is watched for a late landing.
  static constexpr std::chrono::minutes kLateLandingWindow{10};

  /// How an edit whose request asked `confirm` (unset: the session default) is sent.
  Confirmation confirmationFor(std::optional<bool> confirm) const;

private:
  struct InFlight;
  std::shared_ptr<InFlight> makeFlight(const std::string& key, std::string label,
                                       BufferPlanner planner, BufferDone done,
                                       std::optional<bool> confirm);
  void start(const std::shared_ptr<InFlight>& flight);
  void onReply(const std::shared_ptr<InFlight>& flight, std::uint64_t generation,
               CallResponse response);
  void onTimer(const std::shared_ptr<InFlight>& flight, std::uint64_t generation);
  void onDocumentEvent(const DocumentEvent& event);
  void notApplied(const std::shared_ptr<InFlight>& flight, Error why);
  void retryOrFail(const std::shared_ptr<InFlight>& flight, Error why);
  void succeed(const std::shared_ptr<InFlight>& flight, const OpenDocument& document);
  /// `known_not_landed`: the last attempt sent did not land (else nobody can tell yet).
  void fail(const std::shared_ptr<InFlight>& flight, Error error, bool known_not_landed = true);
  void armTimer(const std::shared_ptr<InFlight>& flight, std::chrono::milliseconds after);
  bool landsOn(const DocumentEvent& event, const Rope& prediction) const;
  void watchForLateLanding(const std::shared_ptr<InFlight>& flight);
  void checkLateLandings(const DocumentEvent& event);
  std::chrono::milliseconds applyTimeout(const InFlight& flight) const;

  EditorLink link_;
  ServiceOptions options_;
  DocumentQueue queue_;
  std::size_t listener_id_ = 0;
  std::map<std::string, std::shared_ptr<InFlight>> in_flight_; // key → the one in flight
  struct LateWatch {
    PlannedEdit planned;
    std::int64_t sent_version = 0;
    int attempts = 1;
    Confirmation confirmation = Confirmation::Off;
    BufferLate late;
    std::chrono::steady_clock::time_point deadline;
  };
  std::multimap<std::string, LateWatch> late_; // key → timed-out edits watched for a landing
};

} // namespace hashline::lsp
