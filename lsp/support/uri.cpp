// Percent-encoding and the file: scheme (RFC 3986 / RFC 8089 subset used by editors).
#include "lsp/support/uri.h"

#include "engine/support/hex.h"

namespace hashline {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool isUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

} // namespace

std::optional<std::string> percentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    int high = hexValue(text[i + 1]), low = hexValue(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return out;
}

std::optional<std::string> fileUriToPath(std::string_view uri) {
  if (!startsWithNoCase(uri, "file:")) return std::nullopt;
  std::string_view rest = uri.substr(5);
  // Query and fragment are not part of a file path.
  if (auto cut = rest.find_first_of("?#"); cut != std::string_view::npos)
    rest = rest.substr(0, cut);
  if (rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    std::size_t slash = rest.find('/');
    std::string_view host = rest.substr(0, slash);
    if (!host.empty() && host != "localhost") return std::nullopt;
    if (slash == std::string_view::npos) return std::nullopt;
    rest = rest.substr(slash);
  }
  if (rest.empty() || rest.front() != '/') return std::nullopt;
  auto path = percentDecode(rest);
  if (!path || path->find('\0') != std::string::npos) return std::nullopt;
  return path;
}

std::string pathToFileUri(std::string_view path) {
  std::string out = "file://";
  out.reserve(out.size() + path.size());
  for (unsigned char c : path) {
    if (isUnreserved(c) || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      appendHexByte(out, c, HexCase::Upper);
    }
  }
  return out;
}

std::string canonicalUri(std::string_view uri) {
  if (auto path = fileUriToPath(uri)) return pathToFileUri(*path);
  return std::string(uri);
}

} // namespace hashline
