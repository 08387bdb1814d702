// ServiceOptions from the environment.
#include "lsp/service/service_options.h"

#include <cstdlib>
#include <string>

namespace hashline::lsp {

namespace {

bool positiveFromEnv(const char* name, long long& out) {
  const char* text = std::getenv(name);
  if (!text || !*text) return false;
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value < 0) return false;
  out = value;
  return true;
}

} // namespace

ServiceOptions ServiceOptions::fromEnvironment() {
  ServiceOptions options;
  long long value = 0;
  if (positiveFromEnv("HASHLINE_APPLY_TIMEOUT_MS", value) && value > 0)
    options.apply_timeout = std::chrono::milliseconds(value);
  if (positiveFromEnv("HASHLINE_CONFIRM_TIMEOUT_MS", value) && value > 0)
    options.confirm_timeout = std::chrono::milliseconds(value);
  if (positiveFromEnv("HASHLINE_APPLY_RETRIES", value)) options.max_retries = int(value);
  if (positiveFromEnv("HASHLINE_CONFIRM_APPLY_TIMEOUT_MS", value) && value > 0)
    options.confirm_apply_timeout = std::chrono::milliseconds(value);
  if (positiveFromEnv("HASHLINE_CONFIRM_EDITS", value)) options.confirm_edits = value != 0;
  return options;
}

} // namespace hashline::lsp
