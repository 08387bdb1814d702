// A recursive-descent JSON parser (depth-capped) that decodes strings in bulk.
#include "lsp/rpc/json_parse.h"

#include "engine/support/utf8.h"

#include <charconv>
#include <cstring>
#include <locale>
#include <sstream>

namespace hashline::lsp {

using nlohmann::json;

namespace {

/// The double that [first, last) spells (JSON's number grammar, already checked).
/// std::from_chars where the standard library has it for floating point; libc++ (macOS, and
/// LLVM before 20) has only the integral overloads: a stream in the classic locale there.
bool parseDouble(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars) || !defined(_LIBCPP_VERSION)
  return std::from_chars(first, last, value).ec == std::errc();
#else
  std::istringstream in(std::string(first, last));
  in.imbue(std::locale::classic());
  in >> value;
  return !in.fail() && in.peek() == std::char_traits<char>::eof();
#endif
}

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  bool parseDocument(json& out) {
    skipSpace();
    if (!parseValue(out, 0)) return false;
    skipSpace();
    if (at_ != text_.size()) return fail("unexpected data after the JSON value");
    return true;
  }
  const std::string& error() const { return error_; }

private:
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = "at byte " + std::to_string(at_) + ": " + why;
    return false;
  }

  void skipSpace() {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++at_;
    }
  }

  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return fail("invalid literal");
    at_ += word.size();
    return true;
  }

  bool parseValue(json& out, std::size_t depth) {
    if (at_ >= text_.size()) return fail("unexpected end of input");
    switch (text_[at_]) {
    case '{':
      return parseObject(out, depth + 1);
    case '[':
      return parseArray(out, depth + 1);
    case '"': {
      std::string value;
      if (!parseString(value)) return false;
      out = std::move(value);
      return true;
    }
    case 't':
      out = true;
      return literal("true");
    case 'f':
      out = false;
      return literal("false");
    case 'n':
      out = nullptr;
      return literal("null");
    default:
      return parseNumber(out);
    }
  }

  bool parseObject(json& out, std::size_t depth) {
    if (depth > kMaxJsonDepth) return fail("nesting deeper than " + std::to_string(kMaxJsonDepth));
    ++at_; // {
    out = json::object();
    skipSpace();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return true;
    }
    while (true) {
      skipSpace();
      if (at_ >= text_.size() || text_[at_] != '"') return fail("expected a member name");
      std::string key;
      if (!parseString(key)) return false;
      skipSpace();
      if (at_ >= text_.size() || text_[at_] != ':') return fail("expected ':'");
      ++at_;
      skipSpace();
      json& member = out[std::move(key)]; // a repeated name: the last one wins
      if (!parseValue(member, depth)) return false;
      skipSpace();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool parseArray(json& out, std::size_t depth) {
    if (depth > kMaxJsonDepth) return fail("nesting deeper than " + std::to_string(kMaxJsonDepth));
    ++at_; // [
    out = json::array();
    skipSpace();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return true;
    }
    while (true) {
      skipSpace();
      json element;
      if (!parseValue(element, depth)) return false;
      out.push_back(std::move(element));
      skipSpace();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool parseNumber(json& out) {
    std::size_t start = at_;
    auto digit = [&](std::size_t i) {
      return i < text_.size() && text_[i] >= '0' && text_[i] <= '9';
    };
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    if (!digit(at_)) return fail("invalid value");
    if (text_[at_] == '0') {
      ++at_;
    } else {
      while (digit(at_))
        ++at_;
    }
    bool integral = true;
    if (at_ < text_.size() && text_[at_] == '.') {
      integral = false;
      ++at_;
      if (!digit(at_)) return fail("invalid number");
      while (digit(at_))
        ++at_;
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      integral = false;
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (!digit(at_)) return fail("invalid number");
      while (digit(at_))
        ++at_;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + at_;
    if (integral) {
      if (*first != '-') {
        std::uint64_t value = 0;
        if (std::from_chars(first, last, value).ec == std::errc()) {
          out = value;
          return true;
        }
      } else {
        std::int64_t value = 0;
        if (std::from_chars(first, last, value).ec == std::errc()) {
          out = value;
          return true;
        }
      }
    }
    double value = 0; // too large for 64 bits, or a fraction/exponent
    if (!parseDouble(first, last, value)) return fail("invalid number");
    out = value;
    return true;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool readHex4(std::size_t at, std::uint32_t& value) {
    if (at + 4 > text_.size()) return false;
    value = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      int digit = hex(text_[at + i]);
      if (digit < 0) return false;
      value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return true;
  }

  static void appendUtf8(std::string& out, std::uint32_t cp) {
    appendUtf8CodePoint(out, static_cast<char32_t>(cp));
  }

  // Length of a valid UTF-8 sequence at `at` (lead byte >= 0x80), 0 if invalid.
  std::size_t utf8Sequence(std::size_t at) const { return decodeUtf8Sequence(text_, at).length; }

  // The offset of the closing quote of the string starting at at_ (a quote preceded by an odd
  // run of backslashes is escaped).
  bool findClosingQuote(std::size_t& end) {
    end = at_;
    while (true) {
      const void* quote = std::memchr(text_.data() + end, '"', text_.size() - end);
      if (!quote) return fail("unterminated string");
      end = static_cast<std::size_t>(static_cast<const char*>(quote) - text_.data());
      std::size_t backslashes = 0;
      while (end - backslashes > at_ && text_[end - backslashes - 1] == '\\')
        ++backslashes;
      if (backslashes % 2 == 0) return true;
      ++end;
    }
  }

  // A \uXXXX escape (at_ just after the `u`), with its low surrogate if it is a high one.
  bool parseUnicodeEscape(std::string& out, std::size_t end) {
    std::uint32_t cp = 0;
    if (!readHex4(at_, cp)) return fail("invalid \\u escape");
    at_ += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::uint32_t low = 0;
      if (at_ + 6 > end || text_[at_] != '\\' || text_[at_ + 1] != 'u' || !readHex4(at_ + 2, low) ||
          low < 0xDC00 || low > 0xDFFF)
        return fail("unpaired surrogate in a \\u escape");
      at_ += 6;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return fail("unpaired surrogate in a \\u escape");
    }
    appendUtf8(out, cp);
    return true;
  }

  // An escape (at_ on the backslash) inside a string ending at `end`.
  bool parseEscape(std::string& out, std::size_t end) {
    if (at_ + 1 >= end) return fail("invalid escape");
    char kind = text_[at_ + 1];
    at_ += 2;
    switch (kind) {
    case '"':
      out.push_back('"');
      return true;
    case '\\':
      out.push_back('\\');
      return true;
    case '/':
      out.push_back('/');
      return true;
    case 'b':
      out.push_back('\b');
      return true;
    case 'f':
      out.push_back('\f');
      return true;
    case 'n':
      out.push_back('\n');
      return true;
    case 'r':
      out.push_back('\r');
      return true;
    case 't':
      out.push_back('\t');
      return true;
    case 'u':
      return parseUnicodeEscape(out, end);
    default:
      return fail("invalid escape");
    }
  }

  bool parseString(std::string& out) {
    ++at_; // opening quote
    // Find the closing quote first, so the result is allocated once: decoding never makes a
    // string longer.
    std::size_t end = 0;
    if (!findClosingQuote(end)) return false;
    out.reserve(end - at_);
    while (at_ < end) {
      // Copy the longest run of plain ASCII at once.
      std::size_t run = at_;
      while (run < end) {
        unsigned char c = static_cast<unsigned char>(text_[run]);
        if (c == '\\' || c < 0x20 || c >= 0x80) break;
        ++run;
      }
      out.append(text_.data() + at_, run - at_);
      at_ = run;
      if (at_ >= end) break;
      unsigned char c = static_cast<unsigned char>(text_[at_]);
      if (c < 0x20) return fail("control character in a string");
      if (c >= 0x80) {
        std::size_t length = utf8Sequence(at_);
        if (length == 0 || at_ + length > end) return fail("invalid UTF-8 in a string");
        out.append(text_.data() + at_, length);
        at_ += length;
        continue;
      }
      if (!parseEscape(out, end)) return false;
    }
    at_ = end + 1; // closing quote
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::string error_;
};

} // namespace

bool parseJSON(std::string_view text, json& out, std::string& error) {
  Parser parser(text);
  if (parser.parseDocument(out)) return true;
  error = parser.error();
  out = json();
  return false;
}

} // namespace hashline::lsp
