// Sweeping the temps of writers killed between linking their temp and the rename (issue 14,
// defect 5), through the real binary: a disk-mode CLI run removes dead writers'
// `.hashline-tmp.*` from its workspace root and from each directory whose file it reads or
// edits; a sidecar removes them from its roots at initialize and from a directory when it first
// reads a file there or the editor first opens a document there (inside the roots only). A temp
// whose writer is alive (it holds the temp's flock) always stays, and so does one in a directory
// the process never touched.
#include "agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

// A temp as a killed writer leaves it: named, flock released with its process.
std::string deadWritersTemp(const AgentSandbox& sandbox, const std::string& dir,
                            const std::string& target) {
  return sandbox.write(dir + "/.hashline-tmp." + target + ".0123456789abcdef", "partial");
}

// A temp of a writer still at work: we hold its flock for as long as the object lives.
class LiveWritersTemp {
public:
  LiveWritersTemp(const AgentSandbox& sandbox, const std::string& dir) {
    path_ = sandbox.write(dir + "/.hashline-tmp.f.txt.fedcba9876543210", "in progress");
    fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
    EXPECT_GE(fd_, 0);
    EXPECT_EQ(::flock(fd_, LOCK_EX), 0);
  }
  ~LiveWritersTemp() { finish(); }
  void finish() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  int fd_ = -1;
};

TEST(TempSweep, DiskModeCliSweepsTheDirectoriesItTouches) {
  AgentSandbox sandbox;
  sandbox.write("sub/f.txt", "one\n");
  sandbox.write("other/g.txt", "two\n");
  std::string in_root = deadWritersTemp(sandbox, ".", "top.txt");
  std::string beside = deadWritersTemp(sandbox, "sub", "f.txt");
  std::string untouched = deadWritersTemp(sandbox, "other", "g.txt");
  LiveWritersTemp live(sandbox, "sub");

  CliRun read = runHashline({"read", "sub/f.txt"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_FALSE(exists(in_root)) << "the workspace root is swept at start";
  EXPECT_FALSE(exists(beside)) << "the directory of the file read is swept";
  EXPECT_TRUE(exists(live.path())) << "a live writer's temp must stay";
  EXPECT_TRUE(exists(untouched)) << "only directories the run touches are swept";
  EXPECT_EQ(sandbox.read("sub/f.txt"), "one\n");

  // The writer dies: the next run that touches the directory removes its temp.
  live.finish();
  json edits = json::array({{{"op", "write"}, {"content", "new\n"}}});
  CliRun write = runHashline({"edit", "sub/new.txt", "--edits", edits.dump()}, sandbox.workspace());
  ASSERT_EQ(write.exit_code, 0) << write.err;
  EXPECT_FALSE(exists(live.path()));
  EXPECT_TRUE(exists(untouched));
}

TEST(TempSweep, SidecarSweepsItsRootsAtStartAndADirectoryWhenItFirstReadsOrOpensThere) {
  AgentSandbox sandbox;
  sandbox.write("sub/f.txt", "one\n");
  std::string opened_path = sandbox.write("opened/doc.txt", "doc\n");
  std::string in_root = deadWritersTemp(sandbox, ".", "top.txt");
  std::string beside = deadWritersTemp(sandbox, "sub", "f.txt");
  std::string beside_opened = deadWritersTemp(sandbox, "opened", "doc.txt");
  std::string outside = deadWritersTemp(sandbox, sandbox.outside(), "x.txt");
  LiveWritersTemp live(sandbox, ".");

  LspClient editor;
  editor.initialize(json::object(), {{"rootUri", fileUri(sandbox.workspace())}});
  ASSERT_TRUE(waitForDiscoveryFile(sandbox.runtime()));
  EXPECT_FALSE(exists(in_root)) << "the roots are swept at initialize";
  EXPECT_TRUE(exists(live.path()));
  EXPECT_TRUE(exists(beside)) << "sub/ was not touched yet";

  // A read of a file no editor has open goes to the disk through the sidecar.
  CliRun read = runHashline({"read", "sub/f.txt"}, sandbox.workspace());
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_FALSE(exists(beside));
  EXPECT_TRUE(exists(live.path()));

  // The editor opens a document: its directory is swept; one outside the roots is not touched.
  EXPECT_TRUE(exists(beside_opened));
  editor.didOpen(fileUri(opened_path), "doc\n", 1);
  editor.didOpen(fileUri(sandbox.outside() + "/x.txt"), "x\n", 1);
  editor.sync();
  EXPECT_FALSE(exists(beside_opened));
  EXPECT_TRUE(exists(outside)) << "only directories inside the roots are swept";
  EXPECT_EQ(editor.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
