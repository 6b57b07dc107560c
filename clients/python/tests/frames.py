"""The WebSocket framing without a server: what the node's `ws` library never sends us on its own (fragmented
messages with a ping between the fragments, split reads, protocol violations) and the handshake's accept check.

test/clients/python.test.ts runs this; it exits non-zero on the first wrong answer and prints "frames ok".
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_node_client._websocket import (  # noqa: E402
    OP_CLOSE,
    OP_CONTINUATION,
    OP_PING,
    OP_TEXT,
    Endpoint,
    FrameReader,
    WebSocketProtocolError,
    encode_frame,
)


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"FAILED: {what}")


def server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A frame as a server sends it: unmasked."""
    n = len(payload)
    first = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        return first + bytes([n]) + payload
    if n < 1 << 16:
        return first + bytes([126]) + n.to_bytes(2, "big") + payload
    return first + bytes([127]) + n.to_bytes(8, "big") + payload


def unmask(frame: bytes) -> tuple[int, bytes]:
    """Reads one client frame back: (opcode, payload), checking the mask bit and the length encoding."""
    check(frame[1] & 0x80 != 0, "client frames are masked")
    n, at = frame[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(frame[2:4], "big"), 4
    elif n == 127:
        n, at = int.from_bytes(frame[2:10], "big"), 10
    mask, body = frame[at : at + 4], frame[at + 4 :]
    check(len(body) == n, f"payload length {len(body)} == {n}")
    return frame[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(body))


def main() -> None:
    # Client frames: the three length encodings, masked, and they read back to what went in.
    for size in (0, 5, 125, 126, 65535, 65536, 70000):
        payload = os.urandom(size)
        opcode, back = unmask(encode_frame(OP_TEXT, payload))
        check(opcode == OP_TEXT and back == payload, f"a {size}-byte client frame round-trips")

    # A text message in three fragments with a ping between them, fed one byte at a time.
    reader = FrameReader()
    wire = (
        server_frame(OP_TEXT, b'{"a":', fin=False)
        + server_frame(OP_PING, b"hi")
        + server_frame(OP_CONTINUATION, b'"\xc3\xa9', fin=False)
        + server_frame(OP_CONTINUATION, b'"}')
    )
    events: list[tuple[str, object]] = []
    for i in range(len(wire)):
        events += reader.feed(wire[i : i + 1])
    check(events == [("ping", b"hi"), ("text", '{"a":"é"}')], f"fragmented message and ping: {events!r}")

    # 16- and 64-bit lengths from the server, two frames in one read.
    big, bigger = "x" * 300, "y" * 70000
    events = reader.feed(server_frame(OP_TEXT, big.encode()) + server_frame(OP_TEXT, bigger.encode()))
    check(events == [("text", big), ("text", bigger)], "long frames")

    events = reader.feed(server_frame(OP_CLOSE, (1008).to_bytes(2, "big") + b"slow consumer"))
    check(events == [("close", (1008, "slow consumer"))], f"close code and reason: {events!r}")

    bad = {
        "a masked server frame": bytes([0x81, 0x80 | 1]) + b"\0\0\0\0x",
        "a continuation with nothing to continue": server_frame(OP_CONTINUATION, b"x"),
        "reserved bits": bytes([0xC1, 1]) + b"x",
        "a fragmented ping": server_frame(OP_PING, b"", fin=False),
        "a text frame inside a fragmented message": server_frame(OP_TEXT, b"a", fin=False) + server_frame(OP_TEXT, b"b"),
    }
    for what, frame in bad.items():
        try:
            FrameReader().feed(frame)
            check(False, f"{what} must be refused")
        except WebSocketProtocolError:
            pass

    # The accept hash: RFC 6455 §1.3's own example key and answer; a wrong answer is refused.
    end = Endpoint("ws://127.0.0.1:8545/ws", None)
    end.key = "dGhlIHNhbXBsZSBub25jZQ=="
    ok = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    end.check(ok + b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", b"")
    try:
        end.check(ok + b"Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=", b"")
        check(False, "a wrong Sec-WebSocket-Accept must be refused")
    except WebSocketProtocolError:
        pass
    print("frames ok")


if __name__ == "__main__":
    main()
