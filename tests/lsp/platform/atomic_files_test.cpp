// platform::atomic_files: what each build promises (Linux: unnamed temps published by link;
// portable and macOS: none, the caller's named temp), no-replace renames, metadata handles on a
// write-only file and on a symlink, and extended attributes carried over.
#include "lsp/platform/atomic_files.h"
#include "lsp/platform/build_variant.h"
#include "tests/lsp/support/temp_dir.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace hashline::platform {
namespace {

namespace fs = std::filesystem;

class AtomicFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(dir_fd_, 0);
  }
  void TearDown() override { ::close(dir_fd_); }
  std::string read(const std::string& name) {
    std::ifstream in(fs::path(dir_) / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(fs::path(dir_) / name, std::ios::binary) << text;
  }

  hashline::test::TempDir temp_{"hashline-atomic"};
  const std::string dir_ = temp_.path();
  int dir_fd_ = -1;
};

TEST_F(AtomicFilesTest, UnnamedFileExactlyWhereTheBuildHasThem) {
  FileHandle file = createUnnamedFile(dir_fd_, 0600);
  if (!linuxNativeCalls()) {
    EXPECT_EQ(file, kInvalidHandle);
    EXPECT_EQ(errno, EOPNOTSUPP);
    return;
  }
  ASSERT_NE(file, kInvalidHandle) << std::strerror(errno);
  ASSERT_EQ(::write(file, "new\n", 4), 4);
  EXPECT_TRUE(fs::is_empty(dir_)) << "an unnamed file has no name";
  write("taken", "old\n");
  EXPECT_EQ(linkUnnamedFile(file, dir_fd_, "taken"), EEXIST);
  EXPECT_EQ(linkUnnamedFile(file, dir_fd_, "published"), 0);
  EXPECT_EQ(read("published"), "new\n");
  ::close(file);
}

TEST_F(AtomicFilesTest, RenameNoReplaceNeverReplaces) {
  write("from", "a");
  write("to", "b");
  int err = renameNoReplace(dir_fd_, "from", "to");
  if (linuxNativeCalls()) {
    EXPECT_EQ(err, EEXIST);
  } else {
    EXPECT_EQ(err, ENOSYS) << "the portable build links and unlinks instead";
  }
  EXPECT_EQ(read("to"), "b");
  fs::remove(fs::path(dir_) / "to");
  err = renameNoReplace(dir_fd_, "from", "to");
  if (linuxNativeCalls()) {
    EXPECT_EQ(err, 0);
    EXPECT_EQ(read("to"), "a");
    EXPECT_FALSE(fs::exists(fs::path(dir_) / "from"));
  }
}

TEST_F(AtomicFilesTest, MetadataHandleOnAWriteOnlyFileAndNotThroughASymlink) {
  write("write-only", "secret");
  ASSERT_EQ(::chmod((dir_ + "/write-only").c_str(), 0200), 0);
  FileHandle handle = openForMetadata(dir_fd_, "write-only");
  ASSERT_NE(handle, kInvalidHandle) << std::strerror(errno);
  struct stat info {};
  ASSERT_EQ(::fstat(handle, &info), 0);
  EXPECT_TRUE(S_ISREG(info.st_mode));
  ::close(handle);

  fs::create_symlink("write-only", fs::path(dir_) / "link");
  handle = openForMetadata(dir_fd_, "link");
  if (linuxNativeCalls()) { // O_PATH | O_NOFOLLOW: the link itself
    ASSERT_NE(handle, kInvalidHandle);
    ASSERT_EQ(::fstat(handle, &info), 0);
    EXPECT_TRUE(S_ISLNK(info.st_mode));
    ::close(handle);
  } else {
    EXPECT_EQ(handle, kInvalidHandle);
    EXPECT_EQ(errno, ELOOP);
  }
}

TEST_F(AtomicFilesTest, OpenDirectoryRefusesAFinalSymlinkUnlessAskedToFollow) {
  fs::create_directory(fs::path(dir_) / "real");
  fs::create_directory_symlink("real", fs::path(dir_) / "alias");
  FileHandle refused = openDirectory(dir_fd_, "alias");
  EXPECT_EQ(refused, kInvalidHandle);
  const std::string alias = dir_ + "/alias";
  FileHandle followed = openDirectory(kInvalidHandle, alias.c_str(), FinalSymlink::Follow);
  ASSERT_NE(followed, kInvalidHandle);
  ::close(followed);
}

TEST_F(AtomicFilesTest, ExtendedAttributesAreCopied) {
  write("original", "x");
  write("copy", "y");
  const std::string original = dir_ + "/original";
  ASSERT_EQ(::setxattr(original.c_str(), "user.hashline", "v1", 2, 0), 0)
      << "/tmp's filesystem refuses user.* attributes: " << std::strerror(errno);
  FileHandle from = openForMetadata(dir_fd_, "original");
  int to = ::openat(dir_fd_, "copy", O_RDWR | O_CLOEXEC);
  ASSERT_NE(from, kInvalidHandle);
  ASSERT_GE(to, 0);
  copyExtendedAttributes(from, to);
  char value[8] = {};
  const std::string copy = dir_ + "/copy";
  EXPECT_EQ(::getxattr(copy.c_str(), "user.hashline", value, sizeof value), 2);
  EXPECT_EQ(std::string(value, 2), "v1");
  ::close(from);
  ::close(to);
}

} // namespace
} // namespace hashline::platform
