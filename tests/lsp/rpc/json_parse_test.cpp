// parseJSON against nlohmann's reference parser: same DOM for valid input, an error (never a
// crash) for invalid input, and bounded nesting.
#include "lsp/rpc/json_parse.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::lsp {
namespace {

using json = nlohmann::json;

json parsed(std::string_view text) {
  json out;
  std::string error;
  EXPECT_TRUE(parseJSON(text, out, error)) << text << ": " << error;
  return out;
}

bool rejects(std::string_view text) {
  json out;
  std::string error;
  bool ok = parseJSON(text, out, error);
  return !ok && !error.empty();
}

TEST(ParseJSON, MatchesTheReferenceParser) {
  for (const char* text :
       {"null",
        "true",
        "false",
        "0",
        "-0",
        "12",
        "-7",
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        "-2.5e10",
        "1E-3",
        "123456789012345678901234567890",
        "\"\"",
        "\"plain\"",
        R"("esc \" \\ \/ \b \f \n \r \t")",
        R"("\u0041\u00e9\u4e2d")",
        R"("\ud83d\ude00")",
        "\"\xE4\xB8\xAD\xF0\x9F\x98\x80\"",
        "[]",
        "{}",
        " [ 1 , [ 2 ] ] ",
        R"({"a":{"b":[1,{"c":null}]},"d":"e"})",
        R"({"dup":1,"dup":2})",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"text\":\"a\\nb\"}}"}) {
    EXPECT_EQ(parsed(text), json::parse(text)) << text;
  }
}

TEST(ParseJSON, RejectsInvalidInput) {
  for (const char* text : {"",
                           " ",
                           "{",
                           "[1,]",
                           "{\"a\":1,}",
                           "{\"a\" 1}",
                           "{a:1}",
                           "'x'",
                           "tru",
                           "nul",
                           "01",
                           "1.",
                           ".5",
                           "-",
                           "1e",
                           "+1",
                           "\"unterminated",
                           "\"bad \\x escape\"",
                           "\"\\u12\"",
                           "\"\\ud83d\"",
                           "\"\\ude00\"",
                           "\"\\ud83d\\u0041\"",
                           "\"tab\there\"",
                           "[1] 2",
                           "\"\xFF\"",
                           "\"\xC0\xAF\"",
                           "\"\xED\xA0\x80\"",
                           "\"\xF4\x90\x80\x80\"",
                           "\"\xE4\xB8\""}) {
    EXPECT_TRUE(rejects(text)) << text;
  }
}

TEST(ParseJSON, NestingIsCapped) {
  std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(parsed(ok), json::parse(ok));
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(rejects(deep));
  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"a\":";
  EXPECT_TRUE(rejects(objects));
}

json randomValue(std::mt19937& rng, int depth) {
  switch (depth > 3 ? rng() % 5 : rng() % 7) {
  case 0:
    return nullptr;
  case 1:
    return rng() % 2 == 0;
  case 2:
    return static_cast<std::int64_t>(rng()) - (1ll << 31);
  case 3:
    return static_cast<double>(rng()) / 7.0;
  case 4: {
    static const char* pieces[] = {
        "a", "\"", "\\", "\n", "\x01", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "/", " ", "\xC3\xA9"};
    std::string s;
    for (int i = rng() % 8; i > 0; --i)
      s += pieces[rng() % std::size(pieces)];
    return s;
  }
  case 5: {
    json array = json::array();
    for (int i = rng() % 4; i > 0; --i)
      array.push_back(randomValue(rng, depth + 1));
    return array;
  }
  default: {
    json object = json::object();
    for (int i = rng() % 4; i > 0; --i)
      object["k" + std::to_string(rng() % 10)] = randomValue(rng, depth + 1);
    return object;
  }
  }
}

TEST(ParseJSON, RandomValuesRoundTrip) {
  std::mt19937 rng(99);
  for (int i = 0; i < 3000; ++i) {
    json value = randomValue(rng, 0);
    std::string text = value.dump();
    ASSERT_EQ(parsed(text), value) << text;
    std::string ascii = value.dump(-1, ' ', true); // \u escapes instead of UTF-8
    ASSERT_EQ(parsed(ascii), value) << ascii;
  }
}

} // namespace
} // namespace hashline::lsp
