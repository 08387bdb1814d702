// Crash safety through the real CLI (issue 8, torture (c)): `hashline edit` and `hashline
// replace` on a large file in disk mode (no sidecar, private state directory) are SIGKILLed at
// random moments of their run (every 4th run just after it replaced the file, seen through
// inotify). After every run: the file is wholly the old or wholly the new text; the workspace
// holds no litter but our own temps of a killed writer, and none at all once a later run
// completed; the journal reads back in process (ops = an in-order subsequence of the landed edits
// that holds every edit whose run completed; torn records skipped) and, every few runs, `hashline
// log` agrees. After every kill the journal must account for the file: `hashline log` (which
// resolves a dead writer's intent record) lists the killed run's edit exactly when the file
// changed, and then `hashline undo` of it restores the previous bytes. Torn journal tails (a
// record cut mid-write, as a kill during the append leaves it) are injected between runs too.
// Default 200 runs on a 5,000-line file; HASHLINE_TORTURE=1: 1,000 runs on 50,000 lines; under ASan
// 40 runs by default.
#include "lsp/disk/state_dir.h"
#include "lsp/disk/temp_file.h"
#include "lsp/journal/journal_file.h"
#include "lsp/support/log.h"
#include "tests/lsp/torture/disk_cli_fixture.h"
#include "tests/lsp/torture/torture_config.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace hashline::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Fixed width, so a line's text is unique and never a substring of another line.
std::string lineText(std::size_t row, std::size_t generation) {
  char text[96];
  std::snprintf(text, sizeof text, "row %07zu gen %07zu | the quick brown fox jumps over it", row,
                generation);
  return text;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Under ASan (kSanitized: every process several times slower, 200 runs took 484 s) the default
// run is cut to 40 runs: there it looks for memory errors, the counts are the release run's job.

// One edit whose text reached the disk, in order.
struct Landed {
  std::string before;     // the line's text before ("...\n")
  std::string after;      // and after
  bool completed = false; // its run exited 0, or a later run resolved its intent: journaled
};

class CliCrashSafety : public DiskCliFixture {
protected:
  void SetUp() override {
    DiskCliFixture::SetUp();
    target_ = root_ / "ws" / "big.txt";
  }
  std::string journalDirectory() const {
    auto dir = disk::workspaceStateDirectory(workspace_);
    return dir ? *dir : std::string();
  }

  // The anchor of `row` (1-based) from a ranged `hashline read --json` (also records the read).
  std::string anchorOf(std::size_t row) {
    std::string line = std::to_string(row);
    CliOutcome read = cli({"read", "big.txt", "--from", line, "--to", line, "--json"});
    EXPECT_EQ(read.exit_code, 0) << read.err;
    json view = json::parse(read.out, nullptr, false);
    if (view.is_discarded() || !view.contains("lines") || view["lines"].empty()) return "";
    return view["lines"][0].value("anchor", "");
  }

  // Every entry of the workspace but the target must be a temp of ours; returns their count.
  std::size_t workspaceLitter(const std::string& what) const {
    std::size_t temps = 0;
    for (const auto& entry : fs::directory_iterator(root_ / "ws")) {
      if (entry.path() == target_) continue;
      std::string name = entry.path().filename().string();
      EXPECT_TRUE(disk::isTempName(name)) << what << ": stray file " << name;
      ++temps;
    }
    return temps;
  }

  // The journal read back in process: ops must be an in-order subsequence of `landed` holding
  // every completed one. Returns the op count; `skipped` gets the malformed lines.
  std::size_t checkJournal(const std::vector<Landed>& landed, std::size_t* skipped,
                           const std::string& what) const {
    lsp::JournalFile file(journalDirectory());
    journal::Journal model;
    auto status = file.refresh(model);
    EXPECT_TRUE(static_cast<bool>(status)) << what << ": the journal does not read back";
    *skipped = file.skippedRecords();
    const auto& ops = model.ops();
    std::size_t next = 0;
    for (std::size_t k = 0; k < landed.size(); ++k) {
      bool matches = next < ops.size() && ops[next].hunks.size() == 1 &&
                     ops[next].hunks[0].before_text == landed[k].before &&
                     ops[next].hunks[0].after_text == landed[k].after;
      if (matches) {
        ++next;
        continue;
      }
      EXPECT_FALSE(landed[k].completed)
          << what << ": the journal misses landed edit " << k << " whose run completed";
    }
    EXPECT_EQ(next, ops.size()) << what << ": the journal holds an op that never landed";
    return ops.size();
  }

  // Appends the first half of the journal's last record without its newline, as a kill in the
  // middle of an append leaves it. Only on a journal ending in a whole record.
  bool injectTornRecord() const {
    std::string path = journalDirectory() + "/journal.jsonl";
    std::string bytes = readFile(path);
    if (bytes.size() < 2 || bytes.back() != '\n') return false;
    std::size_t start = bytes.rfind('\n', bytes.size() - 2);
    start = start == std::string::npos ? 0 : start + 1;
    std::string record = bytes.substr(start, bytes.size() - 1 - start);
    std::ofstream(path, std::ios::binary | std::ios::app) << record.substr(0, record.size() / 2);
    return true;
  }

  fs::path target_;
};

TEST_F(CliCrashSafety, KilledEditsAndReplacesLeaveWholeFilesAndAReadableJournal) {
  const std::size_t rows = static_cast<std::size_t>(tortureCount(5000, 50000));
  const std::int64_t runs = tortureCount(kSanitized ? 40 : 200, 1000);
  const std::uint64_t seed = tortureSeed(2026);
  std::mt19937_64 random(seed);
  std::printf("cli crash safety: seed %llu (HASHLINE_TORTURE_SEED replays it)\n",
              static_cast<unsigned long long>(seed));

  std::vector<std::size_t> generation(rows + 1, 0);
  std::string text;
  for (std::size_t row = 1; row <= rows; ++row)
    text += lineText(row, 0) + "\n";
  std::ofstream(target_, std::ios::binary) << text;
  ::chmod(target_.c_str(), 0644);

  std::vector<Landed> landed;
  std::size_t killed = 0, killed_landed = 0, completed = 0, refused = 0, torn_injected = 0;
  std::size_t litter_seen = 0, log_checks = 0, undone_after_kill = 0;
  std::chrono::microseconds typical_run{0};
  std::map<std::string, int> refusal_codes;

  for (std::int64_t run = 0; run < runs && !HasFailure(); ++run) {
    const std::string what = "run " + std::to_string(run);
    const bool use_edit = run % 2 == 0;
    const std::size_t row = 1 + random() % rows;
    const std::size_t next_generation = static_cast<std::size_t>(run) + 1;
    const std::string old_line = lineText(row, generation[row]);
    const std::string new_line = lineText(row, next_generation);
    const std::size_t at = (row - 1) * (old_line.size() + 1);
    ASSERT_EQ(text.compare(at, old_line.size(), old_line), 0) << what;
    std::string new_text = text;
    new_text.replace(at, old_line.size(), new_line);

    std::vector<std::string> args;
    if (use_edit) {
      std::string anchor = anchorOf(row);
      ASSERT_FALSE(anchor.empty()) << what << ": no anchor for row " << row;
      json edits = json::array({{{"op", "replace"}, {"anchor", anchor}, {"content", new_line}}});
      args = {"edit", "big.txt", "--edits", edits.dump()};
    } else {
      args = {"replace", "big.txt", "--old", old_line, "--new", new_line};
    }

    // The first runs are not killed: they measure how long a run takes, and most kills are
    // spread uniformly over that span.
    CliOutcome outcome;
    if (run < 3) {
      // The fastest of the three: the first run is cold (slow under ASan) and would make most
      // kills land after the run ended.
      outcome = cliTimed(args, run == 0, typical_run);
    } else if (run % 4 != 0) {
      std::chrono::microseconds delay(random() % std::max<std::int64_t>(1, typical_run.count()));
      outcome = runCliKilledAfter(withWorkspace(args), workspace_, delay);
    } else {
      // Every 4th run within 1 ms of replacing the file (seen through inotify), whatever the
      // machine's speed: the kills that leave a landed edit for the journal to account for.
      std::chrono::microseconds delay(static_cast<std::int64_t>(random() % 1000));
      outcome =
          runCliWatchingWrites(withWorkspace(args), workspace_, workspace_, {"big.txt"}, delay);
    }
    if (!outcome.killed && outcome.exit_code == 1 && !use_edit) {
      // A replace after a killed run may find the session's read out of date: read, retry once
      // (an agent does the same), and the retry must apply.
      ++refused;
      refusal_codes[outcome.err.substr(0, outcome.err.find_first_of(": \n"))] += 1;
      (void)anchorOf(row);
      outcome = cli(args);
    }
    if (!outcome.killed) {
      ASSERT_EQ(outcome.exit_code, 0) << what << " (" << args[0] << "): " << outcome.err;
      ++completed;
    } else {
      ++killed;
    }

    std::string content = readFile(target_);
    const bool is_old = content == text, is_new = content == new_text;
    ASSERT_TRUE(is_old || is_new) << what << ": the file is torn (" << content.size() << " of "
                                  << text.size() << " bytes)";
    if (!outcome.killed) {
      ASSERT_TRUE(is_new) << what << ": the run applied, the file is old";
    }
    struct stat info {};
    ASSERT_EQ(::stat(target_.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0644u) << what << ": mode not kept";
    const std::string old_text = text;
    const std::size_t old_generation = generation[row];
    if (is_new) {
      landed.push_back({old_line + "\n", new_line + "\n", !outcome.killed});
      killed_landed += outcome.killed;
      generation[row] = next_generation;
      text = std::move(new_text);
    }

    // Under ASan (every process several times slower) an unchanged file is checked every 5th kill.
    if (outcome.killed && (is_new || !kSanitized || run % 5 == 0)) {
      // Killed at any point: the file is unchanged, or it changed and the journal knows the op.
      // `hashline log` resolves the dead writer's intent; from then on the op (if it landed) is
      // in the journal for every reader, and undoing it restores the previous bytes.
      CliOutcome log = cli({"--json", "log", "--limit", "1000000"});
      ASSERT_EQ(log.exit_code, 0) << what << ": hashline log failed: " << log.err;
      json listed = json::parse(log.out, nullptr, false);
      ASSERT_FALSE(listed.is_discarded() || !listed.contains("ops")) << what << ": " << log.out;
      if (is_new) landed.back().completed = true; // must be journaled now
      std::size_t skipped_now = 0;
      std::size_t in_process = checkJournal(landed, &skipped_now, what + " (after the kill)");
      ASSERT_EQ(listed["ops"].size(), in_process) << what << ": hashline log disagrees";
      if (is_new) {
        ASSERT_FALSE(listed["ops"].empty()) << what << ": the file changed, the journal is empty";
        std::string op = std::to_string(listed["ops"].back()["op"].get<std::uint64_t>());
        CliOutcome undo = cli({"undo", op});
        ASSERT_EQ(undo.exit_code, 0)
            << what << ": undo of the killed run's op " << op << ": " << undo.err;
        ASSERT_EQ(readFile(target_), old_text)
            << what << ": undoing the killed run's op did not restore the previous bytes";
        landed.push_back({new_line + "\n", old_line + "\n", true});
        generation[row] = old_generation;
        text = old_text;
        ++undone_after_kill;
      }
    }

    std::size_t temps = workspaceLitter(what);
    litter_seen += temps;
    if (!outcome.killed) {
      EXPECT_EQ(temps, 0u) << what << ": a completed run left temps";
    }

    std::size_t skipped = 0;
    checkJournal(landed, &skipped, what);
    // A torn tail is skipped once a later append has ended its line; until then it is unread.
    const std::string journal_bytes = readFile(journalDirectory() + "/journal.jsonl");
    const bool tail_open = !journal_bytes.empty() && journal_bytes.back() != '\n';
    EXPECT_GE(skipped + (tail_open ? 1 : 0), torn_injected)
        << what << ": an injected torn record was not skipped";
    if (run % 20 == 10 && injectTornRecord()) ++torn_injected;
    if (run % 20 == 19) {
      CliOutcome log = cli({"--json", "log", "--limit", "1000000"});
      ASSERT_EQ(log.exit_code, 0) << what << ": hashline log failed: " << log.err;
      json ops = json::parse(log.out, nullptr, false);
      ASSERT_FALSE(ops.is_discarded()) << what << ": hashline log printed no JSON";
      std::size_t in_process = checkJournal(landed, &skipped, what);
      EXPECT_EQ(ops["ops"].size(), in_process) << what << ": hashline log disagrees";
      ++log_checks;
    }
  }

  // A last run that completes: the temps of earlier kills are swept, the journal is whole.
  CliOutcome final_read = cli({"read", "big.txt", "--from", "1", "--to", "1"});
  ASSERT_EQ(final_read.exit_code, 0) << final_read.err;
  std::string first = lineText(1, generation[1]);
  std::string last = lineText(1, runs + 1);
  ASSERT_EQ(cli({"replace", "big.txt", "--old", first, "--new", last}).exit_code, 0);
  landed.push_back({first + "\n", last + "\n", true});
  EXPECT_EQ(workspaceLitter("final"), 0u);
  std::size_t skipped = 0;
  std::size_t ops = checkJournal(landed, &skipped, "final");
  CliOutcome log = cli({"log", "--limit", "5"});
  EXPECT_EQ(log.exit_code, 0) << log.err;

  EXPECT_GT(killed, static_cast<std::size_t>(runs) / 2) << "too few runs were killed mid-way";
  EXPECT_GT(killed_landed, 0u) << "no kill came after the file was replaced";
  EXPECT_EQ(undone_after_kill, killed_landed);
  std::printf("cli crash safety: %lld runs on %zu lines (%zu bytes), typical run %lld ms: %zu "
              "killed (%zu of them after the file was replaced), %zu completed, %zu retried "
              "after a refusal; %zu temps seen after kills, all swept; journal %zu ops for %zu "
              "landed edits, %zu torn records injected, %zu skipped; %zu `hashline log` checks; "
              "%zu killed runs whose file changed undone through the journal\n",
              static_cast<long long>(runs), rows, text.size(),
              static_cast<long long>(typical_run.count() / 1000), killed, killed_landed, completed,
              refused, litter_seen, ops, landed.size(), torn_injected, skipped, log_checks,
              undone_after_kill);
  for (const auto& [code, count] : refusal_codes)
    std::printf("cli crash safety: %d refusals %s before the retry\n", count, code.c_str());
}

} // namespace
} // namespace hashline::test
