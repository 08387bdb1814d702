// The agent socket of a running `hashline lsp`: ping, service methods, unknown methods,
// malformed and oversized messages (JSON-RPC errors, the sidecar keeps serving), and a
// connection from another uid refused.
#include "agent_test_util.h"
#include "lsp/transport/framing.h"
#include "tests/lsp/support/lsp_client.h"

#include <fstream>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

class AgentEndpointTest : public ::testing::Test {
protected:
  void start() {
    client_ = std::make_unique<LspClient>();
    client_->initialize(json::object(), {{"rootUri", fileUri(sandbox_.workspace())}});
    auto file = waitForDiscoveryFile(sandbox_.runtime());
    ASSERT_TRUE(file) << client_->log();
    std::ifstream in(*file);
    socket_ = json::parse(in)["socket"];
  }
  void TearDown() override {
    if (client_) {
      EXPECT_EQ(client_->shutdownAndExit(), 0);
    }
  }

  AgentSandbox sandbox_;
  std::unique_ptr<LspClient> client_;
  std::string socket_;
};

TEST_F(AgentEndpointTest, PingAndServiceMethods) {
  ::setenv("HASHLINE_AGENT_MAX_MESSAGE_BYTES", "64k", 1);
  start();
  json pong = socketCall(socket_, "hashline/ping", json::object());
  EXPECT_EQ(pong["result"]["pong"], true) << pong;

  sandbox_.write("a.txt", "one\ntwo\n");
  json read = socketCall(socket_, "hashline/read", {{"path", sandbox_.workspace() + "/a.txt"}});
  ASSERT_TRUE(read.contains("result")) << read;
  EXPECT_EQ(read["result"]["status"], "ok");
  EXPECT_EQ(read["result"]["lineCount"], 2);

  json status = socketCall(socket_, "hashline/status", json::object());
  EXPECT_EQ(status["result"]["mode"], "editor") << status;
  ::unsetenv("HASHLINE_AGENT_MAX_MESSAGE_BYTES");
}

TEST_F(AgentEndpointTest, UnknownMethodAndBadParams) {
  start();
  EXPECT_EQ(socketCall(socket_, "hashline/frobnicate", json::object())["error"]["code"], -32601);
  EXPECT_EQ(socketCall(socket_, "textDocument/hover", json::object())["error"]["code"], -32601);
  EXPECT_EQ(socketCall(socket_, "hashline/read", json::array({1, 2}))["error"]["code"], -32602);
}

TEST_F(AgentEndpointTest, MalformedAndOversizedMessagesAreRefused) {
  ::setenv("HASHLINE_AGENT_MAX_MESSAGE_BYTES", "4096", 1);
  start();
  ::unsetenv("HASHLINE_AGENT_MAX_MESSAGE_BYTES");
  int fd = connectUnix(socket_);
  ASSERT_GE(fd, 0);
  // Not JSON: -32700 with id null, and the connection keeps working.
  ASSERT_TRUE(writeAll(fd, lsp::frameMessage("{this is not json")));
  auto frame = readFrame(fd);
  ASSERT_TRUE(frame);
  json answer = json::parse(*frame);
  EXPECT_EQ(answer["error"]["code"], -32700);
  EXPECT_TRUE(answer["id"].is_null());
  // JSON but not a request.
  ASSERT_TRUE(writeAll(fd, lsp::frameMessage("[1,2,3]")));
  frame = readFrame(fd);
  ASSERT_TRUE(frame);
  EXPECT_EQ(json::parse(*frame)["error"]["code"], -32600);
  // Over the cap: refused without being buffered.
  json big = {{"jsonrpc", "2.0"},
              {"id", 3},
              {"method", "hashline/ping"},
              {"params", {{"padding", std::string(10000, 'x')}}}};
  ASSERT_TRUE(writeAll(fd, lsp::frameMessage(big.dump())));
  frame = readFrame(fd);
  ASSERT_TRUE(frame);
  EXPECT_EQ(json::parse(*frame)["error"]["code"], -32600) << *frame;
  // Still serving on the same connection.
  json ping = {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "hashline/ping"}};
  ASSERT_TRUE(writeAll(fd, lsp::frameMessage(ping.dump())));
  frame = readFrame(fd);
  ASSERT_TRUE(frame);
  EXPECT_EQ(json::parse(*frame)["result"]["pong"], true);
  // A broken frame header closes this connection only.
  ASSERT_TRUE(writeAll(fd, "Content-Length: banana\r\n\r\n{}"));
  int frames_before_close = 0;
  while (auto last = readFrame(fd)) {
    EXPECT_TRUE(json::parse(*last).contains("error")) << *last;
    ASSERT_LT(++frames_before_close, 3) << "the connection was not closed";
  }
  ::close(fd);
  EXPECT_EQ(socketCall(socket_, "hashline/ping", json::object())["result"]["pong"], true);
}

TEST_F(AgentEndpointTest, AnotherUserIsRefused) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "not root: cannot switch to another uid to test the SO_PEERCRED check";
  passwd* nobody = ::getpwnam("nobody");
  if (!nobody) GTEST_SKIP() << "no user 'nobody' on this machine";
  start();
  // The socket is 0600 in a 0700 directory, so `nobody` cannot even reach it
  // (ModesKeepOtherUsersOut). To test the SO_PEERCRED check behind them, the modes are loosened for
  // this test only.
  ASSERT_EQ(::chmod(sandbox_.runtime().c_str(), 0711), 0);
  ASSERT_EQ(::chmod(socket_.c_str(), 0666), 0);
  ASSERT_EQ(::chmod(sandbox_.root().c_str(), 0711), 0);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    char verdict = 'E';
    if (::setgid(nobody->pw_gid) == 0 && ::setuid(nobody->pw_uid) == 0) {
      int fd = connectUnix(socket_);
      if (fd < 0)
        verdict = 'C'; // could not connect at all
      else {
        json ping = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "hashline/ping"}};
        writeAll(fd, lsp::frameMessage(ping.dump()));
        auto frame = readFrame(fd);
        verdict = frame ? 'A' : 'R'; // answered / refused (closed without an answer)
      }
    }
    (void)!::write(pipe_fds[1], &verdict, 1);
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  char verdict = '?';
  ASSERT_EQ(::read(pipe_fds[0], &verdict, 1), 1);
  ::close(pipe_fds[0]);
  ::waitpid(child, nullptr, 0);
  ::chmod(sandbox_.runtime().c_str(), 0700);
  ::chmod(socket_.c_str(), 0600);
  EXPECT_EQ(verdict, 'R') << "E: setuid failed, C: no connect, A: the sidecar answered nobody";
  client_->sync();
  EXPECT_NE(client_->log().find("refused a connection"), std::string::npos) << client_->log();
  // And the owner is still served.
  EXPECT_EQ(socketCall(socket_, "hashline/ping", json::object())["result"]["pong"], true);
}

TEST_F(AgentEndpointTest, ModesKeepOtherUsersOut) {
  start();
  EXPECT_EQ(modeOf(socket_), 0600);
  EXPECT_EQ(modeOf(sandbox_.runtime()), 0700);
}

} // namespace
} // namespace hashline::test
