// platform::fillSecureRandom: every byte filled, two draws differ, more than getentropy's 256
// bytes per call works (the portable path splits it).
#include "lsp/platform/secure_random.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

namespace hashline::platform {
namespace {

TEST(SecureRandom, FillsEveryByteAndTwoDrawsDiffer) {
  // 1000 bytes: a byte left untouched stays 0 in both draws; 1000 equal random bytes are
  // impossible in practice (2^-8000).
  std::vector<unsigned char> first(1000, 0), second(1000, 0);
  ASSERT_TRUE(fillSecureRandom(first.data(), first.size()));
  ASSERT_TRUE(fillSecureRandom(second.data(), second.size()));
  EXPECT_NE(first, second);
  std::size_t zero_in_both = 0;
  for (std::size_t i = 0; i < first.size(); ++i)
    zero_in_both += first[i] == 0 && second[i] == 0;
  EXPECT_LT(zero_in_both, 10u) << "bytes left unfilled"; // expected ~0.015
}

TEST(SecureRandom, NonBlockingFormFillsToo) {
  std::vector<unsigned char> bytes(300, 0);
  ASSERT_TRUE(fillSecureRandomNonBlocking(bytes.data(), bytes.size()));
  EXPECT_GT(std::count_if(bytes.begin(), bytes.end(), [](unsigned char b) { return b != 0; }), 250);
}

} // namespace
} // namespace hashline::platform
