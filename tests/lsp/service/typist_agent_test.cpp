// A simulated typist and an agent interleave on one open document through the real binary; the
// test client plays the editor (and sometimes refuses, drops or races the agent's edits).
// Invariants: every applied agent edit replaced exactly the line it read (content-unique lines
// make that checkable) and nothing else; every refusal happened only after the typist changed
// something since the read; the mirror always equals the editor's text.
#include "tests/lsp/support/service_fixture.h"

#include <algorithm>
#include <cstdio>
#include <random>

namespace hashline::test {
namespace {

using json = nlohmann::json;

class TypistAgentTest : public ServiceFixture {
protected:
  void SetUp() override { start(ServiceTimeouts{5000, 40}); }

  std::string fresh(const char* prefix) { return prefix + std::to_string(counter_++); }

  // One random keystroke-level change by the user (whole lines keep every line unique).
  void typistAct() {
    EditorModel& buffer = model("doc.txt");
    std::size_t lines = buffer.lines().size();
    int kind = int(rng_() % 3);
    if (kind == 1 && lines <= 8) kind = 0;
    std::size_t line = rng_() % lines;
    if (kind == 0) {
      typeLineAt("doc.txt", line, fresh("U"));
    } else if (kind == 1) {
      std::size_t begin = buffer.lineBytes(line).first;
      std::size_t end = line + 1 < lines ? buffer.lineBytes(line + 1).first : buffer.text.size();
      type("doc.txt", begin, end, "");
    } else {
      auto [begin, end] = buffer.lineBytes(line);
      type("doc.txt", begin, end, fresh("M"));
    }
    ++steps_;
  }

  std::size_t counter_ = 0;
  std::size_t steps_ = 0;
  std::mt19937 rng_{20261202};
};

TEST_F(TypistAgentTest, TenThousandInterleavedSteps) {
  std::string text;
  for (int i = 0; i < 40; ++i)
    text += fresh("L") + "\n";
  open("doc.txt", text);
  std::size_t applied = 0, refused = 0, retried = 0;

  while (steps_ < 10000) {
    if (rng_() % 2) {
      typistAct();
      continue;
    }
    // The agent reads, the user may type, the agent edits one line it read.
    json read = service("read", {{"uri", uriOf("doc.txt")}});
    ++steps_;
    const json& rows = read["lines"];
    const json& row = rows[rng_() % rows.size()];
    const std::string target = row["text"];
    int typed = int(rng_() % 3);
    for (int i = 0; i < typed; ++i)
      typistAct();
    const std::string replacement = fresh("A");
    json params = {
        {"uri", uriOf("doc.txt")},
        {"edits", {{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", replacement}}}}};
    json dry = params;
    dry["dry_run"] = true;
    json preview = service("edit", dry);
    ++steps_;
    if (preview["status"] == "refused") {
      ASSERT_GT(typed, 0) << "refused without any change since the read: " << preview.dump();
      ASSERT_EQ(preview["error"]["code"], "STALE_ANCHOR") << preview.dump();
      ++refused;
      continue;
    }
    ASSERT_EQ(preview["status"], "preview") << preview.dump();

    std::int64_t id = startService("edit", params);
    // The editor misbehaves sometimes: the user types at the top first, then the edit is
    // refused (VS Code) or silently dropped (Neovim); the server must re-verify and resend.
    json request = nextApplyEdit();
    int races = 0;
    while (rng_() % 5 == 0 && races < 2) {
      typeLineAt("doc.txt", 0, fresh("R"));
      ++steps_;
      if (rng_() % 2)
        client_->respond(request["id"], {{"applied", false}});
      else
        client_->respond(request["id"], {{"applied", true}});
      request = nextApplyEdit();
      ++races;
      ++retried;
    }
    // Apply: the line holding `target` (unique) must become `replacement`, nothing else.
    EditorModel& buffer = model("doc.txt");
    std::vector<std::string> expected = buffer.lines();
    auto it = std::find(expected.begin(), expected.end(), target);
    ASSERT_NE(it, expected.end()) << "the target line vanished but the edit was sent";
    *it = replacement;
    applyAndConfirm(request);
    ++steps_;
    ASSERT_EQ(buffer.lines(), expected) << "the edit did not land exactly on the line it read";
    json result = finish(id);
    ASSERT_EQ(result["status"], "applied") << result.dump();
    ++applied;
    if (steps_ % 500 < 4) expectMirrorMatches("doc.txt");
  }
  expectMirrorMatches("doc.txt");
  RecordProperty("applied", int(applied));
  RecordProperty("refused", int(refused));
  RecordProperty("retried", int(retried));
  EXPECT_GT(applied, 500u);
  EXPECT_GT(refused, 10u);
  EXPECT_GT(retried, 50u);
  std::printf("steps %zu: applied %zu, refused %zu, retried %zu\n", steps_, applied, refused,
              retried);
}

} // namespace
} // namespace hashline::test
