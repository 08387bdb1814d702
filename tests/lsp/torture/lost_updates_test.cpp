// No lost updates with 8 agents and a typing user on one buffer (issue 8, torture (b)).
//
// The test thread plays the editor: it opens one document in the real `hashline lsp` (pipes,
// LspClient) and keeps the buffer's model. The 8 agents are real agent-socket clients: each a
// thread with its own persistent connection to the sidecar's Unix socket, found through the
// discovery file the sidecar publishes in a private HASHLINE_RUNTIME_DIR. Each agent loops on
// its own: read the document (hashline/read, session agent-N; a third of the time it acts on
// its older read, whose anchors may have gone stale), then `replace` one line it read by its
// anchor (hashline/edit, content unique to the op), sometimes with a fresh read pipelined behind
// the edit on the same connection, and waits for the answer. Meanwhile the editor thread types
// (single characters, newlines, backspaces, emoji — a didChange each), also between receiving a
// workspace/applyEdit and answering it, and serves the applyEdits: as an editor does, it refuses
// (applied:false) one whose version is not the buffer's current one, and otherwise applies it,
// sends the didChange and answers applied:true.
// Properties: every applyEdit the editor accepts replaces exactly one line by the content of an
// op not yet answered, and that line's current text is the text the agent read (the verified
// line, wherever typing moved it) — or, since anchors ignore whitespace, a text the session was
// shown under the very same anchor (a refusal's fresh anchors, an edit result, a later read)
// before the edit was answered: the sidecar resolves an anchor through its latest issue; every op
// answered `applied` was applied exactly once, every op answered `refused` never was (with a
// staleness / editor error code), also checked once all agents are done; no applyEdit is left
// unserved; the final mirror hash equals the buffer's. Default 1,500 operations;
// HASHLINE_TORTURE=1: 12,000 (user keystrokes + agent edits); under ASan 300 / 2,000.
//
// LspClient's waits fail the test on timeout; here the client gets a short timeout and waits
// go through `poll`, which swallows those timeout failures and retries until a deadline. Agent
// threads never touch gtest: they record problems, which the test thread reports.
#include "tests/lsp/support/lsp_client.h"
#include "tests/lsp/support/text_model.h"
#include "tests/lsp/torture/agent_socket_client.h"
#include "tests/lsp/torture/disk_cli_fixture.h"
#include "tests/lsp/torture/torture_config.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Runs `attempt` (a short LspClient wait) until it yields a non-null value or `patience` ends,
// hiding the timeout failures of the attempts that came back empty.
template <class Attempt> json poll(Attempt attempt, std::chrono::milliseconds patience) {
  auto deadline = Clock::now() + patience;
  do {
    json value;
    {
      ::testing::TestPartResultArray swallowed;
      ::testing::ScopedFakeTestPartResultReporter quiet(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &swallowed);
      value = attempt();
    }
    if (!value.is_null()) return value;
  } while (Clock::now() < deadline);
  return nullptr;
}

constexpr std::chrono::milliseconds kPatience{60000};
constexpr int kAgents = 8;

struct Op {
  int agent = 0;
  std::string read_text; // the line's text when the agent read it
  std::int64_t read_version = 0;
  std::string content;      // what the op writes
  int accepted_applies = 0; // applyEdits the editor accepted for this op
  enum class Answer { None, Applied, Refused } answer = Answer::None;
  std::string anchor;         // the anchor it replaces
  std::int64_t edit_id = 0;   // its request id on the agent's connection
  std::int64_t sent_last = 0; // the last request id sent before its answer arrived
  std::string landed_on;      // the line's text when the editor accepted the applyEdit
  std::int64_t landed_version = 0;
  int attempts = 1; // applyEdits the sidecar sent (the answer's `attempts`)
};

// What the agents and the editor share; `mutex` guards everything but the atomics.
// What one agent's session was shown: for each anchor string, the line texts that came with it
// in any answer (reads, refusal data, edit results), with the id of the request answered.
using Shown = std::map<std::string, std::vector<std::pair<std::int64_t, std::string>>>;

void recordShown(const json& value, std::int64_t id, Shown& shown) {
  if (value.is_object()) {
    auto anchor = value.find("anchor"), text = value.find("text");
    if (anchor != value.end() && text != value.end() && anchor->is_string() && text->is_string())
      shown[anchor->get<std::string>()].emplace_back(id, text->get<std::string>());
    for (const auto& [key, child] : value.items())
      recordShown(child, id, shown);
  } else if (value.is_array()) {
    for (const json& child : value)
      recordShown(child, id, shown);
  }
}

struct Shared {
  std::mutex mutex;
  std::vector<std::unique_ptr<Op>> ops;
  std::map<std::string, Op*> by_content;
  std::vector<std::string> problems;                      // reported by the test thread
  std::vector<Shown> shown = std::vector<Shown>(kAgents); // each agent's, written by its thread
  std::map<std::string, int> refusal_codes;
  std::int64_t applied = 0, refused = 0, pipelined_reads = 0;
  int in_flight = 0, most_in_flight = 0; // edits sent and not yet answered

  std::atomic<std::int64_t> agent_edits{0};
  std::atomic<std::int64_t> keystrokes{0};
  std::atomic<int> agents_done{0};
  std::atomic<bool> stop{false}; // a problem: agents start no new op

  void problem(std::string what) {
    std::lock_guard lock(mutex);
    problems.push_back(std::move(what));
    stop = true;
  }
};

class Editor {
public:
  Editor(LspClient& client, std::string uri, std::mt19937_64& random, Shared& shared)
      : client_(client), uri_(std::move(uri)), random_(random), shared_(shared) {}

  TextModel model;
  std::int64_t version = 1;
  std::int64_t refused_applies = 0;

  void type() {
    std::size_t line = random_() % model.lineCount();
    std::size_t begin = model.lineStartByte(line);
    std::size_t end_of_line = model.lineEndByte(line);
    std::size_t at = begin + (end_of_line > begin ? random_() % (end_of_line - begin + 1) : 0);
    while (at < model.text.size() && (static_cast<unsigned char>(model.text[at]) & 0xC0) == 0x80)
      ++at;
    std::string text;
    std::size_t end = at;
    int kind = random_() % 100;
    if (kind < 80)
      text = std::string(1, "abcxyz _;"[random_() % 9]);
    else if (kind < 85)
      text = "😀";
    else if (kind < 92)
      text = "\n";
    else if (at > begin) { // backspace one character
      std::size_t from = at - 1;
      while (from > begin && (static_cast<unsigned char>(model.text[from]) & 0xC0) == 0x80)
        --from;
      end = at;
      at = from;
    } else
      text = "q";
    json change = model.rangeChange(at, end, text, Units::Utf16);
    model.replace(at, end, text);
    client_.didChange(uri_, ++version, {change});
    ++shared_.keystrokes;
  }

  std::string lineText(std::size_t line) const {
    return model.text.substr(model.lineStartByte(line),
                             model.lineEndByte(line) - model.lineStartByte(line));
  }

  // Handles one workspace/applyEdit: refuses it at a moved version, else checks and applies it.
  void handleApply(const json& request, bool user_races) {
    if (user_races) type(); // the user types while the request is on its way
    const json& params = request["params"];
    const json& document_edit = params["edit"]["documentChanges"][0];
    EXPECT_EQ(document_edit["textDocument"]["uri"], uri_);
    if (document_edit["textDocument"]["version"] != version) {
      client_.respond(request["id"], {{"applied", false}, {"failureReason", "version changed"}});
      ++refused_applies;
      return;
    }
    // Apply the TextEdits (all relative to the current text) bottom-up on a copy.
    struct Byte {
      std::size_t begin, end;
      std::string text;
    };
    std::vector<Byte> edits;
    for (const json& edit : document_edit["edits"]) {
      const json& range = edit["range"];
      edits.push_back(
          {model.byteOf(range["start"]["line"], range["start"]["character"], Units::Utf16),
           model.byteOf(range["end"]["line"], range["end"]["character"], Units::Utf16),
           edit["newText"]});
    }
    std::sort(edits.begin(), edits.end(),
              [](const Byte& a, const Byte& b) { return a.begin > b.begin; });
    EXPECT_FALSE(edits.empty());
    TextModel after = model;
    for (const Byte& edit : edits)
      after.replace(edit.begin, edit.end, edit.text);
    // One line changed: same line count, exactly one line differs, and it is an op's content.
    EXPECT_EQ(after.lineCount(), model.lineCount()) << "an edit of one line changed the line count";
    std::lock_guard lock(shared_.mutex);
    Op* op = nullptr;
    std::size_t changed_line = 0;
    int changed = 0;
    for (std::size_t line = 0; line < std::min(after.lineCount(), model.lineCount()); ++line) {
      std::string before_text = lineText(line);
      std::string after_text = after.text.substr(
          after.lineStartByte(line), after.lineEndByte(line) - after.lineStartByte(line));
      if (before_text == after_text) continue;
      ++changed;
      changed_line = line;
      if (auto it = shared_.by_content.find(after_text); it != shared_.by_content.end())
        op = it->second;
    }
    EXPECT_EQ(changed, 1) << "an applyEdit changed " << changed << " lines";
    EXPECT_NE(op, nullptr) << "an applyEdit whose content belongs to no op";
    if (!op || changed != 1) {
      client_.respond(request["id"], {{"applied", false}});
      return;
    }
    EXPECT_EQ(op->answer, Op::Answer::None)
        << "an applyEdit for an op the agent already has its answer for";
    // Whether that is a line the session verified is checked once the agent is done (it may
    // still be reading an answer that showed the line under the same anchor).
    op->landed_on = lineText(changed_line);
    op->landed_version = version;
    // Apply for real: the didChange first (as VS Code does), then the answer.
    std::vector<json> changes;
    for (const Byte& edit : edits) {
      changes.push_back(model.rangeChange(edit.begin, edit.end, edit.text, Units::Utf16));
      model.replace(edit.begin, edit.end, edit.text);
    }
    client_.didChange(uri_, ++version, changes);
    ++op->accepted_applies; // before the answer: the agent can only hear back after it
    client_.respond(request["id"], {{"applied", true}});
  }

private:
  LspClient& client_;
  std::string uri_;
  std::mt19937_64& random_;
  Shared& shared_;
};

// One agent: its own connection, reads and edits until the operation budget is spent.
void runAgent(int agent, const std::string& socket, const std::string& uri, std::uint64_t seed,
              std::int64_t operations, Shared& shared) {
  struct Done {
    Shared& shared;
    ~Done() { ++shared.agents_done; }
  } done{shared};
  std::mt19937_64 random(seed + 1000003 * (agent + 1));
  const std::string session = "agent-" + std::to_string(agent);
  AgentSocketClient connection(socket);
  if (!connection.connected()) return shared.problem(session + ": " + connection.problem());
  Shown& shown = shared.shown[agent];
  auto receive = [&](std::int64_t id) -> json {
    auto answer = connection.wait(id, kPatience);
    if (!answer) return nullptr;
    recordShown(*answer, id, shown);
    return *answer;
  };
  auto call = [&](const std::string& method, const json& params) -> json {
    auto id = connection.send(method, params);
    return id ? receive(*id) : json();
  };
  auto rowsOf = [&](const json& answer) -> json {
    if (answer.is_null() || !answer.contains("result") ||
        answer["result"].value("status", "") != "ok" || answer["result"]["lines"].empty()) {
      shared.problem(session + ": hashline/read failed: " +
                     (answer.is_null() ? connection.problem() : answer.dump()));
      return nullptr;
    }
    return answer["result"]["lines"];
  };
  const json read_params = {{"uri", uri}, {"session", session}};
  json rows;
  std::int64_t read_version = 0;
  bool fresh = false; // rows came from a read pipelined behind the last edit
  while (!shared.stop) {
    if (shared.agent_edits + shared.keystrokes >= operations) break;
    ++shared.agent_edits;
    if (rows.is_null() || (!fresh && random() % 3 != 0)) {
      json read = call("hashline/read", read_params);
      rows = rowsOf(read);
      if (rows.is_null()) break;
      read_version = read["result"].value("version", std::int64_t{0});
    }
    fresh = false;
    const json& row = rows[random() % rows.size()];
    Op* op = nullptr;
    {
      auto owned = std::make_unique<Op>();
      owned->agent = agent;
      owned->read_text = row["text"];
      owned->read_version = read_version;
      owned->anchor = row["anchor"];
      std::lock_guard lock(shared.mutex);
      owned->content =
          "op " + std::to_string(shared.ops.size() + 1) + " by agent-" + std::to_string(agent);
      op = owned.get();
      shared.by_content[op->content] = op;
      shared.ops.push_back(std::move(owned));
      shared.most_in_flight = std::max(shared.most_in_flight, ++shared.in_flight);
    }
    auto edit_id = connection.send(
        "hashline/edit",
        {{"uri", uri},
         {"session", session},
         {"edits", {{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", op->content}}}}});
    if (!edit_id) return shared.problem(session + ": " + connection.problem());
    // Now and then a read rides behind the edit on the same connection (two in flight).
    std::optional<std::int64_t> read_id;
    if (random() % 4 == 0) read_id = connection.send("hashline/read", read_params);
    json answer = receive(*edit_id);
    if (answer.is_null())
      return shared.problem(session + ": edit never answered: " + connection.problem());
    {
      std::lock_guard lock(shared.mutex);
      --shared.in_flight;
      op->edit_id = *edit_id;
      op->sent_last = read_id ? *read_id : *edit_id;
      const json result = answer.value("result", json::object());
      std::string status = result.is_object() ? result.value("status", "") : "";
      if (status == "applied") {
        ++shared.applied;
        op->answer = Op::Answer::Applied;
        op->attempts = result.value("attempts", 1);
        if (op->accepted_applies != 1)
          shared.problems.push_back("op answered applied was applied " +
                                    std::to_string(op->accepted_applies) + " times");
      } else if (status == "refused") {
        ++shared.refused;
        op->answer = Op::Answer::Refused;
        json error = result.value("error", json::object());
        shared.refusal_codes[error.is_object() ? error.value("code", "?") : "?"]++;
        if (op->accepted_applies != 0)
          shared.problems.push_back("op answered refused was applied: " + answer.dump());
      } else {
        shared.problems.push_back(session + ": neither applied nor refused: " + answer.dump());
        shared.stop = true;
      }
    }
    if (read_id) {
      json read = receive(*read_id);
      rows = rowsOf(read);
      if (rows.is_null()) break;
      read_version = read["result"].value("version", std::int64_t{0});
      fresh = true;
      std::lock_guard lock(shared.mutex);
      ++shared.pipelined_reads;
    }
  }
}

TEST(LostUpdates, EightAgentsAndATypingUserOnOneBuffer) {
  const std::int64_t operations = kSanitized ? tortureCount(300, 2000) : tortureCount(1500, 12000);
  const std::uint64_t seed = tortureSeed(4242);
  std::mt19937_64 random(seed);

  // A private world: workspace, state and runtime directories (the sidecar inherits them).
  char pattern[] = "/tmp/hashline-lost-updates-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::filesystem::path root = std::filesystem::canonical(pattern);
  for (const char* sub : {"ws", "state", "run"})
    std::filesystem::create_directories(root / sub);
  ::chmod((root / "run").c_str(), 0700);
  ::setenv("HASHLINE_STATE_DIR", (root / "state").c_str(), 1);
  ::setenv("HASHLINE_RUNTIME_DIR", (root / "run").c_str(), 1);
  for (const char* name :
       {"HASHLINE_NO_SIDECAR", "HASHLINE_AGENT_SOCKET", "HASHLINE_WORKSPACE", "HASHLINE_SESSION"})
    ::unsetenv(name);

  LspClientOptions options;
  options.args = {"lsp", "--log-level", "warn"};
  options.timeout = std::chrono::milliseconds(5);
  LspClient client(options);
  const std::string workspace = (root / "ws").string();
  std::int64_t init_id = client.request(
      "initialize",
      {{"processId", nullptr},
       {"rootUri", "file://" + workspace},
       {"capabilities",
        {{"general", {{"positionEncodings", {"utf-16"}}}},
         {"workspace", {{"applyEdit", true}, {"workspaceEdit", {{"documentChanges", true}}}}}}}});
  ASSERT_FALSE(poll([&] { return client.waitResponse(init_id); }, kPatience).is_null());
  client.notify("initialized", json::object());
  std::optional<std::string> socket = waitForSidecarSocket((root / "run").string(), kPatience);
  ASSERT_TRUE(socket) << "no discovery file from the sidecar: " << client.log();

  const std::string uri = "file://" + workspace + "/shared.txt";
  Shared shared;
  Editor editor(client, uri, random, shared);
  for (int i = 1; i <= 120; ++i)
    editor.model.text += "line " + std::to_string(i) + " of the file\n";
  client.didOpen(uri, editor.model.text, 1);
  auto snapshot = [&] {
    std::int64_t id = client.request("hashline/snapshot", {{"textDocument", {{"uri", uri}}}});
    json response = poll([&] { return client.waitResponse(id); }, kPatience);
    EXPECT_FALSE(response.is_null()) << "hashline/snapshot got no answer";
    return response.value("result", json());
  };
  ASSERT_EQ(snapshot()["version"], 1); // the buffer is open before any agent reads it

  std::vector<std::thread> agents;
  for (int agent = 0; agent < kAgents; ++agent)
    agents.emplace_back(runAgent, agent, *socket, uri, seed, operations, std::ref(shared));

  // The editor: serve applyEdits as they come; the user types about as often as agents edit.
  auto budgetLeft = [&] { return shared.agent_edits + shared.keystrokes < operations; };
  auto deadline = Clock::now() + std::chrono::minutes(30);
  while (shared.agents_done < kAgents) {
    if (Clock::now() > deadline || ::testing::Test::HasFailure()) shared.stop = true;
    json request = poll([&] { return client.waitServerRequest("workspace/applyEdit"); },
                        std::chrono::milliseconds(0));
    if (!request.is_null()) editor.handleApply(request, budgetLeft() && random() % 5 == 0);
    if (budgetLeft() && shared.keystrokes <= shared.agent_edits + 4) editor.type();
  }
  for (std::thread& agent : agents)
    agent.join();
  for (const std::string& problem : shared.problems)
    ADD_FAILURE() << problem;

  // Every op was answered, and applied exactly when it was answered so.
  std::int64_t landed_reshown = 0;
  for (const auto& op : shared.ops) {
    EXPECT_NE(op->answer, Op::Answer::None) << op->content << " never answered";
    if (op->landed_on.empty() || op->landed_on == op->read_text) continue;
    // Anchors ignore whitespace (docs/anchors.md), and a session's anchor resolves through the
    // latest answer that showed it (a refusal's fresh anchors, an edit result, a read): the
    // line may have changed since the agent's read if the session was shown the new text under
    // the very same anchor before the edit was answered. Anything else is a lost update.
    bool reshown = false;
    for (const auto& [id, text] : shared.shown[op->agent][op->anchor])
      reshown |= id <= op->sent_last && id != op->edit_id && text == op->landed_on;
    ++landed_reshown;
    EXPECT_TRUE(reshown) << "agent-" << op->agent << " replaced \"" << op->landed_on
                         << "\" at version " << op->landed_version << ", but it read \""
                         << op->read_text << "\" at version " << op->read_version
                         << " and was never shown that text under " << op->anchor
                         << " (a lost update; " << op->attempts << " applyEdit(s) sent)";
    EXPECT_EQ(op->accepted_applies, op->answer == Op::Answer::Applied ? 1 : 0)
        << op->content << " was applied " << op->accepted_applies << " times";
  }
  // The mirror equals the editor's buffer (the snapshot also flushes the pipe: any applyEdit
  // the sidecar sent is filed before its answer, and none may be left unserved).
  json last = snapshot();
  EXPECT_EQ(last["version"], editor.version);
  EXPECT_EQ(last["sha256"], sha256Hex(editor.model.text)) << "final text differs from the model";
  EXPECT_TRUE(poll([&] { return client.waitServerRequest("workspace/applyEdit"); },
                   std::chrono::milliseconds(0))
                  .is_null())
      << "an applyEdit arrived after every agent had its answers";
  // Sanity: the run exercised both outcomes, and the agents were really concurrent.
  const std::int64_t agent_edits = shared.agent_edits, keystrokes = shared.keystrokes;
  EXPECT_GE(agent_edits + keystrokes, operations);
  EXPECT_EQ(static_cast<std::int64_t>(shared.ops.size()), agent_edits);
  EXPECT_GT(shared.applied, agent_edits / 10) << "almost nothing applied: the test proves nothing";
  EXPECT_GT(shared.refused, 0);
  EXPECT_GT(keystrokes, operations / 5) << "the user hardly typed";
  EXPECT_GT(shared.most_in_flight, 1) << "the agents never had edits in flight together";
  std::string codes;
  for (const auto& [code, count] : shared.refusal_codes) {
    codes += " " + code + "=" + std::to_string(count);
    EXPECT_TRUE(code == "STALE_ANCHOR" || code == "STALE_VERSION" || code == "EDITOR_REJECTED" ||
                code == "AMBIGUOUS_ANCHOR" || code == "ANCHOR_UNKNOWN" || code == "NO_CHANGE" ||
                code == "CONFLICT")
        << code;
  }
  std::printf(
      "lost updates: %lld operations (%lld keystrokes, %lld agent edits over %d socket "
      "connections, up to %d in flight: %lld applied, %lld refused:%s; %lld reads pipelined "
      "behind an edit; %lld landed on a line re-shown under the same anchor after the read), "
      "%lld applyEdits refused by the editor (version moved), seed %llu\n",
      static_cast<long long>(keystrokes + agent_edits), static_cast<long long>(keystrokes),
      static_cast<long long>(agent_edits), kAgents, shared.most_in_flight,
      static_cast<long long>(shared.applied), static_cast<long long>(shared.refused), codes.c_str(),
      static_cast<long long>(shared.pipelined_reads), static_cast<long long>(landed_reshown),
      static_cast<long long>(editor.refused_applies), static_cast<unsigned long long>(seed));
  client.closeInput();
  // The sidecar withdraws its socket and discovery file on the way out.
  EXPECT_FALSE(poll(
                   [&] {
                     std::optional<int> code = client.waitForExit();
                     return code ? json(*code) : json();
                   },
                   kPatience)
                   .is_null())
      << "the sidecar did not exit after its input closed";
  std::error_code ignored;
  std::filesystem::remove_all(root, ignored);
}

} // namespace
} // namespace hashline::test
