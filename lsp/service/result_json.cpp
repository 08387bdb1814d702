// Result objects of the agent service; see result_json.h.
#include "lsp/service/result_json.h"

#include "engine/diff/unified_diff.h"
#include "engine/text/chunk_compare.h"

#include <algorithm>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hashline::lsp {

using nlohmann::json;

namespace {

// Rows are the bulk of every read reply: build each object directly (nlohmann's nested
// initializer lists allocate a temporary array per key), moving the strings when allowed.
template <typename Rows> json rowsJSON(Rows&& rows) {
  json out = json::array();
  auto& array = out.get_ref<json::array_t&>();
  array.reserve(rows.size());
  for (auto& row : rows) {
    json object(json::value_t::object);
    auto& fields = object.get_ref<json::object_t&>();
    fields.emplace("line", row.line);
    if constexpr (std::is_const_v<std::remove_reference_t<decltype(row)>>) {
      fields.emplace("anchor", row.anchor);
      fields.emplace("text", row.text);
    } else {
      fields.emplace("anchor", std::move(row.anchor));
      fields.emplace("text", std::move(row.text));
    }
    array.push_back(std::move(object));
  }
  return out;
}

} // namespace

json rowsToJSON(const std::vector<AnchoredRow>& rows) {
  return rowsJSON(rows);
}

json readResultJSON(ReadView view, const std::string& uri, const std::optional<std::string>& path,
                    ReadFormat format) {
  std::string text;
  if (format != ReadFormat::Rows) text = formatRows(view.rows);
  json out(json::value_t::object);
  auto& fields = out.get_ref<json::object_t&>();
  fields.emplace("status", "ok");
  fields.emplace("uri", uri);
  fields.emplace("version", view.version);
  fields.emplace("tier", std::string(tierName(view.tier)));
  fields.emplace("lineCount", view.line_count);
  // Whether the text ends with a line break (rows never show it): for clients that rebuild the
  // text from the rows (the ACP proxy's fs/read_text_file).
  fields.emplace("finalNewline", view.lsp_line_count > view.line_count);
  fields.emplace("from", view.first_line);
  fields.emplace("to", view.last_line);
  if (format != ReadFormat::Text) fields.emplace("lines", rowsJSON(view.rows));
  if (format != ReadFormat::Rows) fields.emplace("text", std::move(text));
  if (path) fields.emplace("path", *path);
  return out;
}

std::string documentDiff(const Rope& before, const Rope& after, const std::string& name) {
  UnifiedDiffOptions options;
  options.old_label = "a/" + name;
  options.new_label = "b/" + name;
  if (before.sharesRootWith(after)) return "";
  // Only the differing middle, widened to whole lines plus context, goes to the differ; lines
  // outside it are identical on both sides, so the result equals the whole-text diff.
  const Chunks a = chunksOf(before), b = chunksOf(after);
  const std::size_t prefix = commonPrefix(a, b);
  const std::size_t shorter = std::min(before.byteSize(), after.byteSize());
  if (prefix == before.byteSize() && prefix == after.byteSize()) return "";
  const std::size_t suffix = commonSuffix(a, b, shorter - prefix);
  const std::size_t margin = options.context_lines + 1;
  std::size_t first_line = before.lineOfByte(prefix);
  first_line -= std::min(first_line, margin);
  const std::size_t last_line =
      std::min(before.lineOfByte(before.byteSize() - suffix) + margin, before.lineCount() - 1);
  const std::size_t begin = before.lineStartByte(first_line);
  const std::size_t end = before.lineEndWithBreakByte(last_line);
  const std::size_t after_end = end + after.byteSize() - before.byteSize();
  options.first_line_number = first_line + 1;
  return unifiedDiff(before.slice(begin, end), after.slice(begin, after_end), options);
}

json editResultJSON(const EditSummary& summary) {
  json rebased = json::array();
  json warnings = json::array();
  if (summary.plan) {
    for (const Rebase& rebase : summary.plan->rebased)
      rebased.push_back({{"from", rebase.from_line}, {"to", rebase.to_line}});
    for (const std::string& warning : summary.plan->warnings)
      warnings.push_back(warning);
  }
  json out = {{"status", summary.preview ? "preview" : "applied"},
              {"uri", summary.uri},
              {"backend", summary.backend},
              {"version", summary.version_after},
              {"versionBefore", summary.version_before},
              {"rebased", std::move(rebased)},
              {"anchors", rowsToJSON(summary.anchors)},
              {"diff", summary.diff}};
  if (summary.path) out["path"] = *summary.path;
  if (!warnings.empty()) out["warnings"] = std::move(warnings);
  if (summary.attempts > 1) out["attempts"] = summary.attempts;
  return out;
}

} // namespace hashline::lsp
