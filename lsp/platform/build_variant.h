// Which OS code paths lsp/platform was built with, for code outside the layer (tests choose
// their expectations with it): the HASHLINE_PORTABLE_POSIX define reaches lsp/platform/*.cpp
// only, so the rest of the tree compiles the same in both Linux builds.
#pragma once

namespace hashline::platform {

/// True when the layer uses Linux's own calls (inotify, O_TMPFILE, SO_PEERCRED, getrandom);
/// false on other systems and in the portable-POSIX build.
bool linuxNativeCalls();
/// "linux", "portable-posix", "macos" or "posix".
const char* codePaths();

} // namespace hashline::platform
