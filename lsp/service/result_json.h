// The result objects of the agent service (DESIGN §8, §9), built in one place so every transport
// answers with the same shapes:
//   read:     {status:"ok", uri, path?, version, tier, lineCount, lines:[{line, anchor, text}],
//              text}                       (text = the rows joined by "\n"; no phantom line)
//   applied:  {status:"applied", uri, path?, version, versionBefore, rebased:[{from, to}],
//              anchors:[{line, anchor, text}], diff, warnings?, backend, attempts?}
//   preview:  {status:"preview", ... the same without the commit: version = the base version}
//   refused:  {status:"refused", error:{code, message, hint, data}}   (lsp/protocol/error_json.h)
#pragma once

#include "engine/anchors/reader.h"
#include "engine/plan/edit_plan.h"
#include "engine/support/error.h"
#include "engine/text/rope.h"
#include "lsp/service/service_request.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

nlohmann::json rowsToJSON(const std::vector<AnchoredRow>& rows);

/// The read result; takes the view by value so its row strings move into the JSON. `format`
/// leaves out the rows (`lines`) or the joined rows (`text`) when the caller asked for only one.
nlohmann::json readResultJSON(ReadView view, const std::string& uri,
                              const std::optional<std::string>& path,
                              ReadFormat format = ReadFormat::Both);

/// Unified diff of before → after labelled with the document's path (or URI). Equal to the
/// whole-text diff, but only the differing middle (plus context) is diffed: the common prefix and
/// suffix are found by walking both ropes' chunks, skipping the leaves they share unread, so an
/// edit of one line of a huge document costs O(chunks) pointer compares, not a whole-text diff.
std::string documentDiff(const Rope& before, const Rope& after, const std::string& name);

struct EditSummary {
  std::string uri;
  std::optional<std::string> path;
  std::string backend; // "buffer" or "disk"
  std::int64_t version_before = 0;
  std::int64_t version_after = 0;
  const EditPlan* plan = nullptr;
  std::vector<AnchoredRow> anchors;
  std::string diff;
  int attempts = 1;
  bool preview = false;
};

nlohmann::json editResultJSON(const EditSummary& summary);

} // namespace hashline::lsp
