// Malformed journal params are refused and change nothing (issue 14, defect 1), through the real
// binary on every front end: the LSP connection (hashline/<method> and workspace/executeCommand),
// MCP (`hashline mcp` reaching the same sidecar) and the CLI. The exact reproductions: rewind with
// turn "latest", 2.0 and "1x" once reverted every op of the session; dry_run "yes" crashed with
// bad_function_call. Each is refused as invalid params naming the field, and the journal and the
// files are byte-identical afterwards.
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/service_fixture.h"

#include <cstdio>
#include <sys/wait.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;

class JournalParams : public ServiceFixture {
protected:
  void SetUp() override {
    ServiceFixture::SetUp();
    writeFile("a.txt", "one\ntwo\nthree\n");
    // Two agent edits in two turns of session "s" (a.txt is not open: the disk backend).
    edit("one", "ONE");
    service("turn", {{"action", "begin"}, {"session", "s"}});
    edit("two", "TWO");
    before_log_ = log();
    before_file_ = readFile("a.txt");
    ASSERT_EQ(before_log_["ops"].size(), 2u) << before_log_.dump();
  }

  void edit(const std::string& old_text, const std::string& new_text) {
    service("read", {{"path", pathOf("a.txt")}, {"session", "s"}});
    json result = service("replace", {{"path", pathOf("a.txt")},
                                      {"session", "s"},
                                      {"agent", "test"},
                                      {"edits", {{{"old", old_text}, {"new", new_text}}}}});
    ASSERT_EQ(result["status"], "applied") << result.dump();
  }

  json log() { return service("log", {{"session", "s"}}); }

  void expectUnchanged(const std::string& what) {
    json now = log();
    EXPECT_EQ(now["ops"], before_log_["ops"]) << what << " changed the journal";
    EXPECT_EQ(readFile("a.txt"), before_file_) << what << " changed the file";
  }

  /// Runs `hashline ARGS` in the workspace (it finds this sidecar); exit code and output.
  int cli(const std::string& arguments, const std::string& input, std::string* out) {
    std::string input_path = (root_ / ".cli-input").string();
    std::FILE* file = std::fopen(input_path.c_str(), "w");
    std::fwrite(input.data(), 1, input.size(), file);
    std::fclose(file);
    std::string command = "cd '" + root_.string() + "' && " + hashlineBinary() + " " + arguments +
                          " < '" + input_path + "' 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[4096];
    while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe))
      out->append(buffer, got);
    int status = ::pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  json before_log_;
  std::string before_file_;
};

TEST_F(JournalParams, MalformedTurnsNeverRewind) {
  for (const json& turn :
       {json("latest"), json(2.0), json("1x"), json(0), json(-1), json(true), json::array({1})}) {
    json error = client_->callError("hashline/rewind", {{"session", "s"}, {"turn", turn}});
    EXPECT_EQ(error["code"], -32602) << turn.dump() << " " << error.dump();
    EXPECT_NE(error["message"].get<std::string>().find("turn:"), std::string::npos) << error.dump();
    expectUnchanged("rewind turn " + turn.dump());
  }
}

TEST_F(JournalParams, NonBooleanDryRunIsRefusedOnEveryRevertingMethod) {
  for (const char* method : {"undo", "reject", "rewind"}) {
    json params = {{"session", "s"}, {"dry_run", "yes"}, {"op", 1}, {"hunk", "1#1"}, {"turn", 1}};
    json error = client_->callError(std::string("hashline/") + method, params);
    EXPECT_EQ(error["code"], -32602) << method << " " << error.dump();
    EXPECT_NE(error["message"].get<std::string>().find("dry_run"), std::string::npos);
    expectUnchanged(std::string(method) + " dry_run \"yes\"");
  }
}

TEST_F(JournalParams, EveryJournalFieldRefusesAWrongType) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> methods = {
      {"undo", {"op", "session", "dry_run"}},
      {"reject", {"hunk", "session", "dry_run"}},
      {"rewind", {"turn", "path", "session", "dry_run"}},
      {"accept", {"hunk", "turn"}},
      {"pending", {"turn", "path"}},
      {"log", {"turn", "limit", "path"}},
      {"diff", {"op", "turn", "kind"}},
      {"turn", {"action", "session"}}};
  for (const auto& [method, fields] : methods)
    for (const std::string& field : fields) {
      json params = {{"session", "s"}};
      params[field] = json::object({{"wrong", "type"}}); // no field takes an object
      json error = client_->callError("hashline/" + method, params);
      EXPECT_EQ(error["code"], -32602) << method << "." << field << " " << error.dump();
      // The same through workspace/executeCommand, as editors send it.
      json command =
          client_->callError("workspace/executeCommand", {{"command", "hashline." + method},
                                                          {"arguments", json::array({params})}});
      EXPECT_EQ(command["code"], -32602) << method << "." << field << " " << command.dump();
      expectUnchanged(method + "." + field);
    }
}

TEST_F(JournalParams, McpRefusesWithTheFieldAndChangesNothing) {
  auto request = [](int id, const std::string& method, json params) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() +
           "\n";
  };
  std::string input = request(1, "initialize",
                              {{"protocolVersion", "2025-06-18"},
                               {"capabilities", json::object()},
                               {"clientInfo", {{"name", "t"}, {"version", "1"}}}}) +
                      json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() +
                      "\n";
  int id = 2;
  for (const json& turn : {json("latest"), json(2.0), json("1x")})
    input +=
        request(id++, "tools/call", {{"name", "hashline_rewind"}, {"arguments", {{"turn", turn}}}});
  input += request(id++, "tools/call",
                   {{"name", "hashline_undo"}, {"arguments", {{"op", 1}, {"dry_run", "yes"}}}});
  std::string out;
  ASSERT_EQ(cli("mcp --session s", input, &out), 0) << out;
  int refused = 0;
  std::size_t at = 0;
  while (at < out.size()) {
    std::size_t end = out.find('\n', at);
    if (end == std::string::npos) end = out.size();
    json line = json::parse(out.substr(at, end - at), nullptr, false);
    at = end + 1;
    if (!line.is_object() || !line.contains("result") || !line["result"].contains("isError"))
      continue;
    EXPECT_TRUE(line["result"]["isError"].get<bool>()) << line.dump();
    std::string text = line["result"]["content"][0]["text"];
    EXPECT_NE(text.find("INVALID_ARGUMENTS"), std::string::npos) << text;
    ++refused;
  }
  EXPECT_EQ(refused, 4) << out;
  expectUnchanged("MCP calls");
}

TEST_F(JournalParams, CliRefusesAMalformedTurn) {
  std::string out;
  EXPECT_EQ(cli("rewind --turn 1x --session s", "", &out), 2) << out;
  EXPECT_EQ(cli("rewind --turn latest --session s", "", &out), 2) << out;
  expectUnchanged("CLI rewind --turn 1x");
}

} // namespace
} // namespace hashline::test
