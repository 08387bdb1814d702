// ParamsReader: strict typed reading of agent params; see params_reader.h.
#include "lsp/protocol/params_reader.h"

#include "lsp/protocol/json_path.h"

namespace hashline::lsp {

using nlohmann::json;

RpcError invalidParams(const std::string& method, const std::string& where,
                       const std::string& what) {
  return RpcError::make(RpcErrorCode::InvalidParams,
                        "invalid params for " + method + ": " + where + ": " + what);
}

ParamsReader::ParamsReader(const json& object, std::string method, std::string where)
    : object_(object), method_(std::move(method)), where_(std::move(where)) {
  // An empty array is an empty object: Lua clients (Neovim) cannot tell `{}` from `[]`.
  const bool empty_array = object_.is_array() && object_.empty();
  if (!object_.is_object() && !empty_array)
    failHere("expected an object, got " + describeJSON(object_));
}

const json* ParamsReader::find(Names names) const {
  if (!object_.is_object()) return nullptr;
  for (const char* name : names) {
    auto it = object_.find(name);
    if (it != object_.end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

bool ParamsReader::fail(const char* name, const std::string& what) {
  if (!error) error = invalidParams(method_, where_ + "." + name, what);
  return false;
}

bool ParamsReader::failHere(const std::string& what) {
  if (!error) error = invalidParams(method_, where_, what);
  return false;
}

bool ParamsReader::string(Names names, std::string& out, bool required) {
  if (error) return false;
  const json* value = find(names);
  if (!value) return required ? fail(*names.begin(), "missing") : true;
  if (!value->is_string())
    return fail(*names.begin(), "expected a string, got " + describeJSON(*value));
  out = value->get_ref<const std::string&>();
  return true;
}

bool ParamsReader::optString(Names names, std::optional<std::string>& out) {
  if (error) return false;
  if (!find(names)) return true;
  std::string text;
  if (!string(names, text, true)) return false;
  out = std::move(text);
  return true;
}

bool ParamsReader::boolean(Names names, bool& out) {
  std::optional<bool> value;
  if (!optBoolean(names, value)) return false;
  if (value) out = *value;
  return true;
}

bool ParamsReader::optBoolean(Names names, std::optional<bool>& out) {
  if (error) return false;
  const json* value = find(names);
  if (!value) return true;
  if (!value->is_boolean())
    return fail(*names.begin(), "expected a boolean, got " + describeJSON(*value));
  out = value->get<bool>();
  return true;
}

bool ParamsReader::integer(Names names, std::optional<std::int64_t>& out, bool required,
                           std::int64_t minimum) {
  if (error) return false;
  const json* value = find(names);
  if (!value) return required ? fail(*names.begin(), "missing") : true;
  std::int64_t number = 0;
  if (value->is_number_unsigned()) {
    if (value->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
      return fail(*names.begin(),
                  "expected an integer, got " + describeJSON(*value) + " (too large)");
    number = static_cast<std::int64_t>(value->get<std::uint64_t>());
  } else if (value->is_number_integer()) {
    number = value->get<std::int64_t>();
  } else {
    return fail(*names.begin(), "expected an integer, got " + describeJSON(*value));
  }
  if (number < minimum)
    return fail(*names.begin(), "expected an integer >= " + std::to_string(minimum) + ", got " +
                                    std::to_string(number));
  out = number;
  return true;
}

bool ParamsReader::line(Names names, std::optional<std::uint32_t>& out, bool required) {
  std::optional<std::int64_t> value;
  if (!integer(names, value, required, 0)) return false;
  if (!value) return true;
  if (*value > 0xFFFFFFFFll)
    return fail(*names.begin(), "expected a line number, got " + std::to_string(*value));
  out = std::uint32_t(*value);
  return true;
}

bool ParamsReader::choice(Names names, std::optional<std::string>& out,
                          std::initializer_list<std::string_view> allowed) {
  std::optional<std::string> text;
  if (!optString(names, text)) return false;
  if (!text) return true;
  std::string list;
  for (std::string_view name : allowed) {
    if (*text == name) {
      out = std::move(text);
      return true;
    }
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  return fail(*names.begin(), "expected one of " + list + ", got \"" + *text + "\"");
}

bool ParamsReader::idText(Names names, std::optional<std::string>& out) {
  if (error) return false;
  const json* value = find(names);
  if (!value) return true;
  if (value->is_string()) {
    out = value->get<std::string>();
    return true;
  }
  std::optional<std::int64_t> number;
  if (!value->is_number_integer())
    return fail(*names.begin(), "expected an id (a string such as \"12\" or \"12#2\", or a "
                                "positive integer), got " +
                                    describeJSON(*value));
  if (!integer(names, number, true, 1)) return false;
  out = std::to_string(*number);
  return true;
}

} // namespace hashline::lsp
