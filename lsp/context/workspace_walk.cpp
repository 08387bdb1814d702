// Walking the search scopes and scanning files for a match; see workspace_walk.h.
#include "lsp/context/workspace_walk.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace hashline::context {

namespace {

constexpr std::size_t kBinaryProbe = 8192;

/// One .gitignore and the directory (relative to the root) it sits in.
struct IgnoreLevel {
  std::string base; // "" for the root
  std::shared_ptr<const IgnoreList> list;
};

bool readSmallFile(const std::string& path, std::string& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  out.clear();
  char buffer[16384];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out.append(buffer, static_cast<std::size_t>(got));
    if (out.size() > (std::size_t(1) << 20)) break; // a .gitignore is small
  }
  ::close(fd);
  return true;
}

std::string join(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "/" + b;
}

class Walker {
public:
  Walker(const WalkOptions& options, WalkResult& result, std::vector<std::string>& files)
      : options_(options), result_(result), files_(files) {}

  void scope(const WalkScope& scope) {
    if (scope.is_file) { // named explicitly: searched even if ignored, as rg does
      addFile(join(scope.root, scope.relative));
      return;
    }
    // The .gitignore files above the scope apply inside it (the walk loads each directory's own).
    std::vector<IgnoreLevel> levels;
    const std::string& relative = scope.relative;
    if (!relative.empty()) loadIgnore(scope.root, "", levels);
    for (std::size_t slash = relative.find('/'); slash != std::string::npos;
         slash = relative.find('/', slash + 1))
      loadIgnore(scope.root, relative.substr(0, slash), levels);
    walk(scope.root, relative, levels);
  }

private:
  void loadIgnore(const std::string& root, const std::string& relative,
                  std::vector<IgnoreLevel>& levels) {
    std::string text;
    const std::string dir = relative.empty() ? root : root + "/" + relative;
    if (!readSmallFile(dir + "/.gitignore", text)) return;
    auto list = std::make_shared<IgnoreList>(IgnoreList::parse(text));
    if (!list->empty()) levels.push_back({relative, std::move(list)});
  }

  static bool ignored(const std::vector<IgnoreLevel>& levels, const std::string& relative,
                      bool is_dir) {
    for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
      std::string_view below = relative;
      if (!it->base.empty()) below.remove_prefix(it->base.size() + 1);
      IgnoreVerdict verdict = it->list->verdict(below, is_dir);
      if (verdict != IgnoreVerdict::None) return verdict == IgnoreVerdict::Ignored;
    }
    return false;
  }

  void addFile(std::string path) {
    // Scopes may overlap; one scope lists each file once (no symlink is followed).
    if (options_.scopes.size() > 1 && !seen_.insert(path).second) return;
    if (!options_.listed_only.empty() && options_.listed_only.count(path)) {
      result_.listed.push_back(std::move(path));
      return;
    }
    files_.push_back(std::move(path)); // filtered by the scan
  }

  void walk(const std::string& root, const std::string& relative,
            std::vector<IgnoreLevel>& levels) {
    const std::string dir = relative.empty() ? root : root + "/" + relative;
    DIR* handle = ::opendir(dir.c_str());
    if (handle == nullptr) {
      ++result_.unreadable;
      return;
    }
    std::vector<std::pair<std::string, bool>> entries; // (name, is_dir)
    while (const dirent* entry = ::readdir(handle)) {
      const char* name = entry->d_name;
      if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
      unsigned char type = entry->d_type;
      if (type == DT_UNKNOWN) {
        struct stat info {};
        if (::fstatat(::dirfd(handle), name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISREG(info.st_mode) ? DT_REG : DT_LNK;
      }
      if (type == DT_DIR) {
        if (std::strcmp(name, ".git") == 0) continue;
        entries.emplace_back(name, true);
      } else if (type == DT_REG) {
        entries.emplace_back(name, false);
      } // symlinks, devices, sockets: not followed
    }
    ::closedir(handle);
    std::sort(entries.begin(), entries.end());
    const std::size_t depth = levels.size();
    bool has_ignore_file = false;
    for (const auto& [name, is_dir] : entries)
      if (!is_dir && name == ".gitignore") has_ignore_file = true;
    if (has_ignore_file) loadIgnore(root, relative, levels);
    for (const auto& [name, is_dir] : entries) {
      const std::string child = join(relative, name);
      if (ignored(levels, child, is_dir)) continue;
      if (is_dir) {
        walk(root, child, levels);
      } else if (options_.globs.admits(child)) {
        addFile(root + "/" + child);
      }
    }
    levels.resize(depth);
  }

  const WalkOptions& options_;
  WalkResult& result_;
  std::vector<std::string>& files_;
  std::unordered_set<std::string> seen_;
};

enum class Scan { Match, NoMatch, Binary, Large, Unreadable };

/// Reads and scans one file into `buffer`; `before` gets the descriptor's fstat from before the
/// read. O_NONBLOCK: a FIFO swapped in after the walk must not hang the open.
Scan scanFile(const std::string& path, const SearchMatcher& matcher, std::size_t max_bytes,
              std::string& buffer, struct stat& before) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return Scan::Unreadable;
  if (::fstat(fd, &before) != 0 || !S_ISREG(before.st_mode)) {
    ::close(fd);
    return Scan::Unreadable;
  }
  if (static_cast<std::size_t>(before.st_size) > max_bytes) {
    ::close(fd);
    return Scan::Large;
  }
  // One read of the expected size plus one byte: a short read of a regular file is its end (no
  // second read to see 0); a full one means it grew, and the rest is read.
  buffer.resize(static_cast<std::size_t>(before.st_size) + 1);
  std::size_t have = 0;
  for (;;) {
    if (have == buffer.size()) {
      if (buffer.size() > max_bytes) {
        ::close(fd);
        return Scan::Large;
      }
      buffer.resize(buffer.size() * 2 + 4096);
    }
    ssize_t got = ::read(fd, buffer.data() + have, buffer.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      ::close(fd);
      return Scan::Unreadable;
    }
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
    if (have < buffer.size()) break;
  }
  ::close(fd);
  buffer.resize(have);
  if (std::memchr(buffer.data(), '\0', std::min(have, kBinaryProbe)) != nullptr)
    return Scan::Binary;
  return matcher.anyMatch(buffer) ? Scan::Match : Scan::NoMatch;
}

} // namespace

WalkResult walkAndScan(const WalkOptions& options, const SearchMatcher& matcher) {
  WalkResult result;
  std::vector<std::string> files;
  Walker walker(options, result, files);
  for (const WalkScope& scope : options.scopes)
    walker.scope(scope);

  ::clock_gettime(CLOCK_REALTIME, &result.started);
  std::vector<Scan> outcomes(files.size(), Scan::NoMatch);
  std::size_t threads = options.threads;
  if (threads == 0) threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
  threads = std::max<std::size_t>(1, std::min(threads, files.size() / 64 + 1));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> kept_bytes{0};
  std::vector<std::unique_ptr<ScannedFile>> kept(files.size()); // the reads kept, by index
  auto work = [&] {
    std::string buffer;
    struct stat before {};
    for (;;) {
      // Small batches: fewer atomic operations, still balanced.
      const std::size_t begin = next.fetch_add(16, std::memory_order_relaxed);
      if (begin >= files.size()) return;
      const std::size_t end = std::min(files.size(), begin + 16);
      for (std::size_t i = begin; i < end; ++i) {
        outcomes[i] = scanFile(files[i], matcher, options.max_file_bytes, buffer, before);
        if (outcomes[i] != Scan::Match) continue;
        // Kept for the caller (no second read), while the budget lasts.
        const std::size_t size = buffer.size();
        if (kept_bytes.fetch_add(size, std::memory_order_relaxed) + size > options.keep_bytes) {
          kept_bytes.fetch_sub(size, std::memory_order_relaxed);
          continue;
        }
        kept[i] = std::make_unique<ScannedFile>();
        kept[i]->kept = true;
        kept[i]->bytes = std::move(buffer);
        kept[i]->before = before;
        buffer = std::string();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread& thread : pool)
    thread.join();

  result.files_scanned = files.size();
  for (std::size_t i = 0; i < files.size(); ++i) {
    switch (outcomes[i]) {
    case Scan::Match:
      if (!kept[i]) kept[i] = std::make_unique<ScannedFile>();
      kept[i]->real_path = std::move(files[i]);
      result.candidates.push_back(std::move(*kept[i]));
      break;
    case Scan::Binary:
      ++result.binary_skipped;
      break;
    case Scan::Large:
      ++result.large_skipped;
      break;
    case Scan::Unreadable:
      ++result.unreadable;
      break;
    case Scan::NoMatch:
      break;
    }
  }
  return result;
}

} // namespace hashline::context
