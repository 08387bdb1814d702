// The fast JSON writer produces exactly what nlohmann's dump (replace mode) produces, for
// structured values and for arbitrary bytes in strings (invalid UTF-8, controls, astral).
#include "lsp/rpc/json_writer.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::lsp {
namespace {

using nlohmann::json;

std::string fast(const json& value) {
  std::string out;
  appendJSON(out, value);
  return out;
}

std::string reference(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

TEST(JsonWriter, StructuredValuesMatchDump) {
  const json value = {
      {"status", "ok"},
      {"version", 42},
      {"negative", -7},
      {"big", std::numeric_limits<std::uint64_t>::max()},
      {"flag", true},
      {"nothing", nullptr},
      {"empty", json::object()},
      {"list", json::array({1, "two", json::array(), json{{"x", false}}})},
      {"text", "line \"one\"\n\ttab\\ \x01\x1f\x7f caf\xC3\xA9 \xF0\x9F\x98\x80"},
  };
  EXPECT_EQ(fast(value), reference(value));
}

TEST(JsonWriter, FloatsReadBackExactly) {
  for (double x : {0.0, 0.1, -2.5, 1e20, 1e-7, 3.0, 123456.789}) {
    const std::string text = fast(json(x));
    EXPECT_EQ(json::parse(text).get<double>(), x) << text;
    EXPECT_TRUE(json::parse(text).is_number_float()) << text;
  }
  EXPECT_EQ(fast(json(std::nan(""))), "null");
}

TEST(JsonWriter, InvalidUtf8IsReplacedLikeDump) {
  const std::vector<std::string> cases = {
      "\x80",         "\xC0\xAF",        "\xE0\x80\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80",
      "\xF0\x9F\x98", "a\xE2\x82",       "\xFF\xFE",     "\xC3",         "ok\xC3(\xC3\xA9",
      "\xE2\x28\xA1", "\xF0\x28\x8C\x28"};
  for (const std::string& bytes : cases)
    EXPECT_EQ(fast(json(bytes)), reference(json(bytes)))
        << json(bytes).dump(-1, ' ', true, json::error_handler_t::replace);
}

TEST(JsonWriter, RandomBytesMatchDump) {
  std::mt19937 rng(7);
  // Bias towards bytes that matter: ASCII, controls, quotes, lead and continuation bytes.
  const std::string alphabet =
      std::string("a\"\\\n\x01 ") +
      "\x80\xBF\xC2\xC3\xDF\xE0\xE2\xED\xEF\xF0\xF4\xF5\xFF\x9F\xA0\x90\x8F";
  for (int round = 0; round < 20000; ++round) {
    std::string bytes;
    const int length = static_cast<int>(rng() % 12);
    for (int k = 0; k < length; ++k)
      bytes.push_back(alphabet[rng() % alphabet.size()]);
    ASSERT_EQ(fast(json(bytes)), reference(json(bytes)))
        << json(bytes).dump(-1, ' ', true, json::error_handler_t::replace);
  }
}

} // namespace
} // namespace hashline::lsp
