// Gitignore pattern parsing and glob matching; see gitignore.h.
#include "lsp/context/gitignore.h"

namespace hashline::context {

namespace {

/// Matches a `[...]` class at glob[i] (glob[i] == '['); sets `next` past it. A class without
/// its `]` is a literal `[`.
bool classMatch(std::string_view glob, std::size_t i, char c, std::size_t& next) {
  std::size_t j = i + 1;
  bool negate = false;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) {
    negate = true;
    ++j;
  }
  bool matched = false;
  bool first = true;
  for (; j < glob.size(); ++j) {
    char lo = glob[j];
    if (lo == ']' && !first) {
      next = j + 1;
      return c != '/' && matched != negate;
    }
    first = false;
    if (lo == '\\' && j + 1 < glob.size()) lo = glob[++j];
    char hi = lo;
    if (j + 2 < glob.size() && glob[j + 1] == '-' && glob[j + 2] != ']') {
      hi = glob[j + 2];
      if (hi == '\\' && j + 3 < glob.size()) {
        hi = glob[j + 3];
        ++j;
      }
      j += 2;
    }
    if (lo <= c && c <= hi) matched = true;
  }
  next = i + 1; // no closing bracket: a literal '['
  return c == '[';
}

bool match(std::string_view g, std::string_view t) {
  std::size_t gi = 0, ti = 0;
  while (gi < g.size()) {
    const char c = g[gi];
    if (c == '*') {
      const bool double_star = gi + 1 < g.size() && g[gi + 1] == '*';
      const bool at_segment_start = gi == 0 || g[gi - 1] == '/';
      if (double_star && at_segment_start) {
        std::size_t after = gi + 2;
        if (after == g.size()) return true; // `**` at the end: everything below
        if (g[after] == '/') {
          // `**/`: zero or more whole directories.
          std::string_view rest = g.substr(after + 1);
          if (match(rest, t.substr(ti))) return true;
          for (std::size_t k = ti; k < t.size(); ++k)
            if (t[k] == '/' && match(rest, t.substr(k + 1))) return true;
          return false;
        }
      }
      // A run of `*`: any characters but '/'.
      while (gi < g.size() && g[gi] == '*')
        ++gi;
      std::string_view rest = g.substr(gi);
      for (std::size_t k = ti;; ++k) {
        if (match(rest, t.substr(k))) return true;
        if (k >= t.size() || t[k] == '/') return false;
      }
    }
    if (ti >= t.size()) return false;
    if (c == '?') {
      if (t[ti] == '/') return false;
      ++gi;
      ++ti;
      continue;
    }
    if (c == '[') {
      std::size_t next = gi;
      if (!classMatch(g, gi, t[ti], next)) return false;
      gi = next;
      ++ti;
      continue;
    }
    char literal = c;
    if (c == '\\' && gi + 1 < g.size()) literal = g[++gi];
    if (t[ti] != literal) return false;
    ++gi;
    ++ti;
  }
  return ti == t.size();
}

} // namespace

bool globMatch(std::string_view glob, std::string_view text) {
  return match(glob, text);
}

std::optional<IgnorePattern> IgnorePattern::parse(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Trailing spaces go unless escaped.
  while (!line.empty() && line.back() == ' ' &&
         !(line.size() >= 2 && line[line.size() - 2] == '\\'))
    line.remove_suffix(1);
  if (line.empty() || line[0] == '#') return std::nullopt;
  IgnorePattern pattern;
  if (line[0] == '!') {
    pattern.negated = true;
    line.remove_prefix(1);
  } else if (line[0] == '\\' && line.size() > 1 && (line[1] == '#' || line[1] == '!')) {
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    pattern.dir_only = true;
    line.remove_suffix(1);
  }
  if (line.empty()) return std::nullopt;
  if (line.find('/') != std::string_view::npos) pattern.anchored = true;
  if (line[0] == '/') line.remove_prefix(1);
  if (line.empty()) return std::nullopt;
  pattern.glob = std::string(line);
  return pattern;
}

bool IgnorePattern::matches(std::string_view relative, std::string_view name, bool is_dir) const {
  if (dir_only && !is_dir) return false;
  return globMatch(glob, anchored ? relative : name);
}

IgnoreList IgnoreList::parse(std::string_view text) {
  IgnoreList list;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (auto pattern = IgnorePattern::parse(line)) list.add(std::move(*pattern));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return list;
}

IgnoreVerdict IgnoreList::verdict(std::string_view relative, bool is_dir) const {
  const std::size_t slash = relative.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? relative : relative.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it)
    if (it->matches(relative, name, is_dir))
      return it->negated ? IgnoreVerdict::Included : IgnoreVerdict::Ignored;
  return IgnoreVerdict::None;
}

std::string GlobFilter::add(std::string_view glob) {
  bool exclude = false;
  if (!glob.empty() && glob[0] == '!') {
    exclude = true;
    glob.remove_prefix(1);
  }
  std::optional<IgnorePattern> pattern = IgnorePattern::parse(glob);
  if (!pattern || pattern->negated) return "empty glob";
  pattern->dir_only = false;
  if (glob.back() == '/') { // `dir/` as a glob: every file below it
    pattern->glob += "/**";
    pattern->anchored = true;
  }
  (exclude ? excludes_ : includes_).push_back(std::move(*pattern));
  return "";
}

bool GlobFilter::admits(std::string_view relative) const {
  const std::size_t slash = relative.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? relative : relative.substr(slash + 1);
  for (const IgnorePattern& pattern : excludes_)
    if (pattern.matches(relative, name, false)) return false;
  if (includes_.empty()) return true;
  for (const IgnorePattern& pattern : includes_)
    if (pattern.matches(relative, name, false)) return true;
  return false;
}

} // namespace hashline::context
