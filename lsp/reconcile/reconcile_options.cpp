// ReconcileOptions: mode names and environment defaults; see reconcile_options.h.
#include "lsp/reconcile/reconcile_options.h"

#include <cstdlib>

namespace hashline::lsp {

std::optional<ReconcileMode> parseReconcileMode(std::string_view text) {
  if (text == "off") return ReconcileMode::Off;
  if (text == "clean") return ReconcileMode::Clean;
  if (text == "merge") return ReconcileMode::Merge;
  return std::nullopt;
}

std::string_view reconcileModeName(ReconcileMode mode) {
  switch (mode) {
  case ReconcileMode::Off:
    return "off";
  case ReconcileMode::Clean:
    return "clean";
  case ReconcileMode::Merge:
    return "merge";
  }
  return "merge";
}

ReconcileOptions ReconcileOptions::fromEnvironment() {
  ReconcileOptions options;
  if (const char* agent = std::getenv("HASHLINE_AGENT"); agent && *agent) options.agent = agent;
  if (const char* mode = std::getenv("HASHLINE_RECONCILE"))
    if (auto parsed = parseReconcileMode(mode)) options.mode = *parsed;
  return options;
}

} // namespace hashline::lsp
