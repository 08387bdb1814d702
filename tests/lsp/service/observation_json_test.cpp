// Tests for the observation files (lsp/service/observation_json.h) on real files in a temp
// directory: the binary format round-trips and refuses every truncation and bit flip; a store
// loads only the pairs it is asked for; a save writes only the pairs that changed; two writers
// of the same pair merge; a file holding another pair or garbage is ignored; bounds hold.
#include "lsp/service/observation_json.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>
#include <xxhash.h>

namespace hashline::lsp {
namespace {

namespace fs = std::filesystem;

Anchor anchorAt(std::uint32_t line, std::uint16_t seed, bool with_context = true) {
  Anchor anchor;
  anchor.line = line;
  anchor.line_digest = static_cast<std::uint16_t>((line * 7919u + seed) & 0x7fff);
  if (with_context) anchor.context_digest = static_cast<std::uint16_t>((line * 104729u) & 0x7fff);
  return anchor;
}

/// Reads of lines [first, last] at `version` (block tier).
void readLines(Observation& observation, std::int64_t version, std::uint32_t first,
               std::uint32_t last, std::uint16_t seed = 1) {
  std::vector<Anchor> anchors;
  for (std::uint32_t line = first; line <= last; ++line)
    anchors.push_back(anchorAt(line, seed));
  observation.recordAnchors(version, Tier::Block, 1000, 1000, anchors);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class ObservationFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/hashline-obs-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
    fs::create_directories(root_ + "/run");
    fs::permissions(root_ + "/run", fs::perms::owner_all, fs::perm_options::replace);
    ::setenv("HASHLINE_RUNTIME_DIR", (root_ + "/run").c_str(), 1);
    dir_ = root_ + "/ws/observations";
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string root_;
  std::string dir_;
};

TEST(ObservationFormat, RoundTripsEveryField) {
  Observation observation;
  readLines(observation, -42, 1, 50);
  readLines(observation, 7, 100, 120, 3);
  observation.recordAnchors(std::int64_t{1} << 62, Tier::Line, 5, 6,
                            {anchorAt(4000000000u, 9, false), anchorAt(3, 9, false)});
  observation.recordAnchors(9, Tier::Chain, 0, 0, {}); // an empty read still counts
  const std::string bytes = encodeObservation("sess\n\0ion", "file:///a b.txt", observation);

  Result<DecodedObservation> decoded = decodeObservation(bytes);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->session, "sess\n\0ion");
  EXPECT_EQ(decoded->document, "file:///a b.txt");
  ASSERT_EQ(decoded->reads.size(), observation.reads().size());
  for (std::size_t i = 0; i < decoded->reads.size(); ++i) {
    const ReadRecord& want = observation.reads()[i];
    const ReadRecord& got = decoded->reads[i];
    EXPECT_EQ(got.version, want.version);
    EXPECT_EQ(got.tier, want.tier);
    EXPECT_EQ(got.line_count, want.line_count);
    EXPECT_EQ(got.lsp_line_count, want.lsp_line_count);
    EXPECT_EQ(got.shown, want.shown);
    EXPECT_EQ(got.issued, want.issuedKeys());
    EXPECT_TRUE(got.sorted);
  }
  // Restored, every anchor verifies as issued by its read.
  Observation restored;
  for (ReadRecord& record : decoded->reads)
    restored.restoreRead(std::move(record));
  EXPECT_EQ(restored.issuerOf(anchorAt(10, 1))->version, -42);
  EXPECT_EQ(restored.issuerOf(anchorAt(110, 3))->version, 7);
  EXPECT_EQ(restored.issuerOf(anchorAt(4000000000u, 9, false))->version, std::int64_t{1} << 62);
  EXPECT_EQ(restored.issuerOf(anchorAt(10, 2)), nullptr);
  EXPECT_EQ(restored.latest()->version, 9);
}

TEST(ObservationFormat, IsCompact) {
  Observation observation;
  readLines(observation, 1, 1, 100000);
  const std::string bytes = encodeObservation("s", "d", observation);
  EXPECT_LE(bytes.size(), 100000u * 5 + 64);
}

TEST(ObservationFormat, EveryTruncationAndBitFlipIsRefused) {
  Observation observation;
  readLines(observation, 3, 1, 40);
  readLines(observation, 4, 60, 70, 5);
  const std::string bytes = encodeObservation("s", "d", observation);
  for (std::size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decodeObservation(std::string_view(bytes).substr(0, size))) << size;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      EXPECT_FALSE(decodeObservation(flipped)) << i << ":" << bit;
    }
  EXPECT_FALSE(decodeObservation(bytes + "x"));
  EXPECT_FALSE(decodeObservation(R"({"format": 1, "observations": []})"));
}

TEST(ObservationFormat, DamageBehindAValidChecksumNeverCrashes) {
  // A file whose checksum matches but whose body is wrong (written by something else): the
  // parser's own bounds must hold. Every byte of the body set to a few values, re-checksummed.
  Observation observation;
  readLines(observation, 3, 1, 20);
  readLines(observation, -4, 30, 35, 5);
  const std::string bytes = encodeObservation("s", "d", observation);
  const std::string_view body = std::string_view(bytes).substr(0, bytes.size() - 8);
  std::size_t refused = 0;
  for (std::size_t i = 8; i < body.size(); ++i)
    for (unsigned value : {0x00u, 0x01u, 0x7fu, 0x80u, 0xffu}) {
      std::string damaged(body);
      damaged[i] = static_cast<char>(value);
      const std::uint64_t sum = XXH3_64bits(damaged.data(), damaged.size());
      for (int b = 0; b < 8; ++b)
        damaged.push_back(static_cast<char>((sum >> (8 * b)) & 0xff));
      Result<DecodedObservation> decoded = decodeObservation(damaged);
      if (!decoded) {
        ++refused;
        continue;
      }
      for (const ReadRecord& record : decoded->reads) // what is accepted is well-formed
        EXPECT_TRUE(std::is_sorted(record.issued.begin(), record.issued.end()));
    }
  EXPECT_GT(refused, 0u);
}

TEST_F(ObservationFilesTest, LoadsOnlyThePairsNamedAndSavesOnlyWhatChanged) {
  {
    ObservationStore store;
    ObservationFiles files(dir_);
    files.attach(store);
    readLines(store.observe("s1", "a"), 1, 1, 10);
    readLines(store.observe("s1", "b"), 2, 1, 10);
    readLines(store.observe("s2", "a"), 3, 1, 10);
    ASSERT_TRUE(files.save(store));
  }
  ObservationFiles files(dir_);
  for (const auto* pair : {"s1/a", "s1/b", "s2/a"}) {
    std::string text = pair;
    EXPECT_TRUE(fs::exists(files.fileFor(text.substr(0, 2), text.substr(3)))) << pair;
  }
  const auto b_time = fs::last_write_time(files.fileFor("s1", "b"));
  const std::string b_bytes = slurp(files.fileFor("s1", "b"));

  ObservationStore store;
  files.attach(store);
  ASSERT_NE(store.find("s1", "a"), nullptr);
  EXPECT_EQ(store.find("s1", "a")->latest()->version, 1);
  EXPECT_EQ(store.find("s9", "a"), nullptr); // never stored
  EXPECT_EQ(store.entries().size(), 1u);     // s1/b and s2/a were not loaded
  readLines(store.observe("s1", "a"), 5, 20, 30);
  (void)store.find("s2", "a"); // loaded, unchanged
  ASSERT_TRUE(files.save(store));
  EXPECT_EQ(slurp(files.fileFor("s1", "b")), b_bytes);
  EXPECT_EQ(fs::last_write_time(files.fileFor("s1", "b")), b_time);

  ObservationStore again;
  ObservationFiles reload(dir_);
  reload.attach(again);
  ASSERT_NE(again.find("s1", "a"), nullptr);
  EXPECT_EQ(again.find("s1", "a")->reads().size(), 2u);
  EXPECT_EQ(again.find("s1", "a")->latest()->version, 5);
  EXPECT_EQ(again.find("s2", "a")->latest()->version, 3);

  // `status` counts a session's documents: loadSession brings them all in.
  ObservationStore status;
  ObservationFiles counting(dir_);
  counting.attach(status);
  counting.loadSession(status, "s1");
  EXPECT_EQ(status.entries().size(), 2u);
}

// A search observes hundreds of documents: save() writes them on several threads and prunes
// each session's directory once, to its limit.
TEST_F(ObservationFilesTest, ManyPairsAreSavedInParallelAndPrunedOnce) {
  ObservationFileLimits limits;
  limits.documents_per_session = 150;
  {
    ObservationStore store;
    ObservationFiles files(dir_, limits);
    files.attach(store);
    for (int i = 0; i < 200; ++i)
      readLines(store.observe("many", "doc" + std::to_string(i)), i + 1, 1, 5);
    readLines(store.observe("other", "x"), 7, 1, 5);
    ASSERT_TRUE(files.save(store));
  }
  ObservationFiles files(dir_, limits);
  std::size_t kept = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(files.fileFor("many", "doc0")).parent_path()))
    kept += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(kept, 150u); // pruned to the limit, once
  ObservationStore store;
  files.attach(store);
  std::size_t loaded = 0;
  for (int i = 0; i < 200; ++i)
    if (const Observation* seen = store.find("many", "doc" + std::to_string(i))) {
      ++loaded;
      EXPECT_EQ(seen->latest()->version, i + 1); // each pair holds its own reads
    }
  EXPECT_EQ(loaded, 150u);
  ASSERT_NE(store.find("other", "x"), nullptr);
  EXPECT_EQ(store.find("other", "x")->latest()->version, 7);
}

TEST_F(ObservationFilesTest, TwoWritersOfOnePairMerge) {
  {
    ObservationStore store;
    ObservationFiles files(dir_);
    files.attach(store);
    readLines(store.observe("s", "d"), 1, 1, 10);
    ASSERT_TRUE(files.save(store));
  }
  // Two runs load the same state, each reads something else, both save.
  ObservationStore first, second;
  ObservationFiles first_files(dir_), second_files(dir_);
  first_files.attach(first);
  second_files.attach(second);
  readLines(first.observe("s", "d"), 2, 1, 10, 2);
  readLines(second.observe("s", "d"), 3, 1, 10);
  readLines(second.observe("s", "d"), 1, 11, 12); // more of version 1
  ASSERT_TRUE(first_files.save(first));
  ASSERT_TRUE(second_files.save(second));

  ObservationStore merged;
  ObservationFiles files(dir_);
  files.attach(merged);
  const Observation* observation = merged.find("s", "d");
  ASSERT_NE(observation, nullptr);
  ASSERT_EQ(observation->reads().size(), 3u);
  EXPECT_EQ(observation->issuerOf(anchorAt(5, 2))->version, 2); // the first run's read survives
  EXPECT_EQ(observation->latest()->version, 1);                 // the last saver's order wins
  EXPECT_TRUE(observation->latest()->issuedAnchor(anchorAt(3, 1)));
  EXPECT_TRUE(observation->latest()->issuedAnchor(anchorAt(12, 1)));
}

TEST_F(ObservationFilesTest, BrokenFilesAreIgnoredAndReplaced) {
  ObservationFiles files(dir_);
  {
    ObservationStore store;
    files.attach(store);
    readLines(store.observe("s", "a"), 1, 1, 10);
    readLines(store.observe("s", "b"), 1, 1, 10);
    ASSERT_TRUE(files.save(store));
  }
  std::string bytes = slurp(files.fileFor("s", "a"));
  bytes[bytes.size() / 2] ^= 0x10;
  spit(files.fileFor("s", "a"), bytes);
  // A valid file of another pair under b's name (a hash collision, or a copied file).
  {
    Observation other;
    readLines(other, 1, 1, 3);
    spit(files.fileFor("s", "b"), encodeObservation("s", "other", other));
  }

  ObservationStore store;
  ObservationFiles loading(dir_);
  loading.attach(store);
  EXPECT_EQ(store.find("s", "a"), nullptr);
  EXPECT_EQ(store.find("s", "b"), nullptr);
  EXPECT_EQ(loading.problems().size(), 2u);
  readLines(store.observe("s", "a"), 7, 1, 2);
  ASSERT_TRUE(loading.save(store)); // replaces the broken file

  ObservationStore again;
  ObservationFiles reload(dir_);
  reload.attach(again);
  ASSERT_NE(again.find("s", "a"), nullptr);
  EXPECT_EQ(again.find("s", "a")->latest()->version, 7);
  EXPECT_TRUE(reload.problems().empty());
}

TEST_F(ObservationFilesTest, FormatOneFileIsRemovedByTheFirstSave) {
  fs::create_directories(root_ + "/ws");
  spit(root_ + "/ws/observations.json", R"({"format": 1, "observations": []})");
  ObservationStore store;
  ObservationFiles files(dir_);
  files.attach(store);
  ASSERT_TRUE(files.save(store)); // nothing changed: nothing written, nothing removed
  EXPECT_TRUE(fs::exists(root_ + "/ws/observations.json"));
  readLines(store.observe("s", "a"), 1, 1, 1);
  ASSERT_TRUE(files.save(store));
  EXPECT_FALSE(fs::exists(root_ + "/ws/observations.json"));
}

TEST_F(ObservationFilesTest, DocumentsAndSessionsAreBounded) {
  const ObservationFileLimits limits{.documents_per_session = 4, .sessions = 3};
  ObservationFiles files(dir_, limits);
  {
    ObservationStore store;
    files.attach(store);
    for (int i = 0; i < 9; ++i)
      readLines(store.observe("s", "doc" + std::to_string(i)), 1, 1, 1);
    ASSERT_TRUE(files.save(store));
  }
  std::size_t documents = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(files.fileFor("s", "x")).parent_path()))
    documents += entry.path().extension() == ".obs";
  EXPECT_EQ(documents, 4u);

  ObservationStore store;
  ObservationFiles more(dir_, limits);
  more.attach(store);
  for (int i = 0; i < 5; ++i)
    readLines(store.observe("t" + std::to_string(i), "doc"), 1, 1, 1);
  ASSERT_TRUE(more.save(store));
  std::size_t sessions = 0;
  for (const auto& entry : fs::directory_iterator(dir_))
    sessions += entry.is_directory();
  EXPECT_EQ(sessions, 3u);
}

} // namespace
} // namespace hashline::lsp
