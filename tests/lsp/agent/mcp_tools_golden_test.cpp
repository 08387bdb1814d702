// The tools/list definitions are the agent-facing contract: schemas and descriptions are pinned
// byte for byte against tests/lsp/agent/golden/mcp_tools_list.json, so a refactor of
// toolDefinitions() cannot change them silently. After an intended change, regenerate the golden
// with HASHLINE_UPDATE_GOLDEN=1 and review the diff.
#include "lsp/mcp/mcp_tools.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace hashline::test {
namespace {

const std::string kGolden =
    std::string(HASHLINE_SOURCE_DIR) + "/tests/lsp/agent/golden/mcp_tools_list.json";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(McpToolsGolden, DefinitionsMatchTheGoldenByteForByte) {
  const std::string actual = mcp::toolDefinitions().dump(2) + "\n";
  if (std::getenv("HASHLINE_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(kGolden, std::ios::binary) << actual;
    GTEST_SKIP() << "wrote " << kGolden;
  }
  const std::string golden = readFile(kGolden);
  ASSERT_FALSE(golden.empty()) << "missing golden " << kGolden;
  EXPECT_EQ(actual.size(), golden.size());
  EXPECT_EQ(actual, golden);
}

} // namespace
} // namespace hashline::test
