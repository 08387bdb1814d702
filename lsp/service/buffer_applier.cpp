// The apply pipeline for open documents; see buffer_applier.h.
#include "lsp/service/buffer_applier.h"

#include "engine/text/text_compare.h"
#include "lsp/protocol/workspace_edit.h"
#include "lsp/service/apply_edit_params.h"
#include "lsp/support/log.h"

#include <boost/asio/steady_timer.hpp>
#include <vector>

namespace hashline::lsp {

using nlohmann::json;

struct BufferApplier::InFlight {
  enum class Phase { Idle, AwaitReply, AwaitConfirm, AwaitVersionChange };

  std::string key;
  std::string label;
  BufferPlanner planner;
  BufferDone done;
  BufferLate late;
  BufferSends sends;
  bool sent = false; // an attempt went to the editor
  DocumentQueue::Finished finished;

  int attempt = 0;
  bool has_plan = false;
  PlannedEdit planned;
  std::int64_t sent_version = 0;
  std::string uri;
  Phase phase = Phase::Idle;
  std::uint64_t send_generation = 0;
  std::uint64_t timer_generation = 0;
  std::unique_ptr<boost::asio::steady_timer> timer;
  Error pending_error = Error::make(ErrorCode::EditorRejected, "");
  bool complete = false;
  Confirmation confirmation = Confirmation::Off;
};

namespace {

Error withPath(Error error, const std::string& uri) {
  if (!error.data.path && !uri.empty()) error.data.path = uri;
  return error;
}

} // namespace

BufferApplier::BufferApplier(EditorLink link, ServiceOptions options)
    : link_(std::move(link)), options_(options), queue_(*link_.io) {
  listener_id_ =
      link_.documents->addListener([this](const DocumentEvent& event) { onDocumentEvent(event); });
}

BufferApplier::~BufferApplier() {
  link_.documents->removeListener(listener_id_);
  for (auto& [key, flight] : in_flight_)
    if (flight->timer) flight->timer->cancel();
}

Confirmation BufferApplier::confirmationFor(std::optional<bool> confirm) const {
  bool wanted = options_.confirm_edits;
  if (link_.confirm_default)
    if (std::optional<bool> session = link_.confirm_default()) wanted = *session;
  if (confirm) wanted = *confirm;
  if (!wanted) return Confirmation::Off;
  bool supported = link_.supports_change_annotations && link_.supports_change_annotations();
  return supported ? Confirmation::Requested : Confirmation::Unsupported;
}

std::shared_ptr<BufferApplier::InFlight>
BufferApplier::makeFlight(const std::string& key, std::string label, BufferPlanner planner,
                          BufferDone done, std::optional<bool> confirm) {
  auto flight = std::make_shared<InFlight>();
  flight->key = key;
  flight->label = std::move(label);
  flight->planner = std::move(planner);
  flight->done = std::move(done);
  flight->finished = [] {};
  flight->confirmation = confirmationFor(confirm);
  return flight;
}

void BufferApplier::apply(const std::string& key, std::string label, BufferPlanner planner,
                          BufferDone done, std::optional<bool> confirm, BufferLate late,
                          BufferSends sends) {
  auto flight = makeFlight(key, std::move(label), std::move(planner), std::move(done), confirm);
  flight->late = std::move(late);
  flight->sends = std::move(sends);
  queue_.run(key, [this, flight](DocumentQueue::Finished finished) mutable {
    flight->finished = std::move(finished);
    in_flight_[flight->key] = flight;
    start(flight);
  });
}

void BufferApplier::start(const std::shared_ptr<InFlight>& flight) {
  Result<const OpenDocument*> readable = link_.documents->readable(flight->key);
  if (!readable) return fail(flight, std::move(readable).error());
  OpenDocument& open = *link_.documents->find(flight->key);
  flight->uri = open.uri;

  if (flight->attempt > 0 && flight->has_plan) {
    // Did the previous attempt (partly) land after all, or did the user edit its lines? Either
    // way a resend could apply twice or clobber: refuse. Insertions right next to the lines
    // count too (one line of margin on each side).
    const PlannedEdit& previous = flight->planned;
    std::uint32_t first = previous.first_touched_line > 0 ? previous.first_touched_line - 1 : 0;
    std::uint32_t last = previous.last_touched_line + 1;
    std::optional<bool> touched =
        open.document.changeLog().rangeTouched(flight->sent_version, first, last);
    if (!touched || *touched) {
      Error error = Error::make(
          ErrorCode::StaleVersion,
          "the editor did not apply the edit, and " +
              linesText(previous.first_touched_line, previous.last_touched_line) + " of " +
              open.uri + " changed meanwhile (version " + std::to_string(flight->sent_version) +
              " → " + std::to_string(open.document.version()) + "); nothing was resent");
      error.withHint("re-read the lines, then retry");
      return fail(flight, withPath(std::move(error), open.uri));
    }
  }

  Result<PlannedEdit> planned = flight->planner(open, flight->attempt > 0);
  if (!planned) return fail(flight, withPath(std::move(planned).error(), open.uri));
  flight->planned = std::move(*planned);
  flight->has_plan = true;
  flight->sent_version = open.document.version();

  if (flight->planned.plan.edits.empty()) return succeed(flight, open); // nothing to send
  ApplyWorkspaceEditParams params =
      applyEditParams(open.uri, flight->sent_version, flight->label, flight->planned,
                      link_.documents->encoding(), flight->confirmation == Confirmation::Requested);

  flight->phase = InFlight::Phase::AwaitReply;
  const std::uint64_t generation = ++flight->send_generation;
  const std::chrono::milliseconds timeout = applyTimeout(*flight);
  armTimer(flight, timeout);
  log::debug("applyEdit ", open.uri, " at version ", flight->sent_version, " (attempt ",
             flight->attempt + 1, ", confirmation ", confirmationName(flight->confirmation), ")");
  // Journaled before it goes out: a sidecar killed before the confirmation leaves the intent.
  if (flight->sends.sending) flight->sends.sending(open, flight->planned, flight->sent_version);
  flight->sent = true;
  // The connection's own timeout comes a moment later, so this pipeline's message wins.
  link_.apply_edit(toJSON(params), timeout + std::chrono::seconds(1),
                   [this, flight, generation](CallResponse response) {
                     onReply(flight, generation, std::move(response));
                   });
}

void BufferApplier::armTimer(const std::shared_ptr<InFlight>& flight,
                             std::chrono::milliseconds after) {
  if (!flight->timer) flight->timer = std::make_unique<boost::asio::steady_timer>(*link_.io);
  flight->timer->cancel();
  const std::uint64_t generation = ++flight->timer_generation;
  flight->timer->expires_after(after);
  flight->timer->async_wait([this, flight, generation](boost::system::error_code error) {
    if (error) return;
    if (generation == flight->timer_generation) onTimer(flight, generation);
  });
}

void BufferApplier::onReply(const std::shared_ptr<InFlight>& flight, std::uint64_t generation,
                            CallResponse response) {
  if (flight->complete || generation != flight->send_generation ||
      flight->phase != InFlight::Phase::AwaitReply)
    return; // a late answer to an attempt we already gave up on
  switch (response.kind) {
  case CallResponse::Result: {
    ApplyWorkspaceEditResult result;
    JsonPath::Root root("result");
    if (!fromJSON(response.result, result, JsonPath(root)))
      return notApplied(flight, Error::make(ErrorCode::EditorRejected,
                                            "the editor's answer to workspace/applyEdit is not "
                                            "an ApplyWorkspaceEditResult (" +
                                                root.describe() + ")"));
    if (!result.applied) {
      std::string reason = result.failureReason ? ": " + *result.failureReason : "";
      Error refused = Error::make(ErrorCode::EditorRejected,
                                  "the editor refused the edit (applied: false" + reason + ")");
      if (flight->confirmation == Confirmation::Requested) {
        // A person said no (or the document moved under the preview): never ask twice.
        refused.message += "; the edit was sent for the user's confirmation";
        refused.withHint("the user declined the edit in the editor's confirmation (or the "
                         "document changed while it was shown); nothing was changed — ask the "
                         "user before sending it again");
        return fail(flight, std::move(refused));
      }
      return notApplied(flight, std::move(refused));
    }
    if (const OpenDocument* open = link_.documents->find(flight->key);
        open && sameText(open->document.text(), flight->planned.after))
      return succeed(flight, *open);
    // `applied: true` is a claim; the mirror must show it (Neovim 0.7 says so for dropped edits).
    flight->phase = InFlight::Phase::AwaitConfirm;
    return armTimer(flight, options_.confirm_timeout);
  }
  case CallResponse::Error:
    return notApplied(flight, Error::make(ErrorCode::EditorRejected,
                                          "the editor answered workspace/applyEdit with an error "
                                          "(" +
                                              std::to_string(response.error.code) + ": " +
                                              response.error.message + ")"));
  case CallResponse::TimedOut:
    watchForLateLanding(flight);
    return fail(flight,
                Error::make(ErrorCode::EditorTimeout,
                            "the editor did not answer workspace/applyEdit in time"),
                false);
  case CallResponse::ConnectionClosed:
    return fail(flight,
                Error::make(ErrorCode::EditorRejected,
                            "the editor connection closed before the edit was applied"),
                false);
  }
}

void BufferApplier::notApplied(const std::shared_ptr<InFlight>& flight, Error why) {
  const OpenDocument* open = link_.documents->find(flight->key);
  if (!open) return fail(flight, std::move(why));
  if (open->document.version() != flight->sent_version) return retryOrFail(flight, std::move(why));
  // The editor may have refused because of typing we have not heard of yet: wait a moment for
  // the didChange before giving up.
  flight->phase = InFlight::Phase::AwaitVersionChange;
  flight->pending_error = std::move(why);
  armTimer(flight, options_.confirm_timeout);
}

void BufferApplier::retryOrFail(const std::shared_ptr<InFlight>& flight, Error why) {
  if (flight->attempt >= options_.max_retries) {
    why.message += "; gave up after " + std::to_string(flight->attempt + 1) +
                   " attempts (the document kept changing)";
    return fail(flight, std::move(why));
  }
  ++flight->attempt;
  flight->phase = InFlight::Phase::Idle;
  if (flight->timer) flight->timer->cancel();
  ++flight->timer_generation;
  log::debug("re-verifying the edit of ", flight->uri, " after a version race (attempt ",
             flight->attempt + 1, ")");
  start(flight);
}

void BufferApplier::onTimer(const std::shared_ptr<InFlight>& flight, std::uint64_t) {
  if (flight->complete) return;
  switch (flight->phase) {
  case InFlight::Phase::AwaitReply:
    watchForLateLanding(flight);
    return fail(flight,
                Error::make(ErrorCode::EditorTimeout,
                            "the editor did not answer workspace/applyEdit within " +
                                std::to_string(applyTimeout(*flight).count()) + " ms" +
                                (flight->confirmation == Confirmation::Requested
                                     ? " (the edit waited for the user's confirmation)"
                                     : "")),
                false);
  case InFlight::Phase::AwaitConfirm: {
    Error error = Error::make(ErrorCode::EditorRejected,
                              "the editor answered applied: true, but the document did not "
                              "change to the edited text (the editor dropped the edit)");
    const OpenDocument* open = link_.documents->find(flight->key);
    if (open && open->document.version() != flight->sent_version)
      return retryOrFail(flight, std::move(error));
    return fail(flight, std::move(error));
  }
  case InFlight::Phase::AwaitVersionChange:
    return fail(flight, flight->pending_error);
  case InFlight::Phase::Idle:
    return;
  }
}

std::chrono::milliseconds BufferApplier::applyTimeout(const InFlight& flight) const {
  return flight.confirmation == Confirmation::Requested ? options_.confirm_apply_timeout
                                                        : options_.apply_timeout;
}

bool BufferApplier::landsOn(const DocumentEvent& event, const Rope& prediction) const {
  if (!event.changes)
    return event.document && sameText(event.document->document.text(), prediction);
  const PositionEncoding encoding = link_.documents->encoding();
  Rope text = event.before;
  for (const ContentChange& change : *event.changes) {
    if (!change.range_start || !change.range_end) {
      text = Rope(change.text);
    } else {
      Result<std::size_t> begin = text.byteOfPosition(*change.range_start, encoding);
      Result<std::size_t> end = text.byteOfPosition(*change.range_end, encoding);
      if (!begin || !end || *end < *begin) return false;
      text.replace(*begin, *end, change.text);
    }
    if (sameText(text, prediction)) return true;
  }
  return false;
}

void BufferApplier::watchForLateLanding(const std::shared_ptr<InFlight>& flight) {
  if (!flight->late || !flight->has_plan) return;
  LateWatch watch;
  watch.planned = flight->planned;
  watch.sent_version = flight->sent_version;
  watch.attempts = flight->attempt + 1;
  watch.confirmation = flight->confirmation;
  watch.late = flight->late;
  watch.deadline = std::chrono::steady_clock::now() + kLateLandingWindow;
  late_.emplace(flight->key, std::move(watch));
}

void BufferApplier::checkLateLandings(const DocumentEvent& event) {
  auto [first, last] = late_.equal_range(event.key);
  if (first == last) return;
  if (event.kind == DocumentEvent::Closed) {
    late_.erase(first, last);
    return;
  }
  if (!event.document || event.document->desynced()) return;
  const auto now = std::chrono::steady_clock::now();
  std::vector<LateWatch> landed;
  for (auto it = first; it != last;) {
    if (now > it->second.deadline) {
      it = late_.erase(it);
    } else if (landsOn(event, it->second.planned.after)) {
      landed.push_back(std::move(it->second));
      it = late_.erase(it);
    } else {
      ++it;
    }
  }
  for (LateWatch& watch : landed) {
    log::warn("an agent edit of ", event.document->uri, " reported EDITOR_TIMEOUT landed late, at ",
              "version ", event.document->document.version(), "; journaled");
    BufferApplied applied;
    applied.uri = event.document->uri;
    applied.version_before = watch.sent_version;
    applied.version_after = event.document->document.version();
    applied.committed = event.document->document.text();
    applied.attempts = watch.attempts;
    applied.confirmation = watch.confirmation;
    applied.planned = std::move(watch.planned);
    watch.late(std::move(applied));
  }
}

void BufferApplier::onDocumentEvent(const DocumentEvent& event) {
  if (event.kind == DocumentEvent::WillSave || event.kind == DocumentEvent::Saved)
    return; // the text did not change
  checkLateLandings(event);
  auto it = in_flight_.find(event.key);
  if (it == in_flight_.end()) return;
  std::shared_ptr<InFlight> flight = it->second;
  if (flight->complete || !flight->has_plan || flight->phase == InFlight::Phase::Idle) return;
  switch (event.kind) {
  case DocumentEvent::Closed:
    return fail(flight,
                withPath(Error::make(ErrorCode::FileNotFound,
                                     "the document was closed in the editor while the "
                                     "edit was being applied"),
                         flight->uri),
                false);
  case DocumentEvent::WillSave:
  case DocumentEvent::Saved:
    return;
  case DocumentEvent::Opened:
  case DocumentEvent::Changed:
    if (!event.document) return;
    if (event.document->desynced())
      return fail(flight,
                  withPath(Error::make(ErrorCode::Desynced,
                                       "the mirror lost sync with the editor while the "
                                       "edit was being applied: " +
                                           event.document->desyncReason()),
                           flight->uri),
                  false);
    if (landsOn(event, flight->planned.after)) return succeed(flight, *event.document);
    if (flight->phase == InFlight::Phase::AwaitVersionChange)
      return retryOrFail(flight, flight->pending_error);
    return; // keep waiting: the edit may arrive in a later notification
  }
}

void BufferApplier::succeed(const std::shared_ptr<InFlight>& flight, const OpenDocument& open) {
  flight->complete = true;
  if (flight->timer) flight->timer->cancel();
  in_flight_.erase(flight->key);
  BufferApplied applied;
  applied.uri = open.uri;
  applied.version_before = flight->sent_version;
  applied.version_after = open.document.version();
  applied.committed = open.document.text();
  applied.attempts = flight->attempt + 1;
  applied.confirmation = flight->confirmation;
  applied.planned = std::move(flight->planned);
  auto done = std::move(flight->done);
  auto finished = std::move(flight->finished);
  done(std::move(applied));
  finished();
}

void BufferApplier::fail(const std::shared_ptr<InFlight>& flight, Error error,
                         bool known_not_landed) {
  flight->complete = true;
  if (flight->timer) flight->timer->cancel();
  in_flight_.erase(flight->key);
  if (flight->sent && known_not_landed && flight->sends.not_landed)
    flight->sends.not_landed(error.message);
  auto done = std::move(flight->done);
  auto finished = std::move(flight->finished);
  done(withPath(std::move(error), flight->uri));
  finished();
}

} // namespace hashline::lsp
