// Parsing the `search` params; see search_request.h.
#include "lsp/context/search_request.h"

#include "lsp/protocol/json_path.h"
#include "lsp/protocol/params_reader.h"

namespace hashline::context {

using nlohmann::json;

namespace {

/// `plural: [strings]` or `singular: string`, into `out`.
bool stringList(lsp::ParamsReader& fields, const char* plural, const char* singular,
                std::vector<std::string>& out) {
  if (const json* list = fields.find({plural})) {
    if (list->is_string()) {
      out.push_back(list->get<std::string>());
      return true;
    }
    if (!list->is_array())
      return fields.fail(plural, "expected an array of strings, got " + lsp::describeJSON(*list));
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (!(*list)[i].is_string())
        return fields.fail(plural, "item " + std::to_string(i) + ": expected a string, got " +
                                       lsp::describeJSON((*list)[i]));
      out.push_back((*list)[i].get<std::string>());
    }
  }
  std::optional<std::string> one;
  if (!fields.optString({singular}, one)) return false;
  if (one) out.push_back(*one);
  return true;
}

} // namespace

std::optional<lsp::RpcError> parseSearchRequest(const json& params, SearchRequest& out) {
  if (!params.is_object())
    return lsp::invalidParams("search", "params",
                              "expected an object, got " + lsp::describeJSON(params));
  if (auto error = lsp::parseCaller("search", params, out.caller)) return error;
  lsp::ParamsReader fields(params, "search");
  std::optional<std::int64_t> max_hits, max_bytes;
  std::optional<std::string> tier;
  if (!fields.string({"pattern", "query"}, out.pattern, true) ||
      !fields.boolean({"literal", "fixed_strings", "fixedStrings"}, out.literal) ||
      !fields.boolean({"ignore_case", "ignoreCase"}, out.ignore_case) ||
      !stringList(fields, "paths", "path", out.paths) ||
      !stringList(fields, "globs", "glob", out.globs) ||
      !fields.integer({"max_hits", "maxHits"}, max_hits, false, 1) ||
      !fields.integer({"max_bytes", "maxBytes"}, max_bytes, false, 1024) ||
      !fields.optString({"tier"}, tier))
    return fields.error;
  if (max_hits) {
    if (*max_hits > 100000)
      return lsp::invalidParams("search", "params.max_hits",
                                "at most 100000, got " + std::to_string(*max_hits));
    out.max_hits = static_cast<std::size_t>(*max_hits);
  }
  if (max_bytes) {
    if (*max_bytes > (std::int64_t(64) << 20))
      return lsp::invalidParams("search", "params.max_bytes",
                                "at most 67108864 (64 MiB), got " + std::to_string(*max_bytes));
    out.max_bytes = static_cast<std::size_t>(*max_bytes);
  }
  if (tier) {
    out.tier = tierFromName(*tier);
    if (!out.tier)
      return lsp::invalidParams("search", "params.tier",
                                "expected line, block or chain, got \"" + *tier + "\"");
  }
  return std::nullopt;
}

} // namespace hashline::context
