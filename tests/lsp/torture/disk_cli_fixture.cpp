// DiskCliFixture; see disk_cli_fixture.h.
#include "tests/lsp/torture/disk_cli_fixture.h"

#include "lsp/support/log.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::test {

void DiskCliFixture::SetUp() {
  char pattern[] = "/tmp/hashline-cli-torture-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  root_ = std::filesystem::canonical(pattern);
  for (const char* sub : {"ws", "state", "run"})
    std::filesystem::create_directories(root_ / sub);
  ::chmod((root_ / "run").c_str(), 0700);
  ::setenv("HASHLINE_STATE_DIR", (root_ / "state").c_str(), 1);
  ::setenv("HASHLINE_RUNTIME_DIR", (root_ / "run").c_str(), 1);
  ::setenv("HASHLINE_NO_SIDECAR", "1", 1);
  ::unsetenv("HASHLINE_WORKSPACE");
  ::unsetenv("HASHLINE_SESSION");
  ::unsetenv("HASHLINE_AGENT_SOCKET");
  // The in-process journal reader warns about every torn record it skips; they are expected.
  log::setLevel(log::Level::Error);
  workspace_ = (root_ / "ws").string();
}

void DiskCliFixture::TearDown() {
  ::unsetenv("HASHLINE_NO_SIDECAR");
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

} // namespace hashline::test
