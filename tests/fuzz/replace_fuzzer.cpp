// Fuzzes the old/new form (engine/forms/replace.h).
//
// Input: `<file text>\0` then up to 4 edits, each `<flags byte><old>\0<new>\0` (flags bit 0 =
// replace_all). planReplace either refuses with a documented code or returns a plan with the
// EditPlan properties (plan_checks.h). One more property for the simplest case — a single edit
// whose old text occurs exactly once, byte for byte, and whose new text has no line break or
// quote to restyle: the result is exactly the string replacement.
#include "engine/forms/replace.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/plan_checks.h"

#include <string>
#include <vector>

HASHLINE_FUZZ_TARGET(replace) {
  using namespace hashline;
  fuzz::ByteReader input(data, size);
  std::string file_text(input.until('\0'));
  std::vector<forms::OldNewEdit> edits;
  while (!input.empty() && edits.size() < 4) {
    forms::OldNewEdit edit;
    edit.replace_all = input.byte() & 1;
    edit.old_text = std::string(input.until('\0'));
    edit.new_text = std::string(input.until('\0'));
    edits.push_back(std::move(edit));
  }
  auto plan = forms::planReplace(Rope(file_text), 9, edits);
  if (!plan) {
    ErrorCode code = plan.error().code;
    FUZZ_CHECK(code == ErrorCode::NotFound || code == ErrorCode::Ambiguous ||
                   code == ErrorCode::NoChange || code == ErrorCode::NotText ||
                   code == ErrorCode::MalformedAnchor || code == ErrorCode::OverlappingEdits,
               plan.error().message);
    return 0;
  }
  fuzz::checkPlan(*plan, file_text, 9);
  if (edits.size() == 1 && !edits[0].old_text.empty()) {
    const forms::OldNewEdit& edit = edits[0];
    std::size_t first = file_text.find(edit.old_text);
    bool unique =
        first != std::string::npos && file_text.find(edit.old_text, first + 1) == std::string::npos;
    bool plain = edit.new_text.find_first_of("\r\n\"'") == std::string::npos &&
                 edit.old_text.find_first_of("\r\n") == std::string::npos;
    if (unique && plain) {
      std::string expected = file_text;
      expected.replace(first, edit.old_text.size(), edit.new_text);
      FUZZ_CHECK(applyPlan(Rope(file_text), *plan).toString() == expected,
                 "unique exact match not replaced literally");
    }
  }
  return 0;
}
