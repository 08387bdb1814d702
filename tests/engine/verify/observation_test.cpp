// Tests for per-session observations (engine/verify/observation.h).
#include "engine/anchors/reader.h"
#include "engine/verify/observation.h"

#include <gtest/gtest.h>

namespace hashline {
namespace {

ReadView view(const std::string& text, std::int64_t version, Tier tier, std::uint32_t from,
              std::uint32_t to) {
  return *readWindow(Rope(text), version, tier, from, to);
}

std::string lines(int n) {
  std::string text;
  for (int i = 1; i <= n; ++i)
    text += "line " + std::to_string(i) + "\n";
  return text;
}

TEST(Observation, RecordsWindowsAndIssuedAnchors) {
  Observation observation;
  EXPECT_FALSE(observation.observed());
  EXPECT_EQ(observation.latest(), nullptr);
  const auto first = view(lines(50), 3, Tier::Block, 1, 10);
  observation.recordRead(first);
  observation.recordRead(view(lines(50), 3, Tier::Block, 20, 25));
  observation.recordRead(view(lines(50), 3, Tier::Block, 8, 12));
  ASSERT_TRUE(observation.observed());
  ASSERT_EQ(observation.reads().size(), 1u); // same version and tier merge
  const ReadRecord& record = *observation.latest();
  EXPECT_EQ(record.shown, (std::vector<LineSpan>{{1, 12}, {20, 25}}));
  EXPECT_EQ(record.line_count, 50u);
  EXPECT_EQ(record.lsp_line_count, 51u);
  EXPECT_TRUE(record.showedLine(11));
  EXPECT_FALSE(record.showedLine(15));
  EXPECT_EQ(observation.issuerOf(first.anchors[4]), &record);
  // Same digests at another line, or in another tier, were never issued.
  Anchor moved = first.anchors[4];
  moved.line = 40;
  EXPECT_EQ(observation.issuerOf(moved), nullptr);
  Anchor line_only = first.anchors[4];
  line_only.context_digest.reset();
  EXPECT_EQ(observation.issuerOf(line_only), nullptr);
}

TEST(Observation, MostRecentIssuerWinsAndTierFollowsTheLatestRead) {
  Observation observation;
  const std::string text = lines(20);
  observation.recordRead(view(text, 1, Tier::Block, 1, 20));
  observation.recordRead(view(text, 2, Tier::Chain, 1, 20));
  observation.recordRead(view(text, 4, Tier::Block, 1, 5));
  EXPECT_EQ(observation.tier(), Tier::Block);
  const auto block = view(text, 9, Tier::Block, 3, 3).anchors[0];
  EXPECT_EQ(observation.issuerOf(block)->version, 4);
  const auto block_line_12 = view(text, 9, Tier::Block, 12, 12).anchors[0];
  EXPECT_EQ(observation.issuerOf(block_line_12)->version, 1);
  const auto chain = view(text, 9, Tier::Chain, 12, 12).anchors[0];
  EXPECT_EQ(observation.issuerOf(chain)->version, 2);
  EXPECT_EQ(observation.issuerOf(chain)->tier, Tier::Chain);
  // Reading version 1 again makes it the latest.
  observation.recordRead(view(text, 1, Tier::Block, 2, 2));
  EXPECT_EQ(observation.latest()->version, 1);
}

TEST(Observation, BoundedOldestReadsDropFirst) {
  Observation observation(3, 1000);
  const std::string text = lines(10);
  for (int version = 1; version <= 5; ++version)
    observation.recordRead(view(text, version, Tier::Line, 1, 10));
  EXPECT_EQ(observation.reads().size(), 3u);
  EXPECT_EQ(observation.reads().front().version, 3);
  Observation few_keys(100, 25);
  for (int version = 1; version <= 5; ++version)
    few_keys.recordRead(view(text, version, Tier::Line, 1, 10));
  EXPECT_EQ(few_keys.reads().size(), 2u);
}

TEST(ObservationStore, PerSessionAndDocument) {
  ObservationStore store;
  EXPECT_EQ(store.find("s1", "file:///a"), nullptr);
  store.observe("s1", "file:///a").recordRead(view(lines(3), 1, Tier::Block, 1, 3));
  store.observe("s2", "file:///a").recordRead(view(lines(3), 1, Tier::Block, 1, 3));
  store.observe("s1", "file:///b").recordRead(view(lines(3), 1, Tier::Block, 1, 3));
  EXPECT_NE(store.find("s1", "file:///a"), nullptr);
  EXPECT_EQ(store.find("s3", "file:///a"), nullptr);
  store.renameDocument("file:///a", "file:///c");
  EXPECT_EQ(store.find("s1", "file:///a"), nullptr);
  EXPECT_NE(store.find("s2", "file:///c"), nullptr);
  store.forgetDocument("file:///c");
  EXPECT_EQ(store.find("s1", "file:///c"), nullptr);
  store.forgetSession("s1");
  EXPECT_EQ(store.find("s1", "file:///b"), nullptr);
}

TEST(Observation, RestoredRecordsBehaveLikeRecordedOnes) {
  Observation original;
  const auto shown = view(lines(30), 7, Tier::Chain, 5, 15);
  original.recordRead(shown);
  Observation restored;
  for (const auto& record : original.reads())
    restored.restoreRead(record);
  ASSERT_EQ(restored.reads().size(), 1u);
  EXPECT_EQ(restored.latest()->shown, original.latest()->shown);
  EXPECT_EQ(restored.latest()->issuedKeys(), original.latest()->issuedKeys());
  EXPECT_EQ(restored.issuerOf(shown.anchors[3])->version, 7);
  EXPECT_EQ(restored.tier(), Tier::Chain);
  // Restoring the same version again merges.
  restored.restoreRead(original.reads().front());
  EXPECT_EQ(restored.reads().size(), 1u);
  ObservationStore store;
  store.observe("s", "d") = restored;
  EXPECT_EQ(store.entries().size(), 1u);
  EXPECT_EQ(store.entries().begin()->first, (std::pair<std::string, std::string>{"s", "d"}));
}

TEST(IssuedAnchorKey, DistinguishesEveryField) {
  const Anchor a{10, 0x1234, 0x0567};
  EXPECT_NE(issuedAnchorKey(a, Tier::Block), issuedAnchorKey(a, Tier::Chain));
  EXPECT_NE(issuedAnchorKey(a, Tier::Block),
            issuedAnchorKey(Anchor{11, 0x1234, 0x0567}, Tier::Block));
  EXPECT_NE(issuedAnchorKey(a, Tier::Block),
            issuedAnchorKey(Anchor{10, 0x1235, 0x0567}, Tier::Block));
  EXPECT_NE(issuedAnchorKey(a, Tier::Block),
            issuedAnchorKey(Anchor{10, 0x1234, 0x0568}, Tier::Block));
}

} // namespace
} // namespace hashline
