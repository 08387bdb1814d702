// Failure paths of atomic writes leave nothing behind: injected errors at every phase, a
// read-only directory, a file-size limit hit mid-write, and kills (SIGKILL) at every phase —
// after which the target is wholly old or wholly new and the sweep removes any named temp.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/temp_file.h"
#include "lsp/platform/build_variant.h"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::listDir;
using testing::readRaw;
using testing::TempDir;
using testing::tempLitter;
using testing::writeRaw;

const char* phaseName(WritePhase phase) {
  switch (phase) {
  case WritePhase::TempCreated:
    return "TempCreated";
  case WritePhase::TempWritten:
    return "TempWritten";
  case WritePhase::TempSynced:
    return "TempSynced";
  case WritePhase::TempNamed:
    return "TempNamed";
  case WritePhase::Checked:
    return "Checked";
  case WritePhase::Published:
    return "Published";
  case WritePhase::DirectorySynced:
    return "DirectorySynced";
  }
  return "?";
}

class AtomicFailureTest : public ::testing::TestWithParam<bool> {
protected:
  WriteOptions options() const {
    WriteOptions result;
    result.use_tmpfile = GetParam();
    return result;
  }
  TempDir dir;
};

INSTANTIATE_TEST_SUITE_P(TempStrategies, AtomicFailureTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Tmpfile" : "NamedTemp"; });

TEST_P(AtomicFailureTest, AnErrorAtAnyPhaseBeforePublicationWritesNothing) {
  std::string path = dir / "file.txt";
  for (WritePhase failing : {WritePhase::TempCreated, WritePhase::TempWritten,
                             WritePhase::TempSynced, WritePhase::TempNamed, WritePhase::Checked}) {
    SCOPED_TRACE(phaseName(failing));
    writeRaw(path, "old\n");
    auto read = readTextFile(path);
    ASSERT_TRUE(read.ok());
    WriteOptions opts = options();
    opts.expected = read->fingerprint;
    opts.on_phase = [&](WritePhase phase) {
      return phase == failing ? Status(Error::make(ErrorCode::IoError, "injected"))
                              : Status::success();
    };
    auto written = atomicReplace(path, "new\n", opts);
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().message, "injected");
    EXPECT_EQ(readRaw(path), "old\n");
    EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
  }
}

TEST_P(AtomicFailureTest, AnErrorReportedAfterPublicationDoesNotUndoTheWrite) {
  std::string path = dir / "file.txt";
  writeRaw(path, "old\n");
  WriteOptions opts = options();
  opts.on_phase = [](WritePhase phase) {
    return phase >= WritePhase::Published ? Status(Error::make(ErrorCode::IoError, "late"))
                                          : Status::success();
  };
  auto written = atomicReplace(path, "new\n", opts);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(readRaw(path), "new\n");
}

TEST_P(AtomicFailureTest, ReadOnlyDirectoryFailsWithoutLitter) {
  std::string ro = dir / "ro";
  ASSERT_EQ(::mkdir(ro.c_str(), 0755), 0);
  std::string path = ro + "/file.txt";
  writeRaw(path, "old\n", 0666); // the file itself is writable; its directory is not
  if (::geteuid() != 0) {
    ASSERT_EQ(::chmod(ro.c_str(), 0555), 0);
  }
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  bool use_tmpfile = GetParam();
  int code = testing::runInChildAsNobody([&] {
    WriteOptions opts;
    opts.use_tmpfile = use_tmpfile;
    opts.take_lock = false; // the test's runtime directory belongs to the parent's user
    auto replaced = atomicReplace(path, "new\n", opts);
    if (replaced.ok()) return 1;
    if (replaced.error().code != ErrorCode::IoError) return 2;
    if (replaced.error().message.find("Permission denied") == std::string::npos) return 3;
    auto created = atomicCreate(ro + "/other.txt", "x", opts);
    if (created.ok() || created.error().code != ErrorCode::IoError) return 4;
    auto deleted = atomicDelete(path, opts);
    if (deleted.ok() || deleted.error().code != ErrorCode::IoError) return 5;
    return 0;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(readRaw(path), "old\n");
  EXPECT_EQ(listDir(ro), std::vector<std::string>{"file.txt"});
}

TEST_P(AtomicFailureTest, FileSizeLimitHitMidWriteLeavesTheOldFile) {
  std::string path = dir / "file.txt";
  writeRaw(path, "old\n");
  bool use_tmpfile = GetParam();
  int code = testing::runInChild([&] {
    ::signal(SIGXFSZ, SIG_IGN); // write then fails with EFBIG instead of killing us
    struct rlimit limit {
      4096, 4096
    };
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
    WriteOptions opts;
    opts.use_tmpfile = use_tmpfile;
    auto written = atomicReplace(path, std::string(100'000, 'n'), opts);
    if (written.ok()) return 1;
    if (written.error().code != ErrorCode::IoError) return 2;
    if (written.error().message.find("File too large") == std::string::npos) return 3;
    auto created = atomicCreate(dir / "big.txt", std::string(100'000, 'n'), opts);
    if (created.ok() || created.error().code != ErrorCode::IoError) return 4;
    return 0;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(readRaw(path), "old\n");
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
}

TEST_P(AtomicFailureTest, KilledAtEveryPhaseTheFileIsWhollyOldOrNewAndTheSweepCleansUp) {
  const bool use_tmpfile = GetParam();
  std::string path = dir / "file.txt";
  for (WritePhase kill_at : {WritePhase::TempCreated, WritePhase::TempWritten,
                             WritePhase::TempSynced, WritePhase::TempNamed, WritePhase::Checked,
                             WritePhase::Published, WritePhase::DirectorySynced}) {
    SCOPED_TRACE(phaseName(kill_at));
    writeRaw(path, "old\n");
    int code = testing::runInChild([&] {
      WriteOptions opts;
      opts.use_tmpfile = use_tmpfile;
      opts.on_phase = [&](WritePhase phase) {
        if (phase == kill_at) ::raise(SIGKILL);
        return Status::success();
      };
      return atomicReplace(path, "new\n", opts).ok() ? 0 : 1;
    });
    ASSERT_EQ(code, 128 + SIGKILL);
    bool published = kill_at >= WritePhase::Published;
    EXPECT_EQ(readRaw(path), published ? "new\n" : "old\n");
    // An unnamed O_TMPFILE (Linux only) dies with its writer; a named temp waits for the sweep.
    const bool unnamed = use_tmpfile && platform::linuxNativeCalls();
    bool named = !published && (!unnamed || kill_at >= WritePhase::TempNamed);
    EXPECT_EQ(tempLitter(dir.path()).size(), named ? 1u : 0u);
    EXPECT_EQ(sweepStaleTemps(dir.path()), named ? 1u : 0u);
    EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
    EXPECT_EQ(readRaw(path), published ? "new\n" : "old\n");
  }
}

TEST_P(AtomicFailureTest, KilledCreateLeavesNoFileAndNoDirectoriesBehindTheSweep) {
  const bool use_tmpfile = GetParam();
  int code = testing::runInChild([&] {
    WriteOptions opts;
    opts.use_tmpfile = use_tmpfile;
    opts.on_phase = [](WritePhase phase) {
      if (phase == WritePhase::Checked) ::raise(SIGKILL);
      return Status::success();
    };
    return atomicCreate(dir / "new.txt", "content\n", opts).ok() ? 0 : 1;
  });
  ASSERT_EQ(code, 128 + SIGKILL);
  const bool unnamed = use_tmpfile && platform::linuxNativeCalls();
  EXPECT_EQ(sweepStaleTemps(dir.path()), unnamed ? 0u : 1u);
  EXPECT_TRUE(listDir(dir.path()).empty());
}

TEST_P(AtomicFailureTest, TheSweepLeavesALiveWritersTempAlone) {
  const bool use_tmpfile = GetParam();
  std::string path = dir / "file.txt";
  writeRaw(path, "old\n");
  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ready[0]);
    ::close(go[1]);
    WriteOptions opts;
    opts.use_tmpfile = use_tmpfile;
    opts.on_phase = [&](WritePhase phase) {
      if (phase == WritePhase::TempNamed) {
        char byte = 'r';
        (void)!::write(ready[1], &byte, 1);
        (void)!::read(go[0], &byte, 1); // paused with a named, locked temp
      }
      return Status::success();
    };
    ::_exit(atomicReplace(path, "new\n", opts).ok() ? 0 : 1);
  }
  ::close(ready[1]);
  ::close(go[0]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ASSERT_EQ(tempLitter(dir.path()).size(), 1u);
  EXPECT_EQ(sweepStaleTemps(dir.path()), 0u);
  EXPECT_EQ(tempLitter(dir.path()).size(), 1u);
  ::close(go[1]); // let the writer finish
  EXPECT_EQ(testing::waitExitCode(pid), 0);
  ::close(ready[0]);
  EXPECT_EQ(readRaw(path), "new\n");
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
}

TEST(SweepStaleTemps, RemovesOnlyOurStaleRegularTemps) {
  TempDir dir;
  writeRaw(dir / "notes.txt", "mine\n");
  writeRaw(dir / ".hashline-tmp.", "bare prefix is not ours\n");
  writeRaw(dir / ".hashline-tmp.file.txt.0123456789abcdef", "stale\n");
  ASSERT_EQ(::mkdir((dir / ".hashline-tmp.dir").c_str(), 0700), 0);
  ASSERT_EQ(::symlink("notes.txt", (dir / ".hashline-tmp.link").c_str()), 0);
  EXPECT_EQ(sweepStaleTemps(dir.path()), 1u);
  EXPECT_EQ(listDir(dir.path()), (std::vector<std::string>{".hashline-tmp.", ".hashline-tmp.dir",
                                                           ".hashline-tmp.link", "notes.txt"}));
  EXPECT_EQ(sweepStaleTemps(dir / "does-not-exist"), 0u);
}

TEST(SweepStaleTemps, RemovesStaleTempsWithAWriteOnlyMode) {
  // A temp gets its target's mode before publication; a write-only one must still be sweepable
  // by its (unprivileged) owner, who cannot open it for reading.
  TempDir dir;
  std::string temp = dir / ".hashline-tmp.log.txt.00000000cafef00d";
  writeRaw(temp, "stale\n", 0200);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(temp.c_str(), 65534, 65534), 0);
  }
  int code = testing::runInChildAsNobody([&] { return sweepStaleTemps(dir.path()) == 1 ? 0 : 1; });
  EXPECT_EQ(code, 0);
  EXPECT_TRUE(listDir(dir.path()).empty());
}

TEST(SweepStaleTemps, TheNextRunsFirstWriteSweepsTheDirectory) {
  TempDir dir;
  writeRaw(dir / "file.txt", "old\n");
  writeRaw(dir / ".hashline-tmp.file.txt.00000000deadbeef", "left by a crash\n");
  // A fresh process (the "next run") writing anywhere in that directory sweeps it first.
  int code =
      testing::runInChild([&] { return atomicReplace(dir / "file.txt", "new\n").ok() ? 0 : 1; });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
}

} // namespace
} // namespace hashline::disk
