// Atomic writes where /proc is missing or odd (a chroot without /proc; debootstrap --foreign
// leaves /proc a link to itself, where every path through it fails with ELOOP). Linux publishes
// an unnamed temp by linking /proc/self/fd/N; without a usable /proc it links the descriptor
// (AT_EMPTY_PATH), and where the kernel refuses that too, the temp's bytes, mode and attributes
// move to a named temp that is renamed — and the process makes named temps from then on.
//  - In a child with its own mount namespace whose /proc is a self-referencing link: replace,
//    create and move publish exact bytes (the real ELOOP path, whatever fallback the kernel
//    allows).
//  - With the last fallback forced (platform::refuseUnnamedLinks once the unnamed temp exists):
//    the same, the mode and extended attributes kept, no temp left behind.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/platform/atomic_files.h"

#include <cerrno>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::fileMode;
using testing::listDir;
using testing::readRaw;
using testing::runInChild;
using testing::TempDir;
using testing::writeRaw;

// Writes "0", "deny" to /proc/self/setgroups etc. (a user namespace's id maps).
bool writeProcFile(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// In this (single-threaded, forked) process: a mount namespace of its own — with a user
// namespace when we are not root — whose /proc is a tmpfs holding `self -> self`. Returns 0, or
// a child exit code saying which step failed.
int hideProc() {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWNS) != 0) {
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return 90; // no namespaces here
    if (!writeProcFile("/proc/self/setgroups", "deny") ||
        !writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"))
      return 91;
  }
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 92;
  if (::mount("tmpfs", "/proc", "tmpfs", 0, "mode=0755") != 0) return 93;
  if (::symlink("self", "/proc/self") != 0) return 94;
  char target[64];
  if (::readlink("/proc/self/fd/0", target, sizeof target) >= 0 || errno != ELOOP) return 95;
  return 0;
}

// Replace, create and move in `dir`; 0 when every file holds what it should.
int writeEverything(const std::string& dir) {
  const std::string replaced = dir + "/replaced.txt", created = dir + "/sub/created.txt",
                    moved_from = dir + "/from.txt", moved_to = dir + "/to.txt";
  writeRaw(replaced, "old\n", 0640);
  writeRaw(moved_from, "moving\n");
  if (!atomicReplace(replaced, "new\r\nbytes\n").ok()) return 10;
  if (readRaw(replaced) != "new\r\nbytes\n" || fileMode(replaced) != 0640) return 11;
  WriteOptions create;
  create.create_mode = 0600;
  if (!atomicCreate(created, "created\n", create).ok()) return 12;
  if (readRaw(created) != "created\n" || fileMode(created) != 0600) return 13;
  if (atomicCreate(created, "again\n").ok()) return 14; // never replaces
  if (!atomicMove(moved_from, moved_to, "moved\n").ok()) return 15;
  if (::access(moved_from.c_str(), F_OK) == 0 || readRaw(moved_to) != "moved\n") return 16;
  if (listDir(dir) != std::vector<std::string>{"replaced.txt", "sub", "to.txt"}) return 17;
  return 0;
}

class NoProcWriteTest : public ::testing::Test {
protected:
  void TearDown() override { platform::refuseUnnamedLinks(false); }

  // Options that take an unnamed temp, then refuse to link it (as where neither /proc nor
  // AT_EMPTY_PATH can), so the write must move it to a named temp.
  static WriteOptions refusedAfterCreate() {
    WriteOptions options;
    options.on_phase = [](WritePhase phase) {
      if (phase == WritePhase::TempCreated) platform::refuseUnnamedLinks(true);
      return Status::success();
    };
    return options;
  }

  TempDir dir;
};

TEST_F(NoProcWriteTest, WritesPublishWhenProcIsALinkToItself) {
  int code = runInChild([&] {
    if (int hidden = hideProc(); hidden != 0) return hidden;
    return writeEverything(dir.path());
  });
  if (code == 90) GTEST_SKIP() << "no mount namespace can be made here (not root, no userns)";
  EXPECT_EQ(code, 0) << "exit codes: 9x hiding /proc, 1x the writes (see writeEverything)";
}

TEST_F(NoProcWriteTest, AnUnlinkableUnnamedTempIsPublishedAsANamedCopy) {
  const std::string path = dir / "tagged.txt";
  writeRaw(path, "old\n", 0640);
  const bool xattrs = ::setxattr(path.c_str(), "user.hashline.test", "kept", 4, 0) == 0;
  auto written = atomicReplace(path, "new\nbytes\n", refusedAfterCreate());
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_FALSE(written->used_tmpfile) << "published from a named temp";
  EXPECT_EQ(readRaw(path), "new\nbytes\n");
  EXPECT_EQ(fileMode(path), 0640u);
  struct stat published {};
  ASSERT_EQ(::stat(path.c_str(), &published), 0);
  EXPECT_EQ(written->fingerprint.inode, published.st_ino);
  if (xattrs) {
    char value[16] = {};
    EXPECT_EQ(::getxattr(path.c_str(), "user.hashline.test", value, sizeof value), 4);
    EXPECT_STREQ(value, "kept");
  }
  EXPECT_EQ(listDir(dir.path()), std::vector<std::string>{"tagged.txt"}) << "no temp left";

  // From now on the process makes named temps at once.
  auto again = atomicReplace(path, "third\n");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(again->used_tmpfile);
  EXPECT_EQ(readRaw(path), "third\n");
}

TEST_F(NoProcWriteTest, AnUnlinkableUnnamedTempCreatesAndMovesWithoutReplacing) {
  const mode_t old_umask = ::umask(022);
  WriteOptions options = refusedAfterCreate();
  options.create_mode = 0604;
  const std::string created = dir / "new.txt";
  auto made = atomicCreate(created, "created\n", options);
  ::umask(old_umask);
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_FALSE(made->used_tmpfile);
  EXPECT_EQ(readRaw(created), "created\n");
  EXPECT_EQ(fileMode(created), 0604u);

  // A file appearing after the check is not replaced by the named copy either.
  platform::refuseUnnamedLinks(false);
  const std::string raced = dir / "raced.txt";
  options = refusedAfterCreate();
  options.on_phase = [&, refuse = options.on_phase](WritePhase phase) {
    if (phase == WritePhase::Checked) writeRaw(raced, "theirs\n");
    return refuse(phase);
  };
  auto lost = atomicCreate(raced, "ours\n", options);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().code, ErrorCode::StaleVersion) << lost.error().message;
  EXPECT_EQ(readRaw(raced), "theirs\n");

  platform::refuseUnnamedLinks(false);
  writeRaw(dir / "from.txt", "moving\n");
  auto moved = atomicMove(dir / "from.txt", dir / "to.txt", "moved\n", refusedAfterCreate());
  ASSERT_TRUE(moved.ok()) << moved.error().message;
  EXPECT_FALSE(moved->used_tmpfile);
  EXPECT_EQ(readRaw(dir / "to.txt"), "moved\n");
  EXPECT_EQ(listDir(dir.path()), (std::vector<std::string>{"new.txt", "raced.txt", "to.txt"}))
      << "no temp left";
}

} // namespace
} // namespace hashline::disk
