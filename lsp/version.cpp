// The program's version string, baked in by CMake.
#include "lsp/version.h"

namespace hashline {
std::string_view programVersion() {
  return HASHLINE_VERSION;
}
} // namespace hashline
