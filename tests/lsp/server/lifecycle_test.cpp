// Lifecycle of `hashline lsp` over real pipes: initialize, initialized, shutdown, exit, the
// error codes around them, exit codes, and the command line (--help, --version, bad flags).
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/lsp_client.h"

#include <cstdio>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kServerNotInitialized = -32002;

TEST(Lifecycle, InitializeAdvertisesIncrementalSyncAndServerInfo) {
  LspClient client;
  json result = client.initialize();
  EXPECT_EQ(result["capabilities"]["textDocumentSync"]["change"], 2);
  EXPECT_EQ(result["capabilities"]["textDocumentSync"]["openClose"], true);
  EXPECT_EQ(result["capabilities"]["positionEncoding"], "utf-16");
  EXPECT_TRUE(result["capabilities"]["executeCommandProvider"]["commands"].is_array());
  EXPECT_EQ(result["serverInfo"]["name"], "hashline");
  EXPECT_EQ(result["serverInfo"]["version"], HASHLINE_VERSION);
  EXPECT_EQ(client.shutdownAndExit(), 0);
  EXPECT_TRUE(client.outputProblems().empty());
}

TEST(Lifecycle, RequestsBeforeInitializeGetServerNotInitialized) {
  LspClient client;
  json error = client.callError("hashline/snapshot", {{"textDocument", {{"uri", "file:///a"}}}});
  EXPECT_EQ(error["code"], kServerNotInitialized);
  EXPECT_EQ(client.callError("shutdown", nullptr)["code"], kServerNotInitialized);
  // Still usable afterwards.
  client.initialize();
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, NotificationsBeforeInitializeAreDropped) {
  LspClient client;
  client.didOpen("file:///w/early.txt", "early\n");
  client.initialize();
  json error =
      client.callError("hashline/snapshot", {{"textDocument", {{"uri", "file:///w/early.txt"}}}});
  EXPECT_EQ(error["data"]["code"], "FILE_NOT_FOUND");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, SecondInitializeIsInvalidRequest) {
  LspClient client;
  client.initialize();
  json error = client.callError("initialize", {{"capabilities", json::object()}});
  EXPECT_EQ(error["code"], kInvalidRequest);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, RequestsAfterShutdownAreInvalidRequest) {
  LspClient client;
  client.initialize();
  client.didOpen("file:///w/a.txt", "a\n");
  EXPECT_TRUE(client.callResult("shutdown", nullptr).is_null());
  EXPECT_EQ(client.callError("hashline/snapshot",
                             {{"textDocument", {{"uri", "file:///w/a.txt"}}}})["code"],
            kInvalidRequest);
  EXPECT_EQ(client.callError("shutdown", nullptr)["code"], kInvalidRequest);
  client.notify("exit", nullptr);
  EXPECT_EQ(client.waitForExit(), 0);
}

TEST(Lifecycle, ExitWithoutShutdownExitsWithOne) {
  LspClient client;
  client.initialize();
  client.notify("exit", nullptr);
  EXPECT_EQ(client.waitForExit(), 1);
}

TEST(Lifecycle, ExitBeforeInitializeExitsWithOne) {
  LspClient client;
  client.notify("exit", nullptr);
  EXPECT_EQ(client.waitForExit(), 1);
}

TEST(Lifecycle, EndOfInputWithoutShutdownExitsWithOne) {
  LspClient client;
  client.initialize();
  client.closeInput();
  EXPECT_EQ(client.waitForExit(), 1);
}

TEST(Lifecycle, EndOfInputAfterShutdownExitsWithZero) {
  LspClient client;
  client.initialize();
  client.callResult("shutdown", nullptr);
  client.closeInput();
  EXPECT_EQ(client.waitForExit(), 0);
}

TEST(Lifecycle, UnknownMethodIsMethodNotFound) {
  LspClient client;
  client.initialize();
  EXPECT_EQ(client.callError("hashline/noSuchMethod")["code"], kMethodNotFound);
  EXPECT_EQ(client.callError("$/noSuchOptionalRequest")["code"], kMethodNotFound);
  client.notify("$/noSuchOptionalNotification");
  client.notify("some/unknownNotification");
  client.sync();
  EXPECT_TRUE(client.running());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, StringIdsAreEchoed) {
  LspClient client;
  client.initialize();
  client.send({{"jsonrpc", "2.0"}, {"id", "abc"}, {"method", "hashline/noSuchMethod"}});
  json response = client.waitResponse("abc");
  EXPECT_EQ(response["id"], "abc");
  EXPECT_EQ(response["error"]["code"], kMethodNotFound);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, CancelOfAnAnsweredOrUnknownRequestIsHarmless) {
  LspClient client;
  client.initialize();
  client.notify("$/cancelRequest", {{"id", 12345}});
  client.notify("$/cancelRequest", {{"id", "nope"}});
  client.notify("$/cancelRequest", {{"id", json::object()}});
  client.notify("$/cancelRequest", nullptr);
  client.sync();
  EXPECT_TRUE(client.running());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, ExecuteCommandRejectsUnknownCommandsAndBadParams) {
  LspClient client;
  client.initialize();
  json error = client.callError("workspace/executeCommand", {{"command", "hashline.noSuchThing"}});
  EXPECT_EQ(error["code"], kInvalidParams);
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("hashline.noSuchThing"));
  error = client.callError("workspace/executeCommand", {{"command", 7}});
  EXPECT_EQ(error["code"], kInvalidParams);
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("params.command"));
  error = client.callError("workspace/executeCommand",
                           {{"command", "hashline.x"}, {"arguments", "not-an-array"}});
  EXPECT_EQ(error["code"], kInvalidParams);
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("params.arguments"));
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, InitializeWithWrongTypesIsInvalidParams) {
  LspClient client;
  json error = client.callError("initialize", {{"rootUri", 42}, {"capabilities", json::object()}});
  EXPECT_EQ(error["code"], kInvalidParams);
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("params.rootUri"));
  // The failed initialize did not count: a correct one still works.
  client.initialize();
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST(Lifecycle, ParseErrorIsNotFatal) {
  LspClient client;
  client.initialize();
  client.sendBody("{not json");
  EXPECT_EQ(client.waitNullIdResponse()["error"]["code"], kParseError);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

// --- the command line ---------------------------------------------------------------------------

struct CommandOutput {
  int exit_code = -1;
  std::string output;
};

CommandOutput runBinary(const std::string& args) {
  CommandOutput result;
  std::string command = std::string(hashlineBinary()) + " " + args + " 2>&1 </dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    result.output.append(buffer, got);
  int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(CommandLine, VersionAndHelp) {
  CommandOutput version = runBinary("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.output, std::string("hashline ") + HASHLINE_VERSION + "\n");

  CommandOutput help = runBinary("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.output, HasSubstr("lsp"));

  CommandOutput lsp_help = runBinary("lsp --help");
  EXPECT_EQ(lsp_help.exit_code, 0);
  for (const char* flag : {"--log-file", "--log-level", "--max-message-bytes"})
    EXPECT_THAT(lsp_help.output, HasSubstr(flag));
}

TEST(CommandLine, UsageErrorsExitWithTwo) {
  EXPECT_EQ(runBinary("").exit_code, 2);
  EXPECT_EQ(runBinary("no-such-command").exit_code, 2);
  EXPECT_EQ(runBinary("lsp --no-such-flag").exit_code, 2);
  EXPECT_EQ(runBinary("lsp --log-level loud").exit_code, 2);
  EXPECT_EQ(runBinary("lsp --max-message-bytes lots").exit_code, 2);
  EXPECT_EQ(runBinary("lsp --log-file").exit_code, 2);
}

TEST(CommandLine, LogFileReceivesTheLogAndStdoutOnlyProtocol) {
  char path_template[] = "/tmp/hashline-log-file-XXXXXX";
  int fd = ::mkstemp(path_template);
  ::close(fd);
  {
    LspClientOptions options;
    options.args = {"--log-level", "debug", "lsp", "--log-file", path_template};
    LspClient client(options);
    client.initialize();
    EXPECT_EQ(client.shutdownAndExit(), 0);
    EXPECT_TRUE(client.outputProblems().empty());
  }
  FILE* file = std::fopen(path_template, "r");
  ASSERT_NE(file, nullptr);
  std::string text(1 << 16, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), file));
  std::fclose(file);
  ::unlink(path_template);
  EXPECT_THAT(text, HasSubstr("initialize"));
  EXPECT_THAT(text, HasSubstr("debug"));
}

} // namespace
} // namespace hashline::test
