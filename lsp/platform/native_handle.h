// The layer's handle types: an open file, directory or socket as the OS names it. A descriptor
// (int) on POSIX systems; Windows seam: a HANDLE/SOCKET carried as an integer of pointer size.
#pragma once

namespace hashline::platform {

using FileHandle = int;
using SocketHandle = int;
inline constexpr int kInvalidHandle = -1;

} // namespace hashline::platform
