// readSettled: one consistent read of a file a foreign writer may still be writing (issue 13).
//
// The file is opened, read whole, and checked again: if its size, mtime or inode changed during
// the read, or the path now names another file (a rename landed meanwhile), the read is
// `Unsettled` and the caller tries again later — a half-written state is never returned as text.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace hashline::lsp {

/// The bytes of one settled read: read straight into an uninitialized buffer (never
/// zero-filled, never copied), then immutable and shared — by the reconciler's base and by a
/// merge in flight — so a multi-megabyte file costs one read per write, nothing more. A large
/// buffer is a mapping reused from an earlier read (read_buffers.h): fresh pages cost more than
/// the read.
class FileBytes {
public:
  FileBytes() = default;
  /// An uninitialized buffer of `capacity` bytes, empty until setSize.
  explicit FileBytes(std::size_t capacity);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  char* buffer() { return data_; }
  std::size_t capacity() const { return capacity_; }
  void setSize(std::size_t size) { size_ = size; } // <= capacity

  std::string_view view() const { return {data_, size_}; }
  operator std::string_view() const { return view(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool operator==(const FileBytes& other) const { return view() == other.view(); }

private:
  char* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t mapped_capacity_ = 0; // a pooled mapping (read_buffers.h) when nonzero
};

using SharedFileBytes = std::shared_ptr<const FileBytes>;

struct SettledRead {
  enum Kind { Text, Missing, Unsettled, TooLarge, Failed } kind = Failed;
  SharedFileBytes bytes; // Text: the whole file
  std::string problem;   // Failed / TooLarge: why
};

SettledRead readSettled(const std::string& path, std::size_t max_bytes);

} // namespace hashline::lsp
