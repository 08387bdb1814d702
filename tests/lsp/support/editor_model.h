// EditorModel: the test's own copy of one editor buffer, so the test client can play the editor:
// apply the TextEdits of a server's workspace/applyEdit (UTF-16 positions, as VS Code), type like
// a user, and produce the matching didChange content changes. Independent of hashline's code
// (its own position conversion), so a server bug cannot hide behind a shared helper.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::test {

class EditorModel {
public:
  using json = nlohmann::json;
  EditorModel(std::string uri, std::string text, std::int64_t version = 1)
      : uri(std::move(uri)), text(std::move(text)), version(version) {}

  /// Byte offset of an LSP position (UTF-16 code units); a character past the line end clamps.
  std::size_t offsetOf(std::uint32_t line, std::uint32_t character) const;
  /// The LSP position of a byte offset.
  json positionOf(std::size_t offset) const;

  /// Applies the edits of one TextDocumentEdit (all against the current text); returns the
  /// didChange content changes that describe it (bottom-up, each valid when applied in order).
  std::vector<json> applyTextEdits(const json& edits);
  /// Replaces bytes [begin, end) with `replacement`; returns the content change.
  json replaceBytes(std::size_t begin, std::size_t end, const std::string& replacement);

  /// 0-based line `line`'s byte range (without its line break).
  std::pair<std::size_t, std::size_t> lineBytes(std::size_t line) const;
  std::vector<std::string> lines() const; // split on '\n', no phantom last line

  std::string uri;
  std::string text;
  std::int64_t version;
};

} // namespace hashline::test
