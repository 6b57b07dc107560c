"""A WebSocket client (RFC 6455) on the standard library: the opening handshake, masked client frames, and a
frame reader that joins fragmented messages and answers pings. Text messages only go out; the node speaks JSON.

The framing is sans-I/O (FrameReader, encode_frame, the handshake helpers) so the blocking socket and the asyncio
streams share it: each side only moves bytes.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

from ._runtime import RpcError, split_url

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class WebSocketClosed(ConnectionError):
    """The connection ended: the server's close code and reason (1006 when the socket dropped without a close)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"WebSocket closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


class WebSocketProtocolError(ConnectionError):
    """The server sent something RFC 6455 forbids; the connection is closed with 1002."""


def encode_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """One client frame: always masked (RFC 6455 §5.3), with a fresh random key."""
    n = len(payload)
    head = bytearray([(0x80 if fin else 0) | opcode])
    if n < 126:
        head.append(0x80 | n)
    elif n < 1 << 16:
        head.append(0x80 | 126)
        head += n.to_bytes(2, "big")
    else:
        head.append(0x80 | 127)
        head += n.to_bytes(8, "big")
    mask = os.urandom(4)
    # One big-int XOR instead of a per-byte loop: the key repeated to the payload's length.
    key = (mask * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return bytes(head) + mask + masked


def close_payload(code: int, reason: str = "") -> bytes:
    return code.to_bytes(2, "big") + reason.encode()[:123]


class FrameReader:
    """Bytes in, events out: ('text', str), ('ping', bytes), ('pong', bytes), ('close', (code, reason))."""

    def __init__(self, max_message: int = 64 * 1024 * 1024) -> None:
        self._buffer = bytearray()
        self._fragments: bytearray | None = None
        self._fragment_opcode = 0
        self._max = max_message

    def feed(self, data: bytes) -> list[tuple[str, Any]]:
        self._buffer += data
        events: list[tuple[str, Any]] = []
        while (frame := self._frame()) is not None:
            fin, opcode, payload = frame
            if opcode >= OP_CLOSE:
                if not fin or len(payload) > 125:
                    raise WebSocketProtocolError("a control frame was fragmented or longer than 125 bytes")
                if opcode == OP_CLOSE:
                    code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                    events.append(("close", (code, payload[2:].decode(errors="replace"))))
                elif opcode == OP_PING:
                    events.append(("ping", payload))
                elif opcode == OP_PONG:
                    events.append(("pong", payload))
                else:
                    raise WebSocketProtocolError(f"unknown control opcode {opcode:#x}")
                continue
            if opcode == OP_CONTINUATION:
                if self._fragments is None:
                    raise WebSocketProtocolError("a continuation frame with no message to continue")
                self._fragments += payload
            elif opcode in (OP_TEXT, OP_BINARY):
                if self._fragments is not None:
                    raise WebSocketProtocolError("a new message began inside a fragmented one")
                self._fragments = bytearray(payload)
                self._fragment_opcode = opcode
            else:
                raise WebSocketProtocolError(f"unknown data opcode {opcode:#x}")
            if len(self._fragments) > self._max:
                raise WebSocketProtocolError(f"a message larger than {self._max} bytes")
            if fin:
                message, self._fragments = bytes(self._fragments), None
                kind = "text" if self._fragment_opcode == OP_TEXT else "binary"
                events.append((kind, message.decode() if kind == "text" else message))
        return events

    def _frame(self) -> tuple[bool, int, bytes] | None:
        buf = self._buffer
        if len(buf) < 2:
            return None
        if buf[0] & 0x70:
            raise WebSocketProtocolError("reserved bits set, but no extension was negotiated")
        if buf[1] & 0x80:
            raise WebSocketProtocolError("the server masked a frame")
        length, at = buf[1] & 0x7F, 2
        if length == 126:
            if len(buf) < 4:
                return None
            length, at = int.from_bytes(buf[2:4], "big"), 4
        elif length == 127:
            if len(buf) < 10:
                return None
            length, at = int.from_bytes(buf[2:10], "big"), 10
        if length > self._max:
            raise WebSocketProtocolError(f"a frame larger than {self._max} bytes")
        if len(buf) < at + length:
            return None
        fin, opcode, payload = bool(buf[0] & 0x80), buf[0] & 0x0F, bytes(buf[at : at + length])
        del buf[: at + length]
        return fin, opcode, payload


class Endpoint:
    def __init__(self, url: str, headers: dict[str, str] | None) -> None:
        if urlsplit(url).scheme not in ("ws", "wss"):
            raise ValueError(f"a WebSocket URL starts with ws:// or wss://, not {url!r}")
        self.secure, self.host, self.port, self.path = split_url(url, "wss")
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.headers = headers or {}

    def request(self) -> bytes:
        extra = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
        return (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
        ).encode()

    def check(self, head: bytes, body: bytes) -> None:
        """The server's answer to the upgrade: 101 with the accept hash of our key, or an error to raise."""
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1]) if len(lines[0].split()) > 1 else 0
        fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        if status != 101:
            # The node refuses an upgrade with a JSON-RPC error body when it has one (401 without a credential).
            try:
                error = json.loads(body)["error"]
                raise RpcError(int(error["code"]), str(error["message"]), error.get("data"))
            except (ValueError, KeyError, TypeError):
                refused = f"WebSocket upgrade refused: HTTP {status} {body[:200].decode(errors='replace')}"
                raise ConnectionError(refused) from None
        expected = base64.b64encode(hashlib.sha1(self.key.encode() + _GUID).digest()).decode()
        if fields.get("upgrade", "").lower() != "websocket" or fields.get("sec-websocket-accept") != expected:
            raise WebSocketProtocolError("the server's 101 answer lacks the right Upgrade or Sec-WebSocket-Accept")

    @staticmethod
    def body_length(head: bytes) -> int:
        for line in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                return int(value.strip())
        return 0


class WebSocket:
    """A blocking WebSocket connection; `receive()` gives the next text message, answering pings on the way."""

    def __init__(self, url: str, timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        end = Endpoint(url, headers)
        sock = socket.create_connection((end.host, end.port), timeout)
        if end.secure:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=end.host)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        self._reader = FrameReader()
        self._events: list[tuple[str, Any]] = []
        self.closed: WebSocketClosed | None = None
        self.pings = 0
        """Pings answered: a blocking client answers only while it reads, so one that stops reading for longer than
        the node's ping interval (network.rpc.ws.ping-interval, 30 s) is disconnected."""
        sock.sendall(end.request())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed the connection during the WebSocket handshake")
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        try:
            if not head.startswith(b"HTTP/1.1 101"):
                while len(rest) < Endpoint.body_length(head) and (chunk := sock.recv(4096)):
                    rest += chunk
            end.check(head, rest)
        except BaseException:
            sock.close()
            raise
        self._events = self._reader.feed(rest)

    def send_text(self, text: str) -> None:
        if self.closed is not None:
            raise self.closed
        self._sock.sendall(encode_frame(OP_TEXT, text.encode()))

    def receive(self) -> str:
        """The next text message; raises WebSocketClosed when the connection ends, TimeoutError past the timeout."""
        while True:
            while self._events:
                kind, value = self._events.pop(0)
                if kind == "text":
                    return value
                if kind == "ping":
                    self._sock.sendall(encode_frame(OP_PONG, value))
                    self.pings += 1
                elif kind == "close":
                    self._closed_by_server(*value)
            if self.closed is not None:
                raise self.closed
            chunk = self._sock.recv(65536)
            if not chunk:
                self._drop(WebSocketClosed(1006, "the connection dropped"))
            try:
                self._events = self._reader.feed(chunk)
            except WebSocketProtocolError as error:
                self._fail(error)

    def _closed_by_server(self, code: int, reason: str) -> None:
        try:
            self._sock.sendall(encode_frame(OP_CLOSE, close_payload(code if code != 1005 else 1000)))
        except OSError:
            pass
        self._drop(WebSocketClosed(code, reason))

    def _fail(self, error: WebSocketProtocolError) -> None:
        try:
            self._sock.sendall(encode_frame(OP_CLOSE, close_payload(1002, str(error))))
        except OSError:
            pass
        self._sock.close()
        self.closed = WebSocketClosed(1002, str(error))
        raise error

    def _drop(self, closed: WebSocketClosed) -> None:
        self.closed = closed
        self._sock.close()
        raise closed

    def close(self, code: int = 1000) -> None:
        """The closing handshake: our close frame, then the server's (briefly awaited), then the socket."""
        if self.closed is not None:
            return
        self.closed = WebSocketClosed(code, "closed by the client")
        try:
            self._sock.sendall(encode_frame(OP_CLOSE, close_payload(code)))
            self._sock.settimeout(2.0)
            while (chunk := self._sock.recv(65536)) and not any(k == "close" for k, _ in self._reader.feed(chunk)):
                pass
        except (OSError, WebSocketProtocolError):
            pass
        finally:
            self._sock.close()


class AsyncWebSocket:
    """The same connection on asyncio streams. `receive()` must have one caller at a time (the client's reader task)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._stream = reader
        self._writer = writer
        self._events: list[tuple[str, Any]] = []
        self._reader = FrameReader()
        self._sending = asyncio.Lock()  # one frame and its drain() at a time, whatever the Python
        self.closed: WebSocketClosed | None = None
        self.pings = 0

    @classmethod
    async def connect(cls, url: str, headers: dict[str, str] | None = None) -> AsyncWebSocket:
        end = Endpoint(url, headers)
        reader, writer = await asyncio.open_connection(end.host, end.port, ssl=True if end.secure else None)
        try:
            writer.write(end.request())
            await writer.drain()
            head = (await reader.readuntil(b"\r\n\r\n"))[:-4]
            body = b"" if head.startswith(b"HTTP/1.1 101") else await reader.read(Endpoint.body_length(head))
            end.check(head, body)
        except BaseException:
            writer.close()
            raise
        return cls(reader, writer)

    async def send_text(self, text: str) -> None:
        if self.closed is not None:
            raise self.closed
        async with self._sending:
            self._writer.write(encode_frame(OP_TEXT, text.encode()))
            await self._writer.drain()

    async def receive(self) -> str:
        while True:
            while self._events:
                kind, value = self._events.pop(0)
                if kind == "text":
                    return value
                if kind == "ping":
                    self._writer.write(encode_frame(OP_PONG, value))
                    self.pings += 1
                elif kind == "close":
                    await self._finish(value[0], WebSocketClosed(*value))
            if self.closed is not None:
                raise self.closed
            chunk = await self._stream.read(65536)
            if not chunk:
                await self._finish(None, WebSocketClosed(1006, "the connection dropped"))
            try:
                self._events = self._reader.feed(chunk)
            except WebSocketProtocolError as error:
                await self._finish(1002, WebSocketClosed(1002, str(error)))

    async def _finish(self, echo: int | None, closed: WebSocketClosed) -> None:
        self.closed = closed
        if echo is not None:
            try:
                self._writer.write(encode_frame(OP_CLOSE, close_payload(echo if echo != 1005 else 1000)))
            except OSError:
                pass
        await self._shut()
        raise closed

    async def _shut(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:
            pass

    async def close(self, code: int = 1000) -> None:
        """Our close frame, then the socket; the client's reader task sees the server's close and ends."""
        if self.closed is not None:
            return
        self.closed = WebSocketClosed(code, "closed by the client")
        try:
            self._writer.write(encode_frame(OP_CLOSE, close_payload(code)))
            await self._writer.drain()
        except OSError:
            pass
        await self._shut()
