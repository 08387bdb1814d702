// Tests of the chunked common prefix / suffix (engine/text/chunk_compare.h) against a plain byte
// scan: texts longer than the memcmp block, one difference anywhere (or none), cut into chunks of
// different sizes on each side, and the suffix limit.
#include "engine/text/chunk_compare.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace hashline {
namespace {

Chunks cut(const std::string& text, std::size_t size) {
  Chunks chunks;
  for (std::size_t at = 0; at < text.size(); at += size)
    chunks.push_back(std::string_view(text).substr(at, size));
  return chunks;
}

TEST(ChunkCompare, MatchesAPlainScan) {
  std::mt19937 random(5);
  for (int round = 0; round < 2000; ++round) {
    std::string a(random() % 3000, 'x');
    for (char& c : a)
      c = static_cast<char>('a' + random() % 3);
    std::string b = a;
    if (!b.empty() && round % 5 != 0) b[random() % b.size()] = 'Z';
    if (round % 7 == 0) b += "tail";
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
      ++prefix;
    const std::size_t limit = std::min(a.size(), b.size()) - (round % 3 == 0 ? prefix : 0);
    std::size_t suffix = 0;
    while (suffix < limit && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
      ++suffix;
    const Chunks ca = cut(a, 1 + random() % 700), cb = cut(b, 1 + random() % 700);
    ASSERT_EQ(commonPrefix(ca, cb), prefix) << "round " << round;
    ASSERT_EQ(commonSuffix(ca, cb, limit), suffix) << "round " << round;
  }
}

} // namespace
} // namespace hashline
