// Fuzzes the ed-script form (engine/forms/ed_script.h).
//
// Input: `<file text>\0<script>`. The script is parsed; syntax errors must be PATCH_INVALID. A
// parsed script is planned against the text with plain line numbers at the current version
// (anchors are refused by that resolver, as documented); a plan must satisfy the EditPlan
// properties (plan_checks.h). `s` runs on RE2 (linear time, no recursion), so any pattern and
// any file text is planned: a slow input here is a bug (tests/fuzz/regressions/ed/timeout-*
// was std::regex backtracking for 24+ s on a 14-byte line).
#include "engine/forms/ed_script.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/plan_checks.h"

#include <string>

HASHLINE_FUZZ_TARGET(ed) {
  using namespace hashline;
  fuzz::ByteReader input(data, size);
  std::string file_text(input.until('\0'));
  std::string_view script_text = input.rest();

  auto script = forms::parseEdScript(script_text);
  if (!script) {
    FUZZ_CHECK(script.error().code == ErrorCode::PatchInvalid ||
                   script.error().code == ErrorCode::NotText ||
                   script.error().code == ErrorCode::MalformedAnchor,
               script.error().message);
    return 0;
  }
  forms::LineHistory history{nullptr, 3};
  auto plan =
      forms::planEdScript(Rope(file_text), 3, *script, forms::makeLineNumberResolver(history, 3));
  if (plan) fuzz::checkPlan(*plan, file_text, 3);
  return 0;
}
