// The open conflicts of a workspace on disk; see conflict_store.h.
#include "lsp/reconcile/conflict_store.h"

#include "lsp/platform/process.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace hashline::lsp {

using json = nlohmann::json;

std::vector<OpenConflict> loadConflicts(const std::string& path) {
  std::vector<OpenConflict> out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::stringstream text;
  text << in.rdbuf();
  json list = json::parse(text.str(), nullptr, false);
  if (!list.is_array()) return out;
  for (const json& item : list) {
    if (!item.is_object()) continue;
    OpenConflict conflict;
    try {
      conflict.id = item.at("id").get<std::string>();
      conflict.key = item.at("key").get<std::string>();
      conflict.uri = item.at("uri").get<std::string>();
      conflict.path = item.at("path").get<std::string>();
      conflict.line = item.at("line").get<std::size_t>();
      conflict.ours = item.at("ours").get<std::string>();
      conflict.theirs = item.at("theirs").get<std::string>();
      conflict.version = item.at("version").get<std::int64_t>();
    } catch (const json::exception&) {
      continue; // a damaged entry is dropped, the rest kept
    }
    out.push_back(std::move(conflict));
  }
  return out;
}

bool saveConflicts(const std::string& path, const std::vector<const OpenConflict*>& conflicts) {
  json list = json::array();
  for (const OpenConflict* conflict : conflicts)
    list.push_back({{"id", conflict->id},
                    {"key", conflict->key},
                    {"uri", conflict->uri},
                    {"path", conflict->path},
                    {"line", conflict->line},
                    {"ours", conflict->ours},
                    {"theirs", conflict->theirs},
                    {"version", conflict->version}});
  const std::string temp = path + ".tmp." + std::to_string(platform::currentProcessId());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << list.dump();
    if (!out.flush()) {
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

bool conflictStillHolds(const OpenConflict& conflict, const Rope& buffer, std::string_view disk) {
  if (buffer.toString() == disk) return false; // saved or reloaded since: nothing left to resolve
  if (!conflict.theirs.empty() && disk.find(conflict.theirs) == std::string_view::npos)
    return false;
  return static_cast<bool>(planTakeTheirs(conflict, buffer));
}

} // namespace hashline::lsp
