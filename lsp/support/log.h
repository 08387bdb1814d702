// Leveled logging for the hashline process.
//
// One process-wide sink: a file (`--log-file`) or stderr. Never stdout: in `hashline lsp` stdout
// carries the protocol. Every component logs through `log::error/warn/info/debug`, which format
// their arguments with operator<< and are cheap no-ops below the configured level.
//
// Threading: the sink is guarded by a mutex, so any thread may log; lines are never interleaved.
#pragma once

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace hashline::log {

enum class Level { Error = 0, Warn = 1, Info = 2, Debug = 3 };

/// "error", "warn", "info", "debug" (also "warning", "trace" = debug, "off" = error only).
std::optional<Level> levelFromName(std::string_view name);
std::string_view levelName(Level level);

/// Sends log lines to `path` (appending), or to stderr when `path` is empty. Returns false (and
/// keeps stderr) when the file cannot be opened.
bool setSink(const std::string& path);
void setLevel(Level level);
Level level();
inline bool enabled(Level l) {
  return static_cast<int>(l) <= static_cast<int>(level());
}

/// Writes one line "<time> <level> <message>" to the sink.
void write(Level level, std::string_view message);

template <class... Args> void message(Level l, const Args&... args) {
  if (!enabled(l)) return;
  std::ostringstream out;
  (out << ... << args);
  write(l, out.str());
}
template <class... Args> void error(const Args&... args) {
  message(Level::Error, args...);
}
template <class... Args> void warn(const Args&... args) {
  message(Level::Warn, args...);
}
template <class... Args> void info(const Args&... args) {
  message(Level::Info, args...);
}
template <class... Args> void debug(const Args&... args) {
  message(Level::Debug, args...);
}

} // namespace hashline::log
