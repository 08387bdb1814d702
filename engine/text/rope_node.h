// The Rope's tree: immutable, shared nodes and the structural operations on them.
//
// Internal to the Rope (rope.cpp). Leaves hold chunks of bytes (kMinLeafBytes..kMaxLeafBytes,
// except a lone root leaf, which may be short or empty); internal nodes hold 2..kMaxChildren
// children, all leaves sit at the same depth, and every node caches the Metrics of its subtree.
// Nodes are never modified after construction, so any number of Ropes may share them; the
// operations below build new nodes along the paths they change (path copying).
//
// The structural operations (split, join) work only at leaf boundaries and never look inside a
// chunk; keeping chunk boundaries off CRLFs and UTF-8 sequences is the caller's job
// (Rope::replace).
#pragma once

#include "engine/text/rope_chunk.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hashline::rope_detail {

inline constexpr std::size_t kMaxLeafBytes = 1024;
inline constexpr std::size_t kMinLeafBytes = 480;
inline constexpr std::size_t kMaxChildren = 16;

struct Node;
struct Leaf;
struct Internal;
using NodePtr = std::shared_ptr<const Node>;

/// The rows of an internal node's child-metrics table.
enum class Row { Bytes = 0, Breaks = 1, Utf16 = 2, CodePoints = 3 };

inline Row rowOf(Unit unit) {
  return unit == Unit::Utf16 ? Row::Utf16 : Row::CodePoints;
}

/// What every node has; `height` says which kind it is (0: Leaf, else Internal).
struct Node {
  Metrics metrics;
  std::uint32_t height = 0;

  bool isLeaf() const { return height == 0; }
  const Leaf& leaf() const;
  const Internal& internal() const;
};

struct Leaf : Node {
  std::string bytes;
};

/// Children and their metrics live inside the node (one allocation), so a descent finds the row
/// it scans and the child it follows without chasing further pointers.
struct Internal : Node {
  std::uint32_t count = 0;
  /// The children's metrics, one row per measure: row(Row::Breaks)[i] is child i's line breaks.
  std::array<std::size_t, 4 * kMaxChildren> rows{};
  std::array<NodePtr, kMaxChildren> children;

  const std::size_t* row(Row which) const {
    return rows.data() + static_cast<std::size_t>(which) * kMaxChildren;
  }
  std::size_t* row(Row which) {
    return rows.data() + static_cast<std::size_t>(which) * kMaxChildren;
  }
  const NodePtr* begin() const { return children.data(); }
  const NodePtr* end() const { return children.data() + count; }
  /// Copies child i's metrics into its column and recomputes the totals.
  void refresh(std::size_t i);
};

inline const Leaf& Node::leaf() const {
  return static_cast<const Leaf&>(*this);
}
inline const Internal& Node::internal() const {
  return static_cast<const Internal&>(*this);
}

NodePtr makeLeaf(std::string_view bytes);
/// A leaf whose metrics the caller already knows.
NodePtr makeLeaf(std::string bytes, const Metrics& metrics);
/// An internal node over 2..kMaxChildren children of equal height.
NodePtr makeInternal(const NodePtr* begin, const NodePtr* end);
inline NodePtr makeInternal(const std::vector<NodePtr>& children) {
  return makeInternal(children.data(), children.data() + children.size());
}
/// The shared empty leaf: the root of every empty Rope.
const NodePtr& emptyLeaf();

/// Cuts `text` into chunks of at most kMaxLeafBytes (and at least kMinLeafBytes unless `text`
/// is shorter), never inside a CRLF or a valid UTF-8 sequence.
std::vector<std::string_view> chunkText(std::string_view text);
/// A balanced tree over `leaves` (in order); null when there are none.
NodePtr buildTree(const std::vector<NodePtr>& leaves);
/// chunkText + buildTree; null for empty text.
NodePtr buildFromText(std::string_view text);

/// Concatenation; either side may be null. O(|height(a) - height(b)| + 1) new nodes.
NodePtr join(const NodePtr& a, const NodePtr& b);
/// Splits at byte `at`, which must be a leaf boundary of `node` (or 0 / its size). Either half
/// may come back null. O(log n) new nodes.
std::pair<NodePtr, NodePtr> split(const NodePtr& node, std::size_t at);

/// A leaf and the byte offset where it starts.
struct LeafRef {
  const Leaf* leaf;
  std::size_t start;
};
/// The leaf holding byte `at`; for `at == size` the last leaf.
LeafRef leafAt(const Node* root, std::size_t at);

/// Replaces the leaf holding byte `at` under `slot` with `replacement`. Nodes on the path that
/// `slot` owns alone (use_count 1: no other Rope can reach them) are updated in place; shared
/// ones are copied, so other Ropes never see a change.
void replaceLeaf(NodePtr& slot, std::size_t at, NodePtr replacement);

/// Checks heights, fan-out, chunk sizes and seams, and cached metrics. For tests.
bool checkTree(const Node& root);

} // namespace hashline::rope_detail
