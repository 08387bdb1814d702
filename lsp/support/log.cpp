// The process-wide log sink: level filter, timestamp, one mutex-guarded FILE*.
#include "lsp/support/log.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>

namespace hashline::log {
namespace {

std::atomic<Level> g_level{Level::Info};
std::mutex g_mutex;
std::FILE* g_file = nullptr; // nullptr means stderr

} // namespace

std::optional<Level> levelFromName(std::string_view name) {
  if (name == "error" || name == "off") return Level::Error;
  if (name == "warn" || name == "warning") return Level::Warn;
  if (name == "info") return Level::Info;
  if (name == "debug" || name == "trace" || name == "verbose") return Level::Debug;
  return std::nullopt;
}

std::string_view levelName(Level level) {
  switch (level) {
  case Level::Error:
    return "error";
  case Level::Warn:
    return "warn";
  case Level::Info:
    return "info";
  case Level::Debug:
    return "debug";
  }
  return "?";
}

bool setSink(const std::string& path) {
  std::lock_guard lock(g_mutex);
  if (g_file) std::fclose(g_file);
  g_file = nullptr;
  if (path.empty()) return true;
  g_file = std::fopen(path.c_str(), "a");
  return g_file != nullptr;
}

void setLevel(Level level) {
  g_level = level;
}
Level level() {
  return g_level;
}

void write(Level level, std::string_view message) {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t seconds = system_clock::to_time_t(now);
  auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%H:%M:%S", &utc);
  std::lock_guard lock(g_mutex);
  std::FILE* out = g_file ? g_file : stderr;
  std::fprintf(out, "%s.%03d %-5s %.*s\n", stamp, static_cast<int>(millis), levelName(level).data(),
               static_cast<int>(message.size()), message.data());
  std::fflush(out);
}

} // namespace hashline::log
