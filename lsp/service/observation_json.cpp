// Saving and loading ObservationStore state; see observation_json.h.
#include "lsp/service/observation_json.h"

#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/file_lock.h"
#include "lsp/disk/state_dir.h"
#include "lsp/rpc/json_parse.h"
#include "lsp/rpc/json_rpc.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

json readToJSON(const ReadRecord& record) {
  json shown = json::array();
  for (const LineSpan& span : record.shown)
    shown.push_back({span.first, span.last});
  return {{"version", record.version},      {"tier", std::string(tierName(record.tier))},
          {"lineCount", record.line_count}, {"lspLineCount", record.lsp_line_count},
          {"shown", std::move(shown)},      {"issued", record.issuedKeys()}};
}

bool readFromJSON(const json& value, ReadRecord& out, std::string& problem) {
  try {
    out.version = value.at("version").get<std::int64_t>();
    auto tier = tierFromName(value.at("tier").get<std::string>());
    if (!tier) {
      problem = "unknown tier";
      return false;
    }
    out.tier = *tier;
    out.line_count = value.at("lineCount").get<std::uint32_t>();
    out.lsp_line_count = value.at("lspLineCount").get<std::uint32_t>();
    for (const json& span : value.at("shown"))
      out.shown.push_back(
          LineSpan{span.at(0).get<std::uint32_t>(), span.at(1).get<std::uint32_t>()});
    out.issued = value.at("issued").get<std::vector<std::uint64_t>>();
    out.sorted = false;
    return true;
  } catch (const std::exception& e) {
    problem = e.what();
    return false;
  }
}

} // namespace

json observationsToJSON(const ObservationStore& store) {
  json entries = json::array();
  for (const auto& [key, observation] : store.entries()) {
    if (!observation.observed()) continue;
    json reads = json::array();
    for (const ReadRecord& record : observation.reads())
      reads.push_back(readToJSON(record));
    entries.push_back(
        {{"session", key.first}, {"document", key.second}, {"reads", std::move(reads)}});
  }
  return {{"format", 1}, {"observations", std::move(entries)}};
}

Status observationsFromJSON(const json& value, ObservationStore& store) {
  auto bad = [](const std::string& what) {
    return Status(Error::make(ErrorCode::IoError, "unreadable observations file: " + what));
  };
  if (!value.is_object() || value.value("format", 0) != 1 || !value.contains("observations") ||
      !value["observations"].is_array())
    return bad("expected {\"format\": 1, \"observations\": [...]}");
  ObservationStore loaded;
  for (const json& entry : value["observations"]) {
    if (!entry.is_object() || !entry.contains("session") || !entry["session"].is_string() ||
        !entry.contains("document") || !entry["document"].is_string() || !entry.contains("reads") ||
        !entry["reads"].is_array())
      return bad("an entry lacks session, document or reads");
    Observation& observation =
        loaded.observe(entry["session"].get<std::string>(), entry["document"].get<std::string>());
    for (const json& read : entry["reads"]) {
      ReadRecord record;
      std::string problem;
      if (!readFromJSON(read, record, problem)) return bad(problem);
      observation.restoreRead(std::move(record));
    }
  }
  for (const auto& [key, observation] : loaded.entries())
    store.observe(key.first, key.second) = observation;
  return Status::success();
}

Result<std::string> defaultObservationsFile() {
  Result<std::string> dir = disk::stateDirectory();
  if (!dir) return std::move(dir).error();
  return *dir + "/observations.json";
}

Status loadObservations(ObservationStore& store, const std::string& file) {
  Result<disk::FileSnapshot> bytes = disk::readFileBytes(file);
  if (!bytes) {
    if (bytes.error().code == ErrorCode::FileNotFound) return Status::success();
    return bytes.error();
  }
  json value;
  std::string problem;
  if (!parseJSON(bytes->bytes, value, problem))
    return Error::make(ErrorCode::IoError,
                       "unreadable observations file " + file + ": not JSON (" + problem + ")");
  return observationsFromJSON(value, store);
}

Status saveObservations(const ObservationStore& store, const std::string& file) {
  Result<disk::FileLock> lock = disk::FileLock::acquire(file + ".lock");
  if (!lock) return lock.error();
  ObservationStore merged;
  Result<disk::FileSnapshot> existing = disk::readFileBytes(file);
  std::optional<disk::Fingerprint> expected;
  if (existing) {
    expected = existing->fingerprint;
    json value;
    std::string problem;
    if (parseJSON(existing->bytes, value, problem))
      (void)observationsFromJSON(value, merged); // a broken file is replaced
  }
  for (const auto& [key, observation] : store.entries())
    if (observation.observed()) merged.observe(key.first, key.second) = observation;
  std::string bytes = serializeJSON(observationsToJSON(merged));
  disk::WriteOptions options;
  Result<disk::WriteResult> written = [&]() -> Result<disk::WriteResult> {
    if (!expected) return disk::atomicCreate(file, bytes, options);
    options.expected = expected;
    return disk::atomicReplace(file, bytes, options);
  }();
  if (!written) return written.error();
  return Status::success();
}

} // namespace hashline::lsp
