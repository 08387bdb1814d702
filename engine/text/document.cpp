// Document: applies LSP content changes to the mirrored Rope and records exact LineChanges.
#include "engine/text/document.h"

#include <algorithm>

namespace hashline {
namespace {

std::string describe(LspPosition position) {
  return std::to_string(position.line) + ":" + std::to_string(position.character);
}

/// Bytes that `text` shares with the start / end of `rope`, used to shrink a full-text change
/// to the part that really differs (so the change log keeps its history).
std::size_t commonPrefix(const Rope& rope, std::string_view text) {
  std::size_t matched = 0;
  bool stop = false;
  rope.forEachChunk(0, rope.byteSize(), [&](std::string_view piece) {
    if (stop) return;
    std::size_t limit = std::min(piece.size(), text.size() - matched);
    std::size_t i = 0;
    while (i < limit && piece[i] == text[matched + i])
      ++i;
    matched += i;
    if (i < piece.size()) stop = true;
  });
  return matched;
}

std::size_t commonSuffix(const Rope& rope, std::string_view text, std::size_t max_length) {
  // Compare backwards chunk by chunk from the end; the rope side is read in slices.
  constexpr std::size_t kStep = 4096;
  std::size_t matched = 0;
  const std::size_t rope_size = rope.byteSize();
  while (matched < max_length) {
    std::size_t step = std::min(kStep, max_length - matched);
    std::string piece = rope.slice(rope_size - matched - step, rope_size - matched);
    std::string_view theirs = text.substr(text.size() - matched - step, step);
    std::size_t i = 0;
    while (i < step && piece[step - 1 - i] == theirs[step - 1 - i])
      ++i;
    matched += i;
    if (i < step) break;
  }
  return matched;
}

/// Whether line `a` of `left` and line `b` of `right` have the same content (terminators aside).
/// Lengths first, so typing in a long line costs O(log n), not a comparison of the line.
bool sameLineText(const Rope& left, std::size_t a, const Rope& right, std::size_t b) {
  const std::size_t left_begin = left.lineStartByte(a);
  const std::size_t left_end = left.lineEndByte(a);
  const std::size_t right_begin = right.lineStartByte(b);
  const std::size_t right_end = right.lineEndByte(b);
  if (left_end - left_begin != right_end - right_begin) return false;
  return left.slice(left_begin, left_end) == right.slice(right_begin, right_end);
}

std::uint32_t line32(std::size_t line) {
  return static_cast<std::uint32_t>(line);
}

/// The LineChange of replacing [begin, end) of `text` with `inserted` when that is plain typing:
/// no line break replaced or inserted, and no CR/LF pair split or joined at the edges — so
/// exactly the line holding `begin` changes (or nothing does). nullopt otherwise.
std::optional<LineChange> typingChange(const Rope& text, std::int64_t version, std::size_t begin,
                                       std::size_t end, std::string_view inserted,
                                       std::optional<std::size_t> begin_line) {
  if (inserted.find_first_of("\r\n") != std::string_view::npos) return std::nullopt;
  const std::size_t around_begin = begin > 0 ? begin - 1 : 0;
  const std::string around = text.slice(around_begin, std::min(end + 1, text.byteSize()));
  const std::string_view replaced =
      std::string_view(around).substr(begin - around_begin, end - begin);
  const bool cr_before = begin > 0 && around.front() == '\r';
  const bool lf_after = end < text.byteSize() && around.back() == '\n';
  if (replaced.find_first_of("\r\n") != std::string_view::npos || (cr_before && lf_after))
    return std::nullopt;
  const std::size_t line = begin_line ? *begin_line : text.lineOfByte(begin);
  const std::size_t end_line = replaced == inserted ? line : line + 1;
  return LineChange{version, line32(line), line32(end_line), line32(end_line)};
}

} // namespace

Document::Document(std::int64_t version, std::string_view text) : text_(text), version_(version) {
  log_.reset(version);
}

Status Document::applyChanges(std::int64_t version, const std::vector<ContentChange>& changes,
                              PositionEncoding encoding) {
  std::size_t index = 0;
  if (desynced_) {
    // Only a full text can resynchronize a mirror that lost track.
    if (changes.empty() || changes.front().range_start || changes.front().range_end) {
      return Error::make(ErrorCode::Desynced, "document is desynced (" + desync_reason_ +
                                                  "); waiting for a full-text change");
    }
    resetText(version, changes.front().text);
    index = 1;
  } else if (version == version_ && changes.empty()) {
    return Status::success(); // a repeated, empty notification: nothing happened
  } else if (version <= version_) {
    desynced_ = true;
    desync_reason_ = "version " + std::to_string(version) + " does not follow version " +
                     std::to_string(version_);
    return Error::make(ErrorCode::Desynced, desync_reason_);
  }
  for (; index < changes.size(); ++index) {
    Status status = applyOne(changes[index], encoding, version);
    if (!status.ok()) {
      desynced_ = true;
      desync_reason_ = status.error().message;
      return status;
    }
  }
  if (desynced_) { // a change created a lone CR the client does not count as a line break
    version_ = version;
    return Error::make(ErrorCode::Desynced, desync_reason_);
  }
  version_ = version;
  log_.advance(version);
  return Status::success();
}

Status Document::applyOne(const ContentChange& change, PositionEncoding encoding,
                          std::int64_t version) {
  if (!change.range_start || !change.range_end) {
    if (change.range_start || change.range_end)
      return Error::make(ErrorCode::Desynced, "content change has half a range");
    const std::size_t prefix = commonPrefix(text_, change.text);
    const std::size_t max_suffix = std::min(text_.byteSize(), change.text.size()) - prefix;
    const std::size_t suffix = commonSuffix(text_, change.text, max_suffix);
    const std::size_t end = text_.byteSize() - suffix;
    const std::string_view middle =
        std::string_view(change.text).substr(prefix, change.text.size() - suffix - prefix);
    replaceAndRecord(version, prefix, end, middle);
    return Status::success();
  }
  Result<std::size_t> begin = text_.byteOfPosition(*change.range_start, encoding);
  if (!begin.ok()) return std::move(begin).error();
  Result<std::size_t> end = *change.range_end == *change.range_start
                                ? begin
                                : text_.byteOfPosition(*change.range_end, encoding);
  if (!end.ok()) return std::move(end).error();
  if (*end < *begin)
    return Error::make(ErrorCode::Desynced, "change range ends (" + describe(*change.range_end) +
                                                ") before it starts (" +
                                                describe(*change.range_start) + ")");
  // A position's byte is never inside a line terminator, so its line is the position's line.
  replaceAndRecord(version, *begin, *end, change.text, change.range_start->line);
  return Status::success();
}

void Document::resetText(std::int64_t version, std::string_view text) {
  text_ = Rope(text);
  version_ = version;
  log_.reset(version);
  snapshots_.clear();
  desynced_ = false;
  desync_reason_.clear();
  if (!lone_cr_is_line_break_) refuseLoneCr(0, text_.byteSize());
}

void Document::setLoneCrIsLineBreak(bool is_line_break) {
  lone_cr_is_line_break_ = is_line_break;
  if (!is_line_break && !desynced_) refuseLoneCr(0, text_.byteSize());
}

void Document::refuseLoneCr(std::size_t begin, std::size_t end) {
  if (desynced_ || begin >= end) return;
  // A CR is lone when the byte after it (possibly past `end`, or in the next chunk) is not LF.
  std::optional<std::size_t> pending_cr; // a CR seen last in the previous chunk
  std::optional<std::size_t> lone;
  std::size_t at = begin;
  text_.forEachChunk(begin, end, [&](std::string_view chunk) {
    for (std::size_t i = 0; i < chunk.size() && !lone; ++i) {
      if (pending_cr && chunk[i] != '\n') lone = pending_cr;
      pending_cr.reset();
      if (chunk[i] == '\r') pending_cr = at + i;
    }
    at += chunk.size();
  });
  if (!lone && pending_cr) {
    const std::size_t next = *pending_cr + 1;
    if (next >= text_.byteSize() || text_.slice(next, next + 1) != "\n") lone = pending_cr;
  }
  if (!lone) return;
  desynced_ = true;
  desync_reason_ = "line " + std::to_string(text_.lineOfByte(*lone) + 1) +
                   " ends with a lone CR (\\r), which this editor does not count as a line "
                   "break (the LSP does), so its positions cannot be mapped; replace it (in Vim: "
                   ":%s/\\r/\\r/g) and reopen the file (:e!)";
}

Status Document::applyByteEdit(std::int64_t version, std::size_t begin, std::size_t end,
                               std::string_view text) {
  if (desynced_)
    return Error::make(ErrorCode::Desynced, "document is desynced (" + desync_reason_ + ")");
  if (version <= version_)
    return Error::make(ErrorCode::Desynced, "version " + std::to_string(version) +
                                                " does not follow version " +
                                                std::to_string(version_));
  if (begin > end || end > text_.byteSize())
    return Error::make(ErrorCode::OutOfRange, "byte range [" + std::to_string(begin) + ", " +
                                                  std::to_string(end) +
                                                  ") is outside the document (" +
                                                  std::to_string(text_.byteSize()) + " bytes)");
  replaceAndRecord(version, begin, end, text);
  version_ = version;
  return Status::success();
}

void Document::replaceAndRecord(std::int64_t version, std::size_t begin, std::size_t end,
                                std::string_view text, std::optional<std::size_t> begin_line) {
  if (auto change = typingChange(text_, version, begin, end, text, begin_line)) {
    // No copy of the old text is kept, so the rope can update its nodes in place.
    text_.replace(begin, end, text);
    log_.record(*change);
  } else {
    const Rope before = text_;
    text_.replace(begin, end, text);
    recordChange(version, before, begin, end, text);
  }
  // Only bytes next to the change can have become a lone CR: the one before it, the inserted
  // ones (the CR after them was followed by the same byte before).
  if (!lone_cr_is_line_break_) refuseLoneCr(begin == 0 ? 0 : begin - 1, begin + text.size());
}

void Document::recordChange(std::int64_t version, const Rope& before, std::size_t begin,
                            std::size_t end, std::string_view inserted) {
  // Lines before the one holding `begin` keep their text (at most a lone CR before `begin`
  // turns into a CRLF, which keeps the line's content); lines after the one holding `end` are
  // the same bytes with the same breaks. Compare only the lines in between, trimming identical
  // ones at both ends.
  std::size_t first = before.lineOfByte(begin);
  std::size_t old_end = before.lineOfByte(end) + 1;
  std::size_t new_end = text_.lineOfByte(begin + inserted.size()) + 1;
  while (first < old_end && first < new_end && sameLineText(before, first, text_, first))
    ++first;
  while (old_end > first && new_end > first &&
         sameLineText(before, old_end - 1, text_, new_end - 1)) {
    --old_end;
    --new_end;
  }
  log_.record(LineChange{version, line32(first), line32(old_end), line32(new_end)});
}

std::optional<Rope> Document::snapshotAt(std::int64_t version) const {
  if (version == version_) return text_;
  auto it = snapshots_.find(version);
  if (it == snapshots_.end()) return std::nullopt;
  return it->second;
}

void Document::keepSnapshot() {
  snapshots_[version_] = text_;
  while (snapshots_.size() > max_snapshots_)
    snapshots_.erase(snapshots_.begin());
}

} // namespace hashline
