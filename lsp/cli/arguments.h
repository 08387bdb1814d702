// A small command-line reader shared by the subcommands: `--flag value`, `--flag=value`,
// boolean flags and positional arguments, with usage errors as values.
//
// Threading: none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::cli {

class Arguments {
public:
  explicit Arguments(std::vector<std::string> args) : args_(std::move(args)) {}

  bool done() const { return index_ >= args_.size(); }
  /// The next argument, not consumed.
  const std::string& peek() const { return args_[index_]; }
  /// True (and consumes it) if the next argument is the flag `name` (e.g. "--stdio").
  bool flag(std::string_view name);
  /// If the next argument is `name VALUE` or `name=VALUE`, consumes it and returns true with
  /// `value` set; a missing value sets `error`.
  bool option(std::string_view name, std::string& value);
  /// Consumes and returns the next argument.
  std::string take();
  /// The end of a subcommand's option loop: consumes the next argument into `positional`, or
  /// sets `error` to "help" (-h, --help) or "unknown option '--x'" and returns false.
  bool positional(std::vector<std::string>& positional);

  std::string error; // the first usage error seen

private:
  std::vector<std::string> args_;
  std::size_t index_ = 0;
};

/// A subcommand's usage: on stdout with exit status 0 when `problem` is "help", else the problem
/// and the usage on stderr with exit status 2.
int subcommandUsage(const char* command, const char* text, const std::string& problem);

/// A whole decimal integer ("12", "-3"); nullopt for anything else ("1x", "2.0", " 3", "").
std::optional<std::int64_t> parseInteger(std::string_view text);

/// "64M", "1048576", "2k", "1G" → bytes; nullopt when malformed or zero.
std::optional<std::size_t> parseByteSize(std::string_view text);

} // namespace hashline::cli
