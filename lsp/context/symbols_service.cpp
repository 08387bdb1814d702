// The outline and symbol reads through the editor's language servers; see symbols_service.h.
#include "lsp/context/symbols_service.h"

#include "lsp/context/document_symbols.h"
#include "lsp/protocol/error_json.h"
#include "lsp/protocol/params_reader.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"

#include <functional>
#include <memory>
#include <utility>

namespace hashline::context {

using lsp::ServiceCallback;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxCandidates = 20;

constexpr const char* kNoEditorReason =
    "no editor is attached: symbols come from the editor's language servers (the hashline plugin "
    "asks them; hashline never starts one)";

/// The document a request names, and what the editor's language server said about it.
struct Answered {
  lsp::ServiceTarget target;
  SymbolList list;
  std::string server;
};
using SymbolsCallback = std::function<void(Result<Answered>)>;

Error noSymbols(const std::string& reason) {
  return Error::make(ErrorCode::NoSymbols, reason);
}

/// Reads {uri|path}; the refusal or -32602 goes to `done` and nullopt comes back.
std::optional<lsp::ServiceTarget> targetOf(lsp::HashlineService& service, const char* method,
                                           const json& params, ServiceCallback& done) {
  lsp::ParamsReader fields(params, method);
  std::optional<std::string> uri, path;
  if (!fields.optString({"uri"}, uri) || !fields.optString({"path"}, path)) {
    done(*fields.error);
    return std::nullopt;
  }
  if (!uri && !path) {
    done(lsp::invalidParams(method, "params", "expected uri or path"));
    return std::nullopt;
  }
  lsp::DocumentRef ref{uri, path};
  Result<lsp::ServiceTarget> target = service.locate(ref);
  if (!target) {
    done(lsp::refusalToJSON(std::move(target).error()));
    return std::nullopt;
  }
  return std::move(*target);
}

/// Why a hashline/documentSymbol call brought no symbols.
std::string failureReason(const lsp::CallResponse& response) {
  switch (response.kind) {
  case lsp::CallResponse::TimedOut:
    return "the editor's language server did not give the symbols within " +
           std::to_string(kSymbolsTimeout.count() / 1000) + " s";
  case lsp::CallResponse::ConnectionClosed:
    return "the editor went away before it answered";
  case lsp::CallResponse::Error:
    if (response.error.code == static_cast<int>(lsp::RpcErrorCode::MethodNotFound))
      return "the editor does not answer hashline/documentSymbol (an LSP client without the "
             "hashline plugin, or an older plugin)";
    return "the editor refused hashline/documentSymbol: " + response.error.message;
  case lsp::CallResponse::Result:
    break;
  }
  return "the editor's answer held no symbols";
}

/// Asks the editor for `target`'s symbols.
void askEditor(lsp::LspServer& server, lsp::HashlineService& service, lsp::ServiceTarget target,
               SymbolsCallback callback) {
  const std::string name = service.displayName(target);
  if (!target.open)
    return callback(noSymbols(name + " is not open in the editor: its symbols come from the "
                                     "editor's language servers; open it there"));
  json params = {{"textDocument", {{"uri", target.uri}}}};
  server.call(
      "hashline/documentSymbol", std::move(params),
      [target, name, callback = std::move(callback)](lsp::CallResponse response) mutable {
        if (!response.ok()) return callback(noSymbols(name + ": " + failureReason(response)));
        const json& result = response.result;
        const json* symbols = result.is_object() && result.contains("symbols")
                                  ? &result["symbols"]
                                  : (result.is_array() ? &result : nullptr);
        if (!symbols || symbols->is_null()) {
          std::string reason =
              result.is_object() ? result.value("reason", std::string()) : std::string();
          if (reason.empty())
            reason = "no language server in the editor gives symbols for this file";
          return callback(noSymbols(name + ": " + reason));
        }
        Answered answered{std::move(target), {}, {}};
        if (auto problem = flattenSymbols(*symbols, answered.list))
          return callback(noSymbols(name + ": " + *problem));
        if (result.is_object() && result.contains("server") && result["server"].is_string())
          answered.server = result["server"].get<std::string>();
        log::debug("hashline/documentSymbol: ", answered.list.symbols.size(), " symbols for ",
                   answered.target.uri);
        callback(std::move(answered));
      },
      kSymbolsTimeout);
}

json outlineJSON(lsp::HashlineService& service, const Answered& answered) {
  json result = {{"status", "ok"}, {"uri", answered.target.uri}, {"symbols", json::array()}};
  if (answered.target.path) result["path"] = *answered.target.path;
  if (Result<lsp::DocumentSnapshot> now =
          service.backendFor(answered.target).snapshot(answered.target))
    result["version"] = now->version;
  if (!answered.server.empty()) result["server"] = answered.server;
  std::string rows;
  for (const DocumentSymbol& symbol : answered.list.symbols) {
    result["symbols"].push_back(symbolToJSON(symbol));
    rows += std::string(symbol.depth * 2, ' ') + std::to_string(symbol.first_line) + "-" +
            std::to_string(symbol.last_line) + " " + symbol.kind + " " + symbol.qualified + "\n";
  }
  result["rows"] = std::move(rows);
  if (answered.list.dropped) result["dropped"] = answered.list.dropped;
  return result;
}

std::string spanOf(const DocumentSymbol& symbol) {
  return symbol.qualified + " (" + symbol.kind + ", lines " + std::to_string(symbol.first_line) +
         "-" + std::to_string(symbol.last_line) + ")";
}

/// The read of the one symbol `query` names, or the refusal.
void readSymbol(lsp::HashlineService& service, json params, const std::string& query,
                const Answered& answered, ServiceCallback done) {
  const std::string name = service.displayName(answered.target);
  const std::vector<std::size_t> found = findSymbols(answered.list, query);
  if (found.size() != 1) {
    Error error =
        found.empty()
            ? Error::make(ErrorCode::SymbolNotFound,
                          "no symbol '" + query + "' in " + name + " (" +
                              std::to_string(answered.list.symbols.size()) + " symbols)")
            : Error::make(ErrorCode::Ambiguous, std::to_string(found.size()) + " symbols in " +
                                                    name + " are '" + query + "'");
    if (!found.empty())
      error.hint = "name it fully (Class.method), or read its lines with --from/--to";
    error.data.path = answered.target.path;
    if (found.empty())
      for (std::size_t i = 0; i < answered.list.symbols.size() && i < kMaxCandidates; ++i)
        error.data.notes.push_back(spanOf(answered.list.symbols[i]));
    else
      for (std::size_t i = 0; i < found.size() && i < kMaxCandidates; ++i) {
        error.data.notes.push_back(spanOf(answered.list.symbols[found[i]]));
        error.data.candidate_lines.push_back(answered.list.symbols[found[i]].first_line);
      }
    return done(lsp::refusalToJSON(error));
  }
  const DocumentSymbol& symbol = answered.list.symbols[found.front()];
  params.erase("symbol");
  params.erase("path");
  params["uri"] = answered.target.uri;
  params["from"] = symbol.first_line;
  params["to"] = symbol.last_line;
  json described = symbolToJSON(symbol);
  described.erase("depth");
  service.call("read", std::move(params),
               [described = std::move(described),
                done = std::move(done)](lsp::ServiceOutcome outcome) mutable {
                 if (json* result = std::get_if<json>(&outcome);
                     result && result->is_object() && !result->contains("error"))
                   (*result)["symbol"] = std::move(described);
                 done(std::move(outcome));
               });
}

std::optional<std::string> symbolQuery(const json& params, ServiceCallback& done) {
  lsp::ParamsReader fields(params, "symbol");
  std::string query;
  if (!fields.string({"symbol", "name"}, query, true)) {
    done(*fields.error);
    return std::nullopt;
  }
  if (query.empty() || query.size() > 1024) {
    done(lsp::invalidParams("symbol", "params.symbol", "expected a symbol name like Class.method"));
    return std::nullopt;
  }
  return query;
}

} // namespace

void addNoEditorSymbols(lsp::HashlineService& service) {
  for (const char* method : {"outline", "symbol"})
    service.addMethod(method, [&service, method](const json& params, ServiceCallback done) {
      if (std::string(method) == "symbol" && !symbolQuery(params, done)) return;
      std::optional<lsp::ServiceTarget> target = targetOf(service, method, params, done);
      if (!target) return;
      done(lsp::refusalToJSON(noSymbols(kNoEditorReason)));
    });
}

void registerSymbols(lsp::LspServer& server, lsp::HashlineService& service) {
  service.addMethod("outline", [&server, &service](const json& params, ServiceCallback done) {
    std::optional<lsp::ServiceTarget> target = targetOf(service, "outline", params, done);
    if (!target) return;
    askEditor(server, service, std::move(*target),
              [&service, done = std::move(done)](Result<Answered> answered) mutable {
                if (!answered) return done(lsp::refusalToJSON(answered.error()));
                done(outlineJSON(service, *answered));
              });
  });
  service.addMethod("symbol", [&server, &service](const json& params, ServiceCallback done) {
    std::optional<std::string> query = symbolQuery(params, done);
    if (!query) return;
    std::optional<lsp::ServiceTarget> target = targetOf(service, "symbol", params, done);
    if (!target) return;
    askEditor(server, service, std::move(*target),
              [&service, params, query = *query,
               done = std::move(done)](Result<Answered> answered) mutable {
                if (!answered) return done(lsp::refusalToJSON(answered.error()));
                readSymbol(service, std::move(params), query, *answered, std::move(done));
              });
  });
}

} // namespace hashline::context
