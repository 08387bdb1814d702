// Text edits of JSONC settings for `hashline setup`; see setup_jsonc_edit.h.
#include "lsp/cli/setup_jsonc_edit.h"

#include <optional>

namespace hashline::cli::setup {

namespace {

/// One `"key": value` of an object: where its key starts and its value's span.
struct Member {
  std::string key;
  std::size_t key_begin = 0;
  std::size_t value_begin = 0;
  std::size_t value_end = 0;
};

/// An object's braces and members.
struct ObjectSpan {
  std::size_t open = 0;
  std::size_t close = 0; // the `}`
  std::vector<Member> members;
};

/// A scanner over JSONC: whitespace, // and /* */ comments, strings, nesting. Positions past a
/// malformed spot are npos.
class Scanner {
public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::size_t skipTrivia(std::size_t at) const {
    while (at < text_.size()) {
      char c = text_[at];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++at;
      } else if (c == '/' && at + 1 < text_.size() && text_[at + 1] == '/') {
        std::size_t newline = text_.find('\n', at);
        at = newline == std::string::npos ? text_.size() : newline + 1;
      } else if (c == '/' && at + 1 < text_.size() && text_[at + 1] == '*') {
        std::size_t end = text_.find("*/", at + 2);
        if (end == std::string::npos) return std::string::npos;
        at = end + 2;
      } else {
        break;
      }
    }
    return at;
  }

  /// The end of the string starting at `at` (a `"`), and its decoded text (simple escapes).
  std::size_t stringEnd(std::size_t at, std::string* decoded) const {
    for (std::size_t i = at + 1; i < text_.size(); ++i) {
      if (text_[i] == '\\') {
        if (decoded && i + 1 < text_.size()) *decoded += text_[i + 1];
        ++i;
      } else if (text_[i] == '"') {
        return i + 1;
      } else if (decoded) {
        *decoded += text_[i];
      }
    }
    return std::string::npos;
  }

  /// The end of the value starting at `at`.
  std::size_t valueEnd(std::size_t at) const {
    if (at >= text_.size()) return std::string::npos;
    char c = text_[at];
    if (c == '"') return stringEnd(at, nullptr);
    if (c == '{' || c == '[') {
      int depth = 0;
      for (std::size_t i = at; i < text_.size();) {
        std::size_t next = skipTrivia(i);
        if (next == std::string::npos || next >= text_.size()) return std::string::npos;
        if (next != i) {
          i = next;
          continue;
        }
        char d = text_[i];
        if (d == '"') {
          i = stringEnd(i, nullptr);
          if (i == std::string::npos) return i;
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        if (d == '}' || d == ']') {
          if (--depth == 0) return i + 1;
        }
        ++i;
      }
      return std::string::npos;
    }
    std::size_t end = at;
    while (end < text_.size() && std::string(",}] \t\r\n/").find(text_[end]) == std::string::npos)
      ++end;
    return end == at ? std::string::npos : end;
  }

  /// The object starting at `open` (a `{`) with its members, or nullopt.
  std::optional<ObjectSpan> object(std::size_t open) const {
    if (open >= text_.size() || text_[open] != '{') return std::nullopt;
    ObjectSpan span{open, 0, {}};
    std::size_t at = skipTrivia(open + 1);
    while (at != std::string::npos && at < text_.size()) {
      if (text_[at] == '}') {
        span.close = at;
        return span;
      }
      if (text_[at] != '"') return std::nullopt;
      Member member;
      member.key_begin = at;
      at = stringEnd(at, &member.key);
      at = at == std::string::npos ? at : skipTrivia(at);
      if (at == std::string::npos || at >= text_.size() || text_[at] != ':') return std::nullopt;
      member.value_begin = skipTrivia(at + 1);
      if (member.value_begin == std::string::npos) return std::nullopt;
      member.value_end = valueEnd(member.value_begin);
      if (member.value_end == std::string::npos) return std::nullopt;
      span.members.push_back(member);
      at = skipTrivia(member.value_end);
      if (at != std::string::npos && at < text_.size() && text_[at] == ',') at = skipTrivia(at + 1);
    }
    return std::nullopt;
  }

  /// The object at `path` (keys from the root object), or nullopt.
  std::optional<ObjectSpan> objectAt(const std::vector<std::string>& path) const {
    std::size_t root = skipTrivia(0);
    if (root == std::string::npos) return std::nullopt;
    auto span = object(root);
    for (const auto& key : path) {
      if (!span) return std::nullopt;
      const Member* found = find(*span, key);
      if (!found) return std::nullopt;
      span = object(found->value_begin);
    }
    return span;
  }

  static const Member* find(const ObjectSpan& span, const std::string& key) {
    for (const auto& member : span.members)
      if (member.key == key) return &member;
    return nullptr;
  }

private:
  const std::string& text_;
};

/// The whitespace that starts the line holding `at`.
std::string lineIndent(const std::string& text, std::size_t at) {
  std::size_t begin = text.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::size_t end = text.find_first_not_of(" \t", begin);
  return text.substr(begin, (end == std::string::npos ? text.size() : end) - begin);
}

/// `value` as indented JSON whose continuation lines start with `indent`.
std::string dumpAt(const OrderedJson& value, const std::string& indent) {
  std::string dumped = value.dump(2);
  std::string out;
  for (char c : dumped) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

OrderedJson lenient(const std::string& text) {
  return OrderedJson::parse(text, nullptr, false, /*ignore_comments=*/true);
}

/// Inserts `"key": value` as the first member of `span` in `text`.
std::string insertMember(const std::string& text, const ObjectSpan& span, const std::string& key,
                         const OrderedJson& value) {
  std::string outer = lineIndent(text, span.open);
  std::string indent =
      span.members.empty() ? outer + "  " : lineIndent(text, span.members[0].key_begin);
  std::string member = OrderedJson(key).dump() + ": " + dumpAt(value, indent);
  std::string inside = text.substr(span.open + 1, span.close - span.open - 1);
  if (span.members.empty() && inside.find_first_not_of(" \t\r\n") == std::string::npos)
    return text.substr(0, span.open + 1) + "\n" + indent + member + "\n" + outer +
           text.substr(span.close);
  return text.substr(0, span.open + 1) + "\n" + indent + member +
         (span.members.empty() ? "" : ",") + text.substr(span.open + 1);
}

/// Cuts member `index` of `span` out of `text`, with its comma (the one after it, or for the last
/// member the one after the previous member) and its line when nothing else is on it.
std::string removeMember(const std::string& text, const ObjectSpan& span, std::size_t index) {
  const Member& member = span.members[index];
  Scanner scanner(text);
  std::size_t begin = member.key_begin, end = member.value_end;
  std::optional<std::size_t> comma_before;
  std::size_t after = scanner.skipTrivia(end);
  if (after != std::string::npos && after < text.size() && text[after] == ',') {
    end = after + 1;
  } else if (index > 0) {
    std::size_t comma = scanner.skipTrivia(span.members[index - 1].value_end);
    if (comma != std::string::npos && comma < begin && text[comma] == ',') comma_before = comma;
  }
  std::size_t line_begin = text.rfind('\n', begin - 1);
  std::size_t line_end = text.find('\n', end);
  bool alone_before =
      line_begin != std::string::npos && text.find_first_not_of(" \t", line_begin + 1) == begin;
  bool alone_after =
      line_end != std::string::npos && text.find_first_not_of(" \t\r", end) == line_end;
  if (alone_before && alone_after) {
    begin = line_begin + 1;
    end = line_end + 1;
  }
  std::string out = text.substr(0, begin) + text.substr(end);
  if (comma_before) out.erase(*comma_before, 1);
  return out;
}

/// Whether `text` is one JSONC object (comments and trailing commas allowed).
bool isObject(const std::string& text) {
  Scanner scanner(text);
  std::size_t root = scanner.skipTrivia(0);
  auto span = root == std::string::npos ? std::nullopt : scanner.object(root);
  return span && scanner.skipTrivia(span->close + 1) == text.size();
}

std::string joined(const std::vector<std::string>& path) {
  std::string text;
  for (const auto& key : path)
    text += (text.empty() ? "" : ".") + key;
  return text;
}

} // namespace

std::variant<EditOutcome, std::string> mergeJsonc(const std::string& text,
                                                  const std::vector<JsonChange>& changes) {
  std::string current = text.find_first_not_of(" \t\r\n") == std::string::npos ? "{}\n" : text;
  if (!isObject(current)) return std::string("it is not a JSON object (comments allowed)");
  OrderedJson record = OrderedJson::array();
  for (const JsonChange& change : changes) {
    if (change.add_to_array) return std::string("array additions are not supported in JSONC");
    Scanner scanner(current);
    // The deepest existing object along the path, and what is missing below it.
    std::size_t depth = 0;
    while (depth + 1 < change.path.size()) {
      std::vector<std::string> prefix(change.path.begin(), change.path.begin() + depth + 1);
      if (!scanner.objectAt(prefix)) break;
      ++depth;
    }
    std::vector<std::string> parent_path(change.path.begin(), change.path.begin() + depth);
    auto parent = scanner.objectAt(parent_path);
    if (!parent) return joined(change.path) + " runs through a value that is not an object";
    const std::size_t created = change.path.size() - 1 - depth;
    OrderedJson entry = {{"path", change.path}, {"created_parents", created}};
    const std::string& key = change.path[depth];
    if (created == 0) {
      if (const Member* existing = Scanner::find(*parent, key)) {
        OrderedJson previous = lenient(
            current.substr(existing->value_begin, existing->value_end - existing->value_begin));
        if (sameEntry(previous, change.value)) continue;
        entry["previous"] = previous;
        current = current.substr(0, existing->value_begin) +
                  dumpAt(change.value, lineIndent(current, existing->key_begin)) +
                  current.substr(existing->value_end);
        entry["set"] = change.value;
        record.push_back(entry);
        continue;
      }
    } else if (Scanner::find(*parent, key)) {
      return joined(change.path) + " runs through a value that is not an object";
    }
    OrderedJson value = change.value;
    for (std::size_t i = change.path.size() - 1; i > depth; --i)
      value = OrderedJson{{change.path[i], value}};
    current = insertMember(current, *parent, key, value);
    entry["set"] = change.value;
    record.push_back(entry);
  }
  if (record.empty()) return EditOutcome{text, record};
  if (!current.empty() && current.back() != '\n' && !text.empty() && text.back() == '\n')
    current += '\n';
  return EditOutcome{current, record};
}

std::optional<OrderedJson> parseJsonc(const std::string& text) {
  if (!isObject(text)) return std::nullopt;
  // The text without its comments and trailing commas: strings copied whole, trivia skipped.
  Scanner scanner(text);
  std::string plain;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t next = scanner.skipTrivia(at);
    if (next != at) {
      plain += ' ';
      at = next;
      continue;
    }
    if (text[at] == '"') {
      std::size_t end = scanner.stringEnd(at, nullptr);
      plain.append(text, at, end - at);
      at = end;
      continue;
    }
    if (text[at] == ',') {
      std::size_t after = scanner.skipTrivia(at + 1);
      if (after < text.size() && (text[after] == '}' || text[after] == ']')) {
        ++at;
        continue;
      }
    }
    plain += text[at++];
  }
  OrderedJson document = OrderedJson::parse(plain, nullptr, false);
  if (document.is_discarded()) return std::nullopt;
  return document;
}

std::variant<std::string, std::string>
unmergeJsonc(const std::string& text, const OrderedJson& record, UnmergeCount* count) {
  UnmergeCount unused;
  if (!count) count = &unused;
  using Result = std::variant<std::string, std::string>;
  if (!isObject(text))
    return Result(std::in_place_index<1>, "it is not a JSON object (comments allowed)");
  std::string current = text;
  for (auto entry = record.rbegin(); entry != record.rend(); ++entry) {
    auto path = (*entry)["path"].get<std::vector<std::string>>();
    std::vector<std::string> parent_path(path.begin(), path.end() - 1);
    auto parent = Scanner(current).objectAt(parent_path);
    const Member* member = parent ? Scanner::find(*parent, path.back()) : nullptr;
    if (!member) {
      ++count->gone;
      continue;
    }
    OrderedJson value =
        lenient(current.substr(member->value_begin, member->value_end - member->value_begin));
    if (!sameEntry(value, (*entry)["set"])) {
      ++count->foreign;
      continue;
    }
    ++count->removed;
    if (entry->contains("previous")) {
      current = current.substr(0, member->value_begin) +
                dumpAt((*entry)["previous"], lineIndent(current, member->key_begin)) +
                current.substr(member->value_end);
      continue;
    }
    current =
        removeMember(current, *parent, static_cast<std::size_t>(member - &parent->members[0]));
    // The parents setup created go once empty, innermost first.
    for (std::size_t created = (*entry)["created_parents"].get<std::size_t>(),
                     depth = path.size() - 1;
         created > 0 && depth > 0; --created, --depth) {
      std::vector<std::string> prefix(path.begin(), path.begin() + depth);
      auto emptied = Scanner(current).objectAt(prefix);
      if (!emptied || !emptied->members.empty()) break;
      std::vector<std::string> above(prefix.begin(), prefix.end() - 1);
      auto holder = Scanner(current).objectAt(above);
      const Member* slot = holder ? Scanner::find(*holder, prefix.back()) : nullptr;
      if (!slot) break;
      current =
          removeMember(current, *holder, static_cast<std::size_t>(slot - &holder->members[0]));
    }
  }
  return Result(std::in_place_index<0>, current);
}

} // namespace hashline::cli::setup
