// Confined operations (issue 14, defect 6), deterministically: a path is resolved and confined,
// then — before the operation — a directory on it (or the file itself) is swapped for a symlink
// to a directory outside the workspace. Replace, create (with new parents), delete, move and read
// must refuse with OUTSIDE_WORKSPACE and touch nothing outside; symlinks that point inside keep
// working; ConfinedDir makes missing directories and removes them again unless kept.
#include "disk_test_util.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/confined_dir.h"
#include "lsp/disk/disk_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::listDir;
using testing::readRaw;
using testing::TempDir;
using testing::writeRaw;

class ConfinedWriteTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir((dir / "ws").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((dir / "ws/d").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((dir / "outside").c_str(), 0755), 0);
    writeRaw(dir / "ws/d/f.txt", "inside\n");
    writeRaw(dir / "ws/a.txt", "a\n");
    writeRaw(dir / "outside/f.txt", "outside\n");
    auto made = WorkspaceRoots::make({dir / "ws"});
    ASSERT_TRUE(made.ok()) << made.error().message;
    roots_.emplace(std::move(*made));
  }

  ResolvedPath resolve(const std::string& relative) {
    auto resolved = roots_->resolve(relative, dir / "ws");
    EXPECT_TRUE(resolved.ok()) << resolved.error().message;
    return resolved.ok() ? *resolved : ResolvedPath{};
  }
  // What an attacker does between the check and the write: `ws/d` becomes a symlink to outside.
  void swapDirectoryForSymlink() {
    ASSERT_EQ(::rename((dir / "ws/d").c_str(), (dir / "ws/parked").c_str()), 0);
    ASSERT_EQ(::symlink((dir / "outside").c_str(), (dir / "ws/d").c_str()), 0);
  }
  void expectOutsideUntouched() {
    EXPECT_EQ(listDir(dir / "outside"), std::vector<std::string>{"f.txt"});
    EXPECT_EQ(readRaw(dir / "outside/f.txt"), "outside\n");
  }
  static void expectRefusedAsOutside(const Status& status) {
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::OutsideWorkspace) << status.error().message;
  }

  TempDir dir;
  std::optional<WorkspaceRoots> roots_;
};

TEST_F(ConfinedWriteTest, ReplaceRefusesADirectorySwappedAfterTheCheck) {
  ResolvedPath where = resolve("d/f.txt");
  swapDirectoryForSymlink();
  auto written = atomicReplace(where, "escaped\n");
  expectRefusedAsOutside(written.ok() ? Status::success() : Status(written.error()));
  expectOutsideUntouched();
  EXPECT_EQ(readRaw(dir / "ws/parked/f.txt"), "inside\n");
}

TEST_F(ConfinedWriteTest, CreateRefusesADirectorySwappedAfterTheCheck) {
  ResolvedPath where = resolve("d/new.txt");
  ResolvedPath nested = resolve("d/sub/deeper/new.txt");
  swapDirectoryForSymlink();
  for (const ResolvedPath& target : {where, nested}) {
    auto created = atomicCreate(target, "escaped\n");
    expectRefusedAsOutside(created.ok() ? Status::success() : Status(created.error()));
  }
  expectOutsideUntouched();
}

TEST_F(ConfinedWriteTest, DeleteRefusesADirectorySwappedAfterTheCheck) {
  ResolvedPath where = resolve("d/f.txt");
  swapDirectoryForSymlink();
  expectRefusedAsOutside(atomicDelete(where));
  expectOutsideUntouched();
}

TEST_F(ConfinedWriteTest, MoveRefusesASwappedSourceOrDestination) {
  ResolvedPath inside = resolve("d/f.txt");
  ResolvedPath top = resolve("a.txt");
  ResolvedPath into = resolve("d/moved.txt");
  ResolvedPath elsewhere = resolve("e/moved.txt");
  swapDirectoryForSymlink();
  auto out_of = atomicMove(inside, elsewhere, "moved\n");
  expectRefusedAsOutside(out_of.ok() ? Status::success() : Status(out_of.error()));
  auto in_to = atomicMove(top, into, "moved\n");
  expectRefusedAsOutside(in_to.ok() ? Status::success() : Status(in_to.error()));
  expectOutsideUntouched();
  EXPECT_EQ(readRaw(dir / "ws/a.txt"), "a\n");
  EXPECT_EQ(listDir(dir / "ws"), (std::vector<std::string>{"a.txt", "d", "parked"}));
}

TEST_F(ConfinedWriteTest, ReadRefusesADirectorySwappedAfterTheCheck) {
  ResolvedPath where = resolve("d/f.txt");
  auto before = currentFingerprint(where);
  ASSERT_TRUE(before.ok() && before->has_value());
  swapDirectoryForSymlink();
  auto read = readTextFile(where);
  ASSERT_FALSE(read.ok()) << "read " << read->bytes;
  EXPECT_EQ(read.error().code, ErrorCode::OutsideWorkspace);
  auto after = currentFingerprint(where);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(ConfinedWriteTest, AFileSwappedForASymlinkIsNeitherReadNorWrittenThrough) {
  ResolvedPath where = resolve("d/f.txt");
  ASSERT_EQ(::unlink((dir / "ws/d/f.txt").c_str()), 0);
  ASSERT_EQ(::symlink((dir / "outside/f.txt").c_str(), (dir / "ws/d/f.txt").c_str()), 0);
  auto read = readTextFile(where);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, ErrorCode::OutsideWorkspace);
  auto written = atomicReplace(where, "escaped\n");
  expectRefusedAsOutside(written.ok() ? Status::success() : Status(written.error()));
  expectRefusedAsOutside(atomicDelete(where));
  expectOutsideUntouched();
}

TEST_F(ConfinedWriteTest, SymlinksThatPointInsideStillWork) {
  ASSERT_EQ(::symlink("d", (dir / "ws/alias").c_str()), 0);
  ASSERT_EQ(::symlink("d/f.txt", (dir / "ws/file-alias.txt").c_str()), 0);
  for (std::string path : {"alias/f.txt", "file-alias.txt"}) {
    ResolvedPath where = resolve(path);
    EXPECT_EQ(where.real_path, dir / "ws/d/f.txt");
    auto read = readTextFile(where);
    ASSERT_TRUE(read.ok()) << read.error().message;
    auto written = atomicReplace(where, "via " + path + "\n");
    ASSERT_TRUE(written.ok()) << written.error().message;
    EXPECT_EQ(readRaw(dir / "ws/d/f.txt"), "via " + path + "\n");
  }
  auto created = atomicCreate(resolve("alias/new/n.txt"), "n\n");
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(readRaw(dir / "ws/d/new/n.txt"), "n\n");
}

TEST(ConfinedDir, MakesMissingDirectoriesAndRemovesThemUnlessKept) {
  TempDir dir;
  {
    auto made = ConfinedDir::open(dir.path(), "a/b/c", ConfinedDir::Missing::Create);
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(made->path(), dir / "a/b/c");
    struct stat made_stat {};
    ASSERT_EQ(::fstat(made->fd(), &made_stat), 0);
    EXPECT_TRUE(S_ISDIR(made_stat.st_mode));
  }
  EXPECT_TRUE(listDir(dir.path()).empty());
  {
    auto made = ConfinedDir::open(dir.path(), "a/b", ConfinedDir::Missing::Create);
    ASSERT_TRUE(made.ok());
    made->keepCreated();
  }
  EXPECT_EQ(listDir(dir / "a"), std::vector<std::string>{"b"});
  auto missing = ConfinedDir::open(dir.path(), "a/x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::FileNotFound);
}

TEST(ConfinedDir, RefusesNonCanonicalComponentsAndSymlinks) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "real").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("real", (dir / "link").c_str()), 0);
  for (const char* relative : {"..", "real/..", "./real", "real//x"}) {
    auto opened = ConfinedDir::open(dir.path(), relative);
    ASSERT_FALSE(opened.ok()) << relative;
    EXPECT_EQ(opened.error().code, ErrorCode::IoError) << relative;
  }
  auto through_link = ConfinedDir::open(dir.path(), "link");
  ASSERT_FALSE(through_link.ok());
  EXPECT_EQ(through_link.error().code, ErrorCode::OutsideWorkspace);
}

} // namespace
} // namespace hashline::disk
