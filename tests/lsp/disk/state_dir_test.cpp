// State and runtime directories: locations by environment, 0700, ownership checks.
#include "disk_test_util.h"
#include "lsp/disk/state_dir.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::fileMode;
using testing::ScopedEnv;
using testing::TempDir;

TEST(StateDirectory, HonoursTheTestOverride) {
  TempDir dir;
  ScopedEnv state("HASHLINE_STATE_DIR", dir / "custom/state");
  auto made = stateDirectory();
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_EQ(*made, dir / "custom/state");
  EXPECT_EQ(fileMode(*made), 0700u);
}

TEST(StateDirectory, FallsBackToXdgStateHomeThenHome) {
  TempDir dir;
  ScopedEnv no_override("HASHLINE_STATE_DIR", std::nullopt);
  {
    ScopedEnv xdg("XDG_STATE_HOME", dir / "xdg");
    auto made = stateDirectory();
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(*made, dir / "xdg/hashline");
    EXPECT_EQ(fileMode(*made), 0700u);
  }
  {
    ScopedEnv xdg("XDG_STATE_HOME", std::string("relative/is/ignored"));
    ScopedEnv home("HOME", dir / "home");
    auto made = stateDirectory();
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(*made, dir / "home/.local/state/hashline");
    EXPECT_EQ(fileMode(*made), 0700u);
  }
}

TEST(WorkspaceStateDirectory, OnePrivateDirectoryPerRoot) {
  TempDir dir;
  ScopedEnv state("HASHLINE_STATE_DIR", dir / "state");
  auto a = workspaceStateDirectory("/home/u/project");
  auto a_again = workspaceStateDirectory("/home/u/project");
  auto b = workspaceStateDirectory("/srv/other/project");
  ASSERT_TRUE(a.ok() && a_again.ok() && b.ok());
  EXPECT_EQ(*a, *a_again);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->rfind(dir / "state/workspaces/project-", 0), 0u) << *a;
  EXPECT_EQ(fileMode(*a), 0700u);
  EXPECT_EQ(fileMode(*b), 0700u);
  auto root = workspaceStateDirectory("/");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->rfind(dir / "state/workspaces/root-", 0), 0u) << *root;
}

TEST(RuntimeDirectory, LocationsByEnvironment) {
  TempDir dir;
  {
    ScopedEnv runtime("HASHLINE_RUNTIME_DIR", dir / "override");
    auto made = runtimeDirectory();
    ASSERT_TRUE(made.ok());
    EXPECT_EQ(*made, dir / "override");
  }
  ScopedEnv no_override("HASHLINE_RUNTIME_DIR", std::nullopt);
  {
    ASSERT_EQ(::mkdir((dir / "xdg-run").c_str(), 0700), 0);
    ScopedEnv xdg("XDG_RUNTIME_DIR", dir / "xdg-run");
    auto made = runtimeDirectory();
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(*made, dir / "xdg-run/hashline");
    EXPECT_EQ(fileMode(*made), 0700u);
  }
  {
    // A stale $XDG_RUNTIME_DIR (after `su`, say) is not created: the temp-dir fallback is used.
    ScopedEnv xdg("XDG_RUNTIME_DIR", dir / "vanished-run");
    ScopedEnv tmp("TMPDIR", dir.path());
    auto made = runtimeDirectory();
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(*made, dir / ("hashline-" + std::to_string(::geteuid())));
    EXPECT_FALSE(std::filesystem::exists(dir / "vanished-run"));
  }
  {
    // No $XDG_RUNTIME_DIR at all (codex scrubs it from an MCP server's environment): logind's
    // /run/user/UID when it is ours, as in a desktop session, else the temp-dir fallback.
    ScopedEnv xdg("XDG_RUNTIME_DIR", std::nullopt);
    ScopedEnv tmp("TMPDIR", dir.path() + "/");
    const std::string logind = "/run/user/" + std::to_string(::geteuid());
    struct stat info {};
    const bool has_logind =
        ::stat(logind.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::geteuid();
    auto made = runtimeDirectory();
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ(*made, has_logind ? logind + "/hashline"
                                : std::string(dir / ("hashline-" + std::to_string(::geteuid()))));
    EXPECT_EQ(fileMode(*made), 0700u);
  }
}

TEST(EnsurePrivateDirectory, TightensOurOwnLooseDirectory) {
  TempDir dir;
  std::string loose = dir / "loose";
  ASSERT_EQ(::mkdir(loose.c_str(), 0777), 0);
  ASSERT_EQ(::chmod(loose.c_str(), 0777), 0);
  ASSERT_TRUE(ensurePrivateDirectory(loose).ok());
  EXPECT_EQ(fileMode(loose), 0700u);
}

TEST(EnsurePrivateDirectory, RefusesSymlinksFilesAndOtherUsersDirectories) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "real").c_str(), 0700), 0);
  ASSERT_EQ(::symlink("real", (dir / "link").c_str()), 0);
  auto link = ensurePrivateDirectory(dir / "link");
  ASSERT_FALSE(link.ok());
  EXPECT_EQ(link.error().code, ErrorCode::IoError);

  testing::writeRaw(dir / "file", "x");
  EXPECT_FALSE(ensurePrivateDirectory(dir / "file").ok());

  if (::geteuid() == 0) {
    // Someone else pre-created our runtime directory in a shared temp dir: refuse it.
    ASSERT_EQ(::mkdir((dir / "planted").c_str(), 0777), 0);
    ASSERT_EQ(::chown((dir / "planted").c_str(), 65534, 65534), 0);
    auto planted = ensurePrivateDirectory(dir / "planted");
    ASSERT_FALSE(planted.ok());
    EXPECT_EQ(planted.error().code, ErrorCode::IoError);
    EXPECT_NE(planted.error().message.find("owned by uid 65534"), std::string::npos);
  }
}

} // namespace
} // namespace hashline::disk
