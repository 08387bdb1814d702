// The codex apply_patch state machine; see patch_parser.h and shared/docs/apply-patch.md §1.
#include "engine/forms/patch_parser.h"

#include "engine/forms/text_fold.h"

namespace hashline::forms {
namespace {

constexpr std::string_view kBegin = "*** Begin Patch";
constexpr std::string_view kEnd = "*** End Patch";
constexpr std::string_view kAdd = "*** Add File:";
constexpr std::string_view kDelete = "*** Delete File:";
constexpr std::string_view kUpdate = "*** Update File:";
constexpr std::string_view kMove = "*** Move to:";
constexpr std::string_view kEndOfFile = "*** End of File";
constexpr std::string_view kEnvironment = "*** Environment ID:";

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool isHunkHeader(std::string_view line) {
  return startsWith(line, kAdd) || startsWith(line, kDelete) || startsWith(line, kUpdate);
}

Error invalid(std::size_t line, const std::string& message) {
  Error error = Error::make(ErrorCode::PatchInvalid,
                            "invalid patch hunk on line " + std::to_string(line) + ": " + message);
  error.data.notes.push_back("patch line " + std::to_string(line));
  return error;
}

Error invalidPatch(const std::string& message) {
  return Error::make(ErrorCode::PatchInvalid, "invalid patch: " + message);
}

std::string quoteLine(std::string_view line) {
  return "'" + std::string(line) + "'";
}

std::string notAHeader(std::string_view line) {
  return quoteLine(line) +
         " is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', "
         "'*** Delete File: {path}', '*** Update File: {path}'";
}

std::vector<std::string_view> splitPatchLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t i = 0;
  while (true) {
    std::size_t end = text.find('\n', i);
    std::string_view line = text.substr(i, end == std::string_view::npos ? text.npos : end - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    i = end + 1;
  }
  return lines;
}

bool hasBoundaries(const std::vector<std::string_view>& lines) {
  return lines.size() >= 2 && trimUnicode(lines.front()) == kBegin &&
         trimUnicode(lines.back()) == kEnd;
}

class Parser {
public:
  explicit Parser(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}

  Result<Patch> run() {
    // lines_[0] is Begin, lines_.back() is End; the body is in between.
    const std::size_t body_end = lines_.size() - 1;
    for (std::size_t i = 1; i < body_end; ++i) {
      const std::size_t number = i + 1;
      std::string_view line = lines_[i];
      if (ended_) {
        if (trimUnicode(line).empty() || trimUnicode(line) == kEnd) continue;
        return invalid(number, "unexpected text after '*** End Patch': " + quoteLine(line));
      }
      Status status = state_ == State::Update ? updateLine(line, number)
                      : state_ == State::Add  ? addLine(line, number)
                                              : headerLine(line, number);
      if (!status) return std::move(status).error();
    }
    if (!ended_) {
      if (Status status = finishHunk(); !status) return std::move(status).error();
    }
    return std::move(patch_);
  }

private:
  enum class State { Header, Add, Update };

  Status headerLine(std::string_view line, std::size_t number) {
    std::string_view trimmed = trimUnicode(line);
    if (trimmed.empty()) return Status::success(); // superset: blank lines between hunks
    if (number == 2 && startsWith(trimmed, kEnvironment)) {
      std::string_view id = trimUnicode(trimmed.substr(kEnvironment.size()));
      if (id.empty()) return invalid(number, "empty environment id");
      patch_.environment_id = std::string(id);
      return Status::success();
    }
    if (trimmed == kEnd) {
      ended_ = true;
      return Status::success();
    }
    auto pathAfter = [&](std::string_view marker) {
      return std::string(trimUnicode(trimmed.substr(marker.size())));
    };
    PatchHunk hunk;
    hunk.patch_line = number;
    if (startsWith(trimmed, kAdd)) {
      hunk.kind = PatchHunk::Add;
      hunk.path = pathAfter(kAdd);
      state_ = State::Add;
    } else if (startsWith(trimmed, kDelete)) {
      hunk.kind = PatchHunk::Delete;
      hunk.path = pathAfter(kDelete);
      state_ = State::Header;
    } else if (startsWith(trimmed, kUpdate)) {
      hunk.kind = PatchHunk::Update;
      hunk.path = pathAfter(kUpdate);
      state_ = State::Update;
      after_end_of_file_ = false;
    } else {
      return invalid(number, notAHeader(line));
    }
    if (hunk.path.empty()) return invalid(number, "missing file path in " + quoteLine(line));
    patch_.hunks.push_back(std::move(hunk));
    return Status::success();
  }

  Status addLine(std::string_view line, std::size_t number) {
    std::string_view trimmed = trimUnicode(line);
    if (isHunkHeader(trimmed) || trimmed == kEnd) {
      state_ = State::Header;
      return headerLine(line, number);
    }
    if (line.empty() || line.front() != '+') return invalid(number, notAHeader(line));
    patch_.hunks.back().add_content.append(line.substr(1));
    patch_.hunks.back().add_content.push_back('\n');
    return Status::success();
  }

  Status updateLine(std::string_view line, std::size_t number) {
    PatchHunk& hunk = patch_.hunks.back();
    std::string_view right = trimEndUnicode(line);
    if (isHunkHeader(right) || right == kEnd) {
      if (Status status = finishHunk(); !status) return status;
      state_ = State::Header;
      return headerLine(line, number);
    }
    if (startsWith(right, kMove)) {
      if (!hunk.chunks.empty() || hunk.move_to)
        return invalid(number, "'*** Move to:' must come once, right after '*** Update File:'");
      std::string target(trimUnicode(right.substr(kMove.size())));
      if (target.empty()) return invalid(number, "missing path in " + quoteLine(line));
      hunk.move_to = std::move(target);
      return Status::success();
    }
    if (right == "@@" || startsWith(right, "@@ ")) {
      std::string context(right.size() > 2 ? trimEndUnicode(right.substr(3)) : "");
      if (!hunk.chunks.empty() && hunk.chunks.back().lines.empty()) {
        // Superset: stacked `@@` headers narrow the search one after another.
        if (!context.empty()) hunk.chunks.back().contexts.push_back(std::move(context));
        return Status::success();
      }
      PatchChunk chunk;
      chunk.patch_line = number;
      if (!context.empty()) chunk.contexts.push_back(std::move(context));
      hunk.chunks.push_back(std::move(chunk));
      after_end_of_file_ = false;
      return Status::success();
    }
    if (right == kEndOfFile) {
      if (hunk.chunks.empty() || hunk.chunks.back().lines.empty())
        return invalid(number, "Update hunk does not contain any lines");
      hunk.chunks.back().end_of_file = true;
      after_end_of_file_ = true;
      return Status::success();
    }
    if (after_end_of_file_) {
      if (right.empty()) return Status::success();
      return invalid(number, "Expected update hunk to start with a @@ context marker, got: " +
                                 quoteLine(line));
    }
    PatchLine patch_line;
    if (line.empty()) {
      patch_line.kind = PatchLine::Context;
    } else if (line.front() == ' ' || line.front() == '+' || line.front() == '-') {
      patch_line.kind = line.front() == ' '   ? PatchLine::Context
                        : line.front() == '+' ? PatchLine::Add
                                              : PatchLine::Remove;
      patch_line.text = std::string(line.substr(1));
    } else if (!hunk.chunks.empty() && !hunk.chunks.back().lines.empty()) {
      return invalid(number, "Expected update hunk to start with a @@ context marker, got: " +
                                 quoteLine(line));
    } else {
      return invalid(number, "Unexpected line found in update hunk: " + quoteLine(line) +
                                 ". Every line should start with ' ' (context line), '+' (added "
                                 "line), or '-' (removed line)");
    }
    if (hunk.chunks.empty()) {
      PatchChunk chunk;
      chunk.patch_line = number;
      hunk.chunks.push_back(std::move(chunk));
    }
    hunk.chunks.back().lines.push_back(std::move(patch_line));
    return Status::success();
  }

  Status finishHunk() {
    if (state_ != State::Update || patch_.hunks.empty()) return Status::success();
    const PatchHunk& hunk = patch_.hunks.back();
    if (hunk.chunks.empty() && !hunk.move_to)
      return invalid(hunk.patch_line,
                     "Update file hunk for path " + quoteLine(hunk.path) + " is empty");
    for (const PatchChunk& chunk : hunk.chunks)
      if (chunk.lines.empty())
        return invalid(chunk.patch_line, "Update hunk does not contain any lines");
    return Status::success();
  }

  std::vector<std::string_view> lines_;
  Patch patch_;
  State state_ = State::Header;
  bool ended_ = false;
  bool after_end_of_file_ = false;
};

} // namespace

Result<Patch> parsePatch(std::string_view text) {
  std::vector<std::string_view> lines = splitPatchLines(trimUnicode(text));
  if (!hasBoundaries(lines)) {
    // Lenient heredoc unwrapping: <<EOF / <<'EOF' / <<"EOF" … EOF around the patch.
    const std::string_view first = lines.front();
    const bool heredoc = (first == "<<EOF" || first == "<<'EOF'" || first == "<<\"EOF\"") &&
                         lines.size() >= 4 && trimEndUnicode(lines.back()).ends_with("EOF");
    if (heredoc) lines = std::vector<std::string_view>(lines.begin() + 1, lines.end() - 1);
    if (lines.empty() || trimUnicode(lines.front()) != kBegin)
      return invalidPatch("The first line of the patch must be '*** Begin Patch'");
    if (lines.size() < 2 || trimUnicode(lines.back()) != kEnd)
      return invalidPatch("The last line of the patch must be '*** End Patch'");
  }
  return Parser(std::move(lines)).run();
}

} // namespace hashline::forms
