// Randomized edits on a text without history (the disk path): another program rewrites lines
// between the agent's read and its edit, and the fingerprint id changes each time. Without a
// ChangeLog the verifier can only compare digests at the stated lines, so the oracle is: an edit
// is accepted exactly when every line its anchors cover (line, block or chain segment, and a
// range's span) still holds the same normalized text at the same position; accepted edits land
// at the stated lines; everything else is refused with a staleness-family error.
#include "engine/anchors/anchor_computer.h"
#include "engine/anchors/digest.h"
#include "engine/anchors/normalize.h"
#include "fixture.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::test {
namespace {

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines)
    text += line + "\n";
  return text;
}

TEST(DiskRandom, AcceptsExactlyWhenCoveredLinesAreUnchanged) {
  std::mt19937 rng(99);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const char* words[] = {"alpha", "beta", "}", "", "  gamma  delta", "{", "return 0;"};
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i)
    lines.push_back(std::string(words[pick(7)]) + (pick(3) ? " " + std::to_string(i) : ""));
  std::int64_t fingerprint = 1;
  Observation observation;
  ReadView view;
  std::vector<std::string> seen;
  int accepted = 0, refused = 0;
  for (int step = 0; step < 4000; ++step) {
    const int action = static_cast<int>(pick(6));
    if (action == 0 || view.rows.empty()) {
      view = *readWindow(Rope(join(lines)), fingerprint, static_cast<Tier>(pick(3)));
      observation.recordRead(view);
      seen = lines;
      continue;
    }
    if (action <= 2) { // another program changes the file
      const std::size_t at = pick(lines.size());
      switch (pick(4)) {
      case 0:
        lines[at] = words[pick(7)];
        break;
      case 1:
        lines.insert(lines.begin() + at, words[pick(7)]);
        break;
      case 2:
        if (lines.size() > 10) lines.erase(lines.begin() + at);
        break;
      default:
        lines[at] = "  " + lines[at] + " ";
        break; // a formatter: keeps the digest
      }
      ++fingerprint;
      continue;
    }
    const std::size_t i = pick(view.rows.size());
    const std::size_t j = std::min(view.rows.size() - 1, i + (pick(3) == 0 ? pick(3) : 0));
    const std::uint32_t first = view.rows[i].line, last = view.rows[j].line;
    const bool insert = pick(3) == 0;
    const std::string content = "agent " + std::to_string(step);
    const AnchoredEdit edit =
        insert ? insertAfterOp(view.rows[i].anchor, content)
               : replaceOp(view.rows[i].anchor, content,
                           first == last ? std::nullopt : std::optional(view.rows[j].anchor));
    const std::uint32_t span_last = insert ? first : last;
    // Oracle: covered lines, at the same positions, normalize to what was shown.
    const auto a = coveredLines(view.tier, first, view.line_count);
    const auto b = coveredLines(view.tier, span_last, view.line_count);
    bool unchanged = std::max(a.second, b.second) <= lines.size();
    // A block digest covers the block as the text has it: a last block that grew or shrank
    // differs even if its old lines did not change.
    if (view.tier == Tier::Block)
      for (std::uint32_t x : {first, span_last}) {
        const std::size_t block_end = blockFirstLine(x) + kBlockLines - 1;
        if (std::min(block_end, lines.size()) != std::min<std::size_t>(block_end, view.line_count))
          unchanged = false;
      }
    for (std::uint32_t line = std::min(a.first, b.first);
         unchanged && line <= std::max(a.second, b.second); ++line)
      unchanged = normalizeLine(lines[line - 1]) == normalizeLine(seen[line - 1]);
    auto result = verifyAnchoredEdits(TextState::ofPlainText(Rope(join(lines)), fingerprint),
                                      &observation, {edit});
    if (!unchanged) {
      ASSERT_FALSE(result.ok()) << "step " << step << " accepted " << view.rows[i].anchor;
      const ErrorCode code = result.error().code;
      ASSERT_TRUE(code == ErrorCode::StaleAnchor || code == ErrorCode::AmbiguousAnchor ||
                  code == ErrorCode::OutOfRange)
          << result.error().message;
      ++refused;
      // The agent retries from the fresh anchors in the error (recorded at this fingerprint).
      view.rows = result.error().data.fresh_anchors;
      view.line_count = static_cast<std::uint32_t>(lines.size());
      seen = lines;
      continue;
    }
    ASSERT_TRUE(result.ok()) << "step " << step << ": " << result.error().message;
    auto expected = lines;
    if (insert)
      expected.insert(expected.begin() + first, content);
    else {
      expected.erase(expected.begin() + (first - 1), expected.begin() + span_last);
      expected.insert(expected.begin() + (first - 1), content);
    }
    ASSERT_EQ(result->after.toString(), join(expected)) << "step " << step;
    EXPECT_TRUE(result->plan.rebased.empty());
    lines = expected;
    ++fingerprint;
    // The agent continues with the fresh anchors of its edit (recorded at the new fingerprint).
    result->recordFreshAnchors(observation, fingerprint);
    view.rows = result->fresh_rows;
    view.anchors = result->fresh_anchors;
    view.line_count = result->line_count_after;
    view.tier = result->tier;
    seen = lines;
    ++accepted;
  }
  EXPECT_GT(accepted, 300);
  EXPECT_GT(refused, 150);
  std::cout << "accepted " << accepted << ", refused " << refused << "\n";
}

} // namespace
} // namespace hashline::test
