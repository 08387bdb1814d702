// Sizes of the torture runs: a reduced count by default so the default ctest stays quick, the
// full count when HASHLINE_TORTURE=1 (scripts/torture sets it). Threading: none.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hashline::test {

inline bool fullTorture() {
  const char* value = std::getenv("HASHLINE_TORTURE");
  return value && std::string(value) == "1";
}

/// `reduced` normally, `full` under HASHLINE_TORTURE=1.
inline std::int64_t tortureCount(std::int64_t reduced, std::int64_t full) {
  return fullTorture() ? full : reduced;
}

/// Seed of the run: HASHLINE_TORTURE_SEED, else `fallback` (printed by the tests so a failure
/// can be replayed).
inline std::uint64_t tortureSeed(std::uint64_t fallback) {
  const char* value = std::getenv("HASHLINE_TORTURE_SEED");
  return value && *value ? std::strtoull(value, nullptr, 10) : fallback;
}

} // namespace hashline::test
