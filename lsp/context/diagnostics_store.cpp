// The bounded per-document diagnostics store; see diagnostics_store.h.
#include "lsp/context/diagnostics_store.h"

#include <algorithm>

namespace hashline::context {

const char* severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Information:
    return "information";
  case Severity::Hint:
    return "hint";
  }
  return "error";
}

std::optional<Severity> severityFromName(const std::string& name) {
  if (name == "error") return Severity::Error;
  if (name == "warning") return Severity::Warning;
  if (name == "information" || name == "info") return Severity::Information;
  if (name == "hint") return Severity::Hint;
  return std::nullopt;
}

void DiagnosticsStore::update(DiagnosticsSet set) {
  if (set.items.size() > kMaxItemsPerDocument) {
    set.dropped += set.items.size() - kMaxItemsPerDocument;
    set.items.resize(kMaxItemsPerDocument);
  }
  for (EditorDiagnostic& item : set.items)
    if (item.message.size() > kMaxMessageBytes) {
      std::size_t cut = kMaxMessageBytes;
      while (cut > 0 && (static_cast<unsigned char>(item.message[cut]) & 0xC0) == 0x80)
        --cut; // never split a UTF-8 sequence
      item.message.resize(cut);
      item.message += "…";
    }
  set.sequence = ++sequence_;
  const std::string key = set.key;
  if (!sets_.count(key) && sets_.size() >= kMaxDocuments) {
    auto oldest = std::min_element(sets_.begin(), sets_.end(), [](const auto& a, const auto& b) {
      return a.second->sequence < b.second->sequence;
    });
    sets_.erase(oldest);
  }
  auto stored = std::make_shared<const DiagnosticsSet>(std::move(set));
  sets_[key] = stored;
  // Waiters may cancel themselves (or others) from their callback: collect first.
  std::vector<std::uint64_t> due;
  for (const auto& [id, waiting] : waiters_)
    if (waiting.key == key && (!stored->version || *stored->version >= waiting.version))
      due.push_back(id);
  for (std::uint64_t id : due) {
    auto it = waiters_.find(id);
    if (it == waiters_.end()) continue;
    Waiter notify = it->second.notify; // a copy: the callback may erase the entry
    notify(stored);
  }
}

DiagnosticsSetPtr DiagnosticsStore::find(const std::string& key) const {
  auto it = sets_.find(key);
  return it == sets_.end() ? nullptr : it->second;
}

std::vector<DiagnosticsSetPtr> DiagnosticsStore::all() const {
  std::vector<DiagnosticsSetPtr> out;
  out.reserve(sets_.size());
  for (const auto& [key, set] : sets_)
    out.push_back(set);
  return out;
}

std::uint64_t DiagnosticsStore::waitFor(const std::string& key, std::int64_t version,
                                        Waiter notify) {
  const std::uint64_t id = next_waiter_++;
  waiters_.emplace(id, Waiting{key, version, std::move(notify)});
  return id;
}

void DiagnosticsStore::cancel(std::uint64_t id) {
  waiters_.erase(id);
}

} // namespace hashline::context
