// Fuzzes the LSP base-protocol framing (lsp/transport/framing.h).
//
// Input: byte 0 picks the limits (a tiny body cap so Oversized skipping is reached), byte 1
// seeds the split points, the rest is the stream. The same stream is fed to one FrameParser in
// one piece and to another in random-sized pieces (as reads return them); both must produce the
// same events (kind, body, declared size) — framing may not depend on where reads split. Every
// Message body is then re-framed with appendFrame and must parse back to itself.
#include "lsp/transport/framing.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>
#include <vector>

namespace {

using hashline::lsp::FrameEvent;
using hashline::lsp::FrameParser;
using hashline::lsp::FramingLimits;

struct Seen {
  FrameEvent::Kind kind;
  std::string body;
  std::size_t declared;
  bool operator==(const Seen&) const = default;
};

// Pulls events until NeedMore or Broken; returns false once broken.
bool drain(FrameParser& parser, std::vector<Seen>& out) {
  for (int guard = 0; guard < 100000; ++guard) {
    FrameEvent event = parser.next();
    if (event.kind == FrameEvent::NeedMore) return true;
    out.push_back({event.kind, event.kind == FrameEvent::Message ? event.body : std::string(),
                   event.kind == FrameEvent::Oversized ? event.declared_bytes : 0});
    if (event.kind == FrameEvent::Broken) {
      FUZZ_CHECK(parser.broken());
      return false;
    }
  }
  FUZZ_CHECK(false, "next() never returned NeedMore");
  return false;
}

} // namespace

HASHLINE_FUZZ_TARGET(framing) {
  hashline::fuzz::ByteReader input(data, size);
  std::uint8_t mode = input.byte();
  std::uint32_t split_seed = input.byte() * 2654435761u + 1;
  std::string_view stream = input.rest();

  FramingLimits limits;
  if (mode & 1) limits.max_body_bytes = mode >> 1; // 0..127 bytes
  if (mode & 2) limits.max_header_bytes = 16 + (mode >> 2);

  FrameParser whole(limits);
  std::vector<Seen> whole_events;
  whole.feed(stream);
  drain(whole, whole_events);

  FrameParser pieces(limits);
  std::vector<Seen> piece_events;
  std::size_t at = 0;
  bool alive = true;
  while (at < stream.size() && alive) {
    split_seed = split_seed * 1103515245u + 12345u;
    std::size_t length = 1 + (split_seed >> 16) % 9;
    if ((split_seed >> 8) % 7 == 0) length = 1 + (split_seed >> 12) % 200;
    pieces.feed(stream.substr(at, length));
    at += length;
    alive = drain(pieces, piece_events);
  }
  FUZZ_CHECK(whole_events == piece_events, "events depend on how the stream was split");
  FUZZ_CHECK(whole.broken() == pieces.broken());
  if (!whole.broken()) FUZZ_CHECK(whole.midMessage() == pieces.midMessage());

  // Round trip: whatever body came out frames and parses back to itself.
  for (const Seen& seen : whole_events) {
    if (seen.kind != FrameEvent::Message) continue;
    FrameParser again;
    again.feed(hashline::lsp::frameMessage(seen.body));
    FrameEvent event = again.next();
    FUZZ_CHECK(event.kind == FrameEvent::Message && event.body == seen.body);
    FUZZ_CHECK(again.next().kind == FrameEvent::NeedMore && !again.midMessage());
  }
  return 0;
}
