// Flattening the editor's document symbols and finding one by name; see document_symbols.h.
#include "lsp/context/document_symbols.h"

#include <algorithm>
#include <array>

namespace hashline::context {

using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 26> kKindNames = {
    "file",        "module",      "namespace", "package",   "class",         "method",   "property",
    "field",       "constructor", "enum",      "interface", "function",      "variable", "constant",
    "string",      "number",      "boolean",   "array",     "object",        "key",      "null",
    "enum member", "struct",      "event",     "operator",  "type parameter"};

std::string cutName(std::string name) {
  if (name.size() <= kMaxNameBytes) return name;
  std::size_t cut = kMaxNameBytes;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
    --cut; // never split a UTF-8 sequence
  name.resize(cut);
  return name;
}

/// The qualified name's parts: split on '.' and on "::".
std::vector<std::string_view> partsOf(std::string_view name) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size();) {
    std::size_t width = 0;
    if (i == name.size())
      width = 1;
    else if (name[i] == '.')
      width = 1;
    else if (name.compare(i, 2, "::") == 0)
      width = 2;
    if (width == 0) {
      ++i;
      continue;
    }
    if (i > start) parts.push_back(name.substr(start, i - start));
    i += width;
    start = i;
  }
  return parts;
}

std::string joinParts(const std::vector<std::string_view>& parts) {
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

bool readLine(const json& position, std::uint32_t& line, std::uint32_t& character) {
  if (!position.is_object()) return false;
  auto l = position.find("line");
  auto c = position.find("character");
  if (l == position.end() || !l->is_number_integer() || l->get<std::int64_t>() < 0) return false;
  line = static_cast<std::uint32_t>(std::min<std::int64_t>(l->get<std::int64_t>(), 1 << 30));
  character = 0;
  if (c != position.end() && c->is_number_integer() && c->get<std::int64_t>() > 0)
    character = static_cast<std::uint32_t>(std::min<std::int64_t>(c->get<std::int64_t>(), 1 << 30));
  return true;
}

/// A range's 1-based inclusive lines.
bool readSpan(const json& range, std::uint32_t& first, std::uint32_t& last) {
  if (!range.is_object() || !range.contains("start") || !range.contains("end")) return false;
  std::uint32_t start_line = 0, start_character = 0, end_line = 0, end_character = 0;
  if (!readLine(range["start"], start_line, start_character) ||
      !readLine(range["end"], end_line, end_character))
    return false;
  if (end_line < start_line) std::swap(start_line, end_line);
  if (end_character == 0 && end_line > start_line) --end_line;
  first = start_line + 1;
  last = end_line + 1;
  return true;
}

struct Flattener {
  SymbolList& out;

  bool full() {
    if (out.symbols.size() < kMaxSymbols) return false;
    ++out.dropped;
    return true;
  }

  DocumentSymbol base(const json& entry, const std::string& parent, std::uint32_t depth) {
    DocumentSymbol symbol;
    symbol.name = cutName(entry.value("name", std::string()));
    std::vector<std::string_view> parts = partsOf(parent);
    for (std::string_view part : partsOf(symbol.name))
      parts.push_back(part);
    symbol.qualified = joinParts(parts);
    auto kind = entry.find("kind");
    symbol.kind = std::string(symbolKindName(
        kind != entry.end() && kind->is_number_integer() ? kind->get<std::int64_t>() : 0));
    if (auto detail = entry.find("detail"); detail != entry.end() && detail->is_string())
      symbol.detail = cutName(detail->get<std::string>());
    symbol.depth = depth;
    return symbol;
  }

  void documentSymbols(const json& list, const std::string& parent, std::uint32_t depth) {
    for (const json& entry : list) {
      if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) continue;
      DocumentSymbol symbol = base(entry, parent, depth);
      if (symbol.name.empty() ||
          !readSpan(entry.value("range", json()), symbol.first_line, symbol.last_line))
        continue;
      if (full()) continue;
      const std::string qualified = symbol.qualified;
      out.symbols.push_back(std::move(symbol));
      auto children = entry.find("children");
      if (children == entry.end() || !children->is_array()) continue;
      if (depth + 1 >= kMaxDepth) {
        out.dropped += children->size();
        continue;
      }
      documentSymbols(*children, qualified, depth + 1);
    }
  }

  void symbolInformation(const json& list) {
    for (const json& entry : list) {
      if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) continue;
      const json& location = entry.value("location", json());
      if (!location.is_object()) continue;
      const std::string container = entry.value("containerName", std::string());
      DocumentSymbol symbol = base(entry, container, 0);
      symbol.depth = static_cast<std::uint32_t>(partsOf(container).size());
      if (symbol.name.empty() ||
          !readSpan(location.value("range", json()), symbol.first_line, symbol.last_line))
        continue;
      if (full()) continue;
      out.symbols.push_back(std::move(symbol));
    }
    // Flat answers come in any order: the outline lists them as the file does.
    std::stable_sort(out.symbols.begin(), out.symbols.end(),
                     [](const DocumentSymbol& a, const DocumentSymbol& b) {
                       return a.first_line != b.first_line ? a.first_line < b.first_line
                                                           : a.last_line > b.last_line;
                     });
  }
};

} // namespace

std::string_view symbolKindName(std::int64_t kind) {
  if (kind < 1 || kind > static_cast<std::int64_t>(kKindNames.size())) return "symbol";
  return kKindNames[static_cast<std::size_t>(kind - 1)];
}

std::optional<std::string> flattenSymbols(const json& answer, SymbolList& out) {
  out = SymbolList{};
  if (!answer.is_array()) return "the symbols are not a list";
  Flattener flattener{out};
  const bool flat = std::any_of(answer.begin(), answer.end(), [](const json& entry) {
    return entry.is_object() && entry.contains("location") && !entry.contains("range");
  });
  if (flat)
    flattener.symbolInformation(answer);
  else
    flattener.documentSymbols(answer, std::string(), 0);
  return std::nullopt;
}

std::vector<std::size_t> findSymbols(const SymbolList& list, std::string_view query) {
  const std::vector<std::string_view> wanted = partsOf(query);
  std::vector<std::size_t> exact, suffix;
  if (wanted.empty()) return exact;
  for (std::size_t i = 0; i < list.symbols.size(); ++i) {
    const std::vector<std::string_view> parts = partsOf(list.symbols[i].qualified);
    if (parts.size() < wanted.size()) continue;
    if (!std::equal(wanted.rbegin(), wanted.rend(), parts.rbegin())) continue;
    (parts.size() == wanted.size() ? exact : suffix).push_back(i);
  }
  return exact.empty() ? suffix : exact;
}

json symbolToJSON(const DocumentSymbol& symbol) {
  json out = {{"name", symbol.name},    {"qualifiedName", symbol.qualified},
              {"kind", symbol.kind},    {"from", symbol.first_line},
              {"to", symbol.last_line}, {"depth", symbol.depth}};
  if (!symbol.detail.empty()) out["detail"] = symbol.detail;
  return out;
}

} // namespace hashline::context
