// readSettled: one consistent read of a file a foreign writer may still be writing (issue 13).
//
// The file is opened, read whole, and checked again: if its size, mtime or inode changed during
// the read, or the path now names another file (a rename landed meanwhile), the read is
// `Unsettled` and the caller tries again later — a half-written state is never returned as text.
#pragma once

#include <cstddef>
#include <string>

namespace hashline::lsp {

struct SettledRead {
  enum Kind { Text, Missing, Unsettled, TooLarge, Failed } kind = Failed;
  std::string bytes;   // Text: the whole file
  std::string problem; // Failed / TooLarge: why
};

SettledRead readSettled(const std::string& path, std::size_t max_bytes);

} // namespace hashline::lsp
