// Reading the plugins' hashline/context params and keeping the latest report and the latest
// non-empty selection (lsp/context/editor_context.h).
#include "lsp/context/editor_context.h"

#include <gtest/gtest.h>

namespace hashline::context {
namespace {

using nlohmann::json;

json range(int start_line, int start_character, int end_line, int end_character) {
  return {{"start", {{"line", start_line}, {"character", start_character}}},
          {"end", {{"line", end_line}, {"character", end_character}}}};
}

TEST(ContextNotice, ReadsTheActiveSelectionAndTheVisibleDocuments) {
  json params = {
      {"active",
       {{"uri", "file:///w/a.cpp"},
        {"version", 4},
        {"selections", json::array({range(2, 1, 4, 0)})}}},
      {"visible",
       {{{"uri", "file:///w/a.cpp"}, {"version", 4}, {"ranges", json::array({range(0, 0, 30, 0)})}},
        {{"uri", "file:///w/b.cpp"}, {"ranges", json::array({range(10, 0, 40, 0)})}}}}};
  EditorContext context;
  ASSERT_FALSE(parseContextNotice(params, context));
  ASSERT_TRUE(context.active);
  EXPECT_EQ(context.active->uri, "file:///w/a.cpp");
  EXPECT_EQ(context.active->version, 4);
  ASSERT_EQ(context.active->ranges.size(), 1u);
  EXPECT_EQ(context.active->ranges[0].start_line, 2u);
  EXPECT_EQ(context.active->ranges[0].start_character, 1u);
  EXPECT_EQ(context.active->ranges[0].end_line, 4u);
  EXPECT_FALSE(context.active->ranges[0].empty());
  ASSERT_EQ(context.visible.size(), 2u);
  EXPECT_FALSE(context.visible[1].version);
  EXPECT_EQ(context.visible[1].ranges[0].end_line, 40u);
}

TEST(ContextNotice, NoActiveDocumentAndABackwardSelection) {
  EditorContext context;
  ASSERT_FALSE(parseContextNotice({{"active", nullptr}, {"visible", json::array()}}, context));
  EXPECT_FALSE(context.active);
  EXPECT_TRUE(context.visible.empty());
  // Selected upwards: the anchor is below the cursor. Normalized, start before end.
  ASSERT_FALSE(parseContextNotice(
      {{"active", {{"uri", "file:///w/a"}, {"selections", json::array({range(9, 3, 2, 5)})}}}},
      context));
  EXPECT_EQ(context.active->ranges[0].start_line, 2u);
  EXPECT_EQ(context.active->ranges[0].start_character, 5u);
  EXPECT_EQ(context.active->ranges[0].end_line, 9u);
  EXPECT_EQ(context.active->ranges[0].end_character, 3u);
}

TEST(ContextNotice, MalformedParamsAreRefusedAndBadEntriesSkipped) {
  EditorContext context;
  EXPECT_TRUE(parseContextNotice(json::array({1, 2}), context));
  EXPECT_TRUE(parseContextNotice({{"active", {{"uri", 7}}}}, context));
  EXPECT_TRUE(parseContextNotice({{"visible", "all"}}, context));
  json params = {
      {"active",
       {{"uri", "file:///w/a"},
        {"selections", {range(-1, 0, 2, 0), {{"start", {{"line", 1}}}}, "x", range(1, 0, 1, 0)}}}},
      {"visible", {{{"uri", ""}}, 5, {{"uri", "file:///w/b"}, {"ranges", "nope"}}}}};
  ASSERT_FALSE(parseContextNotice(params, context));
  ASSERT_EQ(context.active->ranges.size(), 1u); // only the well-formed cursor
  EXPECT_TRUE(context.active->ranges[0].empty());
  ASSERT_EQ(context.visible.size(), 1u);
  EXPECT_TRUE(context.visible[0].ranges.empty());
}

TEST(ContextNotice, BoundsDocumentsAndRanges) {
  json selections = json::array(), visible = json::array();
  for (int i = 0; i < 100; ++i) {
    selections.push_back(range(i, 0, i, 1));
    visible.push_back({{"uri", "file:///w/f" + std::to_string(i)}, {"ranges", selections}});
  }
  EditorContext context;
  ASSERT_FALSE(parseContextNotice(
      {{"active", {{"uri", "file:///w/a"}, {"selections", selections}}}, {"visible", visible}},
      context));
  EXPECT_EQ(context.active->ranges.size(), EditorContextStore::kMaxRanges);
  EXPECT_EQ(context.visible.size(), EditorContextStore::kMaxVisible);
  EXPECT_EQ(context.visible.back().ranges.size(), EditorContextStore::kMaxRanges);
}

TEST(EditorContextStoreTest, KeepsTheLatestReportAndTheLatestNonEmptySelection) {
  EditorContextStore store;
  EXPECT_EQ(store.latest(), nullptr);
  EXPECT_EQ(store.latestSelection(), nullptr);
  auto report = [](int line, int end_character) {
    EditorContext context;
    EXPECT_FALSE(
        parseContextNotice({{"active",
                             {{"uri", "file:///w/a"},
                              {"selections", json::array({range(line, 0, line, end_character)})}}}},
                           context));
    return context;
  };
  store.update(report(3, 0)); // a cursor only
  ASSERT_NE(store.latest(), nullptr);
  EXPECT_EQ(store.latestSelection(), nullptr);
  store.update(report(5, 4)); // a selection
  store.update(report(8, 0)); // then a click elsewhere
  EXPECT_EQ(store.latest()->active->ranges[0].start_line, 8u);
  ASSERT_NE(store.latestSelection(), nullptr);
  EXPECT_EQ(store.latestSelection()->active->ranges[0].start_line, 5u);
  EXPECT_EQ(store.updates(), 3u);
  store.update(EditorContext{}); // nothing focused: the latest selection stays
  EXPECT_FALSE(store.latest()->active);
  EXPECT_EQ(store.latestSelection()->active->ranges[0].end_character, 4u);
}

TEST(EditorContextStoreTest, SharingTurnedOffForgetsEveryReport) {
  EditorContextStore store;
  EditorContext selected;
  ASSERT_FALSE(parseContextNotice(
      {{"active", {{"uri", "file:///w/a"}, {"selections", json::array({range(1, 0, 2, 0)})}}}},
      selected));
  store.update(selected);
  ASSERT_NE(store.latestSelection(), nullptr);
  EditorContext off;
  ASSERT_FALSE(parseContextNotice(
      {{"active", nullptr}, {"visible", json::array()}, {"shared", false}}, off));
  EXPECT_FALSE(off.shared);
  store.update(off);
  EXPECT_TRUE(store.sharingOff());
  EXPECT_EQ(store.latest(), nullptr);
  EXPECT_EQ(store.latestSelection(), nullptr);
  store.update(selected); // turned on again
  EXPECT_FALSE(store.sharingOff());
  EXPECT_NE(store.latest(), nullptr);
}

} // namespace
} // namespace hashline::context
