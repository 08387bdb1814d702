// DocumentSymbols: a file's symbols as the editor's language server reported them
// (`textDocument/documentSymbol`, asked by the plugin on the sidecar's behalf; issue 21), flattened
// into named line spans, and the lookup of `read --symbol Class.method`.
//
// Accepts both answer shapes of the LSP: DocumentSymbol[] (a tree: `children`) and
// SymbolInformation[] (flat: `location.range`, `containerName`). A symbol's qualified name joins
// its parents' names with '.'; a name the server already qualified ("Foo::bar", clangd's
// out-of-line definitions) splits on "::" as well. Lines are 1-based and inclusive; a range that
// ends at a line's start does not take that line. Bounds: kMaxSymbols entries, kMaxDepth levels,
// names cut at kMaxNameBytes. Nothing here does I/O.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hashline::context {

struct DocumentSymbol {
  std::string name;      // as the server named it
  std::string qualified; // "Outer.Inner.name"
  std::string kind;      // "function", "class", ... (the LSP SymbolKind's name)
  std::string detail;    // the server's detail (a signature), may be empty
  std::uint32_t first_line = 0, last_line = 0; // 1-based, inclusive
  std::uint32_t depth = 0;                     // 0 for top-level symbols
};

struct SymbolList {
  std::vector<DocumentSymbol> symbols; // in document order (a parent before its children)
  std::size_t dropped = 0;             // beyond the bounds
};

inline constexpr std::size_t kMaxSymbols = 5000;
inline constexpr std::uint32_t kMaxDepth = 16;
inline constexpr std::size_t kMaxNameBytes = 200;

/// The LSP SymbolKind's name ("function" for 12); "symbol" for a number outside 1..26.
std::string_view symbolKindName(std::int64_t kind);

/// Flattens the server's answer; entries without a name or a usable range are skipped.
/// The problem (for the answer's reason) when `answer` is not an array.
std::optional<std::string> flattenSymbols(const nlohmann::json& answer, SymbolList& out);

/// The symbols `query` names: "Class.method", "Class::method" or "method". An exact qualified
/// name wins; else every symbol whose qualified name ends with the query's parts. Indexes into
/// `list.symbols`, in document order.
std::vector<std::size_t> findSymbols(const SymbolList& list, std::string_view query);

/// One symbol as the outline lists it: {name, qualifiedName, kind, detail?, from, to, depth}.
nlohmann::json symbolToJSON(const DocumentSymbol& symbol);

} // namespace hashline::context
