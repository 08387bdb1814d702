// IdeOpenDiff: Claude Code's `openDiff` tool, answered through hashline's review of the live
// buffer (issue 22; docs/claude-ide.md).
//
// Claude Code proposes the whole new text of a file (computed from what it read on disk) and
// waits until the IDE answers FILE_SAVED (with the text to write) or DIFF_REJECTED. Here the
// proposal is merged into the editor's buffer as a foreign write would be (engine/merge: base =
// the disk text Claude saw, ours = the live buffer with the user's unsaved typing, theirs = the
// proposal; regions both changed keep the user's text and are reported as conflicts), applied
// as ONE versioned, journaled edit by agent `claude-code` (HashlineService::applyToBuffer,
// re-merged on a version race), and left to the user's review: the editors show its hunks as
// pending (Neovim signs and :HashlineReview, VS Code's Keep/Reject CodeLens). Once no hunk of
// the op is pending, the answer is FILE_SAVED with the buffer's text when any hunk was accepted,
// else DIFF_REJECTED (rejecting reverted them: buffer and disk as before). Claude Code then writes
// that text to disk; it equals a recent buffer version, so the reconciler takes it for the
// editor's own save (no second op, no conflict).
//
// A file the editor does not hold is answered FILE_SAVED with the proposal unchanged (Claude
// Code writes it as without an IDE; logged). Paths outside the workspace, text that is not
// UTF-8, and bad arguments are tool errors; nothing changes.
// Threading: the server's io_context thread.
#pragma once

#include "lsp/service/hashline_service.h"

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

class LspServer;

/// openDiff's arguments as Claude Code sends them.
struct OpenDiffRequest {
  std::string old_file_path;
  std::string new_file_path;
  std::string new_file_contents;
  std::string tab_name;
};

class IdeOpenDiff {
public:
  /// Receives the MCP CallToolResult once the user decided (or at once for an error).
  using Answer = std::function<void(nlohmann::json result)>;

  IdeOpenDiff(LspServer& server, HashlineService& service) : server_(server), service_(service) {}

  /// Parses openDiff's arguments; nullopt (and `problem`) when they are not what Claude sends.
  static std::optional<OpenDiffRequest> parse(const nlohmann::json& arguments,
                                              std::string& problem);

  /// Starts the review of `request`; `answer` is called exactly once, unless `alive` expires
  /// first (the connection closed: the review stays in the editor, nobody is answered).
  void open(OpenDiffRequest request, Answer answer, std::weak_ptr<void> alive);

  /// How often the review's state is looked at while the user decides.
  static constexpr int kPollMilliseconds = 100;

private:
  struct Review;
  void watch(const std::shared_ptr<Review>& review);
  void decide(const std::shared_ptr<Review>& review);

  LspServer& server_;
  HashlineService& service_;
};

/// The MCP result of an error: one text item "CODE: message\nhint: ...", isError.
nlohmann::json ideToolError(std::string_view code, const std::string& message,
                            std::string_view hint);

} // namespace hashline::lsp
