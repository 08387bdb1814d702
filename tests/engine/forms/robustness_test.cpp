// Robustness of every form on malformed and random input: never a crash, errors only from the
// vocabulary, and every accepted plan well-formed (sorted, in range, non-overlapping). Inputs are
// generated from fixed seeds so failures reproduce.
#include "engine/forms/draft.h"
#include "engine/forms/ed_script.h"
#include "engine/forms/head_tail.h"
#include "engine/forms/line_range.h"
#include "engine/forms/patch_plan.h"
#include "engine/forms/replace.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <random>

namespace hashline::forms {
namespace {

const char* const kPieces[] = {"a",
                               "b",
                               "\n",
                               "\r\n",
                               "\r",
                               " ",
                               "\t",
                               "...",
                               "// ...",
                               "@@",
                               "-",
                               "+",
                               "*** Begin Patch\n",
                               "*** End Patch\n",
                               "*** Update File: f\n",
                               "*** Add File: g\n",
                               "$",
                               ",",
                               "1",
                               "3",
                               "s/a/b/g",
                               "d",
                               "\xE2\x80\x9C",
                               "\xC2\xA0",
                               "\xEF\xBB\xBF",
                               "\xFF",
                               "\xC3",
                               "}",
                               "x = 1;",
                               "\n.\n",
                               "0",
                               "a\n.\n"};

std::string randomText(std::mt19937& rng, std::size_t max_pieces) {
  std::uniform_int_distribution<std::size_t> count(0, max_pieces);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kPieces) - 1);
  std::string out;
  for (std::size_t n = count(rng); n > 0; --n)
    out += kPieces[pick(rng)];
  return out;
}

std::string substringOf(std::mt19937& rng, const std::string& text) {
  if (text.empty()) return "a";
  std::uniform_int_distribution<std::size_t> pos(0, text.size() - 1);
  std::size_t begin = pos(rng);
  std::uniform_int_distribution<std::size_t> len(1, text.size() - begin);
  return text.substr(begin, len(rng));
}

std::string randomEdScript(std::mt19937& rng) {
  std::uniform_int_distribution<int> line(0, 6), kind(0, 6), count(1, 3);
  std::string script;
  for (int n = count(rng); n > 0; --n) {
    const std::string l = std::to_string(line(rng)), m = std::to_string(line(rng));
    switch (kind(rng)) {
    case 0:
      script += l + "d\n";
      break;
    case 1:
      script += l + "," + m + "s/a/x&/g\n";
      break;
    case 2:
      script += l + "a\nnew\n.\n";
      break;
    case 3:
      script += l + "m" + m + "\n";
      break;
    case 4:
      script += l + "t" + m + "\n";
      break;
    case 5:
      script += l + "c\nchanged\n.\n";
      break;
    default:
      script += l + "i\n\r\n.\n";
      break;
    }
  }
  return script;
}

void expectWellFormed(const EditPlan& plan, std::size_t size) {
  std::size_t previous_end = 0;
  for (const ByteEdit& edit : plan.edits) {
    EXPECT_LE(edit.begin, edit.end);
    EXPECT_LE(edit.end, size);
    EXPECT_GE(edit.begin, previous_end);
    previous_end = edit.end;
  }
}

template <class T> void expectKnownError(const Result<T>& result) {
  if (!result.ok()) {
    EXPECT_FALSE(errorCodeName(result.error().code).empty());
    EXPECT_FALSE(result.error().message.empty());
  }
}

TEST(FormsRobustness, RandomInputsNeverCrash) {
  // HASHLINE_FORMS_FUZZ_ROUNDS raises the round count for a longer local run (e.g. under ASan).
  const char* rounds_env = std::getenv("HASHLINE_FORMS_FUZZ_ROUNDS");
  const int rounds = rounds_env != nullptr ? std::atoi(rounds_env) : 3000;
  std::mt19937 rng(20261202);
  int accepted_replace = 0, accepted_range = 0, accepted_ed = 0, accepted_draft = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::string text = randomText(rng, 12);
    const Rope base(text);
    const std::string a = randomText(rng, 5), b = randomText(rng, 5), c = randomText(rng, 5);

    std::vector<OldNewEdit> edits{{substringOf(rng, text), b, round % 2 == 0}};
    if (round % 3 == 0) edits.push_back({substringOf(rng, text), c});
    if (round % 7 == 0) edits.push_back({a, c});
    Result<EditPlan> replace = planReplace(base, 1, edits);
    expectKnownError(replace);
    if (replace) {
      ++accepted_replace;
      expectWellFormed(*replace, text.size());
    }

    Result<EditPlan> span = planHeadTail(base, 1, {{substringOf(rng, text), b, c}});
    expectKnownError(span);
    if (span) expectWellFormed(*span, text.size());

    Result<EditPlan> range = planLineRange(
        base, LineHistory{nullptr, 1},
        {{static_cast<std::uint32_t>(round % 5), static_cast<std::uint32_t>(round % 7), a, 1}});
    expectKnownError(range);
    if (range) {
      ++accepted_range;
      expectWellFormed(*range, text.size());
    }

    Result<EditPlan> draft = planDraft(base, 1, a + "\n// ...\n" + b);
    expectKnownError(draft);
    if (draft) {
      ++accepted_draft;
      expectWellFormed(*draft, text.size());
    }

    Result<EdScript> script = parseEdScript(round % 4 == 0 ? a + b + c : randomEdScript(rng));
    expectKnownError(script);
    if (script) {
      Result<EditPlan> ed =
          planEdScript(base, 1, *script, makeLineNumberResolver(LineHistory{nullptr, 1}, 1));
      expectKnownError(ed);
      if (ed) {
        ++accepted_ed;
        expectWellFormed(*ed, text.size());
      }
    }

    const std::string patch =
        "*** Begin Patch\n*** Update File: f\n" + a + b + c + "\n*** End Patch";
    Result<PatchPlan> planned =
        planPatch(round % 3 == 0 ? a + b + c : patch,
                  [&](const std::string&) -> Result<std::optional<FileSnapshot>> {
                    return std::optional<FileSnapshot>(FileSnapshot{base, 1});
                  });
    expectKnownError(planned);
    if (planned)
      for (const PatchFilePlan& file : planned->files)
        if (file.base) expectWellFormed(file.plan, file.base->text.byteSize());
  }
  // The generator must reach the success paths too, or the invariants above check nothing.
  EXPECT_GT(accepted_replace, 0);
  EXPECT_GT(accepted_range, 0);
  EXPECT_GT(accepted_ed, 0);
  EXPECT_GT(accepted_draft, 0);
  std::cout << "accepted: replace " << accepted_replace << ", range " << accepted_range << ", ed "
            << accepted_ed << ", draft " << accepted_draft << "\n";
}

TEST(FormsRobustness, AbsurdNumbersAreOutOfRange) {
  Result<EdScript> script = parseEdScript("99999999999999999999d\n");
  ASSERT_TRUE(script.ok());
  Result<EditPlan> plan =
      planEdScript(Rope("a\n"), 1, *script, makeLineNumberResolver(LineHistory{nullptr, 1}, 1));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(
      planLineRange(Rope("a\n"), LineHistory{nullptr, 1}, {{4000000000u, 4000000001u, "x", 1}})
          .error()
          .code,
      ErrorCode::OutOfRange);
}

} // namespace
} // namespace hashline::forms
