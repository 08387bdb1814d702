// `hashline setup`'s JSON merge for files with comments (JSONC, as Zed writes its settings.json):
// the same changes and undo records as mergeJson / unmergeJson (setup_config_edit.h), made as
// text edits — a member inserted after its object's `{`, a value replaced in place, a member cut
// out with its comma — so every comment, blank line and byte hashline did not set stays. Only
// `set` changes (not array additions). A file that is not JSON once comments and trailing commas
// are allowed is refused. Pure; thread-safe.
#pragma once

#include "lsp/cli/setup_config_edit.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hashline::cli::setup {

/// mergeJson for JSONC `text`; the record has mergeJson's shape.
std::variant<EditOutcome, std::string> mergeJsonc(const std::string& text,
                                                  const std::vector<JsonChange>& changes);

/// JSONC `text` (comments, trailing commas) as JSON, or nullopt when it is not one JSONC object.
std::optional<OrderedJson> parseJsonc(const std::string& text);

/// unmergeJson for JSONC `text`: entries found by identity (sameEntry) are cut out or get their
/// previous value back; parents setup created are removed once empty.
std::variant<std::string, std::string>
unmergeJsonc(const std::string& text, const OrderedJson& record, UnmergeCount* count = nullptr);

} // namespace hashline::cli::setup
