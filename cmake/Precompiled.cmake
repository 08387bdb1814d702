# Precompiled headers for clean builds: the heavy third-party headers (Boost.Asio/Beast,
# nlohmann/json, GoogleTest, the standard library) are parsed once per PCH instead of once per
# translation unit (figures in docs/building.md).
#
# HASHLINE_PCH is OFF by default; a ccache build (the developer's) should keep it off: plain
# command lines keep the cache shared between build directories, and every file is still compiled
# with only its own includes (a missing #include shows there).
option(HASHLINE_PCH "Precompile the third-party headers" OFF)

# The standard headers most files include; <utility> first (Boost 1.74's Asio needs it with GCC 12).
set(HASHLINE_PCH_STD <utility> <algorithm> <chrono> <cstddef> <cstdint> <functional> <map> <memory>
    <optional> <set> <string> <string_view> <vector>)
set(HASHLINE_PCH_LSP ${HASHLINE_PCH_STD} <nlohmann/json.hpp> <boost/asio/io_context.hpp>
    <boost/asio/steady_timer.hpp> <boost/asio/post.hpp>)
set(HASHLINE_PCH_GTEST <gtest/gtest.h> <gmock/gmock.h>)

# hashline_precompile(TARGET HEADER...): TARGET gets a PCH of HEADER... when HASHLINE_PCH is on.
function(hashline_precompile target)
  if(HASHLINE_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# hashline_reuse_precompiled(TARGET FROM): TARGET uses FROM's PCH (same flags and definitions).
function(hashline_reuse_precompiled target from)
  if(HASHLINE_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
