// Test fixture for verify tests: a live Document with its ChangeLog and LineHashCache, one agent
// session's Observation, and helpers to read, type (as the user) and edit (as the agent).
#pragma once

#include "engine/anchors/line_hash_cache.h"
#include "engine/anchors/reader.h"
#include "engine/text/document.h"
#include "engine/verify/verifier.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace hashline::test {

inline AnchoredEdit replaceOp(std::string anchor, std::string content,
                              std::optional<std::string> end = std::nullopt) {
  return AnchoredEdit{EditOp::Replace, std::move(anchor), std::move(end), std::move(content)};
}
inline AnchoredEdit deleteOp(std::string anchor, std::optional<std::string> end = std::nullopt) {
  return AnchoredEdit{EditOp::Delete, std::move(anchor), std::move(end), ""};
}
inline AnchoredEdit insertAfterOp(std::string anchor, std::string content) {
  return AnchoredEdit{EditOp::InsertAfter, std::move(anchor), std::nullopt, std::move(content)};
}
inline AnchoredEdit insertBeforeOp(std::string anchor, std::string content) {
  return AnchoredEdit{EditOp::InsertBefore, std::move(anchor), std::nullopt, std::move(content)};
}
inline AnchoredEdit writeOp(std::string content) {
  return AnchoredEdit{EditOp::Write, "", std::nullopt, std::move(content)};
}

/// "l1\nl2\n...lN\n".
inline std::string numbered(int count, std::string prefix = "l") {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += prefix + std::to_string(i) + "\n";
  return text;
}

struct LiveSession {
  explicit LiveSession(std::string_view text, std::int64_t version = 1) : doc(version, text) {}

  Document doc;
  Observation observation;
  LineHashCache cache;
  ReadView last_read;

  const ReadView& read(Tier tier = Tier::Block, std::optional<std::uint32_t> from = std::nullopt,
                       std::optional<std::uint32_t> to = std::nullopt) {
    auto view = readWindow(doc.text(), doc.version(), tier, from, to, &doc.changeLog(), &cache);
    EXPECT_TRUE(view.ok());
    last_read = *view;
    observation.recordRead(last_read);
    return last_read;
  }
  /// The anchor the last read showed for `line`.
  std::string anchor(std::uint32_t line) const {
    for (const auto& row : last_read.rows)
      if (row.line == line) return row.anchor;
    ADD_FAILURE() << "line " << line << " was not in the last read";
    return "";
  }
  std::string text() const { return doc.text().toString(); }

  /// The user types: replace [from, to) (LSP line/utf-16 character) with `inserted`.
  void type(std::uint32_t line, std::uint32_t character, std::string inserted,
            std::optional<LspPosition> end = std::nullopt) {
    const LspPosition start{line, character};
    ASSERT_TRUE(doc.applyChanges(doc.version() + 1,
                                 {ContentChange{start, end.value_or(start), std::move(inserted)}},
                                 PositionEncoding::Utf16)
                    .ok());
  }

  Result<VerifiedEdit> verify(const std::vector<AnchoredEdit>& edits, Observation* obs = nullptr) {
    VerifyOptions options;
    options.cache = &cache;
    return verifyAnchoredEdits(TextState::ofDocument(doc), obs ? obs : &observation, edits,
                               options);
  }

  /// Applies a verified plan as the editor would (one didChange, edits bottom-up), checks the
  /// predicted text, and records the fresh anchors at the new version.
  void apply(const VerifiedEdit& result) {
    std::vector<ContentChange> changes;
    const Rope& base = doc.text();
    for (auto it = result.plan.edits.rbegin(); it != result.plan.edits.rend(); ++it)
      changes.push_back(ContentChange{base.positionOfByte(it->begin, PositionEncoding::Utf16),
                                      base.positionOfByte(it->end, PositionEncoding::Utf16),
                                      it->text});
    ASSERT_TRUE(doc.applyChanges(doc.version() + 1, changes, PositionEncoding::Utf16).ok());
    ASSERT_EQ(doc.text().toString(), result.after.toString());
    result.recordFreshAnchors(observation, doc.version());
  }

  /// verify + apply; returns the verified edit (fails the test on refusal).
  VerifiedEdit edit(const std::vector<AnchoredEdit>& edits) {
    auto result = verify(edits);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    if (!result.ok()) return VerifiedEdit{};
    apply(*result);
    return *result;
  }

  /// The anchor of `line` among the fresh anchors of a result.
  static std::string freshAnchor(const VerifiedEdit& result, std::uint32_t line) {
    for (const auto& row : result.fresh_rows)
      if (row.line == line) return row.anchor;
    ADD_FAILURE() << "line " << line << " not among fresh anchors";
    return "";
  }
};

inline std::string codeName(ErrorCode code) {
  return std::string(errorCodeName(code));
}

#define EXPECT_REFUSED(result, expected_code)                                                      \
  do {                                                                                             \
    const auto& r_ = (result);                                                                     \
    ASSERT_FALSE(r_.ok()) << "expected " << ::hashline::test::codeName(expected_code);             \
    EXPECT_EQ(::hashline::test::codeName(r_.error().code),                                         \
              ::hashline::test::codeName(expected_code))                                           \
        << r_.error().message;                                                                     \
  } while (0)

} // namespace hashline::test
