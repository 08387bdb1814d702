// Outline and symbol reads through the real binary (lsp/context/symbols_service.h): the test
// plays an editor whose plugin answers hashline/documentSymbol from its language server; the
// sidecar lists the symbols, reads exactly one symbol's lines (an edit follows that read), and
// refuses unknown, ambiguous and unanswerable requests with their codes.
#include "tests/lsp/support/service_fixture.h"

#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

constexpr const char* kShapes = "struct Shape {\n"   // 1
                                "  int area() {\n"   // 2
                                "    return 1;\n"    // 3
                                "  }\n"              // 4
                                "};\n"               // 5
                                "int run() {\n"      // 6
                                "  return 2;\n"      // 7
                                "}\n"                // 8
                                "int run(int x) {\n" // 9
                                "  return x;\n"      // 10
                                "}\n";               // 11

class SymbolsServiceTest : public ServiceFixture {
protected:
  static json range(int start_line, int end_line) {
    return {{"start", {{"line", start_line}, {"character", 0}}},
            {"end", {{"line", end_line}, {"character", 1}}}};
  }
  static json symbol(const std::string& name, int kind, int start, int end,
                     json children = json::array()) {
    return {{"name", name},
            {"kind", kind},
            {"range", range(start, end)},
            {"selectionRange", range(start, start)},
            {"children", std::move(children)}};
  }
  static json shapesSymbols() {
    return json::array({symbol("Shape", 23, 0, 4, json::array({symbol("area", 6, 1, 3)})),
                        symbol("run", 12, 5, 7), symbol("run", 12, 8, 10)});
  }
  /// Starts `method` and plays the plugin: answers the sidecar's hashline/documentSymbol.
  json askAnswering(const std::string& method, json params, json answer) {
    std::int64_t id = startService(method, std::move(params));
    json request = client_->waitServerRequest("hashline/documentSymbol");
    EXPECT_EQ(request["params"]["textDocument"]["uri"], uriOf("shapes.cpp")) << request.dump();
    client_->respond(request["id"], std::move(answer));
    return finish(id);
  }
};

TEST_F(SymbolsServiceTest, TheOutlineListsEverySymbolWithItsLines) {
  open("shapes.cpp", kShapes);
  json outline = askAnswering("outline", {{"path", pathOf("shapes.cpp")}},
                              {{"symbols", shapesSymbols()}, {"server", "clangd"}});
  ASSERT_EQ(outline["status"], "ok") << outline.dump();
  EXPECT_EQ(outline["server"], "clangd");
  EXPECT_EQ(outline["version"], 1);
  ASSERT_EQ(outline["symbols"].size(), 4u);
  EXPECT_EQ(outline["symbols"][1]["qualifiedName"], "Shape.area");
  EXPECT_EQ(outline["symbols"][1]["from"], 2);
  EXPECT_EQ(outline["symbols"][1]["to"], 4);
  EXPECT_EQ(outline["rows"],
            "1-5 struct Shape\n  2-4 method Shape.area\n6-8 function run\n9-11 function run\n");
}

TEST_F(SymbolsServiceTest, ASymbolReadIsExactlyItsLinesAndAnEditCanFollow) {
  open("shapes.cpp", kShapes);
  type("shapes.cpp", 0, 0, "// unsaved\n"); // the language server answers for version 2
  json answer = shapesSymbols();
  answer[0]["range"] = range(1, 5);
  answer[0]["children"][0]["range"] = range(2, 4);
  json read = askAnswering(
      "symbol", {{"uri", uriOf("shapes.cpp")}, {"symbol", "Shape::area"}, {"session", "agent"}},
      {{"symbols", answer}});
  ASSERT_EQ(read["symbol"]["qualifiedName"], "Shape.area") << read.dump();
  EXPECT_EQ(read["from"], 3);
  EXPECT_EQ(read["to"], 5);
  ASSERT_EQ(read["lines"].size(), 3u);
  EXPECT_EQ(read["lines"][0]["text"], "  int area() {");
  EXPECT_EQ(read["lines"][2]["text"], "  }");
  std::int64_t id = startService("edit", {{"uri", uriOf("shapes.cpp")},
                                          {"session", "agent"},
                                          {"edits",
                                           {{{"op", "replace"},
                                             {"anchor", read["lines"][1]["anchor"]},
                                             {"content", "    return 42;"}}}}});
  applyAndConfirm(nextApplyEdit());
  EXPECT_EQ(finish(id)["status"], "applied");
  EXPECT_THAT(model("shapes.cpp").text, HasSubstr("return 42;"));
}

TEST_F(SymbolsServiceTest, UnknownAndAmbiguousSymbolsAreRefusedWithCandidates) {
  open("shapes.cpp", kShapes);
  json unknown = askAnswering("symbol", {{"path", "shapes.cpp"}, {"symbol", "Circle.area"}},
                              {{"symbols", shapesSymbols()}});
  EXPECT_EQ(unknown["status"], "refused");
  EXPECT_EQ(unknown["error"]["code"], "SYMBOL_NOT_FOUND") << unknown.dump();
  EXPECT_THAT(unknown["error"]["hint"].get<std::string>(), HasSubstr("outline"));
  EXPECT_THAT(unknown["error"]["data"]["notes"][1].get<std::string>(), HasSubstr("Shape.area"));
  json ambiguous = askAnswering("symbol", {{"path", "shapes.cpp"}, {"symbol", "run"}},
                                {{"symbols", shapesSymbols()}});
  EXPECT_EQ(ambiguous["error"]["code"], "AMBIGUOUS") << ambiguous.dump();
  EXPECT_EQ(ambiguous["error"]["data"]["candidateLines"], json::array({6, 9}));
}

TEST_F(SymbolsServiceTest, NoLanguageServerNoPluginOrAClosedFileIsNoSymbols) {
  open("shapes.cpp", kShapes);
  json none = askAnswering(
      "outline", {{"path", "shapes.cpp"}},
      {{"symbols", nullptr}, {"reason", "no language server is attached to this buffer"}});
  EXPECT_EQ(none["error"]["code"], "NO_SYMBOLS") << none.dump();
  EXPECT_THAT(none["error"]["message"].get<std::string>(), HasSubstr("no language server is"));
  EXPECT_THAT(none["error"]["hint"].get<std::string>(), HasSubstr("--from"));

  std::int64_t id = startService("outline", {{"path", "shapes.cpp"}});
  json request = client_->waitServerRequest("hashline/documentSymbol");
  client_->respondError(request["id"], -32601, "method not found");
  json no_plugin = finish(id);
  EXPECT_EQ(no_plugin["error"]["code"], "NO_SYMBOLS");
  EXPECT_THAT(no_plugin["error"]["message"].get<std::string>(), HasSubstr("hashline plugin"));

  writeFile("closed.cpp", "int f() { return 0; }\n");
  json closed = service("outline", {{"path", "closed.cpp"}}); // answered without asking
  EXPECT_EQ(closed["error"]["code"], "NO_SYMBOLS");
  EXPECT_THAT(closed["error"]["message"].get<std::string>(), HasSubstr("not open in the editor"));
}

TEST_F(SymbolsServiceTest, BadParamsAndPathsOutsideTheWorkspace) {
  open("shapes.cpp", kShapes);
  json outside = service("outline", {{"path", "/etc/passwd"}});
  EXPECT_EQ(outside["error"]["code"], "OUTSIDE_WORKSPACE");
  EXPECT_EQ(client_->callError("hashline/symbol", {{"path", "shapes.cpp"}})["code"], -32602);
  EXPECT_EQ(client_->callError("hashline/symbol", {{"path", "shapes.cpp"}, {"symbol", 7}})["code"],
            -32602);
  EXPECT_EQ(client_->callError("hashline/outline", json::object())["code"], -32602);
  // A malformed answer from the editor is NO_SYMBOLS, not a crash.
  json bad = askAnswering("outline", {{"path", "shapes.cpp"}}, {{"symbols", "lots"}});
  EXPECT_EQ(bad["error"]["code"], "NO_SYMBOLS") << bad.dump();
}

} // namespace
} // namespace hashline::test
