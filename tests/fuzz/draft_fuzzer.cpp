// Fuzzes the lazy-draft form (engine/forms/draft.h).
//
// Input: `<file text>\0<draft>`. planDraft either refuses with one of its documented codes or
// returns a plan with the EditPlan properties (plan_checks.h); isElisionLine never crashes.
#include "engine/forms/draft.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/plan_checks.h"

#include <string>

HASHLINE_FUZZ_TARGET(draft) {
  using namespace hashline;
  fuzz::ByteReader input(data, size);
  std::string file_text(input.until('\0'));
  std::string_view draft = input.rest();

  (void)forms::isElisionLine(draft);
  auto plan = forms::planDraft(Rope(file_text), 5, draft);
  if (plan) {
    fuzz::checkPlan(*plan, file_text, 5);
  } else {
    ErrorCode code = plan.error().code;
    FUZZ_CHECK(code == ErrorCode::NotFound || code == ErrorCode::Ambiguous ||
                   code == ErrorCode::NoChange || code == ErrorCode::NotText ||
                   code == ErrorCode::MalformedAnchor || code == ErrorCode::OverlappingEdits ||
                   code == ErrorCode::PatchInvalid,
               plan.error().message);
  }
  return 0;
}
