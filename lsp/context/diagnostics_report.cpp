// Reading, comparing and rendering editor diagnostics; see diagnostics_report.h.
#include "lsp/context/diagnostics_report.h"

#include "engine/anchors/read_lines.h"
#include "engine/text/rope.h"
#include "engine/verify/observation.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace hashline::context {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxLineTextBytes = 200;

bool readPosition(const json& position, std::uint32_t& line, std::uint32_t& character) {
  if (!position.is_object()) return false;
  auto l = position.find("line");
  auto c = position.find("character");
  if (l == position.end() || !l->is_number_integer() || l->get<std::int64_t>() < 0 ||
      l->get<std::int64_t>() > 0x7fffffff)
    return false;
  line = static_cast<std::uint32_t>(l->get<std::int64_t>());
  character = 0;
  if (c != position.end() && c->is_number_integer() && c->get<std::int64_t>() >= 0 &&
      c->get<std::int64_t>() <= 0x7fffffff)
    character = static_cast<std::uint32_t>(c->get<std::int64_t>());
  return true;
}

std::string textField(const json& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  if (it->is_object() && it->contains("value")) return textField(*it, "value"); // VS Code's code
  return "";
}

using StrictKey = std::tuple<Severity, std::string, std::string, std::string, std::string>;
using LooseKey = std::tuple<Severity, std::string, std::string, std::string>;

StrictKey strictKey(const EditorDiagnostic& d) {
  return {d.severity, d.source, d.code, d.message, d.line_text};
}
LooseKey looseKey(const EditorDiagnostic& d) {
  return {d.severity, d.source, d.code, d.message};
}

} // namespace

std::optional<std::string> parseDiagnosticsNotice(const json& params, DiagnosticsNotice& out) {
  if (!params.is_object()) return "params: expected an object";
  auto uri = params.find("uri");
  if (uri == params.end() || !uri->is_string() || uri->get<std::string>().empty())
    return "params.uri: expected a document URI";
  out.uri = uri->get<std::string>();
  if (auto version = params.find("version");
      version != params.end() && version->is_number_integer())
    out.version = version->get<std::int64_t>();
  auto list = params.find("diagnostics");
  if (list == params.end() || !list->is_array()) return "params.diagnostics: expected an array";
  out.items.clear();
  for (const json& entry : *list) {
    if (!entry.is_object()) continue;
    EditorDiagnostic item;
    auto range = entry.find("range");
    if (range == entry.end() || !range->is_object() || !range->contains("start")) continue;
    if (!readPosition((*range)["start"], item.line, item.character)) continue;
    std::uint32_t end_character = 0;
    item.end_line = item.line;
    if (range->contains("end")) readPosition((*range)["end"], item.end_line, end_character);
    item.end_line = std::max(item.end_line, item.line);
    if (auto severity = entry.find("severity");
        severity != entry.end() && severity->is_number_integer()) {
      const std::int64_t value = severity->get<std::int64_t>();
      if (value >= 1 && value <= 4) item.severity = static_cast<Severity>(value);
    }
    item.source = textField(entry, "source");
    item.code = textField(entry, "code");
    item.message = textField(entry, "message");
    if (item.message.empty()) continue;
    out.items.push_back(std::move(item));
  }
  return std::nullopt;
}

std::string lineTextForMatching(const Rope& text, std::uint32_t line) {
  if (line >= text.lineCount()) return "";
  std::string value = text.lineText(line);
  const auto first = value.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = value.find_last_not_of(" \t\r");
  value = value.substr(first, last - first + 1);
  if (value.size() > kMaxLineTextBytes) value.resize(kMaxLineTextBytes);
  return value;
}

DiagnosticsDelta compareDiagnostics(const std::vector<EditorDiagnostic>& before,
                                    const std::vector<EditorDiagnostic>& after) {
  DiagnosticsDelta delta;
  std::vector<bool> before_used(before.size()), after_used(after.size());
  std::multimap<StrictKey, std::size_t> strict;
  for (std::size_t i = 0; i < before.size(); ++i)
    strict.emplace(strictKey(before[i]), i);
  for (std::size_t j = 0; j < after.size(); ++j) {
    auto it = strict.find(strictKey(after[j]));
    if (it == strict.end()) continue;
    before_used[it->second] = after_used[j] = true;
    strict.erase(it);
    ++delta.unchanged;
  }
  // Same problem, its line edited: the nearest unmatched one of the same kind.
  std::multimap<LooseKey, std::size_t> loose;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!before_used[i]) loose.emplace(looseKey(before[i]), i);
  for (std::size_t j = 0; j < after.size(); ++j) {
    if (after_used[j]) continue;
    auto [first, last] = loose.equal_range(looseKey(after[j]));
    auto best = last;
    for (auto it = first; it != last; ++it) {
      auto distance = [&](std::size_t i) {
        return before[i].line > after[j].line ? before[i].line - after[j].line
                                              : after[j].line - before[i].line;
      };
      if (best == last || distance(it->second) < distance(best->second)) best = it;
    }
    if (best == last) continue;
    before_used[best->second] = after_used[j] = true;
    loose.erase(best);
    ++delta.unchanged;
  }
  for (std::size_t j = 0; j < after.size(); ++j)
    if (!after_used[j]) delta.introduced.push_back(j);
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!before_used[i]) delta.removed.push_back(i);
  return delta;
}

std::string describeDiagnostic(const EditorDiagnostic& item) {
  std::string out = severityName(item.severity);
  if (!item.source.empty()) out += " " + item.source;
  if (!item.code.empty()) out += " [" + item.code + "]";
  out += ": ";
  // One row per diagnostic: a multi-line message is joined.
  for (char c : item.message)
    out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

json diagnosticToJSON(const EditorDiagnostic& item, const AnchorSource& where) {
  json out = {{"line", item.line + 1},
              {"character", item.character},
              {"endLine", item.end_line + 1},
              {"severity", severityName(item.severity)},
              {"message", item.message}};
  if (!item.source.empty()) out["source"] = item.source;
  if (!item.code.empty()) out["code"] = item.code;
  std::string row = std::to_string(item.line + 1);
  if (where.text && item.line + 1 <= readLineCount(*where.text)) {
    Result<ReadView> view = readWindow(*where.text, where.version, where.tier, item.line + 1,
                                       item.line + 1, where.log, where.cache);
    if (view && !view->rows.empty()) {
      row = view->rows.front().anchor;
      out["anchor"] = row;
      if (where.observation) where.observation->recordRead(*view);
    }
  }
  out["row"] = row + " " + describeDiagnostic(item);
  return out;
}

json severityCounts(const std::vector<EditorDiagnostic>& items) {
  json counts = json::object();
  for (const EditorDiagnostic& item : items) {
    const char* name = severityName(item.severity);
    counts[name] = counts.value(name, 0) + 1;
  }
  return counts;
}

} // namespace hashline::context
