"""What every generated method shares: the HTTP transport, the quantity codec and the error type.

Standard library only. The codec is the one place where hex quantities become ints and back; the generated
client.py only says where they sit (its shape tables).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
from collections.abc import Sequence
from typing import Any, Generic, TypeVar, Union, cast
from urllib.parse import urlsplit

Shape = Union[str, list[Any]]
"""'q', ['o', {field: shape}], ['a', shape], ['r', component] or ['u', decode, [shapes]] (see codegen/emit-python.ts)."""

_Self = TypeVar("_Self", bound="ClientBase")
_ASelf = TypeVar("_ASelf", bound="AsyncClientBase")
T = TypeVar("T")

_QUANTITY = re.compile(r"^0x[0-9a-fA-F]+$")


class RpcError(Exception):
    """A JSON-RPC error answer: its code (EIP-1474), message and optional data."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message
        self.data = data


class Codec:
    def __init__(self, components: dict[str, Shape]) -> None:
        self._components = components

    def encode(self, value: Any, shape: Shape | None) -> Any:
        """Python → wire: ints where a quantity sits become 0x-hex; everything else passes as it is."""
        if value is None or shape is None:
            return value
        if shape == "q":
            return hex(value) if isinstance(value, int) and not isinstance(value, bool) else value
        kind = shape[0]
        if kind == "r":
            return self.encode(value, self._components.get(shape[1]))
        if kind == "o" and isinstance(value, dict):
            fields = cast("dict[str, Shape]", shape[1])
            return {k: self.encode(v, fields.get(k)) for k, v in cast("dict[str, Any]", value).items()}
        if kind == "a" and isinstance(value, list):
            return [self.encode(v, shape[1]) for v in cast("list[Any]", value)]
        if kind == "u":
            for alt in shape[2]:
                if self._fits(value, alt):
                    return self.encode(value, alt)
        return value

    def decode(self, value: Any, shape: Shape | None) -> Any:
        """Wire → Python: 0x-hex quantities become ints."""
        if value is None or shape is None:
            return value
        if shape == "q":
            return int(value, 16) if isinstance(value, str) and _QUANTITY.match(value) else value
        kind = shape[0]
        if kind == "r":
            return self.decode(value, self._components.get(shape[1]))
        if kind == "o" and isinstance(value, dict):
            fields = cast("dict[str, Shape]", shape[1])
            return {k: self.decode(v, fields.get(k)) for k, v in cast("dict[str, Any]", value).items()}
        if kind == "a" and isinstance(value, list):
            return [self.decode(v, shape[1]) for v in cast("list[Any]", value)]
        if kind == "u":
            # A string in a union is a quantity only when no other string (a tag, a hash) could be there.
            if isinstance(value, str) and not shape[1]:
                return value
            for alt in shape[2]:
                if self._fits(value, alt):
                    return self.decode(value, alt)
        return value

    def _fits(self, value: Any, shape: Shape) -> bool:
        if shape == "q":
            return isinstance(value, (int, str)) and not isinstance(value, bool)
        if shape[0] == "r":
            target = self._components.get(shape[1])
            return target is not None and self._fits(value, target)
        if shape[0] == "o":
            return isinstance(value, dict)
        if shape[0] == "a":
            return isinstance(value, list)
        return any(self._fits(value, alt) for alt in shape[2])


def split_url(url: str, secure_scheme: str) -> tuple[bool, str, int, str]:
    """(secure, host, port, path with its query) of a node URL; the scheme's default port when it names none."""
    parts = urlsplit(url)
    secure = parts.scheme == secure_scheme
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return secure, parts.hostname or "127.0.0.1", parts.port or (443 if secure else 80), path


class HttpTransport:
    """One keep-alive HTTP/1.1 connection, reopened once when the server has closed it between requests."""

    def __init__(self, url: str, timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        self._https, self._host, self._port, self._path = split_url(url, "https")
        self._timeout = timeout
        self._headers = {"Content-Type": "application/json", **(headers or {})}
        self._conn: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self._timeout)
        return self._conn

    def post(self, body: bytes) -> Any:
        for attempt in (0, 1):
            conn = self._connect()
            try:
                conn.request("POST", self._path, body, self._headers)
                response = conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 1:
                    raise
                continue
            if response.status >= 400 and not data.startswith((b"{", b"[")):
                raise RpcError(-32603, f"HTTP {response.status} from the node: {data[:200].decode(errors='replace')}")
            return json.loads(data)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class _Calls:
    """Request building and answer reading, shared by the sync and the asyncio client."""

    _component_shapes: dict[str, Shape] = {}
    _method_shapes: dict[str, tuple[list[Shape | None], Shape | None]] = {}

    def __init__(self) -> None:
        self._codec = Codec(self._component_shapes)
        self._next_id = 0

    def _request(self, method: str, params: Sequence[Any]) -> dict[str, Any]:
        shapes = self._method_shapes.get(method, ([], None))[0]
        args = list(params)
        while args and args[-1] is None:  # omitted optional params
            args.pop()
        encoded = [self._codec.encode(v, shapes[i] if i < len(shapes) else None) for i, v in enumerate(args)]
        self._next_id += 1
        return {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": encoded}

    def _answer(self, method: str, reply: dict[str, Any]) -> Any:
        error = reply.get("error")
        if error is not None:
            raise RpcError(int(error.get("code", 0)), str(error.get("message", "")), error.get("data"))
        return self._codec.decode(reply.get("result"), self._method_shapes.get(method, ([], None))[1])

    def _answers(self, calls: Sequence[tuple[str, Sequence[Any]]], requests: list[dict[str, Any]], replies: Any) -> list[Any]:
        if isinstance(replies, dict):  # the whole batch was refused
            self._answer("", cast("dict[str, Any]", replies))
        by_id: dict[Any, dict[str, Any]] = {reply.get("id"): reply for reply in cast("list[dict[str, Any]]", replies)}
        out: list[Any] = []
        for (method, _), request in zip(calls, requests):
            reply = by_id.get(request["id"])
            if reply is None:
                out.append(RpcError(-32603, f"no answer for {method} in the batch"))
                continue
            try:
                out.append(self._answer(method, reply))
            except RpcError as error:
                out.append(error)
        return out


class SyncCalls(_Calls):
    """call, batch and send on one primitive, `_post` (a request or a batch out, its answer back), for HTTP and WebSocket."""

    def _post(self, payload: Any) -> Any:
        raise NotImplementedError

    def _call(self, method: str, params: Sequence[Any]) -> Any:
        return self._answer(method, self._post(self._request(method, params)))

    def call(self, method: str, *params: Any) -> Any:
        """Any method by its JSON-RPC name, with the same int/hex conversion as the typed methods."""
        return self._call(method, params)

    def batch(self, calls: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """One request for many calls: [(method, params), …] → results in order; a failed call's slot holds its RpcError."""
        requests = [self._request(method, params) for method, params in calls]
        return self._answers(calls, requests, self._post(requests))

    def send(self, batch: BatchBase) -> None:
        """Sends a typed Batch as one request; each handle it gave out then holds its result or its RpcError."""
        batch.settle(self.batch(batch.calls()))


class ClientBase(SyncCalls):
    def __init__(self, url: str = "http://127.0.0.1:8545/", timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        super().__init__()
        self._transport = HttpTransport(url, timeout, headers)

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._transport.close()

    def _post(self, payload: Any) -> Any:
        return self._transport.post(json.dumps(payload).encode())


class AsyncHttpTransport:
    """One keep-alive HTTP/1.1 connection on asyncio streams; requests are serialised on it (one in flight)."""

    def __init__(self, url: str, timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        self._https, self._host, self._port, self._path = split_url(url, "https")
        self._timeout = timeout
        self._extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()

    async def post(self, body: bytes) -> Any:
        async with self._lock:
            for attempt in (0, 1):
                try:
                    return await asyncio.wait_for(self._exchange(body), self._timeout)
                except (ConnectionError, asyncio.IncompleteReadError):
                    await self.close()
                    if attempt == 1:
                        raise
            raise AssertionError("unreachable")

    async def _exchange(self, body: bytes) -> Any:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self._host, self._port, ssl=self._https or None)
        reader, writer = self._streams
        head = (
            f"POST {self._path} HTTP/1.1\r\nHost: {self._host}:{self._port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: keep-alive\r\n{self._extra}\r\n"
        )
        writer.write(head.encode() + body)
        await writer.drain()
        status_line = await reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            data = b""
            while (size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)) > 0:
                data += await reader.readexactly(size + 2)
                data = data[:-2]
            await reader.readuntil(b"\r\n")
        else:
            data = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        if status >= 400 and not data.startswith((b"{", b"[")):
            raise RpcError(-32603, f"HTTP {status} from the node: {data[:200].decode(errors='replace')}")
        return json.loads(data)

    async def close(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                pass


class AsyncCalls(_Calls):
    """The asyncio side of SyncCalls."""

    async def _post(self, payload: Any) -> Any:
        raise NotImplementedError

    async def _call(self, method: str, params: Sequence[Any]) -> Any:
        return self._answer(method, await self._post(self._request(method, params)))

    async def call(self, method: str, *params: Any) -> Any:
        """Any method by its JSON-RPC name, with the same int/hex conversion as the typed methods."""
        return await self._call(method, params)

    async def batch(self, calls: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """One request for many calls; a failed call's slot holds its RpcError."""
        requests = [self._request(method, params) for method, params in calls]
        return self._answers(calls, requests, await self._post(requests))

    async def send(self, batch: BatchBase) -> None:
        """Sends a typed Batch as one request; each handle it gave out then holds its result or its RpcError."""
        batch.settle(await self.batch(batch.calls()))


class AsyncClientBase(AsyncCalls):
    def __init__(self, url: str = "http://127.0.0.1:8545/", timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        super().__init__()
        self._transport = AsyncHttpTransport(url, timeout, headers)

    async def __aenter__(self: _ASelf) -> _ASelf:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._transport.close()

    async def _post(self, payload: Any) -> Any:
        return await self._transport.post(json.dumps(payload).encode())


class Pending(Generic[T]):
    """One call of a typed Batch: its result (typed by the method that added it) once the batch is sent."""

    def __init__(self, method: str) -> None:
        self.method = method
        self._settled = False
        self._value: Any = None
        self._error: RpcError | None = None

    def result(self) -> T:
        """The call's result; raises its RpcError if it failed, RuntimeError before the batch is sent."""
        if not self._settled:
            raise RuntimeError(f"{self.method}: the batch has not been sent (client.send(batch))")
        if self._error is not None:
            raise self._error
        return cast(T, self._value)

    @property
    def error(self) -> RpcError | None:
        return self._error

    def fill(self, value: Any) -> None:
        """Called by the client when the batch's answer arrives: a value, or the call's RpcError."""
        self._settled = True
        if isinstance(value, RpcError):
            self._error = value
        else:
            self._value = value


class BatchBase:
    """Calls gathered for one request; the generated Batch has a method per JSON-RPC method, each giving a Pending."""

    def __init__(self) -> None:
        self._entries: list[tuple[str, list[Any], Pending[Any]]] = []

    def _add(self, method: str, params: list[Any]) -> Pending[Any]:
        pending: Pending[Any] = Pending(method)
        self._entries.append((method, params, pending))
        return pending

    def __len__(self) -> int:
        return len(self._entries)

    def calls(self) -> list[tuple[str, Sequence[Any]]]:
        return [(method, params) for method, params, _ in self._entries]

    def settle(self, results: list[Any]) -> None:
        for (_, _, pending), value in zip(self._entries, results):
            pending.fill(value)
