// Shared helpers for the edit-form tests: apply a plan to a string, read the error code.
#pragma once

#include "engine/plan/edit_plan.h"
#include "engine/support/result.h"
#include "engine/text/rope.h"

#include <string>

namespace hashline::forms::testing {

inline std::string applied(const std::string& base, const EditPlan& plan) {
  return applyPlan(Rope(base), plan).toString();
}

template <class T> ErrorCode codeOf(const Result<T>& result) {
  return result.error().code;
}

} // namespace hashline::forms::testing
