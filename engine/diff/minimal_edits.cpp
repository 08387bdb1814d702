// Narrowing plan edits to the bytes that change; see minimal_edits.h.
#include "engine/diff/minimal_edits.h"

#include "engine/diff/line_diff.h"

namespace hashline {
namespace {

bool isContinuation(std::string_view s, std::size_t at) {
  return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}

// Common prefix/suffix trimmed at boundaries that split neither a UTF-8 sequence nor a CRLF.
void narrow(std::string_view before, std::string_view after, std::size_t base_offset,
            std::vector<ByteEdit>& out) {
  std::size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix])
    ++prefix;
  auto splitsCrlf = [&](std::size_t at_before, std::size_t at_after) {
    const bool cr_before = at_before > 0 && before[at_before - 1] == '\r';
    const bool cr_after = at_after > 0 && after[at_after - 1] == '\r';
    const bool lf_before = at_before < before.size() && before[at_before] == '\n';
    const bool lf_after = at_after < after.size() && after[at_after] == '\n';
    return ((cr_before || cr_after) && (lf_before || lf_after));
  };
  while (prefix > 0 && (isContinuation(before, prefix) || isContinuation(after, prefix) ||
                        splitsCrlf(prefix, prefix)))
    --prefix;
  std::size_t suffix = 0;
  const std::size_t limit = std::min(before.size(), after.size()) - prefix;
  while (suffix < limit && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  while (suffix > 0 && (isContinuation(before, before.size() - suffix) ||
                        isContinuation(after, after.size() - suffix) ||
                        splitsCrlf(before.size() - suffix, after.size() - suffix)))
    --suffix;
  if (prefix == before.size() && prefix == after.size()) return; // identical
  out.push_back(ByteEdit{base_offset + prefix, base_offset + before.size() - suffix,
                         std::string(after.substr(prefix, after.size() - suffix - prefix))});
}

std::size_t bytesOf(const std::vector<std::string_view>& lines, std::size_t begin,
                    std::size_t end) {
  std::size_t total = 0;
  for (std::size_t i = begin; i < end; ++i)
    total += lines[i].size();
  return total;
}

} // namespace

std::vector<ByteEdit> minimalEdits(std::string_view before, std::string_view after,
                                   std::size_t base_offset) {
  std::vector<ByteEdit> out;
  if (before == after) return out;
  const auto old_lines = splitLinesKeepingEnds(before);
  const auto new_lines = splitLinesKeepingEnds(after);
  const auto regions = diffLines(old_lines, new_lines);
  // Byte offsets of line starts, walked alongside the regions.
  std::size_t old_line = 0, old_byte = 0, new_line = 0, new_byte = 0;
  for (const auto& region : regions) {
    old_byte += bytesOf(old_lines, old_line, region.old_begin);
    new_byte += bytesOf(new_lines, new_line, region.new_begin);
    const std::size_t old_count = region.old_end - region.old_begin;
    const std::size_t new_count = region.new_end - region.new_begin;
    if (old_count == new_count) {
      std::size_t o = old_byte;
      for (std::size_t i = 0; i < old_count; ++i) {
        const auto a = old_lines[region.old_begin + i];
        const auto b = new_lines[region.new_begin + i];
        narrow(a, b, base_offset + o, out);
        o += a.size();
      }
    } else {
      const std::size_t old_size = bytesOf(old_lines, region.old_begin, region.old_end);
      const std::size_t new_size = bytesOf(new_lines, region.new_begin, region.new_end);
      narrow(before.substr(old_byte, old_size), after.substr(new_byte, new_size),
             base_offset + old_byte, out);
    }
    old_byte += bytesOf(old_lines, region.old_begin, region.old_end);
    new_byte += bytesOf(new_lines, region.new_begin, region.new_end);
    old_line = region.old_end;
    new_line = region.new_end;
  }
  return out;
}

std::vector<ByteEdit> minimalEdits(const Rope& base, const EditPlan& plan) {
  std::vector<ByteEdit> out;
  for (const auto& edit : plan.edits) {
    const std::string before = base.slice(edit.begin, edit.end);
    auto narrowed = minimalEdits(before, edit.text, edit.begin);
    out.insert(out.end(), std::make_move_iterator(narrowed.begin()),
               std::make_move_iterator(narrowed.end()));
  }
  return out;
}

EditPlan minimizePlan(const Rope& base, const EditPlan& plan) {
  EditPlan out = plan;
  out.edits = minimalEdits(base, plan);
  return out;
}

} // namespace hashline
