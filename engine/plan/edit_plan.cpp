// Applies a verified plan to a copy of its base text.
#include "engine/plan/edit_plan.h"

namespace hashline {

Rope applyPlan(const Rope& base, const EditPlan& plan) {
  Rope result = base;
  // Bottom-up keeps earlier offsets valid; equal-offset insertions are applied in reverse so
  // they come out in request order.
  for (auto it = plan.edits.rbegin(); it != plan.edits.rend(); ++it)
    result.replace(it->begin, it->end, it->text);
  return result;
}

} // namespace hashline
