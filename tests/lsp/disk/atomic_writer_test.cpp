// Atomic replace / create / delete / move on real files, through both temp strategies
// (O_TMPFILE and the O_EXCL named fallback): exact bytes, mode and owner, symlinks, staleness.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"
#include "lsp/platform/build_variant.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::fileMode;
using testing::listDir;
using testing::readRaw;
using testing::TempDir;
using testing::tempLitter;
using testing::writeRaw;

class AtomicWriterTest : public ::testing::TestWithParam<bool> {
protected:
  WriteOptions options(std::optional<Fingerprint> expected = std::nullopt) const {
    WriteOptions result;
    result.use_tmpfile = GetParam();
    result.expected = std::move(expected);
    return result;
  }
  Fingerprint fingerprintOfFile(const std::string& path) {
    auto snapshot = readFileBytes(path);
    EXPECT_TRUE(snapshot.ok());
    return snapshot.ok() ? snapshot->fingerprint : Fingerprint{};
  }
  ino_t inodeOf(const std::string& path) {
    struct stat file_stat {};
    EXPECT_EQ(::stat(path.c_str(), &file_stat), 0);
    return file_stat.st_ino;
  }

  TempDir dir;
};

INSTANTIATE_TEST_SUITE_P(TempStrategies, AtomicWriterTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Tmpfile" : "NamedTemp"; });

TEST_P(AtomicWriterTest, ReplaceWritesExactBytesByRenamingANewInode) {
  const std::vector<std::string> contents = {
      "a\r\nB\r\nc\r\n",
      "a\r\nb\nc\r\n",
      "\xEF\xBB\xBF"
      "first\nsecond",
      "",
      "no newline",
      std::string(3'000'000, 'x') + "\r\n",
      "lone\rcr\r",
  };
  std::string path = dir / "file.txt";
  writeRaw(path, "original\n");
  for (const auto& content : contents) {
    ino_t old_inode = inodeOf(path);
    auto written = atomicReplace(path, content, options(fingerprintOfFile(path)));
    ASSERT_TRUE(written.ok()) << written.error().message;
    EXPECT_EQ(readRaw(path), content);
    EXPECT_NE(inodeOf(path), old_inode) << "an atomic replace publishes a new inode";
    EXPECT_EQ(written->path, path);
    // Only Linux has unnamed temps; the portable build names every temp.
    EXPECT_EQ(written->used_tmpfile, GetParam() && platform::linuxNativeCalls());
    EXPECT_TRUE(written->directory_synced);
    EXPECT_EQ(written->fingerprint, fingerprintOfFile(path));
    EXPECT_EQ(written->fingerprint.inode, inodeOf(path));
  }
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
}

TEST_P(AtomicWriterTest, ReplaceKeepsTheMode) {
  for (mode_t mode : {0640, 0755, 0600, 0444, 02750}) {
    std::string path = dir / ("mode-" + std::to_string(mode));
    writeRaw(path, "old\n", mode);
    ASSERT_EQ(fileMode(path), mode);
    auto written = atomicReplace(path, "new\n", options());
    ASSERT_TRUE(written.ok()) << written.error().message;
    EXPECT_EQ(fileMode(path), mode);
    EXPECT_EQ(readRaw(path), "new\n");
  }
}

TEST_P(AtomicWriterTest, ReplaceKeepsTheOwnerWhenRoot) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can give files away";
  std::string path = dir / "owned.txt";
  writeRaw(path, "old\n", 0664);
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  auto written = atomicReplace(path, "new\n", options());
  ASSERT_TRUE(written.ok()) << written.error().message;
  struct stat file_stat {};
  ASSERT_EQ(::stat(path.c_str(), &file_stat), 0);
  EXPECT_EQ(file_stat.st_uid, 65534u);
  EXPECT_EQ(file_stat.st_gid, 65534u);
  EXPECT_EQ(file_stat.st_mode & 07777, 0664u);
}

TEST_P(AtomicWriterTest, ReplaceKeepsExtendedAttributes) {
  std::string path = dir / "tagged.txt";
  writeRaw(path, "old\n");
  if (::setxattr(path.c_str(), "user.hashline.test", "kept", 4, 0) != 0)
    GTEST_SKIP() << "this filesystem has no user extended attributes";
  auto written = atomicReplace(path, "new\n", options());
  ASSERT_TRUE(written.ok()) << written.error().message;
  char value[16] = {};
  ASSERT_EQ(::getxattr(path.c_str(), "user.hashline.test", value, sizeof value), 4);
  EXPECT_STREQ(value, "kept");
}

TEST_P(AtomicWriterTest, SymlinkIsEditedThroughAndStaysALink) {
  ASSERT_EQ(::mkdir((dir / "real").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((dir / "links").c_str(), 0755), 0);
  std::string target = dir / "real/target.txt";
  std::string link = dir / "links/alias.txt";
  writeRaw(target, "before\n");
  ASSERT_EQ(::symlink("../real/target.txt", link.c_str()), 0);

  auto read = readTextFile(link);
  ASSERT_TRUE(read.ok());
  auto written = atomicReplace(link, "after\n", options(read->fingerprint));
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(written->path, target);

  struct stat link_stat {};
  ASSERT_EQ(::lstat(link.c_str(), &link_stat), 0);
  EXPECT_TRUE(S_ISLNK(link_stat.st_mode));
  char buffer[256] = {};
  ASSERT_GT(::readlink(link.c_str(), buffer, sizeof buffer - 1), 0);
  EXPECT_STREQ(buffer, "../real/target.txt");
  EXPECT_EQ(readRaw(target), "after\n");
  EXPECT_EQ(readRaw(link), "after\n");
  EXPECT_TRUE(tempLitter(dir / "real").empty());
  EXPECT_TRUE(tempLitter(dir / "links").empty());
}

TEST_P(AtomicWriterTest, StaleWhenTheFileChangedBetweenReadAndCommit) {
  std::string path = dir / "file.txt";
  writeRaw(path, "v1\n");
  auto read = readTextFile(path);
  ASSERT_TRUE(read.ok());
  writeRaw(path, "v2 by the user\n"); // someone else writes after our read
  auto written = atomicReplace(path, "v3 by the agent\n", options(read->fingerprint));
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(written.error().data.path, path);
  EXPECT_EQ(readRaw(path), "v2 by the user\n");
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"file.txt"});
}

TEST_P(AtomicWriterTest, StaleWhenTheFileChangesDuringTheWrite) {
  // The change lands after our temp is written, right before the last-moment check.
  std::string path = dir / "file.txt";
  writeRaw(path, "v1\n");
  auto read = readTextFile(path);
  ASSERT_TRUE(read.ok());
  WriteOptions opts = options(read->fingerprint);
  opts.on_phase = [&](WritePhase phase) {
    if (phase == WritePhase::TempSynced) writeRaw(path, "v2 sneaked in\n");
    return Status::success();
  };
  auto written = atomicReplace(path, "v3\n", opts);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(path), "v2 sneaked in\n");
  EXPECT_TRUE(tempLitter(dir.path()).empty());
}

TEST_P(AtomicWriterTest, TouchedButUnchangedIsNotStale) {
  std::string path = dir / "file.txt";
  writeRaw(path, "same\n");
  auto read = readTextFile(path);
  ASSERT_TRUE(read.ok());
  struct timespec later[2] = {{2'000'000'000, 0}, {2'000'000'000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), later, 0), 0);
  // ... and rewritten with identical bytes through a new inode, as a formatter would.
  writeRaw(dir / "copy", "same\n");
  ASSERT_EQ(::rename((dir / "copy").c_str(), path.c_str()), 0);
  auto written = atomicReplace(path, "changed\n", options(read->fingerprint));
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(readRaw(path), "changed\n");
}

TEST_P(AtomicWriterTest, StaleWhenTheFileWasDeletedSinceRead) {
  std::string path = dir / "file.txt";
  writeRaw(path, "v1\n");
  auto read = readTextFile(path);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(::unlink(path.c_str()), 0);
  auto written = atomicReplace(path, "v2\n", options(read->fingerprint));
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::StaleVersion);
  EXPECT_TRUE(listDir(dir.path()).empty());
}

TEST_P(AtomicWriterTest, ReplaceRefusesMissingFilesAndDirectories) {
  auto missing = atomicReplace(dir / "nope.txt", "x", options());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::FileNotFound);
  ASSERT_EQ(::mkdir((dir / "sub").c_str(), 0755), 0);
  auto directory = atomicReplace(dir / "sub", "x", options());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().code, ErrorCode::IoError);
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"sub"});
}

TEST_P(AtomicWriterTest, ChainedWritesUseTheReturnedFingerprint) {
  std::string path = dir / "file.txt";
  writeRaw(path, "1\n");
  auto first = atomicReplace(path, "2\n", options(fingerprintOfFile(path)));
  ASSERT_TRUE(first.ok());
  auto second = atomicReplace(path, "3\n", options(first->fingerprint));
  ASSERT_TRUE(second.ok()) << second.error().message;
  // The first fingerprint is now outdated.
  auto third = atomicReplace(path, "4\n", options(first->fingerprint));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(path), "3\n");
}

TEST_P(AtomicWriterTest, RelativePathsAreTakenFromTheCurrentDirectory) {
  writeRaw(dir / "rel.txt", "old");
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(dir.path().c_str()), 0);
  auto written = atomicReplace("rel.txt", "new", options());
  ASSERT_EQ(::chdir(cwd), 0);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(written->path, dir / "rel.txt");
  EXPECT_EQ(readRaw(dir / "rel.txt"), "new");
}

TEST_P(AtomicWriterTest, CreateMakesANewFileWithParents) {
  std::string path = dir / "new/nested/file.txt";
  auto created = atomicCreate(path, "hello\r\nworld", options());
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(readRaw(path), "hello\r\nworld");
  EXPECT_EQ(created->fingerprint, fingerprintOfFile(path));
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(fileMode(path), 0666 & ~mask);
  EXPECT_EQ(listDir(dir / "new/nested"), std::vector<std::string>{"file.txt"});
}

TEST_P(AtomicWriterTest, CreateRefusesAnExistingFile) {
  std::string path = dir / "exists.txt";
  writeRaw(path, "keep me\n");
  auto created = atomicCreate(path, "clobber\n", options());
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(path), "keep me\n");
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"exists.txt"});
}

TEST_P(AtomicWriterTest, CreateIsNoReplaceEvenWhenTheFileAppearsMidWrite) {
  std::string path = dir / "race.txt";
  WriteOptions opts = options();
  opts.on_phase = [&](WritePhase phase) {
    if (phase == WritePhase::TempSynced) writeRaw(path, "someone else's\n");
    return Status::success();
  };
  auto created = atomicCreate(path, "ours\n", opts);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(path), "someone else's\n");
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"race.txt"});
}

TEST_P(AtomicWriterTest, CreateThroughADanglingSymlinkCreatesItsTarget) {
  ASSERT_EQ(::symlink("target.txt", (dir / "link.txt").c_str()), 0);
  auto created = atomicCreate(dir / "link.txt", "via link\n", options());
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(created->path, dir / "target.txt");
  struct stat link_stat {};
  ASSERT_EQ(::lstat((dir / "link.txt").c_str(), &link_stat), 0);
  EXPECT_TRUE(S_ISLNK(link_stat.st_mode));
  EXPECT_EQ(readRaw(dir / "target.txt"), "via link\n");
}

TEST_P(AtomicWriterTest, FailedCreateRemovesTheDirectoriesItMade) {
  WriteOptions opts = options();
  opts.on_phase = [](WritePhase phase) {
    return phase == WritePhase::TempWritten
               ? Status(Error::make(ErrorCode::IoError, "injected failure"))
               : Status::success();
  };
  auto created = atomicCreate(dir / "a/b/c.txt", "x", opts);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().message, "injected failure");
  EXPECT_TRUE(listDir(dir.path()).empty());
}

TEST_P(AtomicWriterTest, DeleteRemovesAMatchingFile) {
  std::string path = dir / "doomed.txt";
  writeRaw(path, "bye\n");
  auto status = atomicDelete(path, options(fingerprintOfFile(path)));
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_TRUE(listDir(dir.path()).empty());
}

TEST_P(AtomicWriterTest, DeleteIsStaleWhenTheFileChanged) {
  std::string path = dir / "doomed.txt";
  writeRaw(path, "bye\n");
  Fingerprint read = fingerprintOfFile(path);
  writeRaw(path, "wait, I changed\n");
  auto status = atomicDelete(path, options(read));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(path), "wait, I changed\n");

  auto missing = atomicDelete(dir / "never.txt", options());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::FileNotFound);
}

TEST_P(AtomicWriterTest, MoveWritesTheDestinationAndRemovesTheSource) {
  std::string from = dir / "old.sh";
  writeRaw(from, "echo old\n", 0750);
  auto moved =
      atomicMove(from, dir / "bin/new.sh", "echo new\r\n", options(fingerprintOfFile(from)));
  ASSERT_TRUE(moved.ok()) << moved.error().message;
  EXPECT_EQ(moved->path, dir / "bin/new.sh");
  EXPECT_EQ(readRaw(dir / "bin/new.sh"), "echo new\r\n");
  EXPECT_EQ(fileMode(dir / "bin/new.sh"), 0750u);
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"bin"});
  EXPECT_EQ(listDir(dir / "bin"), std::vector<std::string>{"new.sh"});
}

TEST_P(AtomicWriterTest, MoveNeverReplacesAndChecksTheSource) {
  std::string from = dir / "a.txt";
  std::string to = dir / "b.txt";
  writeRaw(from, "a\n");
  writeRaw(to, "b\n");
  auto onto_existing = atomicMove(from, to, "a2\n", options(fingerprintOfFile(from)));
  ASSERT_FALSE(onto_existing.ok());
  EXPECT_EQ(onto_existing.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(from), "a\n");
  EXPECT_EQ(readRaw(to), "b\n");

  Fingerprint read = fingerprintOfFile(from);
  writeRaw(from, "a changed\n");
  auto stale = atomicMove(from, dir / "c.txt", "a2\n", options(read));
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, ErrorCode::StaleVersion);
  EXPECT_EQ(readRaw(from), "a changed\n");
  EXPECT_EQ(listDir(dir.path()), (std::vector<std::string>{"a.txt", "b.txt"}));
}

} // namespace
} // namespace hashline::disk
