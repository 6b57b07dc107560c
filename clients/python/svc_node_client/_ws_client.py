"""JSON-RPC over the node's WebSocket (`/ws`): the same calls and batches as over HTTP, plus eth_subscribe
subscriptions as iterators (sync) and async iterators, their payloads typed and decoded like any result.

Over one connection, answers and notifications arrive interleaved: answers are matched to requests by id, and each
notification is queued under its subscription id until that subscription is read.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast, overload

from ._runtime import AsyncCalls, Shape, SyncCalls
from ._websocket import AsyncWebSocket, WebSocket

if TYPE_CHECKING:
    from .types import Block, Filter, Hash32, Log, SubscriptionKind, SyncingSubscriptionResult, Transaction

T = TypeVar("T")
_Self = TypeVar("_Self", bound="WsClientBase")
_ASelf = TypeVar("_ASelf", bound="AsyncWsClientBase")
_END = object()


def _payload_shape(kind: str, options: Any) -> Shape | None:
    """The codec shape of a subscription's payload, by kind (the spec's SubscriptionNotification lists them)."""
    if kind == "newHeads":
        return ["r", "Block"]
    if kind == "logs":
        return ["r", "Log"]
    if kind == "syncing":
        return ["r", "SyncingSubscriptionResult"]
    return ["r", "Transaction"] if options is True else None


def _reply_key(message: Any) -> Any:
    """Which request an answer belongs to: its id, or for a batch the lowest id in it (None: a refusal with no id)."""
    if isinstance(message, list):
        ids = [r.get("id") for r in cast("list[dict[str, Any]]", message) if isinstance(r.get("id"), int)]
        return ("batch", min(cast("list[int]", ids))) if ids else None
    return cast("dict[str, Any]", message).get("id") if isinstance(message, dict) else None


def _request_key(payload: Any) -> Any:
    return ("batch", payload[0]["id"]) if isinstance(payload, list) else payload["id"]


def _notification(message: Any) -> tuple[str, Any] | None:
    """(subscription id, payload) when the message is an eth_subscription notification."""
    if not isinstance(message, dict):
        return None
    fields = cast("dict[str, Any]", message)
    if fields.get("method") != "eth_subscription" or "id" in fields:
        return None
    params = cast("dict[str, Any]", fields.get("params") or {})
    return str(params.get("subscription")), params.get("result")


class Subscription(Generic[T]):
    """An eth_subscribe subscription: iterate it for payloads (each read waits up to the client's timeout, then
    raises TimeoutError); `unsubscribe()` (or leaving a `with` block) ends it."""

    def __init__(self, sub_id: str, receive: Callable[[], Any], cancel: Callable[[], bool]) -> None:
        self.id = sub_id
        self._receive = receive
        self._cancel = cancel
        self.active = True

    def __iter__(self) -> Subscription[T]:
        return self

    def __next__(self) -> T:
        if not self.active:
            raise StopIteration
        return self._receive()

    def unsubscribe(self) -> bool:
        """eth_unsubscribe: True when the node still had it; payloads already received are dropped."""
        if not self.active:
            return False
        self.active = False
        return self._cancel()

    def __enter__(self) -> Subscription[T]:
        return self

    def __exit__(self, *_: object) -> None:
        try:
            self.unsubscribe()
        except ConnectionError:
            pass  # the connection is gone, and the subscription with it


class WsClientBase(SyncCalls):
    """A blocking client on one WebSocket (not thread-safe: one per thread)."""

    def __init__(self, url: str = "ws://127.0.0.1:8545/ws", timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        super().__init__()
        self._ws = WebSocket(url, timeout, headers)
        self._replies: dict[Any, Any] = {}
        self._queues: dict[str, deque[Any]] = {}
        self._cancelled: set[str] = set()

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def closed(self) -> ConnectionError | None:
        return self._ws.closed

    def close(self) -> None:
        self._ws.close()

    def _post(self, payload: Any) -> Any:
        key = _request_key(payload)
        self._ws.send_text(json.dumps(payload))
        while key not in self._replies and None not in self._replies:
            self._pump()
        return self._replies.pop(key) if key in self._replies else self._replies.pop(None)

    def _pump(self) -> None:
        message = json.loads(self._ws.receive())
        note = _notification(message)
        if note is None:
            self._replies[_reply_key(message)] = message
        elif note[0] not in self._cancelled:
            self._queues.setdefault(note[0], deque()).append(note[1])

    def _next_notification(self, sub_id: str) -> Any:
        queue = self._queues.setdefault(sub_id, deque())
        while not queue:
            self._pump()
        return queue.popleft()

    def _unsubscribe(self, sub_id: str) -> bool:
        self._cancelled.add(sub_id)
        self._queues.pop(sub_id, None)
        return bool(self._call("eth_unsubscribe", [sub_id]))

    @overload
    def subscribe(self, kind: Literal["newHeads"]) -> Subscription[Block]: ...
    @overload
    def subscribe(self, kind: Literal["logs"], options: Filter | None = None) -> Subscription[Log]: ...
    @overload
    def subscribe(self, kind: Literal["newPendingTransactions"], options: Literal[False] | None = None) -> Subscription[Hash32]: ...
    @overload
    def subscribe(self, kind: Literal["newPendingTransactions"], options: Literal[True]) -> Subscription[Transaction]: ...
    @overload
    def subscribe(self, kind: Literal["syncing"]) -> Subscription[SyncingSubscriptionResult]: ...
    def subscribe(self, kind: SubscriptionKind, options: Filter | bool | None = None) -> Subscription[Any]:
        """eth_subscribe, typed by kind: newHeads → Block (no transactions), logs → Log, newPendingTransactions →
        Hash32 (Transaction with options=True), syncing → SyncingSubscriptionResult."""
        sub_id = str(self._call("eth_subscribe", [kind, options]))
        shape = _payload_shape(kind, options)
        return Subscription(
            sub_id, lambda: self._codec.decode(self._next_notification(sub_id), shape), lambda: self._unsubscribe(sub_id)
        )


class AsyncSubscription(Generic[T]):
    """An eth_subscribe subscription on the asyncio client: `async for payload in subscription`."""

    def __init__(self, sub_id: str, receive: Callable[[], Awaitable[Any]], cancel: Callable[[], Awaitable[bool]]) -> None:
        self.id = sub_id
        self._receive = receive
        self._cancel = cancel
        self.active = True

    def __aiter__(self) -> AsyncSubscription[T]:
        return self

    async def __anext__(self) -> T:
        if not self.active:
            raise StopAsyncIteration
        value = await self._receive()
        if value is _END:
            raise StopAsyncIteration
        return value

    async def unsubscribe(self) -> bool:
        """eth_unsubscribe: True when the node still had it; an `async for` waiting on it ends."""
        if not self.active:
            return False
        self.active = False
        return await self._cancel()

    async def __aenter__(self) -> AsyncSubscription[T]:
        return self

    async def __aexit__(self, *_: object) -> None:
        try:
            await self.unsubscribe()
        except ConnectionError:
            pass


class AsyncWsClientBase(AsyncCalls):
    """An asyncio client on one WebSocket: calls may run concurrently; a reader task routes what arrives."""

    def __init__(self, url: str = "ws://127.0.0.1:8545/ws", timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        super().__init__()
        self._url, self._timeout, self._headers = url, timeout, headers
        self._ws: AsyncWebSocket | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiting: dict[Any, asyncio.Future[Any]] = {}
        self._queues: dict[str, asyncio.Queue[Any]] = {}
        self._cancelled: set[str] = set()
        self.closed: BaseException | None = None

    async def __aenter__(self: _ASelf) -> _ASelf:
        await self._open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def _open(self) -> AsyncWebSocket:
        if self.closed is not None:
            raise self.closed
        if self._ws is None:
            self._ws = await asyncio.wait_for(AsyncWebSocket.connect(self._url, self._headers), self._timeout)
            self._reader = asyncio.get_running_loop().create_task(self._read(self._ws))
        return self._ws

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self, ws: AsyncWebSocket) -> None:
        try:
            while True:
                message = json.loads(await ws.receive())
                note = _notification(message)
                if note is not None:
                    if note[0] not in self._cancelled:
                        self._queue(note[0]).put_nowait(note[1])
                    continue
                key = _reply_key(message)
                waiter = self._waiting.pop(key, None) or (self._waiting.pop(next(iter(self._waiting))) if key is None and self._waiting else None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
        except Exception as error:  # the connection ended: everyone waiting learns why
            self.closed = error
            for waiter in self._waiting.values():
                if not waiter.done():
                    waiter.set_exception(error)
            self._waiting.clear()
            for queue in self._queues.values():
                queue.put_nowait(error)

    def _queue(self, sub_id: str) -> asyncio.Queue[Any]:
        if sub_id not in self._queues:
            self._queues[sub_id] = asyncio.Queue()
        return self._queues[sub_id]

    async def _post(self, payload: Any) -> Any:
        ws = await self._open()
        key = _request_key(payload)
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[key] = waiter
        try:
            await ws.send_text(json.dumps(payload))
            return await asyncio.wait_for(waiter, self._timeout)
        finally:
            self._waiting.pop(key, None)

    async def _next_notification(self, sub_id: str) -> Any:
        if self.closed is not None and sub_id not in self._queues:
            raise self.closed
        value = await self._queue(sub_id).get()
        if isinstance(value, BaseException):
            raise value
        return value

    async def _unsubscribe(self, sub_id: str) -> bool:
        self._cancelled.add(sub_id)
        queue = self._queues.pop(sub_id, None)
        if queue is not None:
            queue.put_nowait(_END)
        return bool(await self._call("eth_unsubscribe", [sub_id]))

    @overload
    async def subscribe(self, kind: Literal["newHeads"]) -> AsyncSubscription[Block]: ...
    @overload
    async def subscribe(self, kind: Literal["logs"], options: Filter | None = None) -> AsyncSubscription[Log]: ...
    @overload
    async def subscribe(self, kind: Literal["newPendingTransactions"], options: Literal[False] | None = None) -> AsyncSubscription[Hash32]: ...
    @overload
    async def subscribe(self, kind: Literal["newPendingTransactions"], options: Literal[True]) -> AsyncSubscription[Transaction]: ...
    @overload
    async def subscribe(self, kind: Literal["syncing"]) -> AsyncSubscription[SyncingSubscriptionResult]: ...
    async def subscribe(self, kind: SubscriptionKind, options: Filter | bool | None = None) -> AsyncSubscription[Any]:
        """eth_subscribe, typed by kind (as WsClient.subscribe)."""
        sub_id = str(await self._call("eth_subscribe", [kind, options]))
        shape = _payload_shape(kind, options)

        async def receive() -> Any:
            value = await self._next_notification(sub_id)
            return value if value is _END else self._codec.decode(value, shape)

        return AsyncSubscription(sub_id, receive, lambda: self._unsubscribe(sub_id))
