// No lost updates with 8 agents and a typing user on one buffer (issue 8, torture (b)).
//
// The test plays the editor: it opens one document in the real `hashline lsp` (pipes,
// LspClient) and keeps the buffer's model. In rounds, 1–8 agents (sessions agent-0..7) read
// the document (hashline/read), the user types (single characters, newlines, backspaces — a
// didChange each), then the agents send their edits at once (hashline/edit, `replace` of one
// line they read by its anchor, with content unique to the op) while the user keeps typing,
// also between receiving a workspace/applyEdit and answering it. As an editor does, the test
// refuses (applied:false) an applyEdit whose version is not the buffer's current one, and
// otherwise applies it, sends the didChange and answers applied:true.
// Properties: every applyEdit the editor accepts replaces exactly one line whose current text
// is the text the agent read (the verified line, wherever typing moved it) by the op's content;
// every op answered `applied` was applied exactly once, every op answered `refused` never was
// (with a staleness / editor error code); the final mirror hash equals the buffer's. Default
// 1,500 operations; HASHLINE_TORTURE=1: 12,000 (user keystrokes + agent edits).
//
// LspClient's waits fail the test on timeout; here the client gets a short timeout and waits
// go through `poll`, which swallows those timeout failures and retries until a deadline.
#include "tests/lsp/support/lsp_client.h"
#include "tests/lsp/support/text_model.h"
#include "tests/lsp/torture/torture_config.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
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

struct Op {
  int agent = 0;
  std::int64_t id = 0;      // request id
  std::string read_text;    // the line's text when the agent read it
  std::string content;      // what the op writes
  int accepted_applies = 0; // applyEdits the editor accepted for this op
};

class Editor {
public:
  Editor(LspClient& client, std::string uri, std::mt19937_64& random)
      : client_(client), uri_(std::move(uri)), random_(random) {}

  TextModel model;
  std::int64_t version = 1;
  std::int64_t keystrokes = 0;

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
    ++keystrokes;
  }

  std::string lineText(std::size_t line) const {
    return model.text.substr(model.lineStartByte(line),
                             model.lineEndByte(line) - model.lineStartByte(line));
  }

  // Handles one workspace/applyEdit; returns the op it applied, if it accepted it.
  Op* handleApply(const json& request, std::vector<Op*>& outstanding, bool user_races) {
    if (user_races) type(); // the user types while the request is on its way
    const json& params = request["params"];
    const json& document_edit = params["edit"]["documentChanges"][0];
    EXPECT_EQ(document_edit["textDocument"]["uri"], uri_);
    if (document_edit["textDocument"]["version"] != version) {
      client_.respond(request["id"], {{"applied", false}, {"failureReason", "version changed"}});
      ++refused_applies;
      return nullptr;
    }
    // Apply the TextEdits (all relative to the current text) bottom-up on a copy.
    struct Byte {
      std::size_t begin, end;
      std::string text;
      std::uint32_t line;
    };
    std::vector<Byte> edits;
    for (const json& edit : document_edit["edits"]) {
      const json& range = edit["range"];
      edits.push_back(
          {model.byteOf(range["start"]["line"], range["start"]["character"], Units::Utf16),
           model.byteOf(range["end"]["line"], range["end"]["character"], Units::Utf16),
           edit["newText"], range["start"]["line"]});
    }
    std::sort(edits.begin(), edits.end(),
              [](const Byte& a, const Byte& b) { return a.begin > b.begin; });
    EXPECT_FALSE(edits.empty());
    TextModel after = model;
    std::set<std::uint32_t> lines;
    for (const Byte& edit : edits) {
      after.replace(edit.begin, edit.end, edit.text);
      lines.insert(edit.line);
    }
    // One line changed: same line count, exactly one line differs, and it is an op's content.
    EXPECT_EQ(after.lineCount(), model.lineCount()) << "an edit of one line changed the line count";
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
      for (Op* candidate : outstanding)
        if (candidate->content == after_text) op = candidate;
    }
    EXPECT_EQ(changed, 1) << "an applyEdit changed " << changed << " lines";
    EXPECT_NE(op, nullptr) << "an applyEdit whose content belongs to no outstanding op";
    if (!op || changed != 1) {
      client_.respond(request["id"], {{"applied", false}});
      return nullptr;
    }
    EXPECT_EQ(lineText(changed_line), op->read_text)
        << "agent-" << op->agent << " edited line " << changed_line + 1
        << " whose text is not the text it read (a lost update)";
    // Apply for real: the didChange first (as VS Code does), then the answer.
    std::vector<json> changes;
    for (const Byte& edit : edits) {
      changes.push_back(model.rangeChange(edit.begin, edit.end, edit.text, Units::Utf16));
      model.replace(edit.begin, edit.end, edit.text);
    }
    client_.didChange(uri_, ++version, changes);
    client_.respond(request["id"], {{"applied", true}});
    ++op->accepted_applies;
    return op;
  }

  std::int64_t refused_applies = 0;

private:
  LspClient& client_;
  std::string uri_;
  std::mt19937_64& random_;
};

TEST(LostUpdates, EightAgentsAndATypingUserOnOneBuffer) {
  const std::int64_t operations = tortureCount(1500, 12000);
  const std::uint64_t seed = tortureSeed(4242);
  std::mt19937_64 random(seed);

  std::filesystem::path root = std::filesystem::temp_directory_path() /
                               ("hashline-lost-updates-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root);
  LspClientOptions options;
  options.args = {"lsp", "--log-level", "warn"};
  options.timeout = std::chrono::milliseconds(5);
  LspClient client(options);
  std::int64_t init_id = client.request(
      "initialize",
      {{"processId", nullptr},
       {"rootUri", "file://" + root.string()},
       {"capabilities",
        {{"general", {{"positionEncodings", {"utf-16"}}}},
         {"workspace", {{"applyEdit", true}, {"workspaceEdit", {{"documentChanges", true}}}}}}}});
  ASSERT_FALSE(poll([&] { return client.waitResponse(init_id); }, kPatience).is_null());
  client.notify("initialized", json::object());

  const std::string uri = "file://" + root.string() + "/shared.txt";
  Editor editor(client, uri, random);
  for (int i = 1; i <= 120; ++i)
    editor.model.text += "line " + std::to_string(i) + " of the file\n";
  client.didOpen(uri, editor.model.text, 1);

  std::map<int, json> reads; // agent -> its last read's rows
  std::int64_t op_counter = 0, agent_edits = 0, applied = 0, refused = 0;
  std::map<std::string, int> refusal_codes;
  std::vector<std::unique_ptr<Op>> ops;

  auto call = [&](const std::string& method, json params) {
    std::int64_t id = client.request(method, std::move(params));
    json response = poll([&] { return client.waitResponse(id); }, kPatience);
    EXPECT_FALSE(response.is_null()) << method << " got no answer";
    return response.value("result", json());
  };

  while (editor.keystrokes + agent_edits < operations && !::testing::Test::HasFailure()) {
    int agents = 1 + random() % 8;
    std::vector<int> chosen;
    for (int a = 0; a < 8; ++a)
      chosen.push_back(a);
    std::shuffle(chosen.begin(), chosen.end(), random);
    chosen.resize(agents);
    // Reads (some agents act on an older read: their anchors may have gone stale).
    for (int agent : chosen) {
      if (reads.count(agent) && random() % 3 == 0) continue;
      json result =
          call("hashline/read", {{"uri", uri}, {"session", "agent-" + std::to_string(agent)}});
      ASSERT_EQ(result.value("status", ""), "ok") << result.dump();
      reads[agent] = result["lines"];
    }
    for (int k = random() % 6; k > 0; --k)
      editor.type();
    // All chosen agents send an edit at once.
    std::vector<Op*> outstanding;
    for (int agent : chosen) {
      const json& rows = reads[agent];
      const json& row = rows[random() % rows.size()];
      auto op = std::make_unique<Op>();
      op->agent = agent;
      op->read_text = row["text"];
      op->content = "op " + std::to_string(++op_counter) + " by agent-" + std::to_string(agent);
      op->id = client.request(
          "hashline/edit",
          {{"uri", uri},
           {"session", "agent-" + std::to_string(agent)},
           {"edits", {{{"op", "replace"}, {"anchor", row["anchor"]}, {"content", op->content}}}}});
      outstanding.push_back(op.get());
      ops.push_back(std::move(op));
      ++agent_edits;
      if (random() % 2) editor.type();
    }
    // Serve applyEdits and collect answers until every op is answered.
    auto deadline = Clock::now() + kPatience;
    while (!outstanding.empty() && Clock::now() < deadline) {
      bool progressed = false;
      for (auto it = outstanding.begin(); it != outstanding.end();) {
        Op* op = *it;
        json response =
            poll([&] { return client.waitResponse(op->id); }, std::chrono::milliseconds(0));
        if (response.is_null()) {
          ++it;
          continue;
        }
        progressed = true;
        const json& result = response["result"];
        std::string status = result.value("status", "");
        if (status == "applied") {
          ++applied;
          EXPECT_EQ(op->accepted_applies, 1)
              << "op answered applied was applied " << op->accepted_applies << " times";
        } else {
          ASSERT_EQ(status, "refused") << response.dump();
          ++refused;
          refusal_codes[result["error"].value("code", "?")]++;
          EXPECT_EQ(op->accepted_applies, 0)
              << "op answered refused was applied: " << response.dump();
        }
        it = outstanding.erase(it);
      }
      if (outstanding.empty()) break;
      json request = poll([&] { return client.waitServerRequest("workspace/applyEdit"); },
                          std::chrono::milliseconds(0));
      if (!request.is_null()) {
        progressed = true;
        editor.handleApply(request, outstanding, random() % 5 == 0);
      }
      if (!progressed && random() % 50 == 0) editor.type(); // the user keeps typing meanwhile
    }
    ASSERT_TRUE(outstanding.empty()) << outstanding.size() << " edits never answered";
  }

  // The mirror equals the editor's buffer.
  json snapshot = call("hashline/snapshot", {{"textDocument", {{"uri", uri}}}});
  EXPECT_EQ(snapshot["version"], editor.version);
  EXPECT_EQ(snapshot["sha256"], sha256Hex(editor.model.text))
      << "final text differs from the model";
  // Sanity: the run exercised both outcomes.
  EXPECT_GT(applied, agent_edits / 10) << "almost nothing applied: the test proves nothing";
  EXPECT_GT(refused, 0);
  std::string codes;
  for (const auto& [code, count] : refusal_codes) {
    codes += " " + code + "=" + std::to_string(count);
    EXPECT_TRUE(code == "STALE_ANCHOR" || code == "STALE_VERSION" || code == "EDITOR_REJECTED" ||
                code == "AMBIGUOUS_ANCHOR" || code == "ANCHOR_UNKNOWN" || code == "NO_CHANGE" ||
                code == "CONFLICT")
        << code;
  }
  std::printf(
      "lost updates: %lld operations (%lld keystrokes, %lld agent edits: %lld applied, "
      "%lld refused:%s), %lld applyEdits refused by the editor (version moved), seed %llu\n",
      static_cast<long long>(editor.keystrokes + agent_edits),
      static_cast<long long>(editor.keystrokes), static_cast<long long>(agent_edits),
      static_cast<long long>(applied), static_cast<long long>(refused), codes.c_str(),
      static_cast<long long>(editor.refused_applies), static_cast<unsigned long long>(seed));
  client.closeInput();
  std::filesystem::remove_all(root);
}

} // namespace
} // namespace hashline::test
