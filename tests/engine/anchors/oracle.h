// A plain-string oracle for anchors, written from DESIGN §3 independently of engine/anchors:
// split lines by hand, normalize by hand, XXH3 by hand. Tests compare the engine against it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include <xxhash.h>

namespace hashline::oracle {

inline std::vector<std::string> readLines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string> lines;
  std::string current;
  bool ended_with_break = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ended_with_break = false;
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      lines.push_back(current);
      current.clear();
      ended_with_break = true;
    } else {
      current.push_back(c);
    }
  }
  if (!ended_with_break || lines.empty()) lines.push_back(current);
  return lines;
}

inline std::string normalize(std::string_view line) {
  std::string words;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    if (!words.empty()) words += ' ';
    words += word;
    word.clear();
  };
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r')
      flush();
    else
      word += c;
  }
  flush();
  return words;
}

inline std::uint64_t hashLine(std::string_view line) {
  const std::string n = normalize(line);
  return XXH3_64bits(n.data(), n.size());
}

inline std::uint64_t hashWords(const std::vector<std::uint64_t>& hashes, std::size_t first,
                               std::size_t last) { // 0-based inclusive
  std::string bytes;
  for (std::size_t i = first; i <= last; ++i)
    for (int b = 0; b < 8; ++b)
      bytes.push_back(static_cast<char>(hashes[i] >> (8 * b)));
  return XXH3_64bits(bytes.data(), bytes.size());
}

inline std::string digest(std::uint64_t hash) {
  static const char* alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  std::string out;
  for (int i = 0; i < 3; ++i)
    out += alphabet[(hash >> (5 * i)) & 31];
  return out;
}

/// Anchor text of every line in tier "line", "block" or "chain".
inline std::vector<std::string> anchors(std::string_view text, std::string_view tier) {
  const auto lines = readLines(text);
  std::vector<std::uint64_t> hashes;
  for (const auto& line : lines)
    hashes.push_back(hashLine(line));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string anchor = std::to_string(i + 1) + ":" + digest(hashes[i]);
    if (tier == "block") {
      const std::size_t first = i / 8 * 8;
      const std::size_t last = std::min(first + 7, lines.size() - 1);
      anchor += ":" + digest(hashWords(hashes, first, last));
    } else if (tier == "chain") {
      anchor += ":" + digest(hashWords(hashes, i / 32 * 32, i));
    }
    out.push_back(anchor);
  }
  return out;
}

} // namespace hashline::oracle
