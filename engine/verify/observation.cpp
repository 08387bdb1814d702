// Per-session observations of documents; see observation.h.
#include "engine/verify/observation.h"

#include <algorithm>

namespace hashline {

std::uint64_t issuedAnchorKey(const Anchor& anchor, Tier tier) {
  return (std::uint64_t(anchor.line) << 32) | (std::uint64_t(tier) << 30) |
         (std::uint64_t(anchor.line_digest & 0x7fff) << 15) |
         std::uint64_t(anchor.context_digest.value_or(0) & 0x7fff);
}

bool ReadRecord::issuedAnchor(const Anchor& anchor) const {
  if ((tier == Tier::Line) != !anchor.context_digest.has_value()) return false;
  const auto& keys = issuedKeys();
  return std::binary_search(keys.begin(), keys.end(), issuedAnchorKey(anchor, tier));
}

const std::vector<std::uint64_t>& ReadRecord::issuedKeys() const {
  if (!sorted) {
    std::sort(issued.begin(), issued.end());
    issued.erase(std::unique(issued.begin(), issued.end()), issued.end());
    sorted = true;
    sorted_size = issued.size();
  }
  return issued;
}

bool ReadRecord::showedLine(std::uint32_t line) const {
  for (const auto& span : shown)
    if (span.first <= line && line <= span.last) return true;
  return false;
}

Observation::Observation(std::size_t max_reads, std::size_t max_keys)
    : max_reads_(max_reads == 0 ? 1 : max_reads), max_keys_(max_keys) {}

ReadRecord& Observation::recordFor(std::int64_t version, Tier tier, std::uint32_t line_count,
                                   std::uint32_t lsp_line_count) {
  ++revision_;
  for (auto it = reads_.begin(); it != reads_.end(); ++it) {
    if (it->version != version || it->tier != tier) continue;
    // Same text seen again: move it to the back so it counts as the latest read.
    ReadRecord record = std::move(*it);
    reads_.erase(it);
    reads_.push_back(std::move(record));
    return reads_.back();
  }
  reads_.push_back(ReadRecord{version, tier, line_count, lsp_line_count, {}, {}});
  return reads_.back();
}

void Observation::addShown(ReadRecord& record, LineSpan span) {
  // `shown` is sorted and disjoint: merge the spans that overlap or touch `span` into it, in
  // place (a read costs O(log spans) plus the shift, not a re-sort of every window seen).
  auto& spans = record.shown;
  auto first =
      std::lower_bound(spans.begin(), spans.end(), span,
                       [](const LineSpan& s, const LineSpan& x) { return s.last + 1 < x.first; });
  auto last = first;
  while (last != spans.end() && last->first <= span.last + 1) {
    span.first = std::min(span.first, last->first);
    span.last = std::max(span.last, last->last);
    ++last;
  }
  if (first == last) {
    spans.insert(first, span);
    return;
  }
  *first = span;
  spans.erase(first + 1, last);
}

void Observation::recordAnchors(std::int64_t version, Tier tier, std::uint32_t line_count,
                                std::uint32_t lsp_line_count, const std::vector<Anchor>& anchors) {
  ReadRecord& record = recordFor(version, tier, line_count, lsp_line_count);
  if (!anchors.empty()) record.sorted = false;
  std::optional<LineSpan> run;
  for (const auto& anchor : anchors) {
    record.issued.push_back(issuedAnchorKey(anchor, tier));
    if (run && run->last + 1 == anchor.line) {
      run->last = anchor.line;
      continue;
    }
    if (run) addShown(record, *run);
    run = LineSpan{anchor.line, anchor.line};
  }
  if (run) addShown(record, *run);
  // Re-reads of the same window append the same keys: compact before duplicates pile up
  // (amortized O(log n) per key).
  if (record.issued.size() > 2 * record.sorted_size + 4096) record.issuedKeys();
  enforceBounds();
}

void Observation::recordRead(const ReadView& view) {
  recordAnchors(view.version, view.tier, view.line_count, view.lsp_line_count, view.anchors);
  if (view.anchors.empty()) {
    // An empty window still counts as having observed the document.
    recordFor(view.version, view.tier, view.line_count, view.lsp_line_count);
  }
}

void Observation::restoreRead(ReadRecord record) {
  ReadRecord& into =
      recordFor(record.version, record.tier, record.line_count, record.lsp_line_count);
  if (into.issued.empty() && into.shown.empty()) {
    // New here (a load): take the record whole; saved keys are sorted, so no re-sort follows.
    const bool sorted = record.sorted;
    into.issued = std::move(record.issued);
    into.shown = std::move(record.shown);
    into.sorted = sorted;
    into.sorted_size = sorted ? into.issued.size() : 0;
    enforceBounds();
    return;
  }
  into.issued.insert(into.issued.end(), record.issued.begin(), record.issued.end());
  into.sorted = false;
  for (const auto& span : record.shown)
    addShown(into, span);
  enforceBounds();
}

void Observation::enforceBounds() {
  std::size_t keys = 0;
  for (const auto& record : reads_)
    keys += record.issued.size();
  while (reads_.size() > 1 && (reads_.size() > max_reads_ || keys > max_keys_)) {
    keys -= reads_.front().issued.size();
    reads_.pop_front();
  }
}

const ReadRecord* Observation::issuerOf(const Anchor& anchor) const {
  for (auto it = reads_.rbegin(); it != reads_.rend(); ++it)
    if (it->issuedAnchor(anchor)) return &*it;
  return nullptr;
}

void ObservationStore::setLoader(Loader loader) {
  loader_ = std::move(loader);
  asked_.clear();
}

void ObservationStore::load(const std::string& session, const std::string& document) const {
  if (!loader_) return;
  std::pair<std::string, std::string> key{session, document};
  if (observations_.count(key) != 0 || !asked_.insert(key).second) return;
  Observation loaded;
  loader_(session, document, loaded);
  if (loaded.observed()) observations_.emplace(std::move(key), std::move(loaded));
}

Observation& ObservationStore::observe(const std::string& session, const std::string& document) {
  load(session, document);
  return observations_[{session, document}];
}

const Observation* ObservationStore::find(const std::string& session,
                                          const std::string& document) const {
  load(session, document);
  const auto it = observations_.find({session, document});
  return it == observations_.end() ? nullptr : &it->second;
}

Observation* ObservationStore::find(const std::string& session, const std::string& document) {
  load(session, document);
  const auto it = observations_.find({session, document});
  return it == observations_.end() ? nullptr : &it->second;
}

void ObservationStore::forgetDocument(const std::string& document) {
  std::erase_if(observations_, [&](const auto& entry) { return entry.first.second == document; });
}

void ObservationStore::forgetSession(const std::string& session) {
  std::erase_if(observations_, [&](const auto& entry) { return entry.first.first == session; });
}

void ObservationStore::renameDocument(const std::string& from, const std::string& to) {
  std::vector<std::pair<std::string, Observation>> moved;
  for (auto it = observations_.begin(); it != observations_.end();) {
    if (it->first.second == from) {
      moved.emplace_back(it->first.first, std::move(it->second));
      it = observations_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& [session, observation] : moved)
    observations_.insert_or_assign({session, to}, std::move(observation));
}

} // namespace hashline
