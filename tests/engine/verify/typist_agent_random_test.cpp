// Randomized interleaving of a user typing and an agent editing one live Document (issue 3).
//
// A plain-string model mirrors the document, and gives every LSP line an identity that changes
// exactly when the ChangeLog contract says the line changed (change_log.h: the lines a change
// spans, minus identical lines trimmed at both ends). The agent reads windows in random tiers and
// edits with the anchors it was last shown (a read, the fresh anchors of its previous edit, or
// the fresh anchors of a refusal). For every agent edit the model predicts, independently of the
// engine, whether the lines the anchors cover (the line, its block or chain segment, and the
// whole span of a range) are still the same lines, contiguous: then the edit must be accepted and
// the result must equal the model's splice at those lines' current positions; otherwise it must
// be refused with STALE_ANCHOR. After every step the document equals the model.
#include "engine/anchors/anchor_computer.h"
#include "fixture.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>

namespace hashline::test {
namespace {

struct Model {
  std::string text;
  std::vector<std::uint64_t> ids; // one per LSP line (a final "\n" gives a last empty line)
  std::uint64_t next_id = 1;

  explicit Model(std::string initial) : text(std::move(initial)) {
    ids.resize(lineTexts(text).size());
    for (auto& id : ids)
      id = next_id++;
  }
  static std::vector<std::string> lineTexts(const std::string& s) {
    std::vector<std::string> lines(1);
    for (char c : s) {
      if (c == '\n')
        lines.emplace_back();
      else
        lines.back().push_back(c);
    }
    return lines;
  }
  static std::size_t lineOf(const std::string& s, std::size_t byte) {
    return static_cast<std::size_t>(std::count(s.begin(), s.begin() + byte, '\n'));
  }
  std::size_t lineStart(std::size_t line) const {
    std::size_t at = 0;
    for (std::size_t i = 0; i < line; ++i)
      at = text.find('\n', at) + 1;
    return at;
  }
  /// A byte change with the ChangeLog contract's identity rule.
  void replace(std::size_t begin, std::size_t end, const std::string& inserted) {
    const auto old_lines = lineTexts(text);
    std::string next = text;
    next.replace(begin, end - begin, inserted);
    const auto new_lines = lineTexts(next);
    std::size_t first = lineOf(text, begin);
    std::size_t old_end = lineOf(text, end) + 1;
    std::size_t new_end = lineOf(next, begin + inserted.size()) + 1;
    while (first < old_end && first < new_end && old_lines[first] == new_lines[first])
      ++first;
    while (old_end > first && new_end > first && old_lines[old_end - 1] == new_lines[new_end - 1]) {
      --old_end;
      --new_end;
    }
    std::vector<std::uint64_t> next_ids(ids.begin(), ids.begin() + first);
    for (std::size_t i = first; i < new_end; ++i)
      next_ids.push_back(next_id++);
    next_ids.insert(next_ids.end(), ids.begin() + old_end, ids.end());
    text = std::move(next);
    ids = std::move(next_ids);
    EXPECT_EQ(ids.size(), new_lines.size());
  }
  std::uint32_t readLines() const { // no phantom last line (the model always ends with "\n")
    return static_cast<std::uint32_t>(ids.size() - 1);
  }
};

/// What the agent was last shown: rows plus the model's line identities at that moment.
struct AgentView {
  Tier tier = Tier::Block;
  std::uint32_t line_count = 0;
  std::vector<AnchoredRow> rows;
  std::vector<std::uint64_t> ids;
};

std::pair<std::uint32_t, std::uint32_t> covered(Tier tier, std::uint32_t line, std::uint32_t n) {
  return coveredLines(tier, line, n);
}

/// Current 0-based index of read-time lines [first, last] (1-based) if they are all still there,
/// contiguous and in order; nullopt otherwise.
std::optional<std::size_t> intactAt(const AgentView& view, const Model& model, std::uint32_t first,
                                    std::uint32_t last) {
  const auto it = std::find(model.ids.begin(), model.ids.end(), view.ids[first - 1]);
  if (it == model.ids.end()) return std::nullopt;
  const std::size_t at = static_cast<std::size_t>(it - model.ids.begin());
  for (std::uint32_t line = first; line <= last; ++line)
    if (at + (line - first) >= model.ids.size() ||
        model.ids[at + (line - first)] != view.ids[line - 1])
      return std::nullopt;
  return at;
}

const char* kWords[] = {"foo", "bar", "}", "", "  return x;", "baz qux", "{"};

void runInterleaving(std::uint32_t seed, int initial_lines) {
  std::mt19937 rng(seed);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::string initial;
  for (int i = 0; i < initial_lines; ++i)
    initial += std::string(kWords[pick(7)]) + (i % 4 == 0 ? " " + std::to_string(i) : "") + "\n";
  LiveSession session(initial);
  Model model(initial);
  AgentView view;
  bool has_view = false;
  int accepted = 0, refused = 0, typed = 0, reads = 0;

  auto adopt = [&](Tier tier, std::uint32_t line_count, std::vector<AnchoredRow> rows) {
    view = AgentView{tier, line_count, std::move(rows), model.ids};
    has_view = !view.rows.empty();
  };
  auto read = [&] {
    const std::uint32_t n = model.readLines();
    const std::uint32_t from = 1 + static_cast<std::uint32_t>(pick(n));
    const std::uint32_t to =
        std::min<std::uint32_t>(n, from + static_cast<std::uint32_t>(pick(40)));
    const Tier tier = static_cast<Tier>(pick(3));
    const ReadView& r = session.read(tier, from, to);
    adopt(tier, r.line_count, r.rows);
    ++reads;
  };

  for (int step = 0; step < 10000; ++step) {
    const std::uint32_t n = model.readLines();
    const int action = static_cast<int>(pick(10));
    if (action < 5 || !has_view) {
      if (!has_view && action >= 5) {
        read();
        continue;
      }
      // The user types somewhere (never touching the final line break).
      const std::size_t line = pick(n);
      const std::size_t start = model.lineStart(line);
      const std::size_t length = model.text.find('\n', start) - start;
      std::size_t begin = start + pick(length + 1), end = begin;
      std::string inserted;
      switch (pick(n > 150 ? 3 : 6)) {
      case 0:
        end = std::min(begin + 1 + pick(3), start + length);
        break; // delete chars
      case 1:
        if (line + 1 < n) end = start + length + 1;
        break; // join lines
      case 2:
        if (line + 1 < n) {
          begin = start;
          end = model.lineStart(line + 1);
        }
        break; // delete line
      case 3:
        inserted = "\n";
        break; // Enter
      case 4:
        inserted = std::string(kWords[pick(7)]) + "\n" + kWords[pick(7)] + "\n";
        begin = end = start;
        break;
      default:
        inserted = pick(2) ? "x" : " ";
        break; // a keystroke
      }
      if (begin == end && inserted.empty()) continue;
      session.type(
          static_cast<std::uint32_t>(Model::lineOf(model.text, begin)),
          static_cast<std::uint32_t>(begin - model.lineStart(Model::lineOf(model.text, begin))),
          inserted,
          LspPosition{
              static_cast<std::uint32_t>(Model::lineOf(model.text, end)),
              static_cast<std::uint32_t>(end - model.lineStart(Model::lineOf(model.text, end)))});
      model.replace(begin, end, inserted);
      ++typed;
    } else if (action == 5) {
      read();
    } else {
      // The agent edits with anchors from its view.
      const auto& rows = view.rows;
      const std::size_t i = pick(rows.size());
      const std::size_t j = std::min(rows.size() - 1, i + (pick(3) == 0 ? pick(4) : 0));
      const std::uint32_t first = rows[i].line, last = rows[j].line;
      const std::string content = "agent " + std::to_string(step) + (pick(4) == 0 ? "\nmore" : "");
      enum {
        Replace,
        Delete,
        After,
        Before,
        Top,
        End
      } kind = static_cast<decltype(Replace)>(pick(6) == 0 ? 4 + pick(2) : pick(4));
      if (kind == Delete && model.readLines() < 12) kind = Replace;
      AnchoredEdit edit;
      switch (kind) {
      case Replace:
        edit = replaceOp(rows[i].anchor, content,
                         first == last ? std::nullopt : std::optional(rows[j].anchor));
        break;
      case Delete:
        edit =
            deleteOp(rows[i].anchor, first == last ? std::nullopt : std::optional(rows[j].anchor));
        break;
      case After:
        edit = insertAfterOp(rows[i].anchor, content);
        break;
      case Before:
        edit = insertBeforeOp(rows[i].anchor, content);
        break;
      case Top:
        edit = insertAfterOp("0", content);
        break;
      case End:
        edit = insertAfterOp("EOF", content);
        break;
      }
      // Prediction from the model alone.
      const bool ranged = kind == Replace || kind == Delete;
      const std::uint32_t span_last = ranged ? last : first;
      std::optional<std::size_t> at = 0;
      if (kind != Top && kind != End) {
        const auto a = covered(view.tier, first, view.line_count);
        const auto b = covered(view.tier, span_last, view.line_count);
        const std::uint32_t lo = std::min(a.first, b.first), hi = std::max(a.second, b.second);
        const auto block_at = intactAt(view, model, lo, hi);
        at = block_at ? std::optional(*block_at + (first - lo)) : std::nullopt;
      }
      auto result = session.verify({edit});
      if (!at) {
        ASSERT_FALSE(result.ok()) << "step " << step << ": accepted a stale anchor "
                                  << rows[i].anchor;
        ASSERT_EQ(result.error().code, ErrorCode::StaleAnchor) << result.error().message;
        ++refused;
        adopt(view.tier, model.readLines(), result.error().data.fresh_anchors);
        // Fresh rows in errors are computed in the anchor's tier.
        continue;
      }
      ASSERT_TRUE(result.ok()) << "step " << step << ": refused an intact anchor " << rows[i].anchor
                               << ": " << result.error().message;
      // Expected text: the splice at the lines' current positions.
      auto lines = Model::lineTexts(model.text);
      lines.pop_back(); // the model always ends with "\n"
      const auto new_lines = splitContentLines(content);
      const std::size_t pos = *at; // 0-based current index of `first`
      switch (kind) {
      case Replace:
        lines.erase(lines.begin() + pos, lines.begin() + pos + (span_last - first + 1));
        lines.insert(lines.begin() + pos, new_lines.begin(), new_lines.end());
        break;
      case Delete:
        lines.erase(lines.begin() + pos, lines.begin() + pos + (span_last - first + 1));
        break;
      case After:
        lines.insert(lines.begin() + pos + 1, new_lines.begin(), new_lines.end());
        break;
      case Before:
        lines.insert(lines.begin() + pos, new_lines.begin(), new_lines.end());
        break;
      case Top:
        lines.insert(lines.begin(), new_lines.begin(), new_lines.end());
        break;
      case End:
        lines.insert(lines.end(), new_lines.begin(), new_lines.end());
        break;
      }
      std::string expected;
      for (const auto& line : lines)
        expected += line + "\n";
      ASSERT_EQ(result->after.toString(), expected) << "step " << step;
      session.apply(*result);
      for (auto it = result->plan.edits.rbegin(); it != result->plan.edits.rend(); ++it)
        model.replace(it->begin, it->end, it->text);
      adopt(result->tier, result->line_count_after, result->fresh_rows);
      ++accepted;
    }
    ASSERT_EQ(session.text(), model.text) << "step " << step;
  }
  EXPECT_EQ(session.text(), model.text);
  // The run exercised every path.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 100);
  EXPECT_GT(typed, 2000);
  EXPECT_GT(reads, 500);
  std::cout << "accepted " << accepted << ", refused " << refused << ", typed " << typed
            << ", reads " << reads << "\n";
}

TEST(TypistAndAgent, TenThousandInterleavedStepsStayExact) {
  runInterleaving(20261202, 60);
}

TEST(TypistAndAgent, SmallDocumentManyCollisions) {
  runInterleaving(7, 15);
}

} // namespace
} // namespace hashline::test
