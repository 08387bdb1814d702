// Confinement against a racing symlink swap (issue 14, defect 6). A thread keeps exchanging the
// workspace directory `ws/d` with `ws/dswap`, a symlink to `outside/d2` (renameat2
// RENAME_EXCHANGE: at every instant one name is the real directory and the other the symlink),
// while disk edits of `d/...` run in a loop: in process (read + write, a new file, a patch that
// adds, moves and deletes, an undo) and through the real CLI (a new file; read + write). Each
// edit may be applied or refused (OUTSIDE_WORKSPACE, FILE_NOT_FOUND, STALE_*, ...); whatever it
// answers, nothing outside the workspace may ever change: the outside tree keeps its names and
// bytes and gets no temp file. Once the swapper stops, a control edit must apply inside.
// Both tests fail within their default rounds when the writer re-resolves the path by name (the
// code before the fix: new files appeared in outside/d2).
// Default: 150 in-process rounds and 30 CLI rounds (seconds); HASHLINE_TORTURE=1: 1,500 and 500
// (each round also lists the journal, so a round costs more as the run goes).
#include "lsp/service/hashline_service.h"
#include "tests/lsp/journal/journal_test_util.h"
#include "tests/lsp/torture/disk_cli_fixture.h"
#include "tests/lsp/torture/torture_config.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

namespace hashline::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Every entry below `dir` (not following symlinks) with its bytes ("<dir>" / "<link>" markers).
std::map<std::string, std::string> treeOf(const fs::path& dir) {
  std::map<std::string, std::string> tree;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string name = fs::relative(entry.path(), dir).string();
    if (entry.is_symlink())
      tree[name] = "<link>";
    else if (entry.is_directory())
      tree[name] = "<dir>";
    else
      tree[name] = readFile(entry.path());
  }
  return tree;
}

// Exchanges two names until stopped, holding each state for a random time below `max_hold`
// (so edits both pass and race); counts the exchanges.
class Swapper {
public:
  Swapper(fs::path a, fs::path b, std::chrono::microseconds max_hold)
      : a_(std::move(a)), b_(std::move(b)) {
    thread_ = std::thread([this, max_hold] {
      std::mt19937 random(tortureSeed(14));
      std::uniform_int_distribution<long> hold(0, max_hold.count());
      while (!stop_.load()) {
        if (::renameat2(AT_FDCWD, a_.c_str(), AT_FDCWD, b_.c_str(), RENAME_EXCHANGE) == 0)
          swaps_.fetch_add(1);
        else
          failures_.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::microseconds(hold(random)));
      }
    });
    while (swaps_.load() == 0 && failures_.load() == 0)
      std::this_thread::yield();
  }
  ~Swapper() { stop(); }
  void stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  long swaps() const { return swaps_.load(); }
  long failures() const { return failures_.load(); }

private:
  fs::path a_, b_;
  std::atomic<bool> stop_{false};
  std::atomic<long> swaps_{0}, failures_{0};
  std::thread thread_;
};

class ConfinementRace : public DiskCliFixture {
protected:
  void SetUp() override {
    DiskCliFixture::SetUp();
    inside_ = root_ / "ws" / "d";
    outside_ = root_ / "outside";
    fs::create_directories(inside_);
    fs::create_directories(outside_ / "d2");
    writeFile(inside_ / "f.txt", "inside\n");
    writeFile(outside_ / "d2" / "f.txt", "outside: must never change\n");
    writeFile(outside_ / "d2" / "other.txt", "outside too\n");
    fs::create_directory_symlink(outside_ / "d2", root_ / "ws" / "dswap");
    before_ = treeOf(outside_);
  }

  // Puts the real directory back at `ws/d` (the swapper may have stopped either way round).
  void settle() {
    if (fs::is_symlink(root_ / "ws" / "d")) {
      ASSERT_EQ(::renameat2(AT_FDCWD, (root_ / "ws" / "d").c_str(), AT_FDCWD,
                            (root_ / "ws" / "dswap").c_str(), RENAME_EXCHANGE),
                0);
    }
  }

  void expectOutsideUntouched(const std::string& when) {
    EXPECT_EQ(treeOf(outside_), before_) << "something was written outside the workspace " << when;
  }

  fs::path inside_, outside_;
  std::map<std::string, std::string> before_;
};

json call(lsp::HashlineService& service, const std::string& method, json params) {
  params["session"] = "racer";
  return journal_test::callDisk(service, method, std::move(params));
}

// Counts applied writes; in a `control` round (no swapper) every step must apply.
class Round {
public:
  Round(lsp::HashlineService& service, bool control) : service_(service), control_(control) {}

  bool step(const std::string& method, json params, bool is_write = true) {
    json result = call(service_, method, std::move(params));
    bool ok = result.value("status", "") == "applied" || (!is_write && result.contains("lines"));
    if (control_) {
      EXPECT_TRUE(ok) << method << ": " << result.dump();
    }
    if (ok && is_write) ++applied_;
    return ok;
  }
  bool read(const std::string& path) { return step("read", {{"path", path}}, false); }
  int applied() const { return applied_; }

private:
  lsp::HashlineService& service_;
  bool control_;
  int applied_ = 0;
};

// One round of every kind of disk write the service makes; returns how many applied.
int inProcessRound(lsp::HashlineService& service, std::int64_t round, bool control = false) {
  const std::string n = std::to_string(round);
  Round r(service, control);
  auto write = [](const std::string& content) {
    return json::array({{{"op", "write"}, {"content", content}}});
  };
  auto patch = [](const std::string& body) {
    return json{{"patch", "*** Begin Patch\n" + body + "*** End Patch\n"}};
  };
  if (r.read("d/f.txt")) r.step("edit", {{"path", "d/f.txt"}, {"edits", write(n + "\n")}});
  r.step("edit", {{"path", "d/new-" + n + ".txt"}, {"edits", write("new\n")}});
  r.step("patch", patch("*** Add File: d/p-" + n + ".txt\n+x\n"));
  if (r.read("d/p-" + n + ".txt"))
    r.step("patch", patch("*** Update File: d/p-" + n + ".txt\n*** Move to: d/q-" + n +
                          ".txt\n@@\n-x\n+y\n"));
  if (r.read("d/new-" + n + ".txt"))
    r.step("patch", patch("*** Delete File: d/new-" + n + ".txt\n"));
  json ops = call(service, "log", json::object())["ops"];
  if (ops.is_array() && !ops.empty() && ops.back().contains("op"))
    r.step("undo", {{"op", ops.back()["op"]}});
  return r.applied();
}

TEST_F(ConfinementRace, InProcessDiskEditsNeverWriteThroughASwappedDirectory) {
  const std::int64_t rounds = tortureCount(kSanitized ? 40 : 150, 1'500);
  auto service = lsp::HashlineService::forDisk({workspace_});
  int landed = 0;
  long swaps = 0;
  {
    Swapper swapper(root_ / "ws" / "d", root_ / "ws" / "dswap", std::chrono::microseconds(256));
    for (std::int64_t round = 0; round < rounds; ++round)
      landed += inProcessRound(*service, round);
    swapper.stop();
    swaps = swapper.swaps();
    EXPECT_EQ(swapper.failures(), 0);
  }
  std::printf("in process: %lld rounds, %d writes applied, %ld swaps\n",
              static_cast<long long>(rounds), landed, swaps);
  EXPECT_GT(swaps, 0);
  expectOutsideUntouched("by an in-process edit");

  settle();
  EXPECT_EQ(inProcessRound(*service, rounds, true), 6) << "the control round must apply inside";
  expectOutsideUntouched("by the control round");
}

TEST_F(ConfinementRace, CliEditsNeverWriteThroughASwappedDirectory) {
  const std::int64_t rounds = tortureCount(kSanitized ? 10 : 30, 500);
  auto write = [&](const std::string& path, const std::string& content) {
    json edits = json::array({{{"op", "write"}, {"content", content}}});
    return cli({"--session", "racer", "edit", path, "--edits", edits.dump()});
  };
  int landed = 0;
  long swaps = 0;
  {
    Swapper swapper(root_ / "ws" / "d", root_ / "ws" / "dswap", std::chrono::microseconds(2000));
    for (std::int64_t round = 0; round < rounds; ++round) {
      const std::string n = std::to_string(round);
      landed += write("d/new-" + n + ".txt", "new\n").exit_code == 0;
      if (cli({"--session", "racer", "read", "d/f.txt"}).exit_code != 0) continue;
      landed += write("d/f.txt", "cli " + n + "\n").exit_code == 0;
    }
    swapper.stop();
    swaps = swapper.swaps();
  }
  std::printf("CLI: %lld rounds, %d writes applied, %ld swaps\n", static_cast<long long>(rounds),
              landed, swaps);
  EXPECT_GT(swaps, 0);
  expectOutsideUntouched("by `hashline edit`");

  settle();
  ASSERT_EQ(cli({"--session", "racer", "read", "d/f.txt"}).exit_code, 0);
  CliOutcome control = write("d/f.txt", "control\n");
  EXPECT_EQ(control.exit_code, 0) << control.err;
  EXPECT_EQ(readFile(inside_ / "f.txt"), "control\n");
  expectOutsideUntouched("by the control edit");
}

} // namespace
} // namespace hashline::test
