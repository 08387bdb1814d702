// Arguments: flag/option/positional reading for the CLI.
#include "lsp/cli/arguments.h"

#include <charconv>
#include <cstdio>
#include <limits>

namespace hashline::cli {

bool Arguments::flag(std::string_view name) {
  if (done() || args_[index_] != name) return false;
  ++index_;
  return true;
}

bool Arguments::option(std::string_view name, std::string& value) {
  if (done()) return false;
  const std::string& arg = args_[index_];
  if (arg == name) {
    if (index_ + 1 >= args_.size()) {
      if (error.empty()) error = std::string(name) + " needs a value";
      ++index_;
      return true;
    }
    value = args_[index_ + 1];
    index_ += 2;
    return true;
  }
  if (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 &&
      arg[name.size()] == '=') {
    value = arg.substr(name.size() + 1);
    ++index_;
    return true;
  }
  return false;
}

std::string Arguments::take() {
  return args_[index_++];
}

bool Arguments::positional(std::vector<std::string>& positional) {
  std::string arg = take();
  if (arg == "-h" || arg == "--help") {
    error = "help";
    return false;
  }
  if (arg.rfind("--", 0) == 0) {
    error = "unknown option '" + arg + "'";
    return false;
  }
  positional.push_back(std::move(arg));
  return true;
}

int subcommandUsage(const char* command, const char* text, const std::string& problem) {
  if (problem == "help") {
    std::fputs(text, stdout);
    return 0;
  }
  std::fprintf(stderr, "hashline %s: %s\n\n%s", command, problem.c_str(), text);
  return 2;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
  std::int64_t value = 0;
  if (text.empty() || text.front() == '+') return std::nullopt;
  auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (problem != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::size_t> parseByteSize(std::string_view text) {
  std::size_t multiplier = 1;
  if (!text.empty()) {
    switch (text.back()) {
    case 'k':
    case 'K':
      multiplier = std::size_t{1} << 10;
      break;
    case 'm':
    case 'M':
      multiplier = std::size_t{1} << 20;
      break;
    case 'g':
    case 'G':
      multiplier = std::size_t{1} << 30;
      break;
    default:
      break;
    }
    if (multiplier != 1) text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 15) return std::nullopt;
  std::size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  if (value == 0 || value > std::numeric_limits<std::size_t>::max() / multiplier)
    return std::nullopt;
  return value * multiplier;
}

} // namespace hashline::cli
