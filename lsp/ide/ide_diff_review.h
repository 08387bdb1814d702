// One openDiff while it waits for the user (ide_open_diff.h): shared by the files of IdeOpenDiff.
#pragma once

#include "engine/merge/three_way.h"
#include "lsp/ide/ide_open_diff.h"

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hashline::lsp {

struct IdeOpenDiff::Review {
  enum class Stage {
    Waiting,      // behind another review of the same file
    Showing,      // the editor was asked to open the file
    Applying,     // the proposal is on its way into the buffer
    InBuffer,     // its hunks are pending in the review UI
    Asking,       // the final question is on screen
    LeftToClaude, // not answered here: Claude Code's own prompt decides
  };
  OpenDiffRequest request;
  std::string path; // canonical
  std::string base; // the disk text Claude Code proposed against
  Answer answer;
  const void* connection = nullptr;
  std::weak_ptr<void> alive;
  Stage stage = Stage::Waiting;
  bool dropped = false;
  std::uint64_t op = 0; // the journal op of the proposal in the buffer (0: none)
  std::vector<merge::Conflict> conflicts;
  bool unchanged = false; // the buffer already held the proposal: nothing to review in it
  std::vector<std::function<void()>> after_drop; // dropped while Applying: run once reverted
  std::unique_ptr<boost::asio::steady_timer> timer;

  boost::asio::steady_timer& timerOn(boost::asio::io_context& io) {
    if (!timer) timer = std::make_unique<boost::asio::steady_timer>(io);
    return *timer;
  }
  bool waitsForUser() const { return !dropped && stage != Stage::LeftToClaude; }
};

/// Claude Code's answers: FILE_SAVED + the text it is to write, DIFF_REJECTED + the tab name.
nlohmann::json fileSavedAnswer(const std::string& text);
nlohmann::json diffRejectedAnswer(const std::string& tab_name);

} // namespace hashline::lsp
