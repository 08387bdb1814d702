// Fingerprints: content equality (scenario 25: touched-but-unchanged is not a change), tokens.
#include "disk_test_util.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/fingerprint.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace hashline::disk {
namespace {

using testing::TempDir;
using testing::writeRaw;

void setMtime(const std::string& path, time_t seconds, long nanoseconds) {
  struct timespec times[2] = {{seconds, nanoseconds}, {seconds, nanoseconds}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

TEST(Fingerprint, TouchedButUnchangedStillEqual) {
  TempDir dir;
  std::string path = dir / "a.txt";
  writeRaw(path, "alpha\nbeta\n");
  setMtime(path, 1'000'000, 1);
  auto before = readFileBytes(path);
  ASSERT_TRUE(before.ok());
  setMtime(path, 2'000'000, 5);
  auto after = readFileBytes(path);
  ASSERT_TRUE(after.ok());
  EXPECT_NE(before->fingerprint.mtime_ns, after->fingerprint.mtime_ns);
  EXPECT_FALSE(before->fingerprint.sameStatAs(after->fingerprint));
  EXPECT_TRUE(before->fingerprint.sameContentAs(after->fingerprint));
  EXPECT_EQ(before->fingerprint, after->fingerprint);
}

TEST(Fingerprint, SameSizeSameMtimeContentChangeIsNotEqual) {
  TempDir dir;
  std::string path = dir / "a.txt";
  writeRaw(path, "alpha\n");
  setMtime(path, 1'000'000, 0);
  auto before = readFileBytes(path);
  ASSERT_TRUE(before.ok());
  writeRaw(path, "alphA\n"); // same size, same inode
  setMtime(path, 1'000'000, 0);
  auto after = readFileBytes(path);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(before->fingerprint.sameStatAs(after->fingerprint));
  EXPECT_NE(before->fingerprint, after->fingerprint);
}

TEST(Fingerprint, RecordsStatFacts) {
  TempDir dir;
  std::string path = dir / "a.txt";
  writeRaw(path, "12345");
  setMtime(path, 1'700'000'000, 123'456'789);
  auto snapshot = readFileBytes(path);
  ASSERT_TRUE(snapshot.ok());
  struct stat file_stat {};
  ASSERT_EQ(::stat(path.c_str(), &file_stat), 0);
  EXPECT_EQ(snapshot->fingerprint.size_bytes, 5u);
  EXPECT_EQ(snapshot->fingerprint.mtime_ns, 1'700'000'000'123'456'789LL);
  EXPECT_EQ(snapshot->fingerprint.inode, file_stat.st_ino);
  EXPECT_EQ(snapshot->fingerprint.device, file_stat.st_dev);
  EXPECT_EQ(snapshot->fingerprint.content_hash, hashContent("12345"));
}

TEST(Fingerprint, TokenRoundTrips) {
  struct stat fake {};
  fake.st_ino = 987654321;
  fake.st_dev = 2049;
  fake.st_mtim = {1'700'000'000, 42};
  Fingerprint original = fingerprintOf(fake, "some bytes\r\n");
  std::string token = original.toToken();
  auto parsed = Fingerprint::fromToken(token);
  ASSERT_TRUE(parsed.has_value()) << token;
  EXPECT_TRUE(parsed->sameStatAs(original));
  EXPECT_EQ(parsed->content_hash, original.content_hash);
  EXPECT_EQ(parsed->toToken(), token);
}

TEST(Fingerprint, MalformedTokensAreRejected) {
  EXPECT_FALSE(Fingerprint::fromToken("").has_value());
  EXPECT_FALSE(Fingerprint::fromToken("1:2:3:4").has_value());
  EXPECT_FALSE(Fingerprint::fromToken("1:2:3:4:abc").has_value());
  EXPECT_FALSE(Fingerprint::fromToken("x:2:3:4:" + std::string(32, '0')).has_value());
  EXPECT_FALSE(Fingerprint::fromToken("1:2:3:4:" + std::string(32, 'g')).has_value());
  EXPECT_FALSE(Fingerprint::fromToken("1:2:3:4:" + std::string(32, '0') + ":5").has_value());
  EXPECT_TRUE(Fingerprint::fromToken("1:2:3:4:" + std::string(32, 'f')).has_value());
}

TEST(ContentHash, IsHexAndTellsContentsApart) {
  EXPECT_EQ(hashContent("a").toHex().size(), 32u);
  EXPECT_EQ(hashContent("a"), hashContent("a"));
  EXPECT_NE(hashContent("a\n"), hashContent("a\r\n"));
  EXPECT_NE(hashContent(""), hashContent(std::string(1, '\0')));
}

} // namespace
} // namespace hashline::disk
