// The workspace search method; see search_service.h.
#include "lsp/context/search_service.h"

#include "engine/anchors/read_lines.h"
#include "engine/anchors/reader.h"
#include "lsp/context/search_matcher.h"
#include "lsp/context/workspace_walk.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/result_json.h"
#include "lsp/support/uri.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sys/stat.h>

namespace hashline::context {

using lsp::ServiceCallback;
using nlohmann::json;

namespace {

constexpr const char* kNarrowHint =
    "narrow the pattern, or search fewer files with paths (PATH...) or globs (--glob '*.cpp'); "
    "raise max_hits / max_bytes only if you need every hit";

struct FileToSearch {
  std::string real_path;
  std::optional<std::string> uri;       // open documents: the editor's URI
  const ScannedFile* scanned = nullptr; // disk files: the scan's read of it
};

bool isDirectory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool pathExists(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

/// Where a real path lies: its root and the path below it, when inside a scope.
bool inScope(const std::string& real, const std::vector<WalkScope>& scopes, std::string& relative) {
  for (const WalkScope& scope : scopes) {
    const std::string base =
        scope.relative.empty() ? scope.root : scope.root + "/" + scope.relative;
    if (real == base || (!scope.is_file && disk::isSameOrBelow(real, base))) {
      relative = real.size() > scope.root.size() ? real.substr(scope.root.size() + 1) : "";
      return true;
    }
  }
  return false;
}

} // namespace

void runSearch(lsp::HashlineService& service, const SearchRequest& request, ServiceCallback done,
               const std::function<void()>& after_scan) {
  auto compiled = SearchMatcher::compile(request.pattern, {request.literal, request.ignore_case});
  if (!compiled) return done(lsp::refusalToJSON(compiled.error()));
  const SearchMatcher& matcher = **compiled;

  // The scopes: every root, or the paths named (each confined to the roots).
  WalkOptions walk;
  const std::vector<std::string> roots = service.disk().roots();
  if (roots.empty())
    return done(lsp::refusalToJSON(
        Error::make(ErrorCode::FileNotFound, "the workspace has no root directory to search")
            .withHint("open a folder in the editor, or pass --workspace DIR")));
  if (request.paths.empty()) {
    for (const std::string& root : roots)
      walk.scopes.push_back({root, "", false});
  }
  for (const std::string& path : request.paths) {
    Result<disk::ResolvedPath> resolved = service.disk().resolve(path);
    if (!resolved) {
      Error error = std::move(resolved).error();
      if (error.code == ErrorCode::OutsideWorkspace)
        error.withHint("search only inside the workspace roots (" + roots.front() +
                       (roots.size() > 1 ? ", …" : "") + "); drop the path to search them all");
      return done(lsp::refusalToJSON(std::move(error)));
    }
    if (!resolved->exists)
      return done(lsp::refusalToJSON(
          Error::make(ErrorCode::FileNotFound, "nothing to search at " + path)
              .withHint("check the path; search takes existing files and directories")));
    walk.scopes.push_back({resolved->root, resolved->relative, !isDirectory(resolved->real_path)});
  }
  for (const std::string& glob : request.globs) {
    std::string problem = walk.globs.add(glob);
    if (!problem.empty())
      return done(lsp::refusalToJSON(
          Error::make(ErrorCode::InvalidPattern, "invalid glob '" + glob + "': " + problem)
              .withHint("globs look like *.cpp, src/**/*.h or !*.min.js")));
  }

  // Open documents: searched in the mirror's text, never read from disk.
  std::map<std::string, std::string> open_by_path; // real path → URI
  if (const lsp::DocumentStore* documents = service.openDocuments()) {
    for (const std::string& uri : documents->uris()) {
      std::optional<std::string> path = fileUriToPath(uri);
      if (!path) continue;
      Result<std::string> real = disk::resolveRealPath(*path, "/");
      const std::string key = real ? *real : *path;
      open_by_path.emplace(key, uri);
      walk.listed_only.insert(key);
    }
  }

  WalkResult found = walkAndScan(walk, matcher);
  if (after_scan) after_scan();

  std::vector<FileToSearch> order;
  std::set<std::string> listed(found.listed.begin(), found.listed.end());
  for (const auto& [real, uri] : open_by_path) {
    std::string relative;
    if (listed.count(real) || (!pathExists(real) && inScope(real, walk.scopes, relative) &&
                               walk.globs.admits(relative))) // open, not saved to disk yet
      order.push_back({real, uri});
  }
  const std::size_t open_count = order.size();
  for (const ScannedFile& scanned : found.candidates)
    order.push_back({scanned.real_path, std::nullopt, &scanned});

  json files = json::array();
  std::size_t hit_count = 0, bytes = 0, not_text = 0, files_left = 0;
  std::optional<std::string> cut; // why the answer was cut
  const lsp::ServiceOptions& options = service.options();
  for (std::size_t index = 0; index < order.size(); ++index) {
    if (cut) {
      files_left = order.size() - index;
      break;
    }
    const FileToSearch& file = order[index];
    lsp::DocumentRef ref;
    if (file.uri)
      ref.uri = *file.uri;
    else
      ref.path = file.real_path;
    Result<lsp::ServiceTarget> target = service.locate(ref);
    if (!target) continue;
    // A disk file the scan read: its bytes, if the backend finds the file unchanged (never for
    // an open document: its text is the editor's).
    bool reused = false;
    const ScannedFile* scanned = file.scanned;
    Result<lsp::DocumentSnapshot> now =
        !target->open && scanned && scanned->kept && target->resolved &&
                target->resolved->real_path == scanned->real_path
            ? service.disk().snapshotFromRead(
                  *target, {scanned->bytes, scanned->before, found.started}, &reused)
            : service.backendFor(*target).snapshot(*target);
    if (!now) {
      if (now.error().code == ErrorCode::NotText) ++not_text;
      continue;
    }
    if (!now->exists) continue;
    const std::uint32_t line_count = readLineCount(now->text);
    // The hit lines, from match positions in the whole text; one more than the hits left, so a
    // file with more is cut at max_hits as before.
    std::string flat;
    if (!reused) flat = now->text.toString();
    const std::vector<std::uint32_t> hits =
        matcher.matchingLines(reused ? std::string_view(scanned->bytes) : std::string_view(flat),
                              request.max_hits - std::min(hit_count, request.max_hits) + 1);
    if (hits.empty()) continue;

    if (now->open) now->open->document.keepSnapshot(); // as a read: forms compare against it
    Observation& observation = service.observations().observe(request.caller.session, target->key);
    const Tier tier = request.tier ? *request.tier : observation.tier(options.default_tier);
    std::vector<AnchoredRow> rows;
    for (std::uint32_t line : hits) {
      if (hit_count >= request.max_hits) {
        cut = "max_hits";
        break;
      }
      Result<ReadView> view =
          readWindow(now->text, now->version, tier, line, line,
                     now->open ? &now->open->document.changeLog() : nullptr, now->cache);
      if (!view) break;
      const AnchoredRow& row = view->rows.front();
      const std::size_t row_bytes = row.anchor.size() + row.text.size() + 4;
      if (bytes + row_bytes > request.max_bytes) {
        cut = "max_bytes";
        break;
      }
      bytes += row_bytes;
      ++hit_count;
      observation.recordRead(*view);
      rows.push_back(std::move(view->rows.front()));
    }
    if (rows.empty()) continue;
    json entry(json::value_t::object);
    entry["uri"] = target->uri;
    if (target->path) entry["path"] = *target->path;
    entry["backend"] = target->backendName();
    entry["version"] = now->version;
    entry["tier"] = std::string(tierName(tier));
    entry["lineCount"] = line_count;
    entry["lines"] = lsp::rowsToJSON(rows);
    files.push_back(std::move(entry));
  }

  json result = {{"status", "ok"},
                 {"pattern", request.pattern},
                 {"literal", request.literal},
                 {"hitCount", hit_count},
                 {"fileCount", files.size()},
                 {"truncated", cut.has_value()},
                 {"files", std::move(files)},
                 {"searched",
                  {{"files", found.files_scanned},
                   {"openDocuments", open_count},
                   {"binarySkipped", found.binary_skipped},
                   {"largeSkipped", found.large_skipped},
                   {"unreadable", found.unreadable},
                   {"notText", not_text}}}};
  if (cut) {
    result["truncatedBy"] = *cut;
    std::string note =
        *cut == "max_hits"
            ? "stopped at " + std::to_string(request.max_hits) + " hits"
            : "stopped at " + std::to_string(request.max_bytes) + " bytes of rows (max_bytes)";
    if (files_left > 0)
      note += "; " + std::to_string(files_left) + " more file(s) with matches not shown";
    else
      note += "; more hits in the last file not shown";
    result["note"] = note;
    result["hint"] = kNarrowHint;
  }
  done(std::move(result));
}

void addSearchMethod(lsp::HashlineService& service) {
  service.addMethod("search", [&service](const json& params, ServiceCallback done) {
    SearchRequest request;
    if (auto error = parseSearchRequest(params, request)) return done(*error);
    runSearch(service, request, std::move(done));
  });
}

} // namespace hashline::context
