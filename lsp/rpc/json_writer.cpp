// Fast compact JSON writer; see json_writer.h.
#include "lsp/rpc/json_writer.h"

#include "engine/support/hex.h"
#include "engine/support/utf8.h"

#include <charconv>
#include <cmath>

namespace hashline::lsp {
namespace {

using nlohmann::json;

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

/// Bytes that go out as they are inside a JSON string: printable ASCII but `"` and `\`.
struct PlainTable {
  bool plain[256] = {};
  constexpr PlainTable() {
    for (int c = 0x20; c < 0x80; ++c)
      plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainTable kPlain;

inline bool isPlain(unsigned char c) {
  return kPlain.plain[c];
}

void appendControl(std::string& out, unsigned char c) {
  switch (c) {
  case '"':
    out += "\\\"";
    return;
  case '\\':
    out += "\\\\";
    return;
  case '\b':
    out += "\\b";
    return;
  case '\f':
    out += "\\f";
    return;
  case '\n':
    out += "\\n";
    return;
  case '\r':
    out += "\\r";
    return;
  case '\t':
    out += "\\t";
    return;
  default: {
    out += "\\u00";
    appendHexByte(out, c);
  }
  }
}

/// Length of the valid UTF-8 sequence starting at `s[i]` (a byte >= 0x80), or 0 when invalid.
/// `bad` is then how many bytes the maximal invalid prefix covers (at least 1).
std::size_t validSequence(std::string_view s, std::size_t i, std::size_t& bad) {
  const Utf8Sequence sequence = decodeUtf8Sequence(s, i);
  bad = sequence.ill_formed;
  return sequence.length;
}

void appendString(std::string& out, std::string_view s) {
  out.reserve(out.size() + s.size() + 2);
  out.push_back('"');
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t run = i;
    while (run < s.size() && isPlain(static_cast<unsigned char>(s[run])))
      ++run;
    out.append(s.data() + i, run - i);
    i = run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      appendControl(out, c);
      ++i;
      continue;
    }
    std::size_t bad = 0;
    if (const std::size_t length = validSequence(s, i, bad)) {
      out.append(s.data() + i, length);
      i += length;
    } else {
      out += kReplacement;
      i += bad;
    }
  }
  out.push_back('"');
}

template <typename Number> void appendNumber(std::string& out, Number value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

void appendFloat(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[64];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value); // shortest text that reads back exact
  std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  out += text;
  // Keep it a float when read back, as nlohmann does ("1.0", not "1").
  if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

} // namespace

void appendJSON(std::string& out, const json& value) {
  switch (value.type()) {
  case json::value_t::null:
  case json::value_t::discarded:
    out += "null";
    return;
  case json::value_t::boolean:
    out += value.get<bool>() ? "true" : "false";
    return;
  case json::value_t::number_integer:
    appendNumber(out, value.get<json::number_integer_t>());
    return;
  case json::value_t::number_unsigned:
    appendNumber(out, value.get<json::number_unsigned_t>());
    return;
  case json::value_t::number_float:
    appendFloat(out, value.get<json::number_float_t>());
    return;
  case json::value_t::string:
    appendString(out, value.get_ref<const json::string_t&>());
    return;
  case json::value_t::binary:
    out += value.dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  case json::value_t::array: {
    out.push_back('[');
    bool first = true;
    for (const json& element : value) {
      if (!first) out.push_back(',');
      first = false;
      appendJSON(out, element);
    }
    out.push_back(']');
    return;
  }
  case json::value_t::object: {
    out.push_back('{');
    bool first = true;
    for (const auto& [key, element] : value.get_ref<const json::object_t&>()) {
      if (!first) out.push_back(',');
      first = false;
      appendString(out, key);
      out.push_back(':');
      appendJSON(out, element);
    }
    out.push_back('}');
    return;
  }
  }
}

} // namespace hashline::lsp
