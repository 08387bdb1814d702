// The workspace search reads each disk file once: the scan's bytes go to the confined backend
// (DiskBackend::snapshotFromRead), which takes them only while the file is still the one read,
// unchanged and settled; everything else is read again exactly as snapshot() reads. In process:
// the backend seam on its own (reuse, a change of size, a same-size rewrite with its mtime put
// back, a file replaced by a symlink that escapes, a directory swapped for one, not text, gone),
// then whole searches whose files change between the scan and the answer (runSearch's
// after_scan), and the anchors of their hits used by an edit.
#include "../agent/agent_test_util.h"
#include "lsp/context/search_service.h"
#include "lsp/service/hashline_service.h"

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace hashline::test {
namespace {

using lsp::DiskRead;
using lsp::DocumentSnapshot;
using lsp::HashlineService;
using nlohmann::json;

/// What the scan keeps of a file: its bytes and the fstat from before the read.
struct ScanRead {
  std::string bytes;
  struct stat before {};
};

ScanRead readLikeTheScan(const std::string& path) {
  ScanRead read;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  EXPECT_GE(fd, 0) << path;
  EXPECT_EQ(::fstat(fd, &read.before), 0);
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;)
    read.bytes.append(buffer, static_cast<std::size_t>(got));
  ::close(fd);
  return read;
}

/// A clock reading far enough after the file's last change for its stat to prove it unchanged.
struct timespec settledAfter(const struct stat& info) {
  struct timespec since = info.st_ctim;
  since.tv_sec += 3;
  return since;
}

struct timespec now() {
  struct timespec time {};
  ::clock_gettime(CLOCK_REALTIME, &time);
  return time;
}

/// Rewrites `path` in place (same inode) with `bytes` and puts its old mtime back.
void rewriteKeepingMtime(const std::string& path, const std::string& bytes) {
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fd);
  const struct timespec times[2] = {info.st_atim, info.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

class SnapshotFromRead : public ::testing::Test {
protected:
  void SetUp() override { service = HashlineService::forDisk({sandbox.workspace()}); }

  lsp::ServiceTarget target(const std::string& relative) {
    lsp::DocumentRef ref;
    ref.path = sandbox.workspace() + "/" + relative;
    Result<lsp::ServiceTarget> located = service->locate(ref);
    EXPECT_TRUE(located.ok()) << relative;
    return *located;
  }
  Result<DocumentSnapshot> fromRead(const lsp::ServiceTarget& where, const ScanRead& read,
                                    const struct timespec& since, bool& reused) {
    return service->disk().snapshotFromRead(where, DiskRead{read.bytes, read.before, since},
                                            &reused);
  }

  AgentSandbox sandbox;
  std::unique_ptr<HashlineService> service;
};

TEST_F(SnapshotFromRead, AnUnchangedSettledFileIsTheScansBytesWithTheReadsVersion) {
  const std::string path = sandbox.write("src/a.txt", "alpha\nneedle\n");
  const ScanRead read = readLikeTheScan(path);
  const lsp::ServiceTarget where = target("src/a.txt");
  bool reused = false;
  Result<DocumentSnapshot> taken = fromRead(where, read, settledAfter(read.before), reused);
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  EXPECT_TRUE(reused);
  Result<DocumentSnapshot> again = service->backendFor(where).snapshot(where);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(taken->exists);
  EXPECT_EQ(taken->text.toString(), again->text.toString());
  EXPECT_EQ(taken->version, again->version);
  ASSERT_TRUE(taken->fingerprint && again->fingerprint);
  EXPECT_EQ(*taken->fingerprint, *again->fingerprint);
  EXPECT_TRUE(taken->fingerprint->sameStatAs(*again->fingerprint));
}

TEST_F(SnapshotFromRead, AFreshFileIsReadAgain) {
  const std::string path = sandbox.write("a.txt", "needle\n");
  const ScanRead read = readLikeTheScan(path);
  bool reused = true;
  Result<DocumentSnapshot> taken = fromRead(target("a.txt"), read, now(), reused);
  ASSERT_TRUE(taken.ok());
  EXPECT_FALSE(reused) << "changed less than kStatSlackNs before the read: stat proves nothing";
  EXPECT_EQ(taken->text.toString(), "needle\n");
}

TEST_F(SnapshotFromRead, AChangedFileIsReadAgain) {
  const std::string path = sandbox.write("a.txt", "needle one\n");
  const ScanRead read = readLikeTheScan(path);
  const struct timespec since = settledAfter(read.before);
  const lsp::ServiceTarget where = target("a.txt");
  sandbox.write("a.txt", "needle one, longer\n");
  bool reused = true;
  Result<DocumentSnapshot> taken = fromRead(where, read, since, reused);
  ASSERT_TRUE(taken.ok());
  EXPECT_FALSE(reused);
  EXPECT_EQ(taken->text.toString(), "needle one, longer\n");
  EXPECT_EQ(taken->version, service->backendFor(where).snapshot(where)->version);

  // Same size, same inode, the old mtime put back: the ctime still tells.
  const ScanRead second = readLikeTheScan(path);
  std::this_thread::sleep_for(std::chrono::milliseconds(30)); // past a timestamp tick
  rewriteKeepingMtime(path, "needle ONE, longer\n");
  taken = fromRead(where, second, settledAfter(second.before), reused);
  ASSERT_TRUE(taken.ok());
  EXPECT_FALSE(reused);
  EXPECT_EQ(taken->text.toString(), "needle ONE, longer\n");

  // Bytes that are not the whole file the stat describes: read again.
  ScanRead cut = readLikeTheScan(path);
  cut.bytes.pop_back();
  taken = fromRead(where, cut, settledAfter(cut.before), reused);
  ASSERT_TRUE(taken.ok());
  EXPECT_FALSE(reused);
  EXPECT_EQ(taken->text.toString(), "needle ONE, longer\n");
}

TEST_F(SnapshotFromRead, AFileReplacedByASymlinkThatEscapesIsRefused) {
  const std::string path = sandbox.write("a.txt", "needle\n");
  const ScanRead read = readLikeTheScan(path);
  const lsp::ServiceTarget where = target("a.txt");
  // The very same file, moved outside and linked back.
  const std::string moved = sandbox.outside() + "/a.txt";
  std::filesystem::create_directories(sandbox.outside());
  ASSERT_EQ(::rename(path.c_str(), moved.c_str()), 0);
  ASSERT_EQ(::symlink(moved.c_str(), path.c_str()), 0);
  bool reused = true;
  Result<DocumentSnapshot> taken = fromRead(where, read, settledAfter(read.before), reused);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().code, ErrorCode::OutsideWorkspace) << taken.error().message;
  EXPECT_FALSE(reused);
}

TEST_F(SnapshotFromRead, ADirectorySwappedForASymlinkIsRefusedEvenForTheSameInode) {
  const std::string path = sandbox.write("src/deep/a.txt", "needle\n");
  const ScanRead read = readLikeTheScan(path);
  const lsp::ServiceTarget where = target("src/deep/a.txt"); // confined before the swap
  std::filesystem::create_directories(sandbox.outside());
  const std::string moved = sandbox.outside() + "/deep";
  ASSERT_EQ(::rename((sandbox.workspace() + "/src/deep").c_str(), moved.c_str()), 0);
  ASSERT_EQ(::symlink(moved.c_str(), (sandbox.workspace() + "/src/deep").c_str()), 0);
  struct stat still {};
  ASSERT_EQ(::stat((moved + "/a.txt").c_str(), &still), 0);
  ASSERT_EQ(still.st_ino, read.before.st_ino) << "the file itself did not change";
  bool reused = true;
  Result<DocumentSnapshot> taken = fromRead(where, read, settledAfter(read.before), reused);
  ASSERT_FALSE(taken.ok()) << taken->text.toString();
  EXPECT_EQ(taken.error().code, ErrorCode::OutsideWorkspace) << taken.error().message;
  EXPECT_FALSE(reused);
}

TEST_F(SnapshotFromRead, NotTextAndGoneAreWhatAReadSays) {
  const std::string bad = sandbox.write("bad.txt", "needle \xFF\n");
  ScanRead read = readLikeTheScan(bad);
  bool reused = true;
  Result<DocumentSnapshot> taken =
      fromRead(target("bad.txt"), read, settledAfter(read.before), reused);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().code, ErrorCode::NotText);
  EXPECT_EQ(taken.error().data.path, service->locate({std::nullopt, bad})->path);

  const std::string late_nul = sandbox.write("late.txt", std::string(9000, 'x') + '\0' + "\n");
  read = readLikeTheScan(late_nul);
  taken = fromRead(target("late.txt"), read, settledAfter(read.before), reused);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().code, ErrorCode::NotText);

  const std::string gone = sandbox.write("gone.txt", "needle\n");
  read = readLikeTheScan(gone);
  const lsp::ServiceTarget where = target("gone.txt");
  ASSERT_EQ(::unlink(gone.c_str()), 0);
  taken = fromRead(where, read, settledAfter(read.before), reused);
  ASSERT_TRUE(taken.ok());
  EXPECT_FALSE(taken->exists);
  EXPECT_FALSE(reused);
}

// ---- whole searches ----------------------------------------------------------------------------

class SearchReadOnce : public ::testing::Test {
protected:
  void SetUp() override { service = HashlineService::forDisk({sandbox.workspace()}); }

  json search(const std::string& pattern, const std::function<void()>& after_scan,
              bool literal = false) {
    context::SearchRequest request;
    request.pattern = pattern;
    request.literal = literal;
    request.caller.session = "s";
    json result;
    context::runSearch(
        *service, request,
        [&](lsp::ServiceOutcome outcome) {
          result = std::holds_alternative<json>(outcome)
                       ? std::get<json>(outcome)
                       : json{{"rpcError", std::get<lsp::RpcError>(outcome).message}};
        },
        after_scan);
    return result;
  }
  json call(const std::string& method, json params) {
    json result;
    service->call(method, std::move(params), [&](lsp::ServiceOutcome outcome) {
      result = std::holds_alternative<json>(outcome)
                   ? std::get<json>(outcome)
                   : json{{"rpcError", std::get<lsp::RpcError>(outcome).message}};
    });
    return result;
  }
  /// The search's file entry for `relative` (null when it has none).
  json fileOf(const json& result, const std::string& relative) {
    for (const json& file : result["files"])
      if (file.value("path", std::string()) == sandbox.workspace() + "/" + relative) return file;
    return nullptr;
  }

  AgentSandbox sandbox;
  std::unique_ptr<HashlineService> service;
};

TEST_F(SearchReadOnce, FilesChangedBetweenTheScanAndTheAnswerAreAnsweredAsTheyAreNow) {
  sandbox.write("same_size.txt", "x\nneedle one\ny\n");
  sandbox.write("grown.txt", "needle two\n");
  sandbox.write("lost_it.txt", "needle three\n");
  sandbox.write("deleted.txt", "needle four\n");
  sandbox.write("kept.txt", "a\r\nneedle five\r\nneedle six");
  sandbox.write("escapes.txt", "needle seven\n");
  sandbox.write(sandbox.outside() + "/secret.txt", "needle outside\n");
  // Settled: the stat test is what decides (not only the freshness guard).
  std::this_thread::sleep_for(std::chrono::nanoseconds(lsp::DiskBackend::kStatSlackNs) +
                              std::chrono::milliseconds(200));
  const std::string ws = sandbox.workspace();
  json result = search("needle", [&] {
    rewriteKeepingMtime(ws + "/same_size.txt", "x\nneedle ONE\ny\n");
    sandbox.write("grown.txt", "new first line\nneedle two, grown\n");
    sandbox.write("lost_it.txt", "nothing here\n");
    ::unlink((ws + "/deleted.txt").c_str());
    ::unlink((ws + "/escapes.txt").c_str());
    ::symlink((sandbox.outside() + "/secret.txt").c_str(), (ws + "/escapes.txt").c_str());
  });
  ASSERT_EQ(result["status"], "ok") << result.dump();
  EXPECT_EQ(result["files"].size(), 3u) << result.dump(1);

  json same = fileOf(result, "same_size.txt");
  ASSERT_FALSE(same.is_null()) << result.dump(1);
  ASSERT_EQ(same["lines"].size(), 1u);
  EXPECT_EQ(same["lines"][0]["line"], 2);
  EXPECT_EQ(same["lines"][0]["text"], "needle ONE") << "the text now, not the scan's";
  json grown = fileOf(result, "grown.txt");
  ASSERT_FALSE(grown.is_null());
  EXPECT_EQ(grown["lines"][0]["line"], 2);
  EXPECT_EQ(grown["lines"][0]["text"], "needle two, grown");
  json kept = fileOf(result, "kept.txt");
  ASSERT_FALSE(kept.is_null());
  ASSERT_EQ(kept["lines"].size(), 2u);
  EXPECT_EQ(kept["lines"][1]["line"], 3);
  EXPECT_EQ(kept["lines"][1]["text"], "needle six");
  EXPECT_TRUE(fileOf(result, "lost_it.txt").is_null());
  EXPECT_TRUE(fileOf(result, "deleted.txt").is_null());
  EXPECT_TRUE(fileOf(result, "escapes.txt").is_null()) << "never the outside file's text";

  // Each hit is a read: same version and rows as `read`, and an anchored edit can follow it.
  for (const char* name : {"same_size.txt", "grown.txt", "kept.txt"}) {
    json read = call("read", {{"path", ws + "/" + name}, {"session", "other"}});
    ASSERT_EQ(read["status"], "ok") << read.dump();
    json hit = fileOf(result, name);
    EXPECT_EQ(hit["version"], read["version"]) << name;
    for (const json& row : hit["lines"])
      EXPECT_EQ(row, read["lines"][row["line"].get<int>() - 1]) << name;
  }
  json edit = call("edit", {{"path", ws + "/same_size.txt"},
                            {"session", "s"},
                            {"edits", json::array({{{"op", "replace"},
                                                    {"anchor", same["lines"][0]["anchor"]},
                                                    {"content", "needle edited"}}})}});
  EXPECT_EQ(edit["status"], "applied") << edit.dump();
  EXPECT_EQ(sandbox.read("same_size.txt"), "x\nneedle edited\ny\n");
  json crlf = call("edit", {{"path", ws + "/kept.txt"},
                            {"session", "s"},
                            {"edits", json::array({{{"op", "replace"},
                                                    {"anchor", kept["lines"][1]["anchor"]},
                                                    {"content", "needle 6"}}})}});
  EXPECT_EQ(crlf["status"], "applied") << crlf.dump();
  EXPECT_EQ(sandbox.read("kept.txt"), "a\r\nneedle five\r\nneedle 6");
}

TEST_F(SearchReadOnce, AHitFromTheScansBytesIsObserved_AChangeOfItsLineIsStale) {
  sandbox.write("a.txt", "needle\nother\n");
  sandbox.write("b.txt", "needle\nother\n");
  std::this_thread::sleep_for(std::chrono::nanoseconds(lsp::DiskBackend::kStatSlackNs) +
                              std::chrono::milliseconds(200));
  json result = search("needle", {}, true);
  ASSERT_EQ(result["hitCount"], 2) << result.dump();
  const json a = fileOf(result, "a.txt")["lines"][0];
  const json b = fileOf(result, "b.txt")["lines"][0];
  auto replace = [&](const char* name, const json& row) {
    return call(
        "edit",
        {{"path", sandbox.workspace() + "/" + name},
         {"session", "s"},
         {"edits",
          json::array({{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", "needle 2"}}})}});
  };
  json edit = replace("a.txt", a);
  EXPECT_EQ(edit["status"], "applied") << edit.dump();
  EXPECT_EQ(sandbox.read("a.txt"), "needle 2\nother\n");
  sandbox.write("b.txt", "needle!\nother\n"); // the hit's line changed after the search
  json stale = replace("b.txt", b);
  EXPECT_EQ(stale["status"], "refused") << stale.dump();
  EXPECT_EQ(stale["error"]["code"], "STALE_ANCHOR") << stale.dump();
  EXPECT_EQ(sandbox.read("b.txt"), "needle!\nother\n");
}

TEST_F(SearchReadOnce, BinaryAndNotTextFilesAreStillSkipped) {
  sandbox.write("blob.bin", std::string("needle\0binary\n", 14));
  sandbox.write("late_nul.txt", "needle\n" + std::string(9000, 'x') + '\0' + "\n");
  sandbox.write("latin1.txt", "needle caf\xE9\n");
  sandbox.write("ok.txt", "needle\n");
  json result = search("needle", {});
  ASSERT_EQ(result["status"], "ok") << result.dump();
  EXPECT_EQ(result["files"].size(), 1u) << result.dump(1);
  EXPECT_FALSE(fileOf(result, "ok.txt").is_null());
  EXPECT_EQ(result["searched"]["binarySkipped"], 1);
  EXPECT_EQ(result["searched"]["notText"], 2);
}

} // namespace
} // namespace hashline::test
