// JsonPath rendering and the primitive fromJSON overloads.
#include "lsp/protocol/json_path.h"

#include <limits>

namespace hashline::lsp {

using nlohmann::json;

bool JsonPath::report(std::string message) const {
  if (!root_->failed) {
    root_->failed = true;
    root_->error_path = toString();
    root_->error_message = std::move(message);
  }
  return false;
}

std::string JsonPath::toString() const {
  std::vector<const JsonPath*> chain;
  for (const JsonPath* p = this; p; p = p->parent_)
    chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const JsonPath& p = **it;
    switch (p.kind_) {
    case Kind::Top:
      out += root_->name;
      break;
    case Kind::Field:
      if (!out.empty()) out += '.';
      out.append(p.field_);
      break;
    case Kind::Index:
      out += "[" + std::to_string(p.index_) + "]";
      break;
    }
  }
  return out;
}

std::string describeJSON(const json& value) {
  std::string kind;
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    kind = "a boolean";
    break;
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    kind = "an integer";
    break;
  case json::value_t::number_float:
    kind = "a number";
    break;
  case json::value_t::string:
    kind = "a string";
    break;
  case json::value_t::array:
    return "an array";
  case json::value_t::object:
    return "an object";
  default:
    return "an unsupported value";
  }
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return kind + " (" + text + ")";
}

bool fromJSON(const json& value, std::string& out, JsonPath path) {
  if (!value.is_string()) return path.report("expected a string, got " + describeJSON(value));
  out = value.get_ref<const std::string&>();
  return true;
}

bool fromJSON(const json& value, bool& out, JsonPath path) {
  if (!value.is_boolean()) return path.report("expected a boolean, got " + describeJSON(value));
  out = value.get<bool>();
  return true;
}

bool fromJSON(const json& value, std::int64_t& out, JsonPath path) {
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    out = value.get<std::int64_t>();
    return true;
  }
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
    out = static_cast<std::int64_t>(value.get<std::uint64_t>());
    return true;
  }
  return path.report("expected an integer, got " + describeJSON(value));
}

bool fromJSON(const json& value, std::uint32_t& out, JsonPath path) {
  std::int64_t wide = 0;
  if (!value.is_number_integer() || !fromJSON(value, wide, path) || wide < 0 ||
      wide > std::numeric_limits<std::uint32_t>::max())
    return path.report("expected a non-negative 32-bit integer, got " + describeJSON(value));
  out = static_cast<std::uint32_t>(wide);
  return true;
}

bool fromJSON(const json& value, json& out, JsonPath) {
  out = value;
  return true;
}

ObjectReader::ObjectReader(const json& value, JsonPath path) : path_(path) {
  if (value.is_object())
    object_ = &value;
  else
    path.report("expected an object, got " + describeJSON(value));
}

const json* ObjectReader::find(std::string_view key) const {
  if (!object_) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

} // namespace hashline::lsp
