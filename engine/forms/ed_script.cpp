// ed scripts: parsing into commands with address tokens, then one verified plan; see
// ed_script.h.
#include "engine/forms/ed_script.h"

#include "engine/forms/plan_builder.h"
#include "engine/forms/text_fold.h"
#include "engine/forms/written_text.h"

#include <algorithm>
#include <cctype>
#include <re2/re2.h>
#include <string>
#include <vector>

namespace hashline::forms {
namespace {

Error syntaxError(std::size_t line, const std::string& message) {
  Error error = Error::make(ErrorCode::PatchInvalid,
                            "ed script line " + std::to_string(line) + ": " + message);
  error.hint = "fix the ed command (e.g. 3,5d  2a … .  1,$s/old/new/g) and retry";
  error.data.notes.push_back("script line " + std::to_string(line));
  return error;
}

bool isDigestChar(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'z');
}

// Parses one address at `text[at]`; nullopt when there is none.
std::optional<EdAddress> parseAddress(std::string_view text, std::size_t& at) {
  if (at < text.size() && text[at] == '$') {
    ++at;
    return EdAddress{EdAddress::Last, 0, {}};
  }
  std::size_t end = at;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == at) return std::nullopt;
  EdAddress address;
  std::uint64_t value = 0;
  for (std::size_t k = at; k < end; ++k)
    value = std::min<std::uint64_t>(value * 10 + static_cast<unsigned>(text[k] - '0'), 0xFFFFFFFFu);
  address.line = static_cast<std::uint32_t>(value); // absurd numbers saturate → OUT_OF_RANGE
  // An anchor: LINE followed by one or two ":xxx" digest groups of exactly 3 characters.
  std::size_t anchor_end = end;
  for (int group = 0; group < 2; ++group) {
    if (anchor_end + 4 <= text.size() && text[anchor_end] == ':' &&
        isDigestChar(text[anchor_end + 1]) && isDigestChar(text[anchor_end + 2]) &&
        isDigestChar(text[anchor_end + 3]))
      anchor_end += 4;
    else
      break;
  }
  if (anchor_end > end) {
    address.kind = EdAddress::Anchor;
    address.anchor = std::string(text.substr(at, anchor_end - at));
    end = anchor_end;
  }
  at = end;
  return address;
}

// Reads `s` delimited parts: pattern, replacement, flags.
Status parseSubstitution(std::string_view rest, EdCommand& command, std::size_t line) {
  if (rest.empty()) return syntaxError(line, "s needs a delimiter: s/re/replacement/");
  const char delimiter = rest[0];
  if (std::isalnum(static_cast<unsigned char>(delimiter)) || delimiter == '\\' || delimiter == ' ')
    return syntaxError(line, "invalid delimiter after s");
  std::string parts[2];
  std::size_t at = 1;
  for (int part = 0; part < 2; ++part) {
    bool closed = false;
    while (at < rest.size()) {
      char c = rest[at];
      if (c == '\\' && at + 1 < rest.size() && rest[at + 1] == delimiter) {
        parts[part].push_back(delimiter);
        at += 2;
        continue;
      }
      if (c == '\\' && at + 1 < rest.size()) {
        parts[part].append(rest.substr(at, 2));
        at += 2;
        continue;
      }
      if (c == delimiter) {
        closed = true;
        ++at;
        break;
      }
      parts[part].push_back(c);
      ++at;
    }
    if (!closed && part == 0) return syntaxError(line, "unterminated s pattern");
    if (!closed) break; // a missing final delimiter is accepted (as ed does)
  }
  command.pattern = parts[0];
  command.replacement = parts[1];
  if (command.pattern.empty()) return syntaxError(line, "empty s pattern");
  for (; at < rest.size(); ++at) {
    char c = rest[at];
    if (c == 'g') {
      command.global = true;
    } else if (c == 'i' || c == 'I') {
      command.ignore_case = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      command.occurrence = command.occurrence * 10 + static_cast<unsigned>(c - '0');
    } else if (c == ' ' || c == '\t') {
      continue;
    } else {
      return syntaxError(line, std::string("unknown s flag '") + c + "'");
    }
  }
  return Status::success();
}

// One piece of an `s` replacement: literal text, or submatch `group` (0 = the whole match).
struct ReplacementPart {
  std::string literal;
  int group = -1;
};

// ed's replacement syntax: `&` the match, `\1`-`\9` groups, `\n` a line break, `\&` / `\\` / `\x`
// the character itself, `$` literal.
std::vector<ReplacementPart> parseReplacement(std::string_view replacement) {
  std::vector<ReplacementPart> parts;
  auto literal = [&](std::string_view text) {
    if (parts.empty() || parts.back().group >= 0) parts.emplace_back();
    parts.back().literal += text;
  };
  for (std::size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\' && i + 1 < replacement.size()) {
      const char next = replacement[++i];
      if (next >= '1' && next <= '9')
        parts.push_back(ReplacementPart{{}, next - '0'});
      else if (next == 'n')
        literal("\n");
      else
        literal(std::string_view(&replacement[i], 1));
    } else if (c == '&') {
      parts.push_back(ReplacementPart{{}, 0});
    } else {
      literal(std::string_view(&replacement[i], 1));
    }
  }
  return parts;
}

// The memory RE2 may use for one compiled pattern (its programs and DFA caches); beyond it
// compiling fails (a huge pattern) or matching falls back to the NFA (still linear).
constexpr std::int64_t kPatternMemory = 8 << 20;

Error patternError(const std::string& pattern, const RE2& re) {
  std::string why = re.error();
  const std::string& arg = re.error_arg();
  if (re.error_code() == RE2::ErrorBadEscape && arg.size() == 2 && arg[1] >= '1' && arg[1] <= '9')
    why = "backreferences (" + arg + ") are not supported in s patterns";
  else if (re.error_code() == RE2::ErrorBadPerlOp &&
           (arg == "(?=" || arg == "(?!" || pattern.find("(?<=") != std::string::npos ||
            pattern.find("(?<!") != std::string::npos))
    why = "lookaround (" + (arg == "(?<" ? arg + "= / " + arg + "!" : arg) +
          ") is not supported in s patterns";
  else if (re.error_code() == RE2::ErrorBadPerlOp && arg == "(?<")
    why = "named groups are written (?P<name>…) in s patterns";
  else if (re.error_code() == RE2::ErrorPatternTooLarge)
    why = "the pattern is too large (its program exceeds " + std::to_string(kPatternMemory >> 20) +
          " MB)";
  Error error =
      Error::make(ErrorCode::PatchInvalid, "invalid regular expression '" + pattern + "': " + why);
  error.hint = "s patterns use RE2 syntax (linear time): no backreferences (\\1) or lookaround "
               "((?=, (?!, (?<=); named groups are (?P<name>…). Rewrite the pattern, or replace "
               "the lines with c";
  return error;
}

// The next position after an empty match at `at`: one UTF-8 character on (one byte when the
// text is not valid UTF-8 there), so `g` never loops and never splits a character.
std::size_t stepOver(std::string_view text, std::size_t at) {
  std::size_t next = at + 1;
  while (next < text.size() && next - at < 4 &&
         (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80)
    ++next;
  return next;
}

} // namespace

Result<EdScript> parseEdScript(std::string_view script) {
  EdScript parsed;
  std::vector<std::string> lines = splitLines(script);
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const std::size_t number = index + 1;
    std::string_view line = trimUnicode(lines[index]);
    if (line.empty() || line == "w" || line == "q" || line == "wq" || line == "Q" ||
        line.substr(0, 2) == "w ")
      continue;
    EdCommand command;
    command.script_line = number;
    std::size_t at = 0;
    if (line[0] == ',' || line[0] == '%') {
      command.range.first = EdAddress{EdAddress::Line, 1, {}};
      command.range.last = EdAddress{EdAddress::Last, 0, {}};
      at = 1;
    } else {
      std::optional<EdAddress> first = parseAddress(line, at);
      if (!first) return syntaxError(number, "missing address in '" + std::string(line) + "'");
      command.range.first = *first;
      if (at < line.size() && line[at] == ',') {
        ++at;
        std::optional<EdAddress> last = parseAddress(line, at);
        if (!last) return syntaxError(number, "missing second address after ','");
        command.range.last = *last;
      }
    }
    if (at >= line.size()) return syntaxError(number, "missing command after the address");
    command.name = line[at++];
    std::string_view rest = line.substr(at);
    switch (command.name) {
    case 'a':
    case 'i':
    case 'c': {
      if (!trimUnicode(rest).empty())
        return syntaxError(number, std::string("text for '") + command.name +
                                       "' goes on the following lines, ended by '.'");
      if (command.name != 'c' && command.range.last)
        return syntaxError(number, std::string("'") + command.name + "' takes one address");
      bool closed = false;
      for (++index; index < lines.size(); ++index) {
        if (lines[index] == ".") {
          closed = true;
          break;
        }
        command.text.push_back(lines[index]);
      }
      if (!closed) return syntaxError(number, "text not ended by a line holding only '.'");
      break;
    }
    case 'd':
      if (!trimUnicode(rest).empty()) return syntaxError(number, "unexpected text after 'd'");
      break;
    case 'm':
    case 't': {
      std::size_t dest_at = 0;
      std::string_view dest_text = trimUnicode(rest);
      command.destination = parseAddress(dest_text, dest_at);
      if (!command.destination || dest_at != dest_text.size())
        return syntaxError(number, std::string("'") + command.name + "' needs a destination line");
      break;
    }
    case 's': {
      if (Status status = parseSubstitution(rest, command, number); !status)
        return std::move(status).error();
      break;
    }
    default:
      return syntaxError(number, std::string("unsupported command '") + command.name +
                                     "' (supported: a i c d m t s)");
    }
    parsed.commands.push_back(std::move(command));
  }
  if (parsed.commands.empty()) return syntaxError(1, "the script has no command");
  return parsed;
}

EdAddressResolver makeLineNumberResolver(LineHistory history, std::int64_t at_version) {
  return [history, at_version](const EdRange& range, const LineTable& table) -> Result<EdLines> {
    const auto count = static_cast<std::uint32_t>(table.lineCount());
    auto number = [&](const EdAddress& address) -> Result<std::uint32_t> {
      if (address.kind == EdAddress::Anchor)
        return Error::make(ErrorCode::MalformedAnchor,
                           "anchor address " + address.anchor +
                               " cannot be resolved here; use line numbers with a version");
      return address.kind == EdAddress::Last ? count : address.line;
    };
    Result<std::uint32_t> first = number(range.first);
    if (!first) return std::move(first).error();
    Result<std::uint32_t> last = range.last ? number(*range.last) : first;
    if (!last) return std::move(last).error();
    if (*first == 0 && *last == 0) return EdLines{0, 0, std::nullopt};
    if (*first == 0 || *last < *first)
      return Error::make(ErrorCode::OutOfRange, "invalid line range " + std::to_string(*first) +
                                                    "," + std::to_string(*last));
    const bool at_current = at_version == history.current_version ||
                            (range.first.kind == EdAddress::Last &&
                             (!range.last || range.last->kind == EdAddress::Last));
    Result<RebasedLines> rebased =
        rebaseLines(history, table, at_current ? history.current_version : at_version,
                    std::int64_t(*first) - 1, std::int64_t(*last) - 1);
    if (!rebased) return std::move(rebased).error();
    EdLines lines{rebased->first + 1, rebased->last + 1, std::nullopt};
    if (rebased->moved) lines.stated_first = *first;
    return lines;
  };
}

namespace {

// Every \N of the replacement names a group the pattern has.
Status checkReplacementGroups(const EdCommand& command, const std::vector<ReplacementPart>& parts,
                              int groups) {
  for (const ReplacementPart& part : parts)
    if (part.group > groups)
      return Error::make(ErrorCode::PatchInvalid,
                         "s replacement refers to group \\" + std::to_string(part.group) +
                             " but the pattern '" + command.pattern + "' has " +
                             std::to_string(groups) + (groups == 1 ? " group" : " groups"))
          .withHint("in the replacement \\N is the pattern's Nth (…) group, & the whole match, "
                    "\\& a literal &, \\\\ a backslash");
  return Status::success();
}

// Appends the replacement of one match (its groups in `match`) to `out`.
void appendReplacement(std::string& out, const std::vector<ReplacementPart>& parts,
                       const std::vector<re2::StringPiece>& match) {
  for (const ReplacementPart& part : parts) {
    if (part.group < 0)
      out += part.literal;
    else if (const re2::StringPiece& group = match[static_cast<std::size_t>(part.group)];
             group.data() != nullptr)
      out.append(group.data(), group.size());
  }
}

// One line after `s`: the occurrence(s) the command takes replaced, or nullopt when it takes none.
// `match` is scratch space for the pattern's groups.
std::optional<std::string> substituteLine(const RE2& pattern, const EdCommand& command,
                                          const std::vector<ReplacementPart>& parts,
                                          std::string_view content,
                                          std::vector<re2::StringPiece>& match) {
  const re2::StringPiece text(content.data(), content.size());
  std::string result;
  std::size_t copied = 0;   // content[0, copied) is in result
  std::size_t at = 0;       // where the next search starts
  std::size_t last_end = 0; // end of the previous match
  bool matched_before = false;
  unsigned seen = 0;
  bool changed = false;
  while (at <= content.size()) {
    if (!pattern.Match(text, at, content.size(), RE2::UNANCHORED, match.data(),
                       static_cast<int>(match.size())))
      break;
    const auto begin = static_cast<std::size_t>(match[0].data() - content.data());
    const std::size_t end = begin + match[0].size();
    if (match[0].empty() && matched_before && begin == last_end) {
      // An empty match right after the previous match is not a new one (as ed and sed).
      if (at >= content.size()) break;
      at = stepOver(content, at);
      continue;
    }
    ++seen;
    matched_before = true;
    last_end = end;
    const bool take =
        command.occurrence > 0 ? seen == command.occurrence : (command.global || seen == 1);
    if (take) {
      result.append(content, copied, begin - copied);
      appendReplacement(result, parts, match);
      copied = end;
      changed = true;
      if (command.occurrence > 0 || !command.global) break;
    }
    if (end > begin)
      at = end;
    else if (end < content.size())
      at = stepOver(content, end);
    else
      break;
  }
  if (!changed) return std::nullopt;
  result.append(content, copied, std::string_view::npos);
  return result;
}

class EdPlanner {
public:
  EdPlanner(const LineTable& table, const EdAddressResolver& resolve)
      : table_(table), resolve_(resolve) {}

  Result<std::vector<Replacement>> run(const EdScript& script) {
    for (std::size_t index = 0; index < script.commands.size(); ++index) {
      index_ = index;
      count_ = script.commands.size();
      Status status = plan(script.commands[index]);
      if (!status) {
        Error error = std::move(status).error();
        error.message = "command " + std::to_string(index + 1) + " (script line " +
                        std::to_string(script.commands[index].script_line) + "): " + error.message;
        error.data.edit_index = index;
        error.data.edit_count = count_;
        return error;
      }
    }
    return std::move(out_);
  }

  /// Addresses carried from an older version, for EditPlan::rebased (after run()).
  std::vector<Rebase> takeRebased() { return std::move(rebased_); }

private:
  Status plan(const EdCommand& command) {
    for (const std::string& line : command.text)
      if (Status pasted = checkWrittenText(line, "text"); !pasted) return pasted;
    Result<EdLines> lines = resolve_(command.range, table_);
    if (!lines) return std::move(lines).error();
    if (lines->stated_first) rebased_.push_back(Rebase{*lines->stated_first, lines->first});
    const std::int64_t first = lines->first, last = lines->last; // 1-based
    const auto count = static_cast<std::int64_t>(table_.lineCount());
    const bool zero_ok = command.name == 'a';
    if ((first == 0 && !zero_ok) || last > count || last < first)
      return Error::make(ErrorCode::OutOfRange, "line " + std::to_string(first == 0 ? 0 : last) +
                                                    " is outside the file (" +
                                                    std::to_string(count) + " lines)");
    switch (command.name) {
    case 'a':
      emitSplice(last, last - 1, command.text);
      break;
    case 'i':
      emitSplice(first - 1, first - 2, command.text);
      break;
    case 'c':
      emitSplice(first - 1, last - 1, command.text);
      break;
    case 'd':
      emitSplice(first - 1, last - 1, {});
      break;
    case 'm':
    case 't': {
      Result<EdLines> destination = resolve_(EdRange{*command.destination, std::nullopt}, table_);
      if (!destination) return std::move(destination).error();
      const std::int64_t after = destination->last;
      if (after > count)
        return Error::make(ErrorCode::OutOfRange,
                           "destination line " + std::to_string(after) + " is outside the file");
      std::vector<std::string> moved;
      for (std::int64_t line = first - 1; line < last; ++line)
        moved.emplace_back(table_.content(static_cast<std::size_t>(line)));
      if (command.name == 'm') emitSplice(first - 1, last - 1, {});
      emitSplice(after, after - 1, moved);
      break;
    }
    case 's':
      return substitute(command, first - 1, last - 1);
    }
    return Status::success();
  }

  void emitSplice(std::int64_t first, std::int64_t last, const std::vector<std::string>& lines) {
    LineSplice splice = spliceLines(table_, first, last, lines);
    Replacement r;
    r.begin = splice.begin;
    r.end = splice.end;
    r.new_text = std::move(splice.text);
    const std::size_t ending_line = static_cast<std::size_t>(
        std::clamp<std::int64_t>(first, 0, static_cast<std::int64_t>(table_.lineCount()) - 1));
    r.line_ending = std::string(table_.lineEndingAt(ending_line));
    r.edit_index = index_;
    r.label = "command";
    out_.push_back(std::move(r));
  }

  Status substitute(const EdCommand& command, std::int64_t first, std::int64_t last) {
    RE2::Options options; // UTF-8, leftmost-first (Perl-like) semantics
    options.set_log_errors(false);
    options.set_max_mem(kPatternMemory);
    options.set_case_sensitive(!command.ignore_case);
    RE2 pattern(command.pattern, options);
    if (!pattern.ok()) return patternError(command.pattern, pattern);
    const std::vector<ReplacementPart> parts = parseReplacement(command.replacement);
    const int groups = pattern.NumberOfCapturingGroups();
    if (Status status = checkReplacementGroups(command, parts, groups); !status) return status;
    std::vector<re2::StringPiece> match(static_cast<std::size_t>(groups) + 1);
    bool any = false;
    for (std::int64_t line = first; line <= last; ++line) {
      const auto l = static_cast<std::size_t>(line);
      std::optional<std::string> result =
          substituteLine(pattern, command, parts, table_.content(l), match);
      if (!result) continue;
      any = true;
      Replacement r;
      r.begin = table_.contentBegin(l);
      r.end = table_.contentEnd(l);
      r.new_text = std::move(*result);
      r.line_ending = std::string(table_.lineEndingAt(l));
      r.edit_index = index_;
      r.label = "command";
      out_.push_back(std::move(r));
    }
    if (!any)
      return Error::make(ErrorCode::NotFound, "s/" + command.pattern + "/: no match in lines " +
                                                  std::to_string(first + 1) + "-" +
                                                  std::to_string(last + 1))
          .withHint("the pattern matches nothing in those lines; re-read them, then fix the "
                    "pattern or the address");
    return Status::success();
  }

  const LineTable& table_;
  const EdAddressResolver& resolve_;
  std::vector<Replacement> out_;
  std::vector<Rebase> rebased_;
  std::size_t index_ = 0, count_ = 0;
};

} // namespace

Result<EditPlan> planEdScript(const Rope& base, std::int64_t version, const EdScript& script,
                              const EdAddressResolver& resolve) {
  return planEdScript(LineTable(base.toString()), version, script, resolve);
}

Result<EditPlan> planEdScript(const LineTable& table, std::int64_t version, const EdScript& script,
                              const EdAddressResolver& resolve) {
  EdPlanner planner(table, resolve);
  Result<std::vector<Replacement>> replacements = planner.run(script);
  if (!replacements) return std::move(replacements).error();
  BuildOptions options;
  options.edit_count = script.commands.size();
  Result<EditPlan> plan = buildPlan(table, version, std::move(*replacements), options);
  if (plan) plan->rebased = planner.takeRebased();
  return plan;
}

} // namespace hashline::forms
