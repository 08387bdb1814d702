// Which OS code paths this build takes. Linux builds take the Linux calls (inotify, O_TMPFILE +
// linkat, SO_PEERCRED, getrandom, /proc) unless HASHLINE_PORTABLE_POSIX is set (the CMake option
// of the same name): then Linux runs the code paths macOS and the BSDs take wherever Linux can
// run them, so those paths are tested here (docs/platforms.md). Only lsp/platform/*.cpp reads
// these (CMake gives the define to those files alone); other code asks build_variant.h.
#pragma once

#if defined(__linux__) && !defined(HASHLINE_PORTABLE_POSIX)
#define HASHLINE_LINUX_NATIVE 1
#else
#define HASHLINE_LINUX_NATIVE 0
#endif

// glibc's allocator and THP knobs (mallopt, MADV_HUGEPAGE, MAP_POPULATE): speed only.
#if HASHLINE_LINUX_NATIVE && defined(__GLIBC__)
#define HASHLINE_GLIBC_TUNING 1
#else
#define HASHLINE_GLIBC_TUNING 0
#endif
