// The `hashline/context` params and the latest report; see editor_context.h.
#include "lsp/context/editor_context.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace hashline::context {

using nlohmann::json;

namespace {

bool readPosition(const json& value, std::uint32_t& line, std::uint32_t& character) {
  if (!value.is_object()) return false;
  auto l = value.find("line");
  auto c = value.find("character");
  // Non-negative integers (parsed JSON holds them unsigned, built JSON signed).
  auto natural = [](const json& v) {
    return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
  };
  if (l == value.end() || c == value.end() || !natural(*l) || !natural(*c)) return false;
  const auto max = std::numeric_limits<std::uint32_t>::max();
  line = static_cast<std::uint32_t>(std::min<std::uint64_t>(l->get<std::uint64_t>(), max));
  character = static_cast<std::uint32_t>(std::min<std::uint64_t>(c->get<std::uint64_t>(), max));
  return true;
}

bool readRange(const json& value, EditorRange& out) {
  if (!value.is_object() || !value.contains("start") || !value.contains("end")) return false;
  if (!readPosition(value["start"], out.start_line, out.start_character) ||
      !readPosition(value["end"], out.end_line, out.end_character))
    return false;
  if (std::pair(out.end_line, out.end_character) < std::pair(out.start_line, out.start_character)) {
    std::swap(out.start_line, out.end_line);
    std::swap(out.start_character, out.end_character);
  }
  return true;
}

/// One document entry; false (skipped) without a usable uri.
bool readDocument(const json& value, const char* ranges_key, ContextDocument& out) {
  if (!value.is_object()) return false;
  auto uri = value.find("uri");
  if (uri == value.end() || !uri->is_string() || uri->get<std::string>().empty()) return false;
  out.uri = uri->get<std::string>();
  if (auto version = value.find("version"); version != value.end() && version->is_number_integer())
    out.version = version->get<std::int64_t>();
  if (auto ranges = value.find(ranges_key); ranges != value.end() && ranges->is_array())
    for (const json& range : *ranges) {
      if (out.ranges.size() >= EditorContextStore::kMaxRanges) break;
      EditorRange parsed;
      if (readRange(range, parsed)) out.ranges.push_back(parsed);
    }
  return true;
}

} // namespace

std::optional<std::string> parseContextNotice(const json& params, EditorContext& out) {
  if (!params.is_object()) return "params must be an object";
  out = EditorContext{};
  if (auto shared = params.find("shared"); shared != params.end() && shared->is_boolean())
    out.shared = shared->get<bool>();
  if (auto active = params.find("active"); active != params.end() && !active->is_null()) {
    ContextDocument document;
    if (!readDocument(*active, "selections", document))
      return "active must be {uri, version?, selections}";
    out.active = std::move(document);
  }
  if (auto visible = params.find("visible"); visible != params.end()) {
    if (!visible->is_array()) return "visible must be an array";
    for (const json& entry : *visible) {
      if (out.visible.size() >= EditorContextStore::kMaxVisible) break;
      ContextDocument document;
      if (readDocument(entry, "ranges", document)) out.visible.push_back(std::move(document));
    }
  }
  return std::nullopt;
}

void EditorContextStore::update(EditorContext context) {
  ++updates_;
  sharing_off_ = !context.shared;
  if (sharing_off_) { // forget everything, the latest selection too
    latest_ = EditorContext{};
    latest_selection_ = EditorContext{};
    received_ = selection_received_ = false;
    return;
  }
  received_ = true;
  if (context.active && !context.active->ranges.empty() &&
      !context.active->ranges.front().empty()) {
    latest_selection_ = context;
    selection_received_ = true;
  }
  latest_ = std::move(context);
}

} // namespace hashline::context
