// Flattening the editor's document symbols and finding one by name
// (lsp/context/document_symbols.h).
#include "lsp/context/document_symbols.h"

#include <gtest/gtest.h>

namespace hashline::context {
namespace {

using nlohmann::json;

json range(int start_line, int end_line, int end_character = 1) {
  return {{"start", {{"line", start_line}, {"character", 0}}},
          {"end", {{"line", end_line}, {"character", end_character}}}};
}

json symbol(const std::string& name, int kind, int start_line, int end_line,
            json children = json::array()) {
  return {{"name", name},
          {"kind", kind},
          {"range", range(start_line, end_line)},
          {"selectionRange", range(start_line, start_line)},
          {"children", children}};
}

TEST(DocumentSymbols, FlattensATreeWithQualifiedNamesAndOneBasedLines) {
  json answer = json::array(
      {symbol("Shape", 5, 0, 9, json::array({symbol("area", 6, 2, 4), symbol("name", 6, 5, 7)})),
       symbol("main", 12, 11, 14)});
  answer[1]["detail"] = "int ()";
  SymbolList list;
  ASSERT_FALSE(flattenSymbols(answer, list));
  ASSERT_EQ(list.symbols.size(), 4u);
  EXPECT_EQ(list.symbols[0].qualified, "Shape");
  EXPECT_EQ(list.symbols[0].kind, "class");
  EXPECT_EQ(list.symbols[1].qualified, "Shape.area");
  EXPECT_EQ(list.symbols[1].kind, "method");
  EXPECT_EQ(list.symbols[1].depth, 1u);
  EXPECT_EQ(list.symbols[1].first_line, 3u);
  EXPECT_EQ(list.symbols[1].last_line, 5u);
  EXPECT_EQ(list.symbols[3].kind, "function");
  EXPECT_EQ(symbolToJSON(list.symbols[3])["detail"], "int ()");
  EXPECT_EQ(symbolToJSON(list.symbols[3])["from"], 12);
}

TEST(DocumentSymbols, ARangeEndingAtALineStartDoesNotTakeThatLine) {
  SymbolList list;
  json entry = symbol("f", 12, 3, 6);
  entry["range"]["end"]["character"] = 0;
  ASSERT_FALSE(flattenSymbols(json::array({entry}), list));
  EXPECT_EQ(list.symbols[0].first_line, 4u);
  EXPECT_EQ(list.symbols[0].last_line, 6u);
}

TEST(DocumentSymbols, SymbolInformationIsSortedAndQualifiedByItsContainer) {
  json answer = json::array({{{"name", "area"},
                              {"kind", 6},
                              {"containerName", "Shape"},
                              {"location", {{"uri", "file:///w/a.py"}, {"range", range(2, 4)}}}},
                             {{"name", "Shape"},
                              {"kind", 5},
                              {"location", {{"uri", "file:///w/a.py"}, {"range", range(0, 9)}}}}});
  SymbolList list;
  ASSERT_FALSE(flattenSymbols(answer, list));
  ASSERT_EQ(list.symbols.size(), 2u);
  EXPECT_EQ(list.symbols[0].qualified, "Shape");
  EXPECT_EQ(list.symbols[1].qualified, "Shape.area");
  EXPECT_EQ(list.symbols[1].depth, 1u);
}

TEST(DocumentSymbols, FindsByFullNameSuffixOrCppSpelling) {
  json answer = json::array({symbol("Shape", 5, 0, 9, json::array({symbol("area", 6, 2, 4)})),
                             symbol("Circle", 5, 10, 20, json::array({symbol("area", 6, 12, 14)})),
                             symbol("Shape::name", 6, 21, 23), symbol("area", 12, 24, 26)});
  SymbolList list;
  ASSERT_FALSE(flattenSymbols(answer, list));
  // "area" is exactly the free function; the methods are only suffix matches.
  ASSERT_EQ(findSymbols(list, "area").size(), 1u);
  EXPECT_EQ(list.symbols[findSymbols(list, "area")[0]].first_line, 25u);
  ASSERT_EQ(findSymbols(list, "Circle.area").size(), 1u);
  EXPECT_EQ(list.symbols[findSymbols(list, "Circle::area")[0]].first_line, 13u);
  // clangd's out-of-line definition "Shape::name" is Shape.name.
  ASSERT_EQ(findSymbols(list, "Shape.name").size(), 1u);
  ASSERT_EQ(findSymbols(list, "name").size(), 1u);
  EXPECT_TRUE(findSymbols(list, "Square.area").empty());
  EXPECT_TRUE(findSymbols(list, "").empty());
  EXPECT_TRUE(findSymbols(list, "::").empty());
}

TEST(DocumentSymbols, TwoMethodsOfTheSameNameAreBothFound) {
  json answer = json::array({symbol("A", 5, 0, 4, json::array({symbol("run", 6, 1, 2)})),
                             symbol("B", 5, 5, 9, json::array({symbol("run", 6, 6, 7)}))});
  SymbolList list;
  ASSERT_FALSE(flattenSymbols(answer, list));
  EXPECT_EQ(findSymbols(list, "run").size(), 2u);
}

TEST(DocumentSymbols, BadAnswersAndEntriesAreRefusedOrSkipped) {
  SymbolList list;
  EXPECT_TRUE(flattenSymbols(json(nullptr), list));
  EXPECT_TRUE(flattenSymbols(json::object(), list));
  json answer = json::array({5,
                             "x",
                             {{"name", 3}},
                             {{"name", "no range"}, {"kind", 12}},
                             {{"name", ""}, {"range", range(0, 1)}},
                             {{"name", "neg"}, {"range", range(-3, 1)}},
                             symbol("ok", 99, 0, 0)});
  ASSERT_FALSE(flattenSymbols(answer, list));
  ASSERT_EQ(list.symbols.size(), 1u);
  EXPECT_EQ(list.symbols[0].kind, "symbol"); // a kind outside 1..26
}

TEST(DocumentSymbols, BoundsCountDepthAndNames) {
  json many = json::array();
  for (std::size_t i = 0; i < kMaxSymbols + 10; ++i)
    many.push_back(symbol("f" + std::to_string(i), 12, static_cast<int>(i), static_cast<int>(i)));
  SymbolList list;
  ASSERT_FALSE(flattenSymbols(many, list));
  EXPECT_EQ(list.symbols.size(), kMaxSymbols);
  EXPECT_EQ(list.dropped, 10u);

  json deep = symbol("leaf", 12, 0, 0);
  for (int i = 0; i < 40; ++i)
    deep = symbol("n" + std::to_string(i), 3, 0, 0, json::array({deep}));
  ASSERT_FALSE(flattenSymbols(json::array({deep}), list));
  EXPECT_EQ(list.symbols.size(), kMaxDepth);
  EXPECT_GT(list.dropped, 0u);

  ASSERT_FALSE(flattenSymbols(json::array({symbol(std::string(5000, 'x'), 12, 0, 0)}), list));
  EXPECT_EQ(list.symbols[0].name.size(), kMaxNameBytes);
}

} // namespace
} // namespace hashline::context
