// Properties every EditPlan must have, whatever form produced it (engine/plan/edit_plan.h):
// edits sorted by `begin`, inside the base text, not overlapping, at the stated version, and
// applyPlan on the Rope equal to splicing the same edits into a plain string. Used by the
// edit-form fuzzers. Threading: none.
#pragma once
#include "engine/plan/edit_plan.h"
#include "engine/text/rope.h"
#include "tests/fuzz/fuzz_target.h"

#include <cstdint>
#include <string>

namespace hashline::fuzz {

inline void checkPlan(const EditPlan& plan, const std::string& base, std::int64_t version) {
  FUZZ_CHECK(plan.base_version == version);
  std::size_t previous_end = 0;
  for (std::size_t i = 0; i < plan.edits.size(); ++i) {
    const ByteEdit& edit = plan.edits[i];
    FUZZ_CHECK(edit.begin <= edit.end, "edit " + std::to_string(i));
    FUZZ_CHECK(edit.end <= base.size(), "edit " + std::to_string(i));
    FUZZ_CHECK(i == 0 || edit.begin >= previous_end, "edit " + std::to_string(i) + " overlaps");
    previous_end = edit.end;
  }
  std::string expected = base;
  for (std::size_t i = plan.edits.size(); i-- > 0;) {
    const ByteEdit& edit = plan.edits[i];
    expected.replace(edit.begin, edit.end - edit.begin, edit.text);
  }
  Rope applied = applyPlan(Rope(base), plan);
  FUZZ_CHECK(applied.toString() == expected, "applyPlan differs from the string splice");
  FUZZ_CHECK(applied.checkInvariants());
}

} // namespace hashline::fuzz
