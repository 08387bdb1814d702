// The first occurrence of a byte string in a buffer: memmem where the C library has it (glibc,
// macOS, the BSDs; vectorised there), else std::search with Boyer-Moore-Horspool. Windows seam:
// the std::search branch. Inline: workspace search calls it per file.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>
#if !(defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) ||  \
      defined(__NetBSD__))
#include <algorithm>
#include <functional>
#endif

namespace hashline::platform {

/// Offset of the first `needle` in `haystack`, or std::string_view::npos.
inline std::size_t findBytes(std::string_view haystack, std::string_view needle) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) ||    \
    defined(__NetBSD__)
  const void* at = ::memmem(haystack.data(), haystack.size(), needle.data(), needle.size());
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - haystack.data())
            : std::string_view::npos;
#else
  auto at = std::search(haystack.begin(), haystack.end(),
                        std::boyer_moore_horspool_searcher(needle.begin(), needle.end()));
  return at == haystack.end() && !needle.empty() ? std::string_view::npos
                                                 : static_cast<std::size_t>(at - haystack.begin());
#endif
}

} // namespace hashline::platform
