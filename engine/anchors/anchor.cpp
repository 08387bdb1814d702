// Anchor and read-row text forms; see anchor.h.
#include "engine/anchors/anchor.h"

#include "engine/anchors/digest.h"

#include <vector>

namespace hashline {
namespace {

std::string_view trimAscii(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

Error malformed(std::string_view text, std::string_view why) {
  return Error::make(ErrorCode::MalformedAnchor, "malformed anchor \"" + std::string(text) +
                                                     "\": " + std::string(why) +
                                                     " (expected LINE:LLL:BBB, e.g. 22:c3d:rst)");
}

std::vector<std::string_view> splitColons(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const auto colon = s.find(':', start);
    parts.push_back(s.substr(start, colon == std::string_view::npos ? s.npos : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return parts;
}

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

} // namespace

std::string_view tierName(Tier tier) {
  switch (tier) {
  case Tier::Line:
    return "line";
  case Tier::Block:
    return "block";
  case Tier::Chain:
    return "chain";
  }
  return "block";
}

std::optional<Tier> tierFromName(std::string_view name) {
  if (name == "line") return Tier::Line;
  if (name == "block") return Tier::Block;
  if (name == "chain") return Tier::Chain;
  return std::nullopt;
}

std::string formatAnchor(const Anchor& anchor) {
  std::string out = std::to_string(anchor.line);
  out += ':';
  out += digestText(anchor.line_digest);
  if (anchor.context_digest) {
    out += ':';
    out += digestText(*anchor.context_digest);
  }
  return out;
}

Result<Anchor> parseAnchor(std::string_view text) {
  std::string_view s = trimAscii(text);
  if (const auto arrow = s.find(kRowSeparator); arrow != s.npos) s = trimAscii(s.substr(0, arrow));
  if (const auto arrow = s.find("->"); arrow != s.npos) s = trimAscii(s.substr(0, arrow));
  if (s.empty()) return malformed(text, "empty anchor");
  const auto parts = splitColons(s);
  if (parts.size() < 2) return malformed(text, "missing digest");
  if (parts.size() > 3) return malformed(text, "too many parts");
  if (!allDigits(parts[0]))
    return malformed(text, parts[0].empty() || parseDigestText(parts[0]) >= 0
                               ? "missing line number"
                               : "line number is not a number");
  if (parts[0].size() > 9) return malformed(text, "line number too large");
  Anchor anchor;
  anchor.line = static_cast<std::uint32_t>(std::stoul(std::string(parts[0])));
  if (anchor.line == 0) return malformed(text, "line numbers start at 1");
  const int line_digest = parseDigestText(parts[1]);
  if (line_digest < 0)
    return malformed(text, "line digest must be 3 characters of " + std::string(kDigestAlphabet));
  anchor.line_digest = static_cast<std::uint16_t>(line_digest);
  if (parts.size() == 3) {
    const int context = parseDigestText(parts[2]);
    if (context < 0)
      return malformed(text,
                       "context digest must be 3 characters of " + std::string(kDigestAlphabet));
    anchor.context_digest = static_cast<std::uint16_t>(context);
  }
  return anchor;
}

std::string formatRow(const Anchor& anchor, std::string_view text) {
  std::string out = formatAnchor(anchor);
  out += kRowSeparator;
  out += text;
  return out;
}

Result<ParsedRow> parseRow(std::string_view row) {
  const auto arrow = row.find(kRowSeparator);
  if (arrow == row.npos)
    return Error::make(ErrorCode::MalformedAnchor, "read row has no \xE2\x86\x92 separator");
  auto anchor = parseAnchor(row.substr(0, arrow));
  if (!anchor) return std::move(anchor).error();
  return ParsedRow{*anchor, std::string(row.substr(arrow + kRowSeparator.size()))};
}

bool startsWithRowPrefix(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
    ++i;
  const std::size_t digits_begin = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9')
    ++i;
  if (i == digits_begin || i - digits_begin > 9) return false;
  for (int part = 0; part < 2; ++part) {
    if (i >= line.size() || line[i] != ':') return false;
    if (i + 4 > line.size() || parseDigestText(line.substr(i + 1, 3)) < 0) return false;
    i += 4;
    if (line.substr(i, kRowSeparator.size()) == kRowSeparator) return true;
  }
  return false;
}

} // namespace hashline
