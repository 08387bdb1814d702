// Shared scaffolding of the libFuzzer targets in tests/fuzz/ (one `<name>_fuzzer.cpp` each).
//
// A target is written once with HASHLINE_FUZZ_TARGET(name) { ... } and is built two ways:
// - as a libFuzzer binary (fuzz preset, tests/CMakeLists.txt): the macro also defines
//   LLVMFuzzerTestOneInput;
// - inside the plain gtest binary tests/lsp/fuzz_regressions/, which defines
//   HASHLINE_FUZZ_REPLAY before including the target's .cpp: then only `hashlineFuzz_<name>` is
//   defined and the test replays the seed corpus and the regression inputs through it.
// FUZZ_CHECK(cond) states a property of the code under test: a violation aborts under libFuzzer
// (a crash, with the input saved) and throws FuzzCheckFailure under replay (a test failure
// naming the input file). ByteReader splits the input into the pieces a target needs.
// Threading: none.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hashline::fuzz {

struct FuzzCheckFailure : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] inline void checkFailed(const char* condition, const char* file, int line,
                                     const std::string& detail) {
  std::string message = std::string(file) + ":" + std::to_string(line) + ": FUZZ_CHECK(" +
                        condition + ") failed" + (detail.empty() ? "" : ": " + detail);
#ifdef HASHLINE_FUZZ_REPLAY
  throw FuzzCheckFailure(message);
#else
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
#endif
}

/// Consumes a fuzz input front to back; reads past the end yield zeros / empty strings.
class ByteReader {
public:
  ByteReader(const std::uint8_t* data, std::size_t size)
      : bytes_(reinterpret_cast<const char*>(data), size) {}
  bool empty() const { return offset_ >= bytes_.size(); }
  std::size_t remaining() const { return empty() ? 0 : bytes_.size() - offset_; }
  std::uint8_t byte() { return empty() ? 0 : static_cast<std::uint8_t>(bytes_[offset_++]); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  /// A number in [0, bound) (bound > 0), from two bytes.
  std::size_t below(std::size_t bound) { return bound == 0 ? 0 : u16() % bound; }
  /// Bytes up to (not including) the next `separator`, which is consumed; or all that is left.
  std::string_view until(char separator) {
    if (empty()) return {};
    std::string_view rest = bytes_.substr(offset_);
    std::size_t at = rest.find(separator);
    if (at == std::string_view::npos) {
      offset_ = bytes_.size();
      return rest;
    }
    offset_ += at + 1;
    return rest.substr(0, at);
  }
  /// At most `count` bytes.
  std::string_view take(std::size_t count) {
    std::string_view rest = empty() ? std::string_view() : bytes_.substr(offset_);
    rest = rest.substr(0, count);
    offset_ += rest.size();
    return rest;
  }
  std::string_view rest() { return take(remaining()); }

private:
  std::string_view bytes_;
  std::size_t offset_ = 0;
};

} // namespace hashline::fuzz

#define FUZZ_CHECK(condition, ...)                                                                 \
  do {                                                                                             \
    if (!(condition))                                                                              \
      ::hashline::fuzz::checkFailed(#condition, __FILE__, __LINE__, std::string(__VA_ARGS__));     \
  } while (0)

#ifdef HASHLINE_FUZZ_REPLAY
#define HASHLINE_FUZZ_TARGET(name)                                                                 \
  int hashlineFuzz_##name(const std::uint8_t* data, std::size_t size)
#else
#define HASHLINE_FUZZ_TARGET(name)                                                                 \
  int hashlineFuzz_##name(const std::uint8_t* data, std::size_t size);                             \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {              \
    return hashlineFuzz_##name(data, size);                                                        \
  }                                                                                                \
  int hashlineFuzz_##name(const std::uint8_t* data, std::size_t size)
#endif
