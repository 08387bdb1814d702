// The pure text edits of `hashline setup`: merging hashline's entries into an agent's JSON
// settings (keys set at an object path, strings added to an array) and replacing one table of a
// TOML file while keeping every other byte; and their inverses from a record of what was added.
//
// JSON is parsed in document order (ordered_json) and written back with the file's indentation;
// a file with comments is refused (rewriting it would drop them). TOML is never parsed as a whole:
// only table headers are recognised (outside multi-line strings), so the rest of the file — its
// comments, formatting and other tables — stays byte-identical. Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hashline::cli::setup {

using OrderedJson = nlohmann::ordered_json;

/// One change to a JSON settings file.
struct JsonChange {
  std::vector<std::string> path; // object keys from the root; the last one is set / extended
  OrderedJson value;             // `set`: the value; `add`: an array of strings to add
  bool add_to_array = false;
};

/// A text edit's outcome: the new text and the record that undoes it (JSON).
struct EditOutcome {
  std::string text;
  OrderedJson record;
};

/// Applies `changes` to the JSON `text` (empty = a new file); a string when it cannot (not JSON,
/// comments, a path through a non-object).
std::variant<EditOutcome, std::string> mergeJson(const std::string& text,
                                                 const std::vector<JsonChange>& changes);
/// What unmergeJson found of each recorded entry: taken out (or put back to its previous value),
/// already gone (someone removed it), or foreign (the key now holds another value than setup set:
/// an MCP server with another command or args; left alone).
struct UnmergeCount {
  std::size_t removed = 0;
  std::size_t gone = 0;
  std::size_t foreign = 0;
};
/// Whether `value` is still the entry setup set as `set`: an MCP server entry (an object with a
/// "command") is known by its command and args, whatever the order of its keys and whatever keys
/// the agent added to it (Claude Code rewrites .claude.json so); any other value by equality,
/// key order aside.
bool sameEntry(const OrderedJson& value, const OrderedJson& set);
/// Reverses `record` (entries from mergeJson) on `text`, leaving everything else; entries are
/// found by identity (sameEntry), not by bytes.
std::variant<std::string, std::string>
unmergeJson(const std::string& text, const OrderedJson& record, UnmergeCount* count = nullptr);

/// The byte span [begin, end) of table `name` (e.g. "mcp_servers.hashline") and its subtables:
/// from its header to the end of its last non-comment line.
struct TomlSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};
std::optional<TomlSpan> findTomlTable(const std::string& text, const std::string& name);

/// Puts `table` (header and keys, ending in a newline) in place of table `name`, or appends it.
EditOutcome replaceTomlTable(const std::string& text, const std::string& name,
                             const std::string& table);
/// Reverses `record` (from replaceTomlTable) on `text`.
std::string restoreTomlTable(const std::string& text, const std::string& name,
                             const OrderedJson& record);

} // namespace hashline::cli::setup
