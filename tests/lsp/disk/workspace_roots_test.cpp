// Path resolution and confinement: realpath semantics, `..`, symlink escapes, new files.
#include "disk_test_util.h"
#include "lsp/disk/workspace_roots.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::TempDir;
using testing::writeRaw;

class WorkspaceRootsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir((dir / "ws").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((dir / "ws/src").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((dir / "outside").c_str(), 0755), 0);
    writeRaw(dir / "ws/src/main.cpp", "int main() {}\n");
    writeRaw(dir / "outside/secret.txt", "secret\n");
    auto made = WorkspaceRoots::make({dir / "ws"});
    ASSERT_TRUE(made.ok());
    roots.emplace(std::move(*made));
  }
  std::string ws() const { return dir / "ws"; }

  TempDir dir;
  std::optional<WorkspaceRoots> roots;
};

TEST_F(WorkspaceRootsTest, ResolvesAFileInsideWithRootAndRelativePath) {
  auto resolved = roots->resolve(ws() + "/src/main.cpp");
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->real_path, ws() + "/src/main.cpp");
  EXPECT_EQ(resolved->root, ws());
  EXPECT_EQ(resolved->relative, "src/main.cpp");
  EXPECT_TRUE(resolved->exists);
}

TEST_F(WorkspaceRootsTest, RelativePathsResolveAgainstTheBaseDirectory) {
  auto resolved = roots->resolve("src/./main.cpp", ws());
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->real_path, ws() + "/src/main.cpp");
  auto from_src = roots->resolve("../src/main.cpp", ws() + "/src");
  ASSERT_TRUE(from_src.ok());
  EXPECT_EQ(from_src->relative, "src/main.cpp");
}

TEST_F(WorkspaceRootsTest, TheRootItselfHasAnEmptyRelativePath) {
  auto resolved = roots->resolve(ws() + "/src/..");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->real_path, ws());
  EXPECT_EQ(resolved->relative, "");
}

TEST_F(WorkspaceRootsTest, DotDotOutOfTheRootIsRefused) {
  auto resolved = roots->resolve(ws() + "/src/../../outside/secret.txt");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::OutsideWorkspace);
  EXPECT_NE(resolved.error().message.find(dir / "outside/secret.txt"), std::string::npos);

  auto relative = roots->resolve("../outside/secret.txt", ws());
  ASSERT_FALSE(relative.ok());
  EXPECT_EQ(relative.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, APathOnlySharingTheRootsPrefixIsOutside) {
  ASSERT_EQ(::mkdir((dir / "ws2").c_str(), 0755), 0);
  writeRaw(dir / "ws2/file.txt", "x\n");
  auto resolved = roots->resolve(dir / "ws2/file.txt");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, SymlinkInsidePointingOutsideIsAnEscape) {
  ASSERT_EQ(::symlink((dir / "outside/secret.txt").c_str(), (ws() + "/leak.txt").c_str()), 0);
  ASSERT_EQ(::symlink((dir / "outside").c_str(), (ws() + "/outdir").c_str()), 0);

  auto file = roots->resolve(ws() + "/leak.txt");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().code, ErrorCode::OutsideWorkspace);

  auto through_dir = roots->resolve(ws() + "/outdir/secret.txt");
  ASSERT_FALSE(through_dir.ok());
  EXPECT_EQ(through_dir.error().code, ErrorCode::OutsideWorkspace);

  // A new file under the escaping directory link is outside too.
  auto new_file = roots->resolve(ws() + "/outdir/new.txt");
  ASSERT_FALSE(new_file.ok());
  EXPECT_EQ(new_file.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, RelativeSymlinkEscapeIsRefused) {
  ASSERT_EQ(::symlink("../outside/secret.txt", (ws() + "/rel.txt").c_str()), 0);
  auto resolved = roots->resolve(ws() + "/rel.txt");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, SymlinkInsidePointingInsideResolvesToItsTarget) {
  ASSERT_EQ(::symlink("src/main.cpp", (ws() + "/alias.cpp").c_str()), 0);
  auto resolved = roots->resolve(ws() + "/alias.cpp");
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->real_path, ws() + "/src/main.cpp");
  EXPECT_EQ(resolved->relative, "src/main.cpp");
}

TEST_F(WorkspaceRootsTest, ASymlinkOutsidePointingInIsConfinedByItsTarget) {
  ASSERT_EQ(::symlink((ws() + "/src").c_str(), (dir / "outside/into-ws").c_str()), 0);
  auto resolved = roots->resolve(dir / "outside/into-ws/main.cpp");
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->real_path, ws() + "/src/main.cpp");
}

TEST_F(WorkspaceRootsTest, NewFilesResolveThroughTheirNearestExistingAncestor) {
  auto resolved = roots->resolve(ws() + "/src/new/deeper/file.txt");
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->real_path, ws() + "/src/new/deeper/file.txt");
  EXPECT_FALSE(resolved->exists);

  // `..` among missing components pops them; it cannot be used to climb out.
  auto popped = roots->resolve(ws() + "/src/missing/../other.txt");
  ASSERT_TRUE(popped.ok()) << popped.error().message;
  EXPECT_EQ(popped->real_path, ws() + "/src/other.txt");
  auto climbing = roots->resolve(ws() + "/missing/../../outside/new.txt");
  ASSERT_FALSE(climbing.ok());
  EXPECT_EQ(climbing.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, NewFileThroughASymlinkedDirectoryInsideIsFine) {
  ASSERT_EQ(::symlink("src", (ws() + "/srclink").c_str()), 0);
  auto resolved = roots->resolve(ws() + "/srclink/fresh.txt");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->real_path, ws() + "/src/fresh.txt");
}

TEST_F(WorkspaceRootsTest, DanglingSymlinksAreFollowedToWhereTheyPoint) {
  ASSERT_EQ(::symlink("src/planned.txt", (ws() + "/planned-link").c_str()), 0);
  auto inside = roots->resolve(ws() + "/planned-link");
  ASSERT_TRUE(inside.ok()) << inside.error().message;
  EXPECT_EQ(inside->real_path, ws() + "/src/planned.txt");
  EXPECT_FALSE(inside->exists);

  ASSERT_EQ(::symlink((dir / "outside/planned.txt").c_str(), (ws() + "/evil-link").c_str()), 0);
  auto outside = roots->resolve(ws() + "/evil-link");
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().code, ErrorCode::OutsideWorkspace);
}

TEST_F(WorkspaceRootsTest, SymlinkLoopIsAnIoError) {
  ASSERT_EQ(::symlink("loop-b", (ws() + "/loop-a").c_str()), 0);
  ASSERT_EQ(::symlink("loop-a", (ws() + "/loop-b").c_str()), 0);
  auto resolved = roots->resolve(ws() + "/loop-a");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::IoError);
}

TEST_F(WorkspaceRootsTest, BadPathsAreFileNotFound) {
  auto empty = roots->resolve("", ws());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::FileNotFound);

  auto through_file = roots->resolve(ws() + "/src/main.cpp/child");
  ASSERT_FALSE(through_file.ok());
  EXPECT_EQ(through_file.error().code, ErrorCode::FileNotFound);

  std::string with_nul = ws() + "/src/main.cpp";
  with_nul.insert(with_nul.size() - 4, 1, '\0');
  auto nul = roots->resolve(with_nul);
  ASSERT_FALSE(nul.ok());
  EXPECT_EQ(nul.error().code, ErrorCode::FileNotFound);
}

TEST_F(WorkspaceRootsTest, NestedRootsPickTheDeepest) {
  auto made = WorkspaceRoots::make({ws(), ws() + "/src", ws()});
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(made->roots().size(), 2u); // duplicate dropped
  auto resolved = made->resolve(ws() + "/src/main.cpp");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->root, ws() + "/src");
  EXPECT_EQ(resolved->relative, "main.cpp");
}

TEST_F(WorkspaceRootsTest, RootsMustBeExistingDirectories) {
  auto missing = WorkspaceRoots::make({dir / "nope"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::FileNotFound);
  auto file = WorkspaceRoots::make({ws() + "/src/main.cpp"});
  ASSERT_FALSE(file.ok());
}

TEST_F(WorkspaceRootsTest, RootsGivenThroughSymlinksAreCanonical) {
  ASSERT_EQ(::symlink((ws()).c_str(), (dir / "ws-link").c_str()), 0);
  auto made = WorkspaceRoots::make({dir / "ws-link"});
  ASSERT_TRUE(made.ok());
  ASSERT_EQ(made->roots().size(), 1u);
  EXPECT_EQ(made->roots()[0], ws());
  auto resolved = made->resolve(dir / "ws-link/src/main.cpp");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->relative, "src/main.cpp");
}

TEST(IsSameOrBelow, RespectsComponentBoundaries) {
  EXPECT_TRUE(isSameOrBelow("/a/b", "/a/b"));
  EXPECT_TRUE(isSameOrBelow("/a/b/c", "/a/b"));
  EXPECT_FALSE(isSameOrBelow("/a/bc", "/a/b"));
  EXPECT_FALSE(isSameOrBelow("/a", "/a/b"));
  EXPECT_TRUE(isSameOrBelow("/anything", "/"));
}

} // namespace
} // namespace hashline::disk
