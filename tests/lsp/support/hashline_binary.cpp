// The build's paths of `hashline`, from this file's own compile definitions (tests/CMakeLists.txt).
#include "tests/lsp/support/hashline_binary.h"

namespace hashline::test {

const char* hashlineBinary() {
  return HASHLINE_BINARY;
}

const char* hashlineTargetBinary() {
  return HASHLINE_TARGET_BINARY;
}

} // namespace hashline::test
