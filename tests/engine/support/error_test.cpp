// The error vocabulary: every code has a unique wire name that round-trips and a hint.
#include "engine/support/error.h"
#include "engine/support/result.h"

#include <gtest/gtest.h>
#include <set>

namespace hashline {
namespace {

TEST(ErrorVocabulary, NamesRoundTripAndHintsExist) {
  std::set<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(ErrorCode::SidecarGone); ++i) {
    auto code = static_cast<ErrorCode>(i);
    auto name = errorCodeName(code);
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_EQ(errorCodeFromName(name), code);
    EXPECT_FALSE(defaultHint(code).empty()) << name;
  }
  EXPECT_EQ(names.size(), 24u);
  EXPECT_EQ(errorCodeName(ErrorCode::SidecarGone), "SIDECAR_GONE");
  EXPECT_EQ(errorCodeFromName("NOPE"), std::nullopt);
}

TEST(ErrorVocabulary, BatchPrefixNamesTheEdit) {
  auto error = Error::make(ErrorCode::StaleAnchor, "line 7 changed");
  error.inEdit(1, 3);
  EXPECT_EQ(error.message, "edit 2/3: line 7 changed");
  EXPECT_EQ(error.data.edit_index, 1u);
  EXPECT_EQ(error.hint, defaultHint(ErrorCode::StaleAnchor));
}

TEST(Result, CarriesValueOrError) {
  Result<int> good = 4;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 4);
  Result<int> bad = Error::make(ErrorCode::NotFound, "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::NotFound);
  Status fine;
  EXPECT_TRUE(fine.ok());
  Status failed = Error::make(ErrorCode::IoError, "disk");
  EXPECT_FALSE(failed.ok());
}

} // namespace
} // namespace hashline
