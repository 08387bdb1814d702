// LooseLineKeys: every line of a document as a loose comparison key (trimmed, folded), cheaply.
//
// Drafts, near-miss reports and the patch ladder's last tier compare whole lines loosely. For an
// ASCII line the key is a view into the document (no copy); only lines that fold differently own a
// string. Immutable after construction; must not outlive the LineTable.
#pragma once

#include "engine/forms/line_table.h"

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::forms {

class LooseLineKeys {
public:
  explicit LooseLineKeys(const LineTable& table);
  std::size_t size() const { return keys_.size(); }
  std::string_view operator[](std::size_t line) const { return keys_[line]; }

private:
  std::vector<std::string_view> keys_;
  std::deque<std::string> owned_;
};

} // namespace hashline::forms
