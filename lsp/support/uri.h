// file:// URIs <-> filesystem paths, as LSP clients spell them.
//
// Editors send `file:///home/me/a%20b.txt`; VS Code percent-encodes more characters than Neovim
// does (":" in drive letters, "@", ...). The workspace keys documents by the canonical form
// (`canonicalFileUri`), so two spellings of one file meet, while replies reuse the client's own
// spelling. Pure string functions; no filesystem access.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hashline {

/// The path of a `file:` URI (percent-decoded); nullopt for another scheme, a remote host, or a
/// malformed escape. `file:///a`, `file://localhost/a` and `file:/a` all give "/a".
std::optional<std::string> fileUriToPath(std::string_view uri);

/// `file://` + the path, percent-encoding every byte that is not unreserved (A-Z a-z 0-9 - . _ ~)
/// or "/". Precondition: `path` is absolute.
std::string pathToFileUri(std::string_view path);

/// The canonical spelling of a URI: file URIs re-encoded from their path; any other URI unchanged.
std::string canonicalUri(std::string_view uri);

/// Decodes %XX escapes; nullopt on a malformed escape.
std::optional<std::string> percentDecode(std::string_view text);

} // namespace hashline
