// Structural operations on the Rope's persistent B-tree (see rope_node.h).
#include "engine/text/rope_node.h"

#include <atomic>
#include <cassert>

namespace hashline::rope_detail {

void Internal::refresh(std::size_t i) {
  const Metrics& child = children[i]->metrics;
  std::size_t* bytes = row(Row::Bytes);
  std::size_t* breaks = row(Row::Breaks);
  std::size_t* utf16 = row(Row::Utf16);
  std::size_t* code_points = row(Row::CodePoints);
  // Unsigned wrap-around makes "add the difference" exact in both directions.
  metrics.bytes += child.bytes - bytes[i];
  metrics.breaks += child.breaks - breaks[i];
  metrics.utf16 += child.utf16 - utf16[i];
  metrics.code_points += child.code_points - code_points[i];
  bytes[i] = child.bytes;
  breaks[i] = child.breaks;
  utf16[i] = child.utf16;
  code_points[i] = child.code_points;
}

NodePtr makeLeaf(std::string_view bytes) {
  auto node = std::make_shared<Leaf>();
  node->bytes.assign(bytes.data(), bytes.size());
  node->metrics = measure(node->bytes);
  return node;
}

NodePtr makeLeaf(std::string bytes, const Metrics& metrics) {
  auto node = std::make_shared<Leaf>();
  node->bytes = std::move(bytes);
  node->metrics = metrics;
  return node;
}

NodePtr makeInternal(const NodePtr* begin, const NodePtr* end) {
  const std::size_t count = static_cast<std::size_t>(end - begin);
  assert(count >= 2 && count <= kMaxChildren);
  auto node = std::make_shared<Internal>();
  node->height = (*begin)->height + 1;
  node->count = static_cast<std::uint32_t>(count);
  for (std::size_t i = 0; i < count; ++i) {
    node->children[i] = begin[i];
    node->refresh(i);
  }
  return node;
}

const NodePtr& emptyLeaf() {
  static const NodePtr empty = std::make_shared<const Leaf>();
  return empty;
}

std::vector<std::string_view> chunkText(std::string_view text) {
  std::vector<std::string_view> chunks;
  if (text.empty()) return chunks;
  // Even pieces of at most kMaxLeafBytes - 4: moving a cut back off a CRLF or a UTF-8 sequence
  // costs at most 3 bytes, so no piece overflows and none drops below half a leaf.
  constexpr std::size_t kTarget = kMaxLeafBytes - 4;
  const std::size_t count = (text.size() + kTarget - 1) / kTarget;
  chunks.reserve(count);
  std::size_t begin = 0;
  for (std::size_t i = 1; i < count; ++i) {
    std::size_t cut = safeSplitAtOrBefore(text, text.size() * i / count);
    chunks.push_back(text.substr(begin, cut - begin));
    begin = cut;
  }
  chunks.push_back(text.substr(begin));
  return chunks;
}

NodePtr buildTree(const std::vector<NodePtr>& leaves) {
  if (leaves.empty()) return nullptr;
  std::vector<NodePtr> level = leaves;
  while (level.size() > 1) {
    const std::size_t groups = (level.size() + kMaxChildren - 1) / kMaxChildren;
    std::vector<NodePtr> parents;
    parents.reserve(groups);
    std::size_t begin = 0;
    for (std::size_t g = 1; g <= groups; ++g) {
      std::size_t end = level.size() * g / groups;
      parents.push_back(makeInternal(level.data() + begin, level.data() + end));
      begin = end;
    }
    level = std::move(parents);
  }
  return level.front();
}

NodePtr buildFromText(std::string_view text) {
  std::vector<NodePtr> leaves;
  for (std::string_view chunk : chunkText(text))
    leaves.push_back(makeLeaf(chunk));
  return buildTree(leaves);
}

namespace {

/// One node for `children` when they fit, else two halves.
void pack(const std::vector<NodePtr>& children, std::vector<NodePtr>& out) {
  const NodePtr* begin = children.data();
  const NodePtr* end = begin + children.size();
  if (children.size() <= kMaxChildren) {
    out.push_back(makeInternal(begin, end));
    return;
  }
  const NodePtr* middle = begin + children.size() / 2;
  out.push_back(makeInternal(begin, middle));
  out.push_back(makeInternal(middle, end));
}

/// Appends to `out` one or two nodes of height max(a, b) holding a's leaves then b's.
void joinInto(const NodePtr& a, const NodePtr& b, std::vector<NodePtr>& out) {
  if (a->height == b->height) {
    if (a->isLeaf()) {
      out.push_back(a);
      out.push_back(b);
      return;
    }
    std::vector<NodePtr> children(a->internal().begin(), a->internal().end());
    children.insert(children.end(), b->internal().begin(), b->internal().end());
    pack(children, out);
    return;
  }
  std::vector<NodePtr> children;
  if (a->height > b->height) {
    const Internal& left = a->internal();
    children.assign(left.begin(), left.end() - 1);
    joinInto(*(left.end() - 1), b, children);
  } else {
    const Internal& right = b->internal();
    joinInto(a, *right.begin(), children);
    children.insert(children.end(), right.begin() + 1, right.end());
  }
  pack(children, out);
}

/// A node over children [begin, end) of `node`: null, the single child, or a new node.
NodePtr nodeOfRange(const Internal& node, std::size_t begin, std::size_t end) {
  if (begin >= end) return nullptr;
  if (end - begin == 1) return node.children[begin];
  return makeInternal(node.begin() + begin, node.begin() + end);
}

} // namespace

NodePtr join(const NodePtr& a, const NodePtr& b) {
  if (!a || a->metrics.bytes == 0) return b;
  if (!b || b->metrics.bytes == 0) return a;
  std::vector<NodePtr> out;
  joinInto(a, b, out);
  if (out.size() == 1) return out.front();
  return makeInternal(out);
}

std::pair<NodePtr, NodePtr> split(const NodePtr& node, std::size_t at) {
  if (at == 0) return {nullptr, node};
  if (at >= node->metrics.bytes) return {node, nullptr};
  assert(!node->isLeaf() && "split inside a leaf");
  const Internal& internal = node->internal();
  const std::size_t* sizes = internal.row(Row::Bytes);
  std::size_t prefix = 0;
  for (std::size_t i = 0; i < internal.count; ++i) {
    if (at == prefix)
      return {nodeOfRange(internal, 0, i), nodeOfRange(internal, i, internal.count)};
    if (at < prefix + sizes[i]) {
      auto [left, right] = split(internal.children[i], at - prefix);
      return {join(nodeOfRange(internal, 0, i), left),
              join(right, nodeOfRange(internal, i + 1, internal.count))};
    }
    prefix += sizes[i];
  }
  return {node, nullptr};
}

LeafRef leafAt(const Node* node, std::size_t at) {
  std::size_t start = 0;
  while (!node->isLeaf()) {
    const Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    const std::size_t* bytes = internal.row(Row::Bytes);
    std::size_t index = 0;
    while (index < last && at >= bytes[index]) {
      at -= bytes[index];
      start += bytes[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  return {&node->leaf(), start};
}

void replaceLeaf(NodePtr& slot, std::size_t at, NodePtr replacement) {
  if (slot->isLeaf()) {
    slot = std::move(replacement);
    return;
  }
  // Sole owner: nobody else can observe the node, so updating it in place is invisible (the
  // node was created non-const, so casting the constness away is well-defined). Shared: copy.
  Internal* node;
  if (slot.use_count() == 1) {
    // Pairs with the release in the last other owner's decrement: its reads of the node happen
    // before our writes.
    std::atomic_thread_fence(std::memory_order_acquire);
    node = const_cast<Internal*>(&slot->internal());
  } else {
    auto copy = std::make_shared<Internal>(slot->internal());
    node = copy.get();
    slot = std::move(copy);
  }
  const std::size_t last = node->count - 1;
  const std::size_t* bytes = node->row(Row::Bytes);
  std::size_t index = 0;
  while (index < last && at >= bytes[index]) {
    at -= bytes[index];
    ++index;
  }
  replaceLeaf(node->children[index], at, std::move(replacement));
  node->refresh(index);
}

namespace {

struct TreeChecker {
  const Leaf* previous_leaf = nullptr;
  bool ok = true;

  void fail() { ok = false; }

  void check(const Node& node, bool is_root) {
    if (node.isLeaf()) {
      checkLeaf(node.leaf(), is_root);
      return;
    }
    const Internal& internal = node.internal();
    if (internal.count < 2 || internal.count > kMaxChildren) {
      fail();
      return;
    }
    Metrics sum;
    for (std::size_t i = 0; i < internal.count; ++i) {
      const NodePtr& child = internal.children[i];
      if (!child || child->height + 1 != node.height) {
        fail();
        return;
      }
      const Metrics& metrics = child->metrics;
      sum += metrics;
      if (internal.row(Row::Bytes)[i] != metrics.bytes ||
          internal.row(Row::Breaks)[i] != metrics.breaks ||
          internal.row(Row::Utf16)[i] != metrics.utf16 ||
          internal.row(Row::CodePoints)[i] != metrics.code_points)
        fail();
      check(*child, false);
    }
    for (std::size_t i = internal.count; i < kMaxChildren; ++i)
      if (internal.children[i]) fail();
    if (!(sum == node.metrics)) fail();
  }

  void checkLeaf(const Leaf& leaf, bool is_root) {
    if (!(measure(leaf.bytes) == leaf.metrics)) fail();
    if (leaf.bytes.size() > kMaxLeafBytes) fail();
    if (!is_root && leaf.bytes.size() < kMinLeafBytes) fail();
    if (previous_leaf && seamJoins(previous_leaf->bytes, leaf.bytes)) fail();
    previous_leaf = &leaf;
  }
};

} // namespace

bool checkTree(const Node& root) {
  TreeChecker checker;
  checker.check(root, true);
  if (!checker.ok) return false;
  // Independently of the seams: the whole text measured in one piece gives the same metrics.
  std::string whole;
  whole.reserve(root.metrics.bytes);
  std::vector<const Node*> stack = {&root};
  while (!stack.empty()) {
    const Node* node = stack.back();
    stack.pop_back();
    if (node->isLeaf()) {
      whole += node->leaf().bytes;
      continue;
    }
    const Internal& internal = node->internal();
    for (std::size_t i = internal.count; i-- > 0;)
      stack.push_back(internal.children[i].get());
  }
  return measure(whole) == root.metrics;
}

} // namespace hashline::rope_detail
