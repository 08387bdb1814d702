// Result objects of the agent service; see result_json.h.
#include "lsp/service/result_json.h"

#include "engine/diff/unified_diff.h"

namespace hashline::lsp {

using nlohmann::json;

json rowsToJSON(const std::vector<AnchoredRow>& rows) {
  json out = json::array();
  for (const AnchoredRow& row : rows)
    out.push_back({{"line", row.line}, {"anchor", row.anchor}, {"text", row.text}});
  return out;
}

json readResultJSON(const ReadView& view, const std::string& uri,
                    const std::optional<std::string>& path) {
  json out = {{"status", "ok"},
              {"uri", uri},
              {"version", view.version},
              {"tier", std::string(tierName(view.tier))},
              {"lineCount", view.line_count},
              {"from", view.first_line},
              {"to", view.last_line},
              {"lines", rowsToJSON(view.rows)},
              {"text", formatRows(view.rows)}};
  if (path) out["path"] = *path;
  return out;
}

std::string documentDiff(const Rope& before, const Rope& after, const std::string& name) {
  UnifiedDiffOptions options;
  options.old_label = "a/" + name;
  options.new_label = "b/" + name;
  return unifiedDiff(before.toString(), after.toString(), options);
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
