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

#include <cstddef>
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
using NodePtr = std::shared_ptr<const Node>;

/// The rows of an internal node's child-metrics table.
enum class Row { Bytes = 0, Breaks = 1, Utf16 = 2, CodePoints = 3 };

inline Row rowOf(Unit unit) {
  return unit == Unit::Utf16 ? Row::Utf16 : Row::CodePoints;
}

struct Node {
  Metrics metrics;
  std::size_t height = 0;        // 0 for leaves
  std::string bytes;             // leaves only
  std::vector<NodePtr> children; // internal nodes only
  /// Internal nodes: the children's metrics, one row per measure ([bytes x n][breaks x n]...),
  /// so a descent scans one short contiguous row instead of touching every child node.
  std::vector<std::size_t> child_rows;

  bool isLeaf() const { return height == 0; }
  const std::size_t* row(Row which) const {
    return child_rows.data() + static_cast<std::size_t>(which) * children.size();
  }
};

NodePtr makeLeaf(std::string_view bytes);
/// A leaf whose metrics the caller already knows.
NodePtr makeLeaf(std::string bytes, const Metrics& metrics);
NodePtr makeInternal(std::vector<NodePtr> children);
/// Fills height, metrics and child_rows of an internal node from its children.
void sealInternal(Node& node);
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
  const Node* leaf;
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
