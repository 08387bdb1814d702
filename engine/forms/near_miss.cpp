// Closest partial match for NOT_FOUND errors; see near_miss.h.
#include "engine/forms/near_miss.h"

#include "engine/forms/loose_keys.h"
#include "engine/forms/text_fold.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hashline::forms {
namespace {

constexpr std::size_t kContextLines = 3;
constexpr std::size_t kHeadLines = 10;

// Sorted byte bigrams of a text, for a Dice coefficient.
void bigrams(std::string_view text, std::vector<std::uint16_t>& out) {
  out.clear();
  if (text.size() < 2) return;
  out.reserve(text.size() - 1);
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    out.push_back(static_cast<std::uint16_t>(static_cast<unsigned char>(text[i]) << 8 |
                                             static_cast<unsigned char>(text[i + 1])));
  std::sort(out.begin(), out.end());
}

// Dice coefficient over byte bigrams: a cheap similarity in [0, 1].
double similarity(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b) {
  if (a.empty() || b.empty()) return 0.0;
  std::size_t common = 0, i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) {
      ++common;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(a.size() + b.size());
}

std::string clip(std::string_view text) {
  constexpr std::size_t kMax = 120;
  if (text.size() <= kMax) return std::string(text);
  return std::string(text.substr(0, kMax)) + "...";
}

} // namespace

NearMiss findNearMiss(const LineTable& table, std::string_view needle) {
  NearMiss miss;
  std::vector<std::string> needle_keys;
  for (const std::string& line : splitLines(needle))
    needle_keys.push_back(looseLineKey(line));
  const LooseLineKeys doc_keys(table);

  // Most consecutive needle lines matching from some document line (blank needle lines alone
  // do not count as a match).
  std::size_t best_count = 0, best_line = 0;
  for (std::size_t start = 0; start < doc_keys.size(); ++start) {
    std::size_t count = 0, non_blank = 0;
    while (count < needle_keys.size() && start + count < doc_keys.size() &&
           doc_keys[start + count] == needle_keys[count]) {
      if (!needle_keys[count].empty()) ++non_blank;
      ++count;
    }
    if (non_blank > 0 && count > best_count) {
      best_count = count;
      best_line = start;
    }
  }
  if (best_count > 0) {
    miss.line = best_line;
    miss.matching_lines = best_count;
    miss.note = "closest match at line " + std::to_string(best_line + 1) + ": " +
                std::to_string(best_count) + " of " + std::to_string(needle_keys.size()) +
                " lines match";
    std::size_t diff_line = best_line + best_count;
    if (best_count < needle_keys.size()) {
      std::string needle_line = splitLines(needle)[best_count];
      miss.note += "; first difference at line " + std::to_string(diff_line + 1) +
                   ": the file has '" +
                   (diff_line < table.lineCount() ? clip(table.content(diff_line))
                                                  : std::string("<end of file>")) +
                   "', the text has '" + clip(needle_line) + "'";
    }
  } else {
    // No whole line matches: the line most similar to the first non-blank needle line.
    auto first = std::find_if(needle_keys.begin(), needle_keys.end(),
                              [](const std::string& key) { return !key.empty(); });
    double best_score = 0.5; // below this nothing is "close"
    if (first != needle_keys.end()) {
      std::vector<std::uint16_t> wanted, line_grams;
      bigrams(*first, wanted);
      for (std::size_t line = 0; line < doc_keys.size(); ++line) {
        // Lines of very different length cannot reach the threshold; skip the work.
        const std::size_t a = first->size(), b = doc_keys[line].size();
        if (std::min(a, b) * 3 < std::max(a, b)) continue;
        bigrams(doc_keys[line], line_grams);
        double score = similarity(wanted, line_grams);
        if (score > best_score) {
          best_score = score;
          miss.line = line;
        }
      }
    }
    if (miss.line)
      miss.note = "closest match at line " + std::to_string(*miss.line + 1) + ": '" +
                  clip(table.content(*miss.line)) + "'";
    else
      miss.note = "no similar line in the file";
  }
  if (miss.line) {
    std::size_t first = *miss.line >= kContextLines ? *miss.line - kContextLines : 0;
    std::size_t span = std::max<std::size_t>(miss.matching_lines, needle_keys.size());
    miss.excerpt = table.numberedExcerpt(first, *miss.line + span + kContextLines);
  } else {
    miss.excerpt = table.numberedExcerpt(0, kHeadLines - 1);
  }
  return miss;
}

void attachNearMiss(Error& error, const LineTable& table, std::string_view needle) {
  NearMiss miss = findNearMiss(table, needle);
  error.data.current_text = miss.excerpt;
  error.data.notes.push_back(miss.note);
  if (miss.line) error.data.candidate_lines.push_back(static_cast<std::uint32_t>(*miss.line + 1));
}

} // namespace hashline::forms
