// fs/read_text_file and fs/write_text_file answered by hashline; see file_bridge.h.
#include "lsp/acp/file_bridge.h"

#include "engine/anchors/anchor.h"
#include "lsp/acp/write_plan.h"
#include "lsp/agent/agent_router.h"
#include "lsp/support/log.h"

#include <variant>

namespace hashline::acp {

using nlohmann::json;

namespace {

/// A failed call: the ACP error to answer with.
struct Failure {
  int code = kAcpRefused;
  std::string message;
  json data;
};

template <class T> using Outcome = std::variant<T, Failure>;

Failure invalidParams(const std::string& message) {
  return Failure{-32602, "hashline acp: " + message, nullptr};
}

std::string describeRefusal(const json& error) {
  std::string text =
      error.value("code", std::string("REFUSED")) + ": " + error.value("message", std::string());
  std::string hint = error.value("hint", std::string());
  if (!hint.empty()) text += " (" + hint + ")";
  return text;
}

Failure refusal(const std::string& verb, const std::string& path, const json& error) {
  const bool missing = error.value("code", std::string()) == "FILE_NOT_FOUND";
  return Failure{missing ? kAcpResourceNotFound : kAcpRefused,
                 "hashline refused to " + verb + " " + path + ": " + describeRefusal(error),
                 json{{"hashline", error}}};
}

/// The editor's sidecar is gone (the router answered a read from the disk with a SIDECAR_GONE
/// warning): refused. fs/read_text_file promises the editor's text with its unsaved changes, and
/// an ACP answer has no place for a warning the model would see (the content is the file): the
/// disk's text, which may lack the typing, would be passed off as the buffer.
Failure sidecarGone(const std::string& verb, const std::string& path, const json& warning) {
  json error = warning;
  std::string message = error.value("message", std::string());
  if (std::size_t cut = message.find(" — answered from the disk"); cut != std::string::npos)
    message.erase(cut);
  error["message"] = message + "; the editor may hold unsaved changes that only the sidecar "
                               "mirrors, so the disk's copy is not the file";
  error["hint"] = "the editor restarts its sidecar by itself (or the user runs :HashlineRestart / "
                  "hashline: Restart Server); read the file again in a moment";
  return Failure{kAcpRefused,
                 "hashline refused to " + verb + " " + path + ": " + describeRefusal(error),
                 json{{"hashline", error}}};
}

/// A service call through the router; a refusal or a protocol fault becomes a Failure.
Outcome<json> callService(const FileCall& call, const std::string& method, json params,
                          const std::string& verb, const std::string& path) {
  agent::RouterOptions options;
  options.workspace = call.workspace;
  options.base_dir = call.workspace;
  agent::AgentRouter router(options);
  lsp::ServiceOutcome outcome = router.call(method, std::move(params));
  if (auto* fault = std::get_if<lsp::RpcError>(&outcome))
    return Failure{kAcpRefused, "hashline could not " + verb + " " + path + ": " + fault->message,
                   nullptr};
  json& result = std::get<json>(outcome);
  if (result.value("status", std::string()) == "refused")
    return refusal(verb, path, result.value("error", json::object()));
  if (const json warning = result.value("warning", json());
      warning.is_object() && warning.value("code", "") == "SIDECAR_GONE")
    return sidecarGone(verb, path, warning);
  return std::move(result);
}

/// The fields every fs/* request carries: sessionId and an absolute path.
struct FileParams {
  std::string session;
  std::string path;
};

Outcome<FileParams> fileParams(const json& params) {
  if (!params.is_object()) return invalidParams("params must be an object");
  FileParams out;
  auto session = params.find("sessionId");
  if (session == params.end() || !session->is_string() || session->get<std::string>().empty())
    return invalidParams("params.sessionId: expected a non-empty string");
  auto path = params.find("path");
  if (path == params.end() || !path->is_string())
    return invalidParams("params.path: expected a string");
  out.session = session->get<std::string>();
  out.path = path->get<std::string>();
  if (out.path.empty() || out.path[0] != '/')
    return invalidParams("params.path: expected an absolute path, got \"" + out.path + "\"");
  return out;
}

/// An optional positive integer member (null = absent).
Outcome<std::optional<std::int64_t>> optionalCount(const json& params, const char* name,
                                                   std::int64_t minimum) {
  auto found = params.find(name);
  if (found == params.end() || found->is_null()) return std::optional<std::int64_t>();
  if (!found->is_number_integer() || found->get<std::int64_t>() < minimum)
    return invalidParams(std::string("params.") + name +
                         ": expected an integer >= " + std::to_string(minimum));
  return std::optional<std::int64_t>(found->get<std::int64_t>());
}

/// The file as the service read it just now.
struct CurrentFile {
  std::string path; // canonical, as the service names it
  std::int64_t version = 0;
  std::vector<std::string> lines;
  bool final_newline = false;
};

/// The line texts of rows `LINE:LLL:BBB→text` joined by "\n" (a read's `text`): a read in this
/// form is one JSON string, which parses in bulk, instead of an object per line.
std::vector<std::string> rowTexts(std::string_view rows) {
  std::vector<std::string> lines;
  for (;;) {
    std::size_t end = rows.find('\n');
    std::string_view row = rows.substr(0, end);
    std::size_t separator = row.find(kRowSeparator);
    lines.emplace_back(
        separator == std::string_view::npos ? row : row.substr(separator + kRowSeparator.size()));
    if (end == std::string_view::npos) break;
    rows.remove_prefix(end + 1);
  }
  return lines;
}

Outcome<CurrentFile> readWhole(const FileCall& call, const FileParams& file, const char* verb) {
  json params = {
      {"path", file.path}, {"session", file.session}, {"agent", call.agent}, {"format", "text"}};
  Outcome<json> read = callService(call, "read", std::move(params), verb, file.path);
  if (auto* failure = std::get_if<Failure>(&read)) return std::move(*failure);
  const json& result = std::get<json>(read);
  CurrentFile current;
  current.path = result.value("path", file.path);
  current.version = result.value("version", std::int64_t{0});
  current.final_newline = result.value("finalNewline", false);
  auto text = result.find("text");
  if (text != result.end() && text->is_string())
    current.lines = rowTexts(text->get_ref<const std::string&>());
  if (current.lines.empty()) current.lines.emplace_back();
  return current;
}

std::string viewKey(const std::string& session, const std::string& path) {
  return session + '\n' + path;
}

std::string conflictMessage(const std::string& path, const std::vector<WriteConflict>& conflicts) {
  std::string message = "hashline refused the write to " + path +
                        ": the user changed the lines it changes since you read the file; "
                        "nothing was written.";
  for (const WriteConflict& conflict : conflicts) {
    if (conflict.last_line < conflict.first_line)
      message += "\nAround line " + std::to_string(conflict.first_line) +
                 " the user deleted the lines you changed.";
    else
      message += "\nLines " + std::to_string(conflict.first_line) + "-" +
                 std::to_string(conflict.last_line) + " now hold:\n" + conflict.current_text;
  }
  message += "\nRead the file again (fs/read_text_file) and make the change on its current text.";
  return message;
}

json conflictData(const std::vector<WriteConflict>& conflicts) {
  json list = json::array();
  for (const WriteConflict& conflict : conflicts)
    list.push_back({{"firstLine", conflict.first_line},
                    {"lastLine", conflict.last_line},
                    {"currentText", conflict.current_text},
                    {"agentText", conflict.agent_text}});
  return json{{"hashline", {{"code", "CONFLICT"}, {"conflicts", std::move(list)}}}};
}

std::string failureLine(const json& id, const Failure& failure) {
  return errorLine(id, failure.code, failure.message, failure.data);
}

} // namespace

std::string FileBridge::answer(const FileCall& call) {
  switch (call.kind) {
  case FileCall::Kind::Read:
    return read(call);
  case FileCall::Kind::Write:
    return write(call);
  case FileCall::Kind::Attribute:
    attribute(call);
    return {};
  }
  return {};
}

void FileBridge::attribute(const FileCall& call) {
  const std::string session = call.params.value("sessionId", std::string());
  const std::string path = call.params.value("path", std::string());
  const auto now = std::chrono::steady_clock::now();
  auto& last = attributed_[viewKey(session, path)];
  if (last != std::chrono::steady_clock::time_point() && now - last < std::chrono::seconds(20))
    return;
  last = now;
  json params = {{"path", path}, {"agent", call.agent}, {"seconds", 120}};
  if (!session.empty()) params["session"] = session;
  // Best effort: with no sidecar (disk mode) or an old one, nothing is merged anyway.
  Outcome<json> done = callService(call, "attribute", std::move(params), "attribute", path);
  if (auto* failure = std::get_if<Failure>(&done))
    log::debug("hashline acp: attribute ", path, ": ", failure->message);
}

std::string FileBridge::read(const FileCall& call) {
  Outcome<FileParams> file = fileParams(call.params);
  if (auto* failure = std::get_if<Failure>(&file)) return failureLine(call.id, *failure);
  auto line = optionalCount(call.params, "line", 1);
  if (auto* failure = std::get_if<Failure>(&line)) return failureLine(call.id, *failure);
  auto limit = optionalCount(call.params, "limit", 0);
  if (auto* failure = std::get_if<Failure>(&limit)) return failureLine(call.id, *failure);

  Outcome<CurrentFile> current = readWhole(call, std::get<FileParams>(file), "read");
  if (auto* failure = std::get_if<Failure>(&current)) return failureLine(call.id, *failure);
  CurrentFile& text = std::get<CurrentFile>(current);
  std::string content =
      acpContent(text.lines, text.final_newline, std::get<std::optional<std::int64_t>>(line),
                 std::get<std::optional<std::int64_t>>(limit));
  // The agent's view is what its model saw: a tool's own read during its edit (it then writes
  // the model's content, based on the earlier read) keeps the earlier view as the merge base.
  std::string& view = views_[viewKey(std::get<FileParams>(file).session, text.path)];
  if (!call.during_edit || view.empty()) view = joinLines(text.lines);
  return resultLine(call.id, json{{"content", std::move(content)}});
}

std::string FileBridge::write(const FileCall& call) {
  Outcome<FileParams> parsed = fileParams(call.params);
  if (auto* failure = std::get_if<Failure>(&parsed)) return failureLine(call.id, *failure);
  const FileParams& file = std::get<FileParams>(parsed);
  auto content_member = call.params.find("content");
  if (content_member == call.params.end() || !content_member->is_string())
    return failureLine(call.id, invalidParams("params.content: expected a string"));
  const std::string& content = content_member->get_ref<const std::string&>();
  if (content.size() > options_.max_write_bytes)
    return failureLine(
        call.id,
        invalidParams("the content for " + file.path + " is " + std::to_string(content.size()) +
                      " bytes, over the limit of " + std::to_string(options_.max_write_bytes) +
                      " bytes (hashline acp --max-write-bytes); nothing was written"));

  Outcome<CurrentFile> current = readWhole(call, file, "write");
  if (auto* failure = std::get_if<Failure>(&current)) {
    const bool missing = failure->code == kAcpResourceNotFound;
    if (!missing || views_.count(viewKey(file.session, file.path)))
      return failureLine(call.id, *failure);
    // A new file: created whole (an atomic disk write; nothing to merge with).
    json params = {{"path", file.path},
                   {"session", file.session},
                   {"agent", call.agent},
                   {"edits", json::array({{{"op", "write"}, {"content", content}}})}};
    Outcome<json> created = callService(call, "edit", std::move(params), "create", file.path);
    if (auto* failed = std::get_if<Failure>(&created)) return failureLine(call.id, *failed);
    views_[viewKey(file.session, file.path)] = joinLines(splitContentLines(content));
    return resultLine(call.id, json::object());
  }
  CurrentFile& now = std::get<CurrentFile>(current);
  const std::string key = viewKey(file.session, now.path);
  auto view = views_.find(key);
  if (view == views_.end())
    return failureLine(
        call.id, Failure{kAcpRefused,
                         "hashline refused the write to " + file.path +
                             ": this session has not read it (NOT_OBSERVED); read it with "
                             "fs/read_text_file first, so the write can be merged with the user's "
                             "unsaved changes; nothing was written",
                         json{{"hashline", {{"code", "NOT_OBSERVED"}}}}});

  std::string wanted = joinLines(splitContentLines(content));
  WritePlan plan = planWrite(view->second, joinLines(now.lines), wanted);
  if (!plan.conflicts.empty())
    return failureLine(call.id, Failure{kAcpRefused, conflictMessage(file.path, plan.conflicts),
                                        conflictData(plan.conflicts)});
  if (!plan.changes.empty()) {
    json edits = json::array();
    for (const LineRangeChange& change : plan.changes)
      edits.push_back({{"start", change.start},
                       {"end", change.end},
                       {"content", change.content},
                       {"version", now.version}});
    json params = {{"path", file.path},
                   {"session", file.session},
                   {"agent", call.agent},
                   {"edits", std::move(edits)}};
    Outcome<json> applied = callService(call, "range", std::move(params), "write", file.path);
    if (auto* failure = std::get_if<Failure>(&applied)) {
      const json* hashline_error = failure->data.is_object() && failure->data.contains("hashline")
                                       ? &failure->data["hashline"]
                                       : nullptr;
      if (!hashline_error || hashline_error->value("code", std::string()) != "NO_CHANGE")
        return failureLine(call.id, *failure);
    }
  }
  view->second = std::move(wanted);
  return resultLine(call.id, json::object());
}

} // namespace hashline::acp
