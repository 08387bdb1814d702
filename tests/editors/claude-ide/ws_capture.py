#!/usr/bin/env python3
"""A recording relay between Claude Code and hashline's IDE WebSocket (stdlib only).

Listens on 127.0.0.1 (an ephemeral port, printed as "listening PORT"), connects each client to
127.0.0.1:UPSTREAM and copies the bytes both ways unchanged, while it decodes what passes: the HTTP
upgrade request and answer (header names and values; the auth token's value is replaced by its
length) and every WebSocket frame (client frames unmasked; permessage-deflate inflated if it was
negotiated). One JSON line per item to --log:
  {"t": seconds since start, "dir": "claude->ide" | "ide->claude", "http": [lines]}
  {"t": ..., "dir": ..., "opcode": N, "message": decoded JSON or text}
Usage: ws_capture.py --upstream PORT --log ws.jsonl
"""
import argparse
import json
import socket
import sys
import threading
import time
import zlib

START = time.monotonic()
LOCK = threading.Lock()


def record(log, item):
    item = dict(item, t=round(time.monotonic() - START, 3))
    with LOCK:
        log.write(json.dumps(item) + "\n")
        log.flush()


class Decoder:
    def __init__(self, log, direction, shared):
        self.log, self.dir, self.shared = log, direction, shared
        self.buf = bytearray()
        self.http_done = False
        self.fragments = None
        self.inflater = None

    def feed(self, data):
        self.buf.extend(data)
        if not self.http_done:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].decode("latin-1").split("\r\n")
            del self.buf[: end + 4]
            self.http_done = True
            lines = []
            for line in head:
                name, sep, value = line.partition(":")
                if sep and name.strip().lower() == "x-claude-code-ide-authorization":
                    line = "%s: <token, %d characters>" % (name, len(value.strip()))
                if sep and name.strip().lower() == "sec-websocket-extensions" and "permessage-deflate" in value \
                        and self.dir == "ide->claude":
                    self.shared["deflate"] = True
                lines.append(line)
            record(self.log, {"dir": self.dir, "http": lines})
        while self.frame():
            pass

    def frame(self):
        b = self.buf
        if len(b) < 2:
            return False
        fin, rsv1, opcode = b[0] & 0x80, b[0] & 0x40, b[0] & 0x0F
        masked, length, at = b[1] & 0x80, b[1] & 0x7F, 2
        if length == 126:
            if len(b) < 4:
                return False
            length, at = int.from_bytes(b[2:4], "big"), 4
        elif length == 127:
            if len(b) < 10:
                return False
            length, at = int.from_bytes(b[2:10], "big"), 10
        mask = b""
        if masked:
            if len(b) < at + 4:
                return False
            mask, at = bytes(b[at:at + 4]), at + 4
        if len(b) < at + length:
            return False
        payload = bytearray(b[at:at + length])
        del b[: at + length]
        if masked:
            for i in range(len(payload)):
                payload[i] ^= mask[i % 4]
        if opcode in (1, 2):
            self.fragments = [opcode, bool(rsv1), payload]
        elif opcode == 0 and self.fragments:
            self.fragments[2].extend(payload)
        else:  # control frames
            record(self.log, {"dir": self.dir, "opcode": opcode, "message": payload.decode("utf-8", "replace")})
            return True
        if fin and self.fragments:
            kind, compressed, data = self.fragments
            self.fragments = None
            if compressed and self.shared.get("deflate"):
                if self.inflater is None:
                    self.inflater = zlib.decompressobj(-15)
                data = self.inflater.decompress(bytes(data) + b"\x00\x00\xff\xff")
            text = bytes(data).decode("utf-8", "replace")
            try:
                message = json.loads(text)
            except ValueError:
                message = text
            record(self.log, {"dir": self.dir, "opcode": kind, "message": message})
        return True


def pipe(src, dst, decoder):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
            try:
                decoder.feed(data)
            except Exception as e:  # never break the relay for a decoding problem
                record(decoder.log, {"dir": decoder.dir, "decode_error": repr(e)})
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    log = open(args.log, "a", encoding="utf-8")
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    print("listening %d" % server.getsockname()[1], flush=True)
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", args.upstream))
        shared = {}
        record(log, {"dir": "claude->ide", "connection": "opened"})
        threading.Thread(target=pipe, args=(client, upstream, Decoder(log, "claude->ide", shared)), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client, Decoder(log, "ide->claude", shared)), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
