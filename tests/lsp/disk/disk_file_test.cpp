// Reading files: exact bytes, NOT_TEXT for NUL / invalid UTF-8, typed errors for the rest.
#include "disk_test_util.h"
#include "lsp/disk/disk_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

using testing::TempDir;
using testing::writeRaw;

TEST(ReadTextFile, KeepsEveryByteExactly) {
  TempDir dir;
  const std::vector<std::string> contents = {
      "a\r\nb\r\nc\r\n",                             // CRLF
      "a\r\nb\nc\r\n",                               // mixed
      "a\rb\rc",                                     // lone CR, no final newline
      "\xEF\xBB\xBFhello\nworld",                    // BOM, no final newline
      "",                                            // empty
      "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80\n", // 2-, 3- and 4-byte sequences
      "trailing spaces   \n\n\n",
  };
  for (const auto& content : contents) {
    std::string path = dir / "f.txt";
    writeRaw(path, content);
    auto read = readTextFile(path);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->bytes, content);
    EXPECT_EQ(read->fingerprint.size_bytes, content.size());
    EXPECT_EQ(read->fingerprint.content_hash, hashContent(content));
    EXPECT_EQ(read->path, path);
  }
}

TEST(ReadTextFile, NulByteIsNotText) {
  TempDir dir;
  std::string path = dir / "bin";
  writeRaw(path, std::string("abc\0def", 7));
  auto read = readTextFile(path);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, ErrorCode::NotText);
  EXPECT_NE(read.error().message.find("offset 3"), std::string::npos) << read.error().message;
  EXPECT_EQ(read.error().data.path, path);
}

TEST(ReadTextFile, InvalidUtf8IsNotText) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"ok \xFF bad", 3},       // impossible byte
      {"0123456789ab\x80", 12}, // stray continuation after the ASCII fast path
      {"\xC0\x80", 0},          // overlong NUL
      {"\xE0\x80\xAF", 0},      // overlong 3-byte
      {"x\xED\xA0\x80", 1},     // UTF-16 surrogate
      {"\xF4\x90\x80\x80", 0},  // past U+10FFFF
      {"end \xE4\xB8", 4},      // truncated at EOF
      {"\xC3(", 0},             // bad continuation
  };
  for (const auto& [content, offset] : cases) {
    std::string path = dir / "latin1.txt";
    writeRaw(path, content);
    auto read = readTextFile(path);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, ErrorCode::NotText);
    EXPECT_EQ(firstInvalidUtf8(content), offset);
    // readFileBytes still hands out the raw bytes, untouched.
    auto raw = readFileBytes(path);
    ASSERT_TRUE(raw.ok());
    EXPECT_EQ(raw->bytes, content);
  }
}

TEST(FirstInvalidUtf8, AcceptsAllValidBoundaries) {
  EXPECT_EQ(firstInvalidUtf8("\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80"
                             "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"),
            std::nullopt);
  EXPECT_EQ(firstInvalidUtf8(std::string(1000, 'a') + "\xC3\xA9"), std::nullopt);
}

TEST(ReadTextFile, MissingFileIsFileNotFound) {
  TempDir dir;
  auto read = readTextFile(dir / "nope.txt");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, ErrorCode::FileNotFound);
  auto fingerprint = currentFingerprint(dir / "nope.txt");
  ASSERT_TRUE(fingerprint.ok());
  EXPECT_FALSE(fingerprint->has_value());
}

TEST(ReadTextFile, DirectoryAndFifoAreIoErrors) {
  TempDir dir;
  auto directory = readTextFile(dir.path());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().code, ErrorCode::IoError);

  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  auto fifo = readTextFile(dir / "pipe"); // must not block waiting for a writer
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.error().code, ErrorCode::IoError);
}

TEST(ReadTextFile, PermissionDeniedIsIoErrorWithErrnoText) {
  TempDir dir;
  std::string path = dir / "private.txt";
  writeRaw(path, "secret\n", 0600);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  int code = testing::runInChildAsNobody([&] {
    auto read = readTextFile(path);
    if (read.ok()) return 1;
    if (read.error().code != ErrorCode::IoError) return 2;
    if (read.error().message.find("Permission denied") == std::string::npos) return 3;
    return 0;
  });
  EXPECT_EQ(code, 0);
}

TEST(ReadTextFile, ReadsThroughASymlink) {
  TempDir dir;
  writeRaw(dir / "real.txt", "via link\n");
  ASSERT_EQ(::symlink("real.txt", (dir / "link.txt").c_str()), 0);
  auto read = readTextFile(dir / "link.txt");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->bytes, "via link\n");
}

TEST(CheckText, AcceptsTextAndNamesThePath) {
  EXPECT_TRUE(checkText("plain\r\n", "x").ok());
  auto status = checkText(std::string("a\0", 2), "some/file.c");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("some/file.c"), std::string::npos);
  EXPECT_FALSE(status.error().hint.empty());
}

} // namespace
} // namespace hashline::disk
