// Observations: what the sidecar showed each agent session of each document (DESIGN §3, §4.0).
//
// An Observation belongs to one (session, document) pair and lists the reads made: for each, the
// version (a document version, or a fingerprint id for disk texts), the tier, the read and LSP
// line counts, the windows of lines shown, and the anchors issued — kept as exact 64-bit keys
// (line, tier, both digests packed; no hashing, no collisions). The verifier asks it:
//  - was the document observed at all? (else NOT_OBSERVED)
//  - which read issued this anchor, at which version and tier? (exact rebase through the log)
//  - was this anchor ever issued? (ANCHOR_UNKNOWN versus STALE_ANCHOR)
// Callers record every set of anchors an agent is shown: reads, the fresh anchors returned after
// an edit (with the version the edit produced, once confirmed), and the anchors in error data
// (the verifier records those itself, at the current version).
//
// Reads of the same version and tier merge into one record. Bounded: at most `max_reads` records
// and `max_keys` issued anchors per observation, oldest reads dropped first (a dropped read's
// anchors then verify as anchors from "no history").
//
// ObservationStore maps (session, document key) to Observations; document keys are whatever the
// caller uses (URI or canonical path). It may be given a loader (persistence: lsp/service/
// observation_json.h) that fills a pair from storage the first time it is asked for, so a process
// holds only the pairs its requests touch. Not thread-safe: callers serialize access.
#pragma once

#include "engine/anchors/anchor.h"
#include "engine/anchors/reader.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hashline {

/// 1-based inclusive line window.
struct LineSpan {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  bool operator==(const LineSpan&) const = default;
};

/// The exact key of an issued anchor (line, tier, line digest, context digest).
std::uint64_t issuedAnchorKey(const Anchor& anchor, Tier tier);

struct ReadRecord {
  std::int64_t version = 0;
  Tier tier = Tier::Block;
  std::uint32_t line_count = 0;     // read lines at that version
  std::uint32_t lsp_line_count = 0; // LSP lines at that version
  std::vector<LineSpan> shown;      // merged, sorted windows
  /// issuedAnchorKey values. Reads only append (no allocation per key); the first lookup after
  /// new keys sorts and dedupes them once (`sorted` says whether that is done).
  mutable std::vector<std::uint64_t> issued;
  mutable bool sorted = true;
  mutable std::size_t sorted_size = 0; // size after the last sort (bounds the unsorted tail)

  bool issuedAnchor(const Anchor& anchor) const;
  /// The issued keys, sorted and unique.
  const std::vector<std::uint64_t>& issuedKeys() const;
  bool showedLine(std::uint32_t line) const;
};

class Observation {
public:
  explicit Observation(std::size_t max_reads = 64, std::size_t max_keys = 1u << 21);

  /// Records a read view (or fresh anchors) as shown to the session.
  void recordRead(const ReadView& view);
  /// Records anchors shown at `version` outside a read view (error data, edit results).
  void recordAnchors(std::int64_t version, Tier tier, std::uint32_t line_count,
                     std::uint32_t lsp_line_count, const std::vector<Anchor>& anchors);

  bool observed() const { return !reads_.empty(); }
  /// The most recent read (nullptr when never observed).
  const ReadRecord* latest() const { return reads_.empty() ? nullptr : &reads_.back(); }
  /// The tier of the most recent read (`fallback` when never observed).
  Tier tier(Tier fallback = Tier::Block) const {
    return reads_.empty() ? fallback : reads_.back().tier;
  }
  /// The most recent read that issued exactly this anchor, in any tier its shape allows
  /// (2 parts: line; 3 parts: block or chain). nullptr when never issued.
  const ReadRecord* issuerOf(const Anchor& anchor) const;
  const std::deque<ReadRecord>& reads() const { return reads_; }
  /// Appends a record as it was saved, as the newest read (persistence: lsp/service/
  /// observation_json.h). A record for the same version and tier is merged; bounds apply. A
  /// record whose keys are already sorted (`sorted`) keeps them as they are when it is new here.
  void restoreRead(ReadRecord record);
  /// Counts the changes made to this observation (every record, restore or re-read); persistence
  /// compares it with the count at load time to save only what changed.
  std::uint64_t revision() const { return revision_; }

private:
  ReadRecord& recordFor(std::int64_t version, Tier tier, std::uint32_t line_count,
                        std::uint32_t lsp_line_count);
  static void addShown(ReadRecord& record, LineSpan span);
  void enforceBounds();

  std::deque<ReadRecord> reads_;
  std::size_t max_reads_;
  std::size_t max_keys_;
  std::uint64_t revision_ = 0;
};

class ObservationStore {
public:
  /// Fills `into` (empty) with the stored observation of (session, document), if any.
  using Loader = std::function<void(const std::string& session, const std::string& document,
                                    Observation& into)>;

  /// The observation of `document` by `session`, created empty when missing.
  Observation& observe(const std::string& session, const std::string& document);
  /// nullptr when the session never read the document.
  const Observation* find(const std::string& session, const std::string& document) const;
  Observation* find(const std::string& session, const std::string& document);
  /// Drops every session's observation of `document` (closed, deleted, renamed away); like
  /// forgetSession and renameDocument, it acts on the pairs held, not on storage.
  void forgetDocument(const std::string& document);
  void forgetSession(const std::string& session);
  /// Moves observations of `from` to `to` (a rename keeps what was read).
  void renameDocument(const std::string& from, const std::string& to);
  /// Every (session, document) → Observation held, for persistence.
  const std::map<std::pair<std::string, std::string>, Observation>& entries() const {
    return observations_;
  }
  /// Asks `loader` once per pair, the first time observe/find names a pair not held (nullptr:
  /// none; pairs are then only what this process recorded).
  void setLoader(Loader loader);

private:
  /// Runs the loader for a pair not held and not asked about yet.
  void load(const std::string& session, const std::string& document) const;

  mutable std::map<std::pair<std::string, std::string>, Observation> observations_;
  mutable std::set<std::pair<std::string, std::string>> asked_; // pairs the loader was asked about
  Loader loader_;
};

} // namespace hashline
