// Gitignore patterns and path globs for the workspace search (lsp/context/workspace_walk.h).
//
// IgnorePattern is one line of a .gitignore (the common subset of gitignore(5)): blank lines and
// `#` comments are skipped; `!` negates; a trailing `/` matches directories only; a pattern with a
// `/` anywhere but at its end is anchored to the .gitignore's directory (a leading `/` only
// anchors), else it matches the last path component at any depth; `*` and `?` never match `/`,
// `[...]` / `[!...]` are classes, `**/` matches any directories (none included), `/**` everything
// inside, `/**/` zero or more directories; `\` escapes the next character. Trailing spaces are
// trimmed unless escaped.
//
// IgnoreList is one file's patterns, in order: the last pattern that matches a path decides.
// The walker keeps one IgnoreList per directory that has a .gitignore and asks them deepest
// first (a nested file overrides its parents; a path inside an ignored directory is never
// visited, as in git). The same patterns serve `--glob` (matched against the path relative to
// the search root). Pure; no I/O; thread-safe once built (const).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::context {

/// `*`, `?`, `[...]` and `**` glob matching of `text` (a relative path) against `glob`.
bool globMatch(std::string_view glob, std::string_view text);

struct IgnorePattern {
  std::string glob;      // as matched: anchored patterns against the whole relative path
  bool negated = false;  // `!pattern`: re-includes
  bool dir_only = false; // `pattern/`: directories only
  bool anchored = false; // contains a `/`: relative to the file's directory

  /// Parses one .gitignore line; nullopt for blank lines and comments.
  static std::optional<IgnorePattern> parse(std::string_view line);
  /// Whether it matches `relative` (to the .gitignore's directory; no leading `/`) whose last
  /// component is `name`.
  bool matches(std::string_view relative, std::string_view name, bool is_dir) const;
};

enum class IgnoreVerdict { None, Ignored, Included };

class IgnoreList {
public:
  /// Parses the text of a .gitignore.
  static IgnoreList parse(std::string_view text);
  void add(IgnorePattern pattern) { patterns_.push_back(std::move(pattern)); }
  /// The last matching pattern's verdict, or None.
  IgnoreVerdict verdict(std::string_view relative, bool is_dir) const;
  bool empty() const { return patterns_.empty(); }

private:
  std::vector<IgnorePattern> patterns_;
};

/// `--glob` filters, rg-style: `G` includes, `!G` excludes; when any include is given, a file
/// must match one. Globs without `/` match the file name, others the path relative to the root.
class GlobFilter {
public:
  /// An empty string when every glob is usable, else the problem.
  std::string add(std::string_view glob);
  bool empty() const { return includes_.empty() && excludes_.empty(); }
  bool admits(std::string_view relative) const;

private:
  std::vector<IgnorePattern> includes_;
  std::vector<IgnorePattern> excludes_;
};

} // namespace hashline::context
