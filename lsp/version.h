// The program's version (`hashline --version`, serverInfo.version).
#pragma once
#include <string_view>

namespace hashline {
std::string_view programVersion();
} // namespace hashline
