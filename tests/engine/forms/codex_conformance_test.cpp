// Runs the 25 codex apply_patch scenarios (tests/conformance/codex-apply-patch/scenarios) through
// the engine: each scenario's input tree is read into memory, planned with planPatch, the plan is
// applied to the in-memory tree and the result compared with expected/. Scenario 015 deliberately
// differs (hashline refuses the whole patch and creates nothing), and is asserted as such.
#include "engine/forms/patch_plan.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

namespace hashline::forms {
namespace {

namespace fs = std::filesystem;

fs::path scenarioRoot() {
  // The source tree from CMake (not __FILE__, which a compiler cache may make relative).
  return fs::path(HASHLINE_SOURCE_DIR) / "tests" / "conformance" / "codex-apply-patch" /
         "scenarios";
}

std::string readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Tree {
  std::map<std::string, std::string> files; // relative path → bytes
  std::set<std::string> directories;
};

Tree readTree(const fs::path& root) {
  Tree tree;
  if (!fs::exists(root)) return tree;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    std::string relative = fs::relative(entry.path(), root).generic_string();
    if (entry.is_directory())
      tree.directories.insert(relative);
    else
      tree.files[relative] = readBytes(entry.path());
  }
  return tree;
}

PatchFileReader readerFor(const Tree& tree) {
  return [&tree](const std::string& path) -> Result<std::optional<FileSnapshot>> {
    std::string key = lexicalPath(path);
    if (tree.directories.count(key))
      return Error::make(ErrorCode::IoError, key + " is a directory");
    auto it = tree.files.find(key);
    if (it == tree.files.end()) return std::optional<FileSnapshot>();
    return std::optional<FileSnapshot>(FileSnapshot{Rope(it->second), 1});
  };
}

void applyToTree(const PatchPlan& plan, Tree& tree) {
  for (const PatchFilePlan& file : plan.files) {
    switch (file.kind) {
    case PatchFileKind::Add:
    case PatchFileKind::Update:
      tree.files[lexicalPath(file.path)] = file.new_text->toString();
      break;
    case PatchFileKind::Delete:
      tree.files.erase(lexicalPath(file.path));
      break;
    case PatchFileKind::Move:
      tree.files.erase(lexicalPath(file.path));
      tree.files[lexicalPath(file.new_path)] = file.new_text->toString();
      break;
    }
  }
}

std::vector<std::string> scenarioNames() {
  std::vector<std::string> names;
  std::error_code missing;
  if (!fs::is_directory(scenarioRoot(), missing)) return names; // reported by the count test
  for (const auto& entry : fs::directory_iterator(scenarioRoot()))
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CodexConformance, AllTwentyFiveScenariosArePresent) {
  EXPECT_EQ(scenarioNames().size(), 25u);
}

class CodexScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(CodexScenario, EndStateMatchesExpected) {
  const fs::path dir = scenarioRoot() / GetParam();
  const Tree input = readTree(dir / "input");
  const Tree expected = readTree(dir / "expected");
  const std::string patch = readBytes(dir / "patch.txt");
  Tree work = input;
  Result<PatchPlan> plan = planPatch(patch, readerFor(input));
  if (plan) applyToTree(*plan, work);

  if (GetParam().rfind("015_", 0) == 0) {
    // Deliberate difference: refuse the whole patch, create nothing.
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.error().code, ErrorCode::FileNotFound);
    EXPECT_TRUE(work.files.empty());
    EXPECT_EQ(work.files.count("created.txt"), 0u);
    EXPECT_EQ(expected.files.count("created.txt"), 1u); // what codex leaves behind
    return;
  }
  // A scenario whose expected tree equals its input must be refused, not silently accepted.
  const bool must_fail = expected.files == input.files;
  EXPECT_EQ(plan.ok(), !must_fail) << (plan.ok() ? "planned" : plan.error().message);
  EXPECT_EQ(work.files, expected.files);
}

std::string scenarioTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = "s" + info.param;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CodexScenario);
INSTANTIATE_TEST_SUITE_P(CodexConformance, CodexScenario, ::testing::ValuesIn(scenarioNames()),
                         scenarioTestName);

} // namespace
} // namespace hashline::forms
