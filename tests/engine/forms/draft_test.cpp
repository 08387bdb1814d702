// Tests of the lazy-draft form (engine/forms/draft.h): elision styles, resolution by unique
// context, errors naming the elision, CRLF and BOM.
#include "engine/forms/draft.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;

const std::string kFile = "import os\n"
                          "\n"
                          "def load(path):\n"
                          "    with open(path) as f:\n"
                          "        data = f.read()\n"
                          "    return data\n"
                          "\n"
                          "def save(path, data):\n"
                          "    with open(path, 'w') as f:\n"
                          "        f.write(data)\n"
                          "    return True\n";

std::string drafted(const std::string& text, const std::string& draft) {
  Result<EditPlan> plan = planDraft(Rope(text), 2, draft);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
  return plan.ok() ? applied(text, *plan) : "<error>";
}

TEST(Draft, RecognisesElisionStyles) {
  for (const char* line :
       {"// ... existing code ...", "# ...", "/* ... */", "<!-- ... -->", "-- ...", "...",
        "    ...", "... existing code ...", "{/* ... */}", "; ...", "// \xE2\x80\xA6 rest"})
    EXPECT_TRUE(isElisionLine(line)) << line;
  for (const char* line : {"...rest,", "  ...args)", "#include <x>", "// note", "x = ...", "",
                           "--flag", "... f(x) ..."})
    EXPECT_FALSE(isElisionLine(line)) << line;
}

TEST(Draft, ChangesInsideAFunctionWithElisions) {
  std::string draft = "def save(path, data):\n"
                      "    # ... existing code ...\n"
                      "        f.write(data)\n"
                      "        f.flush()\n"
                      "    return True\n";
  EXPECT_EQ(drafted(kFile, draft),
            "import os\n\ndef load(path):\n    with open(path) as f:\n        data = f.read()\n"
            "    return data\n\ndef save(path, data):\n    with open(path, 'w') as f:\n"
            "        f.write(data)\n        f.flush()\n    return True\n");
}

TEST(Draft, LeadingAndTrailingElisions) {
  std::string draft = "# ... existing code ...\n"
                      "        data = f.read()\n"
                      "        data = data.strip()\n"
                      "    return data\n"
                      "# ... existing code ...\n";
  std::string out = drafted(kFile, draft);
  EXPECT_NE(out.find("        data = f.read()\n        data = data.strip()\n    return data\n"),
            std::string::npos);
  EXPECT_EQ(out.size(), kFile.size() + std::string("        data = data.strip()\n").size());
}

TEST(Draft, ContextGrowsUntilUnique) {
  // "    return data" alone would do; "    with open(...)" lines differ; the blank line after an
  // elision is extended with the next line until unique.
  std::string draft = "// ...\n"
                      "\n"
                      "def save(path, data):\n"
                      "    with open(path, 'a') as f:\n"
                      "        f.write(data)\n"
                      "// ...\n";
  std::string out = drafted(kFile, draft);
  EXPECT_NE(out.find("with open(path, 'a') as f:"), std::string::npos);
  EXPECT_EQ(out.find("with open(path, 'w')"), std::string::npos);
}

TEST(Draft, WholeRegionWithoutElisions) {
  std::string draft = "def load(path):\n    return open(path).read()\n    return data\n";
  EXPECT_EQ(drafted(kFile, draft).substr(0, 81),
            "import os\n\ndef load(path):\n    return open(path).read()\n    return data\n\n"
            "def save");
}

TEST(Draft, UnchangedLinesKeepBytesAndIndentationIsForgiven) {
  std::string text = "a  \n  b\nc\nd\n";
  EXPECT_EQ(drafted(text, "a\n  b\nC\nd\n"), "a  \n  b\nC\nd\n");
  // Lines are located loosely, but a changed indentation is the agent's text.
  EXPECT_EQ(drafted(text, "a\nb\nC\nd\n"), "a  \nb\nC\nd\n");
}

TEST(Draft, UnresolvableElisionIsNamed) {
  std::string draft = "def save(path, data):\n"
                      "    # ... existing code ...\n"
                      "        f.write(data, flush=True)\n"
                      "    return True\n";
  Result<EditPlan> plan = planDraft(Rope(kFile), 1, draft);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::NotFound);
  EXPECT_NE(plan.error().message.find("elision 1 (draft line 2)"), std::string::npos);
  EXPECT_NE(plan.error().message.find("the line after it"), std::string::npos);
}

TEST(Draft, AmbiguousElisionIsNamedWithLines) {
  std::string text = "f() {\n  x;\n}\ng() {\n  x;\n}\n";
  Result<EditPlan> plan = planDraft(Rope(text), 1, "// ...\n  x;\n}\n// ...\n");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::Ambiguous);
  EXPECT_NE(plan.error().message.find("elision 1 (draft line 1)"), std::string::npos);
  EXPECT_EQ(plan.error().data.candidate_lines, (std::vector<std::uint32_t>{2, 5}));
}

TEST(Draft, FirstLineMustExist) {
  Result<EditPlan> plan = planDraft(Rope(kFile), 1, "def nothing():\n# ...\n");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::NotFound);
  EXPECT_NE(plan.error().message.find("the draft's first line"), std::string::npos);
}

TEST(Draft, NoChangeAndEmpty) {
  EXPECT_EQ(planDraft(Rope(kFile), 1, "# ...\n    return True\n").error().code,
            ErrorCode::NoChange);
  EXPECT_EQ(planDraft(Rope(kFile), 1, "").error().code, ErrorCode::NoChange);
}

TEST(Draft, CrlfAndBom) {
  std::string text = "\xEF\xBB\xBF"
                     "one\r\ntwo\r\nthree\r\nfour\r\n";
  EXPECT_EQ(drafted(text, "// ...\ntwo\n2.5\nthree\n// ...\n"),
            "\xEF\xBB\xBF"
            "one\r\ntwo\r\n2.5\r\nthree\r\nfour\r\n");
  EXPECT_EQ(drafted(text, "one\nTWO\nthree\n// ...\n"), "\xEF\xBB\xBF"
                                                        "one\r\nTWO\r\nthree\r\nfour\r\n");
}

} // namespace
} // namespace hashline::forms
