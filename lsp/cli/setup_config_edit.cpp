// JSON merge and TOML table replacement for `hashline setup`; see setup_config_edit.h.
#include "lsp/cli/setup_config_edit.h"

#include <algorithm>

namespace hashline::cli::setup {

namespace {

/// The indentation of the first indented line ("  " when none).
int detectIndent(const std::string& text) {
  std::size_t newline = text.find('\n');
  if (newline == std::string::npos) return 2;
  std::size_t first = text.find_first_not_of(' ', newline + 1);
  if (first == std::string::npos || first == newline + 1) return 2;
  return static_cast<int>(first - newline - 1);
}

std::string render(const OrderedJson& document, const std::string& original) {
  std::string text = document.dump(detectIndent(original));
  if (original.empty() || original.back() == '\n') text += '\n';
  return text;
}

std::variant<OrderedJson, std::string> parse(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return OrderedJson::object();
  OrderedJson document = OrderedJson::parse(text, nullptr, false);
  if (document.is_discarded()) {
    OrderedJson lenient = OrderedJson::parse(text, nullptr, false, /*ignore_comments=*/true);
    if (!lenient.is_discarded())
      return std::string("it has comments, which rewriting would drop; add the entry by hand");
    return std::string("it is not valid JSON");
  }
  if (!document.is_object()) return std::string("it is not a JSON object");
  return document;
}

/// The object at `path` minus its last key, created when `create`; null when absent/not an object.
OrderedJson* parentOf(OrderedJson& root, const std::vector<std::string>& path, bool create) {
  OrderedJson* node = &root;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (!node->is_object()) return nullptr;
    if (!node->contains(path[i])) {
      if (!create) return nullptr;
      (*node)[path[i]] = OrderedJson::object();
    }
    node = &(*node)[path[i]];
  }
  return node->is_object() ? node : nullptr;
}

std::string joined(const std::vector<std::string>& path) {
  std::string text;
  for (const auto& key : path)
    text += (text.empty() ? "" : ".") + key;
  return text;
}

/// Removes the empty objects along `path` that the merge created (listed in `created`).
void pruneCreated(OrderedJson& root, const std::vector<std::string>& path, std::size_t created) {
  for (std::size_t depth = path.size() - 1; created > 0 && depth > 0; --depth, --created) {
    std::vector<std::string> prefix(path.begin(), path.begin() + depth);
    OrderedJson* parent = parentOf(root, prefix, false);
    if (!parent || !parent->contains(prefix.back())) return;
    if (!(*parent)[prefix.back()].empty()) return;
    parent->erase(prefix.back());
  }
}

std::size_t missingParents(const OrderedJson& root, const std::vector<std::string>& path) {
  const OrderedJson* node = &root;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (!node->is_object() || !node->contains(path[i])) return path.size() - 1 - i;
    node = &(*node)[path[i]];
  }
  return 0;
}

} // namespace

std::variant<EditOutcome, std::string> mergeJson(const std::string& text,
                                                 const std::vector<JsonChange>& changes) {
  auto parsed = parse(text);
  if (auto* problem = std::get_if<std::string>(&parsed)) return *problem;
  OrderedJson document = std::get<OrderedJson>(parsed);
  OrderedJson record = OrderedJson::array();
  for (const JsonChange& change : changes) {
    std::size_t created = missingParents(document, change.path);
    OrderedJson* parent = parentOf(document, change.path, true);
    if (!parent) return joined(change.path) + " runs through a value that is not an object";
    const std::string& key = change.path.back();
    OrderedJson entry = {{"path", change.path}, {"created_parents", created}};
    if (change.add_to_array) {
      bool had_array = parent->contains(key);
      if (had_array && !(*parent)[key].is_array()) return joined(change.path) + " is not an array";
      OrderedJson& array = (*parent)[key];
      if (!had_array) array = OrderedJson::array();
      OrderedJson added = OrderedJson::array();
      for (const auto& value : change.value)
        if (std::find(array.begin(), array.end(), value) == array.end()) {
          array.push_back(value);
          added.push_back(value);
        }
      if (added.empty()) continue;
      entry["added"] = added;
      entry["created_array"] = !had_array;
    } else {
      if (parent->contains(key) && sameEntry((*parent)[key], change.value)) continue;
      if (parent->contains(key)) entry["previous"] = (*parent)[key];
      (*parent)[key] = change.value;
      entry["set"] = change.value;
    }
    record.push_back(entry);
  }
  if (record.empty()) return EditOutcome{text, record};
  return EditOutcome{render(document, text), record};
}

bool sameEntry(const OrderedJson& value, const OrderedJson& set) {
  if (set.is_object() && set.contains("command"))
    return value.is_object() && value.value("command", OrderedJson()) == set["command"] &&
           value.value("args", OrderedJson::array()) == set.value("args", OrderedJson::array());
  return nlohmann::json::parse(value.dump()) == nlohmann::json::parse(set.dump());
}

std::variant<std::string, std::string> unmergeJson(const std::string& text,
                                                   const OrderedJson& record, UnmergeCount* count) {
  UnmergeCount unused;
  if (!count) count = &unused;
  auto parsed = parse(text);
  if (auto* problem = std::get_if<std::string>(&parsed))
    return std::variant<std::string, std::string>(std::in_place_index<1>, *problem);
  OrderedJson document = std::get<OrderedJson>(parsed);
  for (auto entry = record.rbegin(); entry != record.rend(); ++entry) {
    auto path = (*entry)["path"].get<std::vector<std::string>>();
    OrderedJson* parent = parentOf(document, path, false);
    if (!parent || !parent->contains(path.back())) {
      ++count->gone;
      continue;
    }
    OrderedJson& value = (*parent)[path.back()];
    if (entry->contains("added")) {
      if (!value.is_array()) {
        ++count->foreign;
        continue;
      }
      bool any = false;
      for (const auto& added : (*entry)["added"]) {
        auto found = std::find(value.begin(), value.end(), added);
        if (found == value.end()) continue;
        value.erase(found);
        any = true;
      }
      ++(any ? count->removed : count->gone);
      if (value.empty() && (*entry)["created_array"].get<bool>()) parent->erase(path.back());
    } else {
      if (!sameEntry(value, (*entry)["set"])) { // another value under that key: not ours
        ++count->foreign;
        continue;
      }
      ++count->removed;
      if (entry->contains("previous"))
        value = (*entry)["previous"];
      else
        parent->erase(path.back());
    }
    pruneCreated(document, path, (*entry)["created_parents"].get<std::size_t>());
  }
  return std::variant<std::string, std::string>(std::in_place_index<0>, render(document, text));
}

namespace {

/// The table name a header line declares (`[a . "b"]` → "a.b"), or nullopt for other lines.
std::optional<std::string> headerName(const std::string& line) {
  std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos || line[first] != '[') return std::nullopt;
  std::size_t close = line.rfind(']');
  if (close == std::string::npos) return std::nullopt;
  std::string name;
  for (std::size_t i = first; i < close; ++i)
    if (line[i] != '[' && line[i] != ' ' && line[i] != '\t' && line[i] != '"' && line[i] != '\'')
      name += line[i];
  return name;
}

struct Line {
  std::size_t begin, end; // end is past the newline
  std::string text;
  bool in_string; // starts inside a multi-line string
};

std::vector<Line> splitLines(const std::string& text) {
  std::vector<Line> lines;
  bool in_string = false;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t newline = text.find('\n', begin);
    std::size_t end = newline == std::string::npos ? text.size() : newline + 1;
    std::string line = text.substr(begin, end - begin);
    lines.push_back({begin, end, line, in_string});
    for (const char* quote : {"\"\"\"", "'''"}) {
      std::size_t count = 0;
      for (std::size_t at = line.find(quote); at != std::string::npos;
           at = line.find(quote, at + 3))
        ++count;
      if (count % 2 == 1) in_string = !in_string;
    }
    begin = end;
  }
  return lines;
}

bool isBlankOrComment(const std::string& line) {
  std::size_t first = line.find_first_not_of(" \t\r\n");
  return first == std::string::npos || line[first] == '#';
}

} // namespace

std::optional<TomlSpan> findTomlTable(const std::string& text, const std::string& name) {
  auto lines = splitLines(text);
  auto ours = [&](const std::string& header) {
    return header == name || header.rfind(name + ".", 0) == 0;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].in_string) continue;
    auto header = headerName(lines[i].text);
    if (!header || *header != name) continue;
    std::size_t last = i;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      auto next = lines[j].in_string ? std::nullopt : headerName(lines[j].text);
      if (next && !ours(*next)) break;
      if (!isBlankOrComment(lines[j].text) || lines[j].in_string) last = j;
    }
    return TomlSpan{lines[i].begin, lines[last].end};
  }
  return std::nullopt;
}

EditOutcome replaceTomlTable(const std::string& text, const std::string& name,
                             const std::string& table) {
  if (auto span = findTomlTable(text, name)) {
    std::string previous = text.substr(span->begin, span->end - span->begin);
    std::string body = table;
    if (!previous.empty() && previous.back() != '\n') body.pop_back(); // a last line without \n
    if (previous == body) return {text, OrderedJson::array()};
    std::string result = text.substr(0, span->begin) + body + text.substr(span->end);
    return {result, OrderedJson::array({{{"previous", previous}, {"written", body}}})};
  }
  std::string separator;
  if (!text.empty()) separator = text.back() == '\n' ? "\n" : "\n\n";
  return {text + separator + table,
          OrderedJson::array({{{"appended", table}, {"separator", separator}}})};
}

std::string restoreTomlTable(const std::string& text, const std::string& name,
                             const OrderedJson& record) {
  // The first entry tells what was there before hashline: nothing (the table is removed, edited
  // or not) or the user's own table (put back).
  if (record.empty()) return text;
  const OrderedJson& first = record[0];
  auto span = findTomlTable(text, name);
  if (!span) return text;
  if (first.contains("previous"))
    return text.substr(0, span->begin) + first["previous"].get<std::string>() +
           text.substr(span->end);
  std::string separator = first["separator"];
  std::size_t begin = span->begin;
  if (span->end == text.size() && begin >= separator.size() &&
      text.compare(begin - separator.size(), separator.size(), separator) == 0)
    begin -= separator.size();
  std::size_t end = span->end;
  // Inside the file: drop the blank line that followed the table too.
  if (end < text.size() && text[end] == '\n') ++end;
  return text.substr(0, begin) + text.substr(end);
}

} // namespace hashline::cli::setup
