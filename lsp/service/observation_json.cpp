// Saving and loading ObservationStore state, one file per (session, document); see
// observation_json.h.
#include "lsp/service/observation_json.h"

#include "engine/support/hex.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/file_lock.h"
#include "lsp/disk/state_dir.h"
#include "lsp/platform/file_times.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <xxhash.h>

namespace hashline::lsp {

namespace {

/// From this many changed pairs on, save() writes them on several threads.
constexpr std::size_t kParallelSaveFrom = 32;

constexpr char kMagic[8] = {'h', 'l', 'o', 'b', 's', '\0', '\0', '\2'};
constexpr std::string_view kSuffix = ".obs";

std::string nameHash(std::string_view text) {
  return hex64(XXH3_64bits(text.data(), text.size()));
}

// --- writing ---------------------------------------------------------------------------------

void putVarint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void putFixed(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void putString(std::string& out, std::string_view text) {
  putVarint(out, text.size());
  out.append(text);
}

std::uint64_t zigzag(std::int64_t value) {
  return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

// --- reading ---------------------------------------------------------------------------------

class Reader {
public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool varint(std::uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return false;
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      value |= std::uint64_t(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return shift < 63 || byte <= 1;
    }
    return false;
  }
  bool varint32(std::uint32_t& value) {
    std::uint64_t wide = 0;
    if (!varint(wide) || wide > 0xffffffffu) return false;
    value = static_cast<std::uint32_t>(wide);
    return true;
  }
  bool fixed(std::uint64_t& value, int bytes) {
    if (remaining() < static_cast<std::size_t>(bytes)) return false;
    value = 0;
    for (int i = 0; i < bytes; ++i)
      value |= std::uint64_t(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
    pos_ += bytes;
    return true;
  }
  bool string(std::string& out) {
    std::uint64_t size = 0;
    if (!varint(size) || size > remaining()) return false;
    out.assign(bytes_.substr(pos_, size));
    pos_ += size;
    return true;
  }
  /// A count of items of at least `min_bytes` each: no larger than what is left could hold.
  bool count(std::uint64_t& value, std::size_t min_bytes) {
    return varint(value) && value <= remaining() / min_bytes;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }

private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

Error unreadable(const std::string& what) {
  return Error::make(ErrorCode::IoError, "unreadable observation file: " + what);
}

std::string parentOf(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

void removeTree(const std::string& directory) {
  if (DIR* dir = ::opendir(directory.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") ::unlink((directory + "/" + name).c_str());
    }
    ::closedir(dir);
  }
  ::rmdir(directory.c_str());
}

} // namespace

std::string encodeObservation(const std::string& session, const std::string& document,
                              const Observation& observation) {
  std::size_t keys = 0;
  for (const ReadRecord& record : observation.reads())
    keys += record.issued.size();
  std::string out;
  out.reserve(64 + session.size() + document.size() + 5 * keys);
  out.append(kMagic, sizeof kMagic);
  putString(out, session);
  putString(out, document);
  putVarint(out, observation.reads().size());
  for (const ReadRecord& record : observation.reads()) {
    putVarint(out, zigzag(record.version));
    out.push_back(static_cast<char>(record.tier));
    putVarint(out, record.line_count);
    putVarint(out, record.lsp_line_count);
    putVarint(out, record.shown.size());
    std::uint32_t previous = 0;
    for (const LineSpan& span : record.shown) {
      putVarint(out, span.first - previous);
      putVarint(out, span.last - span.first);
      previous = span.last;
    }
    const std::vector<std::uint64_t>& issued = record.issuedKeys();
    putVarint(out, issued.size());
    std::uint64_t line = 0;
    for (std::uint64_t key : issued) {
      putVarint(out, (key >> 32) - line);
      putFixed(out, key & 0xffffffffu, 4);
      line = key >> 32;
    }
  }
  putFixed(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

Result<DecodedObservation> decodeObservation(std::string_view bytes) {
  if (bytes.size() < sizeof kMagic + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return unreadable("not a format-2 observation file");
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  std::uint64_t checksum = 0;
  Reader tail(bytes.substr(bytes.size() - 8));
  tail.fixed(checksum, 8);
  if (checksum != XXH3_64bits(body.data(), body.size())) return unreadable("checksum mismatch");

  Reader in(body.substr(sizeof kMagic));
  DecodedObservation out;
  std::uint64_t reads = 0;
  if (!in.string(out.session) || !in.string(out.document) || !in.count(reads, 6))
    return unreadable("truncated header");
  out.reads.reserve(reads);
  for (std::uint64_t r = 0; r < reads; ++r) {
    ReadRecord record;
    std::uint64_t version = 0, tier = 0, spans = 0, keys = 0;
    if (!in.varint(version) || !in.fixed(tier, 1) || !in.varint32(record.line_count) ||
        !in.varint32(record.lsp_line_count) || !in.count(spans, 2))
      return unreadable("truncated read record");
    record.version =
        static_cast<std::int64_t>(version >> 1) ^ -static_cast<std::int64_t>(version & 1);
    if (tier > static_cast<std::uint64_t>(Tier::Chain)) return unreadable("unknown tier");
    record.tier = static_cast<Tier>(tier);
    std::uint64_t previous = 0;
    record.shown.reserve(spans);
    for (std::uint64_t s = 0; s < spans; ++s) {
      std::uint64_t gap = 0, length = 0;
      if (!in.varint(gap) || !in.varint(length)) return unreadable("truncated window");
      const std::uint64_t first = previous + gap, last = first + length;
      if (last > 0xffffffffu || (s > 0 && gap < 2)) return unreadable("windows out of order");
      record.shown.push_back(
          LineSpan{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last)});
      previous = last;
    }
    if (!in.count(keys, 5)) return unreadable("truncated key list");
    record.issued.reserve(keys);
    std::uint64_t line = 0;
    for (std::uint64_t k = 0; k < keys; ++k) {
      std::uint64_t delta = 0, low = 0;
      if (!in.varint(delta) || !in.fixed(low, 4)) return unreadable("truncated key");
      line += delta;
      if (line > 0xffffffffu) return unreadable("key line out of range");
      const std::uint64_t key = (line << 32) | low;
      if (!record.issued.empty() && key <= record.issued.back())
        return unreadable("keys out of order");
      record.issued.push_back(key);
    }
    record.sorted = true;
    record.sorted_size = record.issued.size();
    out.reads.push_back(std::move(record));
  }
  if (in.remaining() != 0) return unreadable("trailing bytes");
  return out;
}

// --- ObservationFiles --------------------------------------------------------------------------

ObservationFiles::ObservationFiles(std::string directory, Limits limits)
    : directory_(std::move(directory)), limits_(limits) {}

Result<std::string> ObservationFiles::directoryFor(const std::string& canonical_root) {
  Result<std::string> state = disk::workspaceStateDirectory(canonical_root);
  if (!state) return std::move(state).error();
  return *state + "/observations";
}

std::string ObservationFiles::fileFor(const std::string& session,
                                      const std::string& document) const {
  return directory_ + "/" + nameHash(session) + "/" + nameHash(document) + std::string(kSuffix);
}

void ObservationFiles::attach(ObservationStore& store) {
  store.setLoader([this](const std::string& session, const std::string& document,
                         Observation& into) { loadInto(session, document, into); });
}

void ObservationFiles::loadInto(const std::string& session, const std::string& document,
                                Observation& into) {
  const std::string file = fileFor(session, document);
  Loaded& loaded = loaded_[{session, document}];
  Result<disk::FileSnapshot> bytes = disk::readFileBytes(file);
  if (!bytes) {
    if (bytes.error().code != ErrorCode::FileNotFound)
      problems_.push_back(file + ": " + bytes.error().message);
  } else {
    loaded.fingerprint = bytes->fingerprint;
    Result<DecodedObservation> decoded = decodeObservation(bytes->bytes);
    if (!decoded) {
      problems_.push_back(file + ": " + decoded.error().message);
    } else if (decoded->session != session || decoded->document != document) {
      problems_.push_back(file + ": holds another session or document");
    } else {
      for (ReadRecord& record : decoded->reads)
        into.restoreRead(std::move(record));
    }
  }
  loaded.revision = into.revision();
}

void ObservationFiles::loadSession(ObservationStore& store, const std::string& session) {
  const std::string directory = directory_ + "/" + nameHash(session);
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return;
  std::vector<std::string> files;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix)) files.push_back(name);
  }
  ::closedir(dir);
  for (const std::string& name : files) {
    // The document's name is inside the file; reading it whole is fine for `status`.
    Result<disk::FileSnapshot> bytes = disk::readFileBytes(directory + "/" + name);
    if (!bytes) continue;
    Result<DecodedObservation> decoded = decodeObservation(bytes->bytes);
    if (!decoded || decoded->session != session) continue;
    if (fileFor(session, decoded->document) != directory + "/" + name) continue;
    (void)store.find(session, decoded->document); // loads it through attach's loader
  }
}

Status ObservationFiles::save(const ObservationStore& store) {
  // The pairs that changed since loaded.
  std::vector<std::pair<const Key*, const Observation*>> changed;
  for (const auto& [key, observation] : store.entries()) {
    if (!observation.observed()) continue;
    const auto it = loaded_.find(key);
    if (it != loaded_.end() && it->second.revision == observation.revision()) continue;
    changed.emplace_back(&key, &observation);
  }
  bool wrote = false, any_new_session = false;
  Status result = Status::success();
  std::set<std::string> grown; // session directories that got a new file
  std::mutex outcome;          // guards the four above
  auto saveSome = [&](std::size_t first, std::size_t step) {
    for (std::size_t i = first; i < changed.size(); i += step) {
      const Key& key = *changed[i].first;
      bool created = false, new_session = false;
      Status saved = savePair(key, *changed[i].second, created, new_session);
      std::lock_guard<std::mutex> guard(outcome);
      if (saved)
        wrote = true;
      else if (result)
        result = saved;
      if (created) grown.insert(parentOf(fileFor(key.first, key.second)));
      any_new_session = any_new_session || new_session;
    }
  };
  // Each pair is its own file: a search that observed hundreds of files writes them on the
  // cores (the file system waits, not the CPU, dominate: two to four writers).
  const std::size_t writers =
      changed.size() < kParallelSaveFrom
          ? 1
          : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 4);
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < writers; ++t)
    threads.emplace_back(saveSome, t, writers);
  saveSome(0, writers);
  for (std::thread& thread : threads)
    thread.join();
  // Pruned once per save, not once per new file: a search that observes hundreds of files
  // would list (and stat) the growing directory for each of them.
  for (const std::string& session_dir : grown)
    prune(session_dir, limits_.documents_per_session, false);
  if (any_new_session) prune(directory_, limits_.sessions, true);
  if (wrote) {
    // Format 1 (one JSON file for every pair) is not read any more: drop it.
    const std::string old = parentOf(directory_) + "/observations.json";
    ::unlink(old.c_str());
    ::unlink((old + ".lock").c_str());
  }
  return result;
}

Status ObservationFiles::savePair(const Key& key, const Observation& observation, bool& created,
                                  bool& new_session) {
  const std::string file = fileFor(key.first, key.second);
  const std::string session_dir = parentOf(file);
  Result<disk::FileLock> lock = disk::FileLock::forPath(file);
  if (!lock) return lock.error();

  std::optional<disk::Fingerprint> loaded_print;
  {
    std::lock_guard<std::mutex> guard(loaded_mutex_);
    const auto it = loaded_.find(key);
    if (it != loaded_.end()) loaded_print = it->second.fingerprint;
  }
  const disk::Fingerprint* as_loaded = loaded_print ? &*loaded_print : nullptr;
  Result<disk::FileSnapshot> existing = disk::readFileBytes(file);
  std::optional<disk::Fingerprint> expected;
  if (existing) expected = existing->fingerprint;

  std::string bytes;
  if (existing && (as_loaded == nullptr || !(*as_loaded == existing->fingerprint))) {
    // Another run saved this pair since we loaded it: keep its reads too.
    Result<DecodedObservation> theirs = decodeObservation(existing->bytes);
    if (theirs && theirs->session == key.first && theirs->document == key.second) {
      Observation merged;
      for (ReadRecord& record : theirs->reads)
        merged.restoreRead(std::move(record));
      for (const ReadRecord& record : observation.reads())
        merged.restoreRead(record);
      bytes = encodeObservation(key.first, key.second, merged);
    }
  }
  if (bytes.empty()) bytes = encodeObservation(key.first, key.second, observation);

  struct stat info {};
  const bool new_session_dir = ::stat(session_dir.c_str(), &info) != 0;
  disk::WriteOptions options;
  options.take_lock = false; // held above
  options.durable = false;   // a cache: lost by an OS crash, the next edit asks for a read
  Result<disk::WriteResult> written = [&]() -> Result<disk::WriteResult> {
    if (!expected) return disk::atomicCreate(file, bytes, options);
    options.expected = expected;
    return disk::atomicReplace(file, bytes, options);
  }();
  if (!written) return written.error();
  {
    std::lock_guard<std::mutex> guard(loaded_mutex_);
    loaded_[key] = Loaded{written->fingerprint, observation.revision()};
  }
  created = !expected;
  new_session = created && new_session_dir;
  return Status::success();
}

void ObservationFiles::prune(const std::string& directory, std::size_t keep,
                             bool directories) const {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return;
  std::vector<std::pair<std::int64_t, std::string>> entries; // (mtime ns, path)
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = directory + "/" + name;
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) continue;
    if (directories ? !S_ISDIR(info.st_mode) : !(S_ISREG(info.st_mode) && name.ends_with(kSuffix)))
      continue;
    entries.emplace_back(platform::modifiedNanoseconds(info), path);
  }
  ::closedir(dir);
  if (entries.size() <= keep) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + keep < entries.size(); ++i) {
    if (directories)
      removeTree(entries[i].second);
    else
      ::unlink(entries[i].second.c_str());
  }
}

} // namespace hashline::lsp
