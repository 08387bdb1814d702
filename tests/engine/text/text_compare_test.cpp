// sameText (engine/text/text_compare.h): rope against rope and rope against a flat text, equal
// and different at the start, the middle, the end and in size, across leaf boundaries.
#include "engine/text/text_compare.h"

#include <gtest/gtest.h>
#include <string>

namespace hashline {
namespace {

std::string bigText() {
  std::string text;
  for (int i = 0; i < 5000; ++i)
    text += "line " + std::to_string(i) + " of a text spread over many rope leaves\n";
  return text;
}

TEST(SameText, RopeAgainstFlatText) {
  const std::string text = bigText();
  const Rope rope(text);
  EXPECT_TRUE(sameText(rope, std::string_view(text)));
  for (std::size_t at : {std::size_t(0), text.size() / 2, text.size() - 1}) {
    std::string other = text;
    other[at] = '#';
    EXPECT_FALSE(sameText(rope, std::string_view(other))) << at;
  }
  EXPECT_FALSE(sameText(rope, std::string_view(text).substr(1)));
  EXPECT_FALSE(sameText(rope, std::string_view(text + "x")));
  EXPECT_TRUE(sameText(Rope(), std::string_view()));
}

TEST(SameText, RopeAgainstRope) {
  const std::string text = bigText();
  const Rope rope(text);
  Rope copy = rope;
  EXPECT_TRUE(sameText(rope, copy));
  copy.replace(text.size() / 2, text.size() / 2 + 1, "#");
  EXPECT_FALSE(sameText(rope, copy));
  EXPECT_TRUE(sameText(Rope(text), rope)); // no shared leaves: every byte compared
}

} // namespace
} // namespace hashline
