// Each refusal's hint fits the command that was refused (issue 14, defect 4), through the real
// CLI on a disk workspace: a code's default hint speaks of one form (NOT_FOUND's of `replace`'s
// old text, AMBIGUOUS's of replace_all), so the other forms' refusals carry hints of their own.
#include "agent_test_util.h"

#include <gtest/gtest.h>

namespace hashline::test {
namespace {

/// The "hint: ..." line of a refusal printed on stderr.
std::string hintOf(const std::string& err) {
  std::size_t at = err.find("hint: ");
  if (at == std::string::npos) return "";
  return err.substr(at + 6, err.find('\n', at) - at - 6);
}

TEST(RefusalHints, EachFormsRefusalHintsAtThatForm) {
  AgentSandbox sandbox;
  sandbox.write("f.txt", "alpha\nbeta\ngamma\nalpha\n");
  ASSERT_EQ(runHashline({"read", "f.txt"}, sandbox.workspace()).exit_code, 0);
  struct Case {
    std::vector<std::string> args;
    std::string code;
    std::string hint_says;
  };
  const std::vector<Case> cases = {
      {{"headtail", "f.txt", "--head", "zzz", "--tail", "gamma", "--new", "x"},
       "NOT_FOUND",
       "head"},
      {{"headtail", "f.txt", "--head", "beta", "--tail", "zzz", "--new", "x"}, "NOT_FOUND", "tail"},
      {{"headtail", "f.txt", "--head", "alpha", "--tail", "gamma", "--new", "x"},
       "AMBIGUOUS",
       "head"},
      {{"ed", "f.txt", "--script", "1,2s/qq/x/"}, "NOT_FOUND", "pattern"},
      {{"replace", "f.txt", "--old", "zzz", "--new", "y"}, "NOT_FOUND", "old text"},
  };
  for (const Case& c : cases) {
    CliRun run = runHashline(c.args, sandbox.workspace());
    EXPECT_EQ(run.exit_code, 1) << c.args[0] << ": " << run.err;
    EXPECT_EQ(run.err.rfind(c.code, 0), 0u) << c.args[0] << ": " << run.err;
    std::string hint = hintOf(run.err);
    EXPECT_NE(hint.find(c.hint_says), std::string::npos) << c.args[0] << ": " << hint;
    if (c.args[0] != "replace") {
      EXPECT_EQ(hint.find("old text"), std::string::npos) << c.args[0] << ": " << hint;
      EXPECT_EQ(hint.find("replace_all"), std::string::npos) << c.args[0] << ": " << hint;
    }
  }
  EXPECT_EQ(sandbox.read("f.txt"), "alpha\nbeta\ngamma\nalpha\n");
}

} // namespace
} // namespace hashline::test
