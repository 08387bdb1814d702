// Anchors of a window of lines in each tier; see anchor_computer.h.
#include "engine/anchors/anchor_computer.h"

#include "engine/anchors/digest.h"
#include "engine/anchors/read_lines.h"

#include <algorithm>

namespace hashline {

std::pair<std::uint32_t, std::uint32_t> coveredLines(Tier tier, std::uint32_t line,
                                                     std::uint32_t line_count) {
  switch (tier) {
  case Tier::Line:
    return {line, line};
  case Tier::Block:
    return {blockFirstLine(line), std::min(blockFirstLine(line) + kBlockLines - 1, line_count)};
  case Tier::Chain:
    return {chainFirstLine(line), line};
  }
  return {line, line};
}

AnchorComputer::AnchorComputer(const Rope& text, std::int64_t version, const ChangeLog* log,
                               LineHashCache* cache)
    : text_(text), version_(version), log_(log), cache_(cache), line_count_(readLineCount(text)) {}

std::vector<std::uint64_t> AnchorComputer::lineHashes(std::uint32_t first,
                                                      std::uint32_t last) const {
  if (cache_) return cache_->lineHashes(text_, version_, log_, first, last);
  std::vector<std::uint64_t> hashes;
  hashes.reserve(last - first + 1);
  const LineSlices lines = readLineSlices(text_, first, last);
  for (std::size_t i = 0; i < lines.size(); ++i)
    hashes.push_back(lineHash(lines.line(i)));
  return hashes;
}

std::pair<std::uint32_t, std::uint32_t> AnchorComputer::coveredLines(Tier tier,
                                                                     std::uint32_t line) const {
  return hashline::coveredLines(tier, line, line_count_);
}

std::vector<Anchor> AnchorComputer::anchors(Tier tier, std::uint32_t first,
                                            std::uint32_t last) const {
  const std::uint32_t hashed_first = coveredLines(tier, first).first;
  const std::uint32_t hashed_last = std::max(last, coveredLines(tier, last).second);
  const auto hashes = lineHashes(hashed_first, hashed_last);
  auto hashOf = [&](std::uint32_t line) { return hashes[line - hashed_first]; };

  std::vector<Anchor> out;
  out.reserve(last - first + 1);
  for (std::uint32_t line = first; line <= last; ++line)
    out.push_back(Anchor{line, digestValue(hashOf(line)), std::nullopt});
  if (tier == Tier::Block) {
    std::uint32_t block_first = 0;
    std::uint16_t block_digest = 0;
    for (auto& anchor : out) {
      if (blockFirstLine(anchor.line) != block_first) {
        block_first = blockFirstLine(anchor.line);
        const std::uint32_t block_last = coveredLines(tier, anchor.line).second;
        block_digest = digestValue(combineLineHashes(std::span<const std::uint64_t>(
            hashes.data() + (block_first - hashed_first), block_last - block_first + 1)));
      }
      anchor.context_digest = block_digest;
    }
  } else if (tier == Tier::Chain) {
    ChainHasher chain;
    std::size_t next = 0;
    for (std::uint32_t line = hashed_first; line <= last; ++line) {
      if (line == chainFirstLine(line)) chain.reset();
      chain.feed(hashOf(line));
      if (line >= first) out[next++].context_digest = digestValue(chain.digest());
    }
  }
  return out;
}

Anchor AnchorComputer::anchorAt(Tier tier, std::uint32_t line) const {
  return anchors(tier, line, line).front();
}

} // namespace hashline
