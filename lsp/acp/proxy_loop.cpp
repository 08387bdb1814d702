// The proxy's poll loop; see proxy_loop.h.
#include "lsp/acp/proxy_loop.h"

#include "lsp/acp/file_worker.h"
#include "lsp/platform/process.h"
#include "lsp/support/log.h"
#include "lsp/transport/line_framing.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <unistd.h>

namespace hashline::acp {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

volatile std::sig_atomic_t g_signal = 0;
int g_wake_write = -1;

void onSignal(int signal) {
  g_signal = signal;
  const char byte = 's';
  ssize_t ignored = ::write(g_wake_write, &byte, 1);
  (void)ignored;
}

/// Sets O_NONBLOCK; returns the flags before.
int setNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  return flags;
}

/// Lines queued for one side, written as the pipe takes them.
struct Outbox {
  int fd = -1;
  std::string data;
  std::size_t offset = 0;
  bool broken = false; // a write failed: the reader is gone
  bool closed = false; // we closed it (the agent's stdin after the client left)

  std::size_t pending() const { return data.size() - offset; }
  void push(std::string_view line) {
    if (broken || closed) return;
    if (offset > 0 && offset >= data.size() / 2) {
      data.erase(0, offset);
      offset = 0;
    }
    data.append(line);
    data.push_back('\n');
  }
  void flush() {
    while (!broken && !closed && pending() > 0) {
      ssize_t wrote = ::write(fd, data.data() + offset, pending());
      if (wrote < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        broken = true;
        return;
      }
      offset += static_cast<std::size_t>(wrote);
    }
    if (pending() == 0) {
      data.clear();
      offset = 0;
    }
  }
};

int millisecondsUntil(std::optional<Clock::time_point> deadline, Clock::time_point now) {
  if (!deadline) return -1;
  auto left = std::chrono::duration_cast<milliseconds>(*deadline - now).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left + 1, 1 << 30));
}

std::optional<Clock::time_point> earliest(std::optional<Clock::time_point> a,
                                          std::optional<Clock::time_point> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

/// Writes what is queued to `box` for up to `limit` (the last answers before the proxy ends).
void flushFor(Outbox& box, milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  for (box.flush(); !box.broken && box.pending() > 0 && Clock::now() < deadline; box.flush()) {
    pollfd entry{box.fd, POLLOUT, 0};
    ::poll(&entry, 1, millisecondsUntil(deadline, Clock::now()));
  }
}

} // namespace

int runProxyLoop(ProxyCore& core, AgentProcess agent, const LoopOptions& options) {
  int wake[2];
  if (!platform::openCloseOnExecPipe(wake)) {
    log::error("hashline acp: pipe: ", std::strerror(errno));
    std::string status;
    endAgentGroup(agent.pid, false, milliseconds(500), status);
    return 1;
  }
  setNonBlocking(wake[0]);
  setNonBlocking(wake[1]);
  g_wake_write = wake[1];
  platform::onTerminationRequest(onSignal);
  const int stdin_flags = setNonBlocking(STDIN_FILENO);
  const int stdout_flags = setNonBlocking(STDOUT_FILENO);
  setNonBlocking(agent.stdin_fd);
  setNonBlocking(agent.stdout_fd);

  FileWorker worker(options.files, wake[1]);
  lsp::FramingLimits limits;
  limits.max_body_bytes = options.max_message_bytes;
  lsp::LineParser client_parser(limits), agent_parser(limits);
  Outbox to_client, to_agent;
  to_client.fd = STDOUT_FILENO;
  to_agent.fd = agent.stdin_fd;
  bool client_reading = true, agent_reading = true, agent_reaped = false;
  std::optional<int> agent_code;
  std::string agent_status;
  std::optional<Clock::time_point> client_gone_at;
  constexpr std::size_t kBackPressure = std::size_t{4} << 20;
  std::vector<char> buffer(std::size_t{256} << 10);

  auto dispatch = [&](ProxyOutput& out) {
    for (const std::string& line : out.to_client)
      to_client.push(line);
    for (const std::string& line : out.to_agent)
      to_agent.push(line);
    for (FileCall& call : out.file_calls)
      worker.submit(std::move(call));
    for (const std::string& warning : out.warnings)
      log::warn("hashline acp: ", warning);
    out = ProxyOutput();
  };
  auto handle = [&](const lsp::FrameEvent& event, Side side, ProxyOutput& out) {
    if (event.kind == lsp::FrameEvent::Message) {
      if (side == Side::Client)
        core.fromClient(event.body, out, Clock::now());
      else
        core.fromAgent(event.body, out);
    } else if (event.kind == lsp::FrameEvent::Oversized) {
      core.oversized(side, event.declared_bytes, options.max_message_bytes, out);
    }
  };
  // Reads what `fd` has; false at its end (EOF or a read error).
  auto pump = [&](int fd, lsp::LineParser& parser, Side side) {
    ProxyOutput out;
    ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (got > 0) {
      parser.feed(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
      for (lsp::FrameEvent event = parser.next(); event.kind != lsp::FrameEvent::NeedMore;
           event = parser.next())
        handle(event, side, out);
      dispatch(out);
      return true;
    }
    handle(parser.finish(), side, out);
    dispatch(out);
    return false;
  };

  int exit_code = 0;
  for (;;) {
    if (g_signal) {
      log::info("hashline acp: signal ", int(g_signal), ": ending the agent");
      exit_code = 128 + g_signal;
      break;
    }
    if (!agent_reading) {
      // The agent is gone: its unanswered requests get errors, then the proxy ends.
      for (int i = 0; i < 50 && !agent_reaped; ++i) {
        agent_code = reapAgent(agent.pid, agent_status);
        agent_reaped = agent_code.has_value();
        if (!agent_reaped) ::usleep(10'000);
      }
      ProxyOutput out;
      core.agentGone(agent_reaped ? agent_status : "closed its output", out);
      dispatch(out);
      flushFor(to_client, milliseconds(2'000));
      exit_code = agent_code.value_or(1);
      if (agent_reaped) log::info("hashline acp: the agent ", agent_status);
      break;
    }
    if (to_client.broken && !client_gone_at) {
      log::info("hashline acp: the client stopped reading; ending the agent");
      break;
    }
    if (!client_reading && !to_agent.closed && (to_agent.pending() == 0 || to_agent.broken)) {
      ::close(agent.stdin_fd);
      to_agent.closed = true;
      client_gone_at = Clock::now();
    }
    const Clock::time_point now = Clock::now();
    if (client_gone_at && now >= *client_gone_at + options.exit_grace) break;

    pollfd fds[5];
    nfds_t count = 0;
    auto watch = [&](int fd, short events) -> int {
      if (fd < 0 || events == 0) return -1;
      fds[count] = pollfd{fd, events, 0};
      return static_cast<int>(count++);
    };
    const int wake_at = watch(wake[0], POLLIN);
    const int client_in =
        watch(client_reading && to_agent.pending() < kBackPressure ? STDIN_FILENO : -1, POLLIN);
    const int agent_in = watch(to_client.pending() < kBackPressure ? agent.stdout_fd : -1, POLLIN);
    const int client_out =
        watch(to_client.pending() > 0 && !to_client.broken ? STDOUT_FILENO : -1, POLLOUT);
    const int agent_out =
        watch(to_agent.pending() > 0 && !to_agent.broken && !to_agent.closed ? agent.stdin_fd : -1,
              POLLOUT);
    std::optional<Clock::time_point> deadline;
    if (options.handshake_timeout.count() > 0)
      deadline = core.nextDeadline(options.handshake_timeout);
    if (client_gone_at) deadline = earliest(deadline, *client_gone_at + options.exit_grace);
    int ready = ::poll(fds, count, millisecondsUntil(deadline, now));
    if (ready < 0 && errno != EINTR) {
      log::error("hashline acp: poll: ", std::strerror(errno));
      exit_code = 1;
      break;
    }
    auto fired = [&](int at) { return at >= 0 && ready > 0 && fds[at].revents != 0; };
    if (fired(wake_at)) {
      char drain[64];
      while (::read(wake[0], drain, sizeof drain) > 0) {
      }
      for (const std::string& answer : worker.takeAnswers())
        to_agent.push(answer);
    }
    if (fired(client_in) && !pump(STDIN_FILENO, client_parser, Side::Client)) {
      client_reading = false;
      log::info("hashline acp: the client closed its output");
    }
    if (fired(agent_in) && !pump(agent.stdout_fd, agent_parser, Side::Agent)) agent_reading = false;
    if (fired(client_out) || to_client.pending() > 0) to_client.flush();
    if (fired(agent_out) || to_agent.pending() > 0) to_agent.flush();
    if (options.handshake_timeout.count() > 0) {
      ProxyOutput out;
      core.expire(Clock::now(), options.handshake_timeout, out);
      dispatch(out);
    }
  }

  std::string status;
  std::optional<int> ended = endAgentGroup(agent.pid, agent_reaped, milliseconds(1'000), status);
  if (!agent_reaped && ended) log::info("hashline acp: the agent ", status);
  if (stdin_flags >= 0) ::fcntl(STDIN_FILENO, F_SETFL, stdin_flags);
  if (stdout_flags >= 0) ::fcntl(STDOUT_FILENO, F_SETFL, stdout_flags);
  return exit_code;
}

} // namespace hashline::acp
