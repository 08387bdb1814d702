// Structural operations on the Rope's persistent B-tree (see rope_node.h).
#include "engine/text/rope_node.h"

#include <cassert>

namespace hashline::rope_detail {

NodePtr makeLeaf(std::string_view bytes) {
  auto node = std::make_shared<Node>();
  node->bytes.assign(bytes.data(), bytes.size());
  node->metrics = measure(node->bytes);
  return node;
}

void sealInternal(Node& node) {
  const std::size_t count = node.children.size();
  node.height = node.children.front()->height + 1;
  node.metrics = Metrics{};
  node.child_rows.resize(4 * count);
  for (std::size_t i = 0; i < count; ++i) {
    const Metrics& child = node.children[i]->metrics;
    node.metrics += child;
    node.child_rows[i] = child.bytes;
    node.child_rows[count + i] = child.breaks;
    node.child_rows[2 * count + i] = child.utf16;
    node.child_rows[3 * count + i] = child.code_points;
  }
}

NodePtr makeLeaf(std::string bytes, const Metrics& metrics) {
  auto node = std::make_shared<Node>();
  node->bytes = std::move(bytes);
  node->metrics = metrics;
  return node;
}

NodePtr makeInternal(std::vector<NodePtr> children) {
  assert(children.size() >= 2 && children.size() <= kMaxChildren);
  auto node = std::make_shared<Node>();
  node->children = std::move(children);
  sealInternal(*node);
  return node;
}

const NodePtr& emptyLeaf() {
  static const NodePtr empty = std::make_shared<const Node>();
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
      parents.push_back(makeInternal({level.begin() + begin, level.begin() + end}));
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
void pack(std::vector<NodePtr> children, std::vector<NodePtr>& out) {
  if (children.size() <= kMaxChildren) {
    out.push_back(makeInternal(std::move(children)));
    return;
  }
  std::size_t half = children.size() / 2;
  out.push_back(makeInternal({children.begin(), children.begin() + half}));
  out.push_back(makeInternal({children.begin() + half, children.end()}));
}

/// Appends to `out` one or two nodes of height max(a, b) holding a's leaves then b's.
void joinInto(const NodePtr& a, const NodePtr& b, std::vector<NodePtr>& out) {
  if (a->height == b->height) {
    if (a->isLeaf()) {
      out.push_back(a);
      out.push_back(b);
      return;
    }
    std::vector<NodePtr> children = a->children;
    children.insert(children.end(), b->children.begin(), b->children.end());
    pack(std::move(children), out);
    return;
  }
  std::vector<NodePtr> children;
  if (a->height > b->height) {
    children.assign(a->children.begin(), a->children.end() - 1);
    joinInto(a->children.back(), b, children);
  } else {
    joinInto(a, b->children.front(), children);
    children.insert(children.end(), b->children.begin() + 1, b->children.end());
  }
  pack(std::move(children), out);
}

/// A node over children [begin, end) of `node`: null, the single child, or a new node.
NodePtr nodeOfRange(const Node& node, std::size_t begin, std::size_t end) {
  if (begin >= end) return nullptr;
  if (end - begin == 1) return node.children[begin];
  return makeInternal({node.children.begin() + begin, node.children.begin() + end});
}

} // namespace

NodePtr join(const NodePtr& a, const NodePtr& b) {
  if (!a || a->metrics.bytes == 0) return b;
  if (!b || b->metrics.bytes == 0) return a;
  std::vector<NodePtr> out;
  joinInto(a, b, out);
  if (out.size() == 1) return out.front();
  return makeInternal(std::move(out));
}

std::pair<NodePtr, NodePtr> split(const NodePtr& node, std::size_t at) {
  if (at == 0) return {nullptr, node};
  if (at >= node->metrics.bytes) return {node, nullptr};
  assert(!node->isLeaf() && "split inside a leaf");
  const std::size_t* sizes = node->row(Row::Bytes);
  std::size_t prefix = 0;
  for (std::size_t i = 0; i < node->children.size(); ++i) {
    if (at == prefix)
      return {nodeOfRange(*node, 0, i), nodeOfRange(*node, i, node->children.size())};
    if (at < prefix + sizes[i]) {
      auto [left, right] = split(node->children[i], at - prefix);
      return {join(nodeOfRange(*node, 0, i), left),
              join(right, nodeOfRange(*node, i + 1, node->children.size()))};
    }
    prefix += sizes[i];
  }
  return {node, nullptr};
}

LeafRef leafAt(const Node* node, std::size_t at) {
  std::size_t start = 0;
  while (!node->isLeaf()) {
    const std::size_t last = node->children.size() - 1;
    const std::size_t* bytes = node->row(Row::Bytes);
    std::size_t index = 0;
    while (index < last && at >= bytes[index]) {
      at -= bytes[index];
      start += bytes[index];
      ++index;
    }
    node = node->children[index].get();
  }
  return {node, start};
}

void replaceLeaf(NodePtr& slot, std::size_t at, NodePtr replacement) {
  if (slot->isLeaf()) {
    slot = std::move(replacement);
    return;
  }
  // Sole owner: nobody else can observe the node, so updating it in place is invisible (the
  // node was created non-const, so casting the constness away is well-defined). Shared: copy.
  Node* node;
  if (slot.use_count() == 1) {
    node = const_cast<Node*>(slot.get());
  } else {
    auto copy = std::make_shared<Node>(*slot);
    node = copy.get();
    slot = std::move(copy);
  }
  const std::size_t last = node->children.size() - 1;
  const std::size_t* bytes = node->row(Row::Bytes);
  std::size_t index = 0;
  while (index < last && at >= bytes[index]) {
    at -= bytes[index];
    ++index;
  }
  replaceLeaf(node->children[index], at, std::move(replacement));
  // Refresh one column of the table and the totals; siblings' nodes are not touched.
  const std::size_t count = node->children.size();
  const Metrics& child = node->children[index]->metrics;
  std::size_t* rows = node->child_rows.data();
  node->metrics.bytes += child.bytes - rows[index];
  node->metrics.breaks += child.breaks - rows[count + index];
  node->metrics.utf16 += child.utf16 - rows[2 * count + index];
  node->metrics.code_points += child.code_points - rows[3 * count + index];
  rows[index] = child.bytes;
  rows[count + index] = child.breaks;
  rows[2 * count + index] = child.utf16;
  rows[3 * count + index] = child.code_points;
}

namespace {

struct TreeChecker {
  const Node* previous_leaf = nullptr;
  bool ok = true;

  void fail() { ok = false; }

  void check(const Node& node, bool is_root) {
    if (node.isLeaf()) {
      checkLeaf(node, is_root);
      return;
    }
    if (node.children.size() < 2 || node.children.size() > kMaxChildren) fail();
    Metrics sum;
    for (const auto& child : node.children) {
      if (!child || child->height + 1 != node.height) {
        fail();
        return;
      }
      sum += child->metrics;
      check(*child, false);
    }
    if (!(sum == node.metrics)) fail();
    for (std::size_t i = 0; i < node.children.size(); ++i) {
      const Metrics& child = node.children[i]->metrics;
      if (node.row(Row::Bytes)[i] != child.bytes || node.row(Row::Breaks)[i] != child.breaks ||
          node.row(Row::Utf16)[i] != child.utf16 ||
          node.row(Row::CodePoints)[i] != child.code_points)
        fail();
    }
  }

  void checkLeaf(const Node& leaf, bool is_root) {
    if (!leaf.children.empty()) fail();
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
  // Independently of the seams: the whole text measured in one piece gives the same metrics.
  std::string whole;
  whole.reserve(root.metrics.bytes);
  std::vector<const Node*> stack = {&root};
  while (!stack.empty()) {
    const Node* node = stack.back();
    stack.pop_back();
    if (node->isLeaf()) whole += node->bytes;
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it)
      stack.push_back(it->get());
  }
  return checker.ok && measure(whole) == root.metrics;
}

} // namespace hashline::rope_detail
