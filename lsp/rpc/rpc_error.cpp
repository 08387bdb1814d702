// RpcError <-> JSON.
#include "lsp/rpc/rpc_error.h"

namespace hashline::lsp {

nlohmann::json toJSON(const RpcError& error) {
  nlohmann::json out = {{"code", error.code}, {"message", error.message}};
  if (error.data) out["data"] = *error.data;
  return out;
}

RpcError rpcErrorFromJSON(const nlohmann::json& value) {
  RpcError error;
  if (!value.is_object() || !value.contains("code") || !value["code"].is_number_integer()) {
    error.message = "malformed error object: " + value.dump();
    return error;
  }
  error.code = value["code"].get<int>();
  if (auto it = value.find("message"); it != value.end() && it->is_string())
    error.message = it->get<std::string>();
  if (auto it = value.find("data"); it != value.end()) error.data = *it;
  return error;
}

} // namespace hashline::lsp
