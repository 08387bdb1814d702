// The lines a HunkLocator searches (hunk_locator.h): a list of line views, or a Rope read in
// place. `pending` locates hunks in a live buffer after every agent op; reading the rope's lines
// where they are spares it a list of every line (100k lines: 1.6 MB of fresh memory per call).
// Lines as splitLinesKeepingEnds (engine/diff/line_diff.h) splits them. Pure.
#pragma once

#include "engine/text/rope.h"

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace hashline::journal {

class LineSource {
public:
  virtual ~LineSource() = default;
  /// Number of lines.
  virtual std::size_t size() const = 0;
  /// Whether line `index` (< size()) is exactly `text`, terminator included.
  virtual bool lineIs(std::size_t index, std::string_view text) const = 0;
  /// Calls `visit(line)` for every line in order (the view is valid during the call).
  virtual void forEachLine(const std::function<void(std::string_view)>& visit) const = 0;
};

/// Lines already split into views (which must outlive this).
class ViewLines final : public LineSource {
public:
  explicit ViewLines(const std::vector<std::string_view>& lines) : lines_(lines) {}
  std::size_t size() const override { return lines_.size(); }
  bool lineIs(std::size_t index, std::string_view text) const override {
    return lines_[index] == text;
  }
  void forEachLine(const std::function<void(std::string_view)>& visit) const override {
    for (std::string_view line : lines_)
      visit(line);
  }

private:
  const std::vector<std::string_view>& lines_;
};

/// The lines of a Rope (which must outlive this, unchanged), read in place: a line by number
/// costs O(log n + its length); a pass over all of them copies only lines that cross leaves.
class RopeLineSource final : public LineSource {
public:
  explicit RopeLineSource(const Rope& text);
  std::size_t size() const override { return count_; }
  bool lineIs(std::size_t index, std::string_view text) const override;
  void forEachLine(const std::function<void(std::string_view)>& visit) const override;

private:
  const Rope& text_;
  std::size_t count_ = 0;
};

} // namespace hashline::journal
