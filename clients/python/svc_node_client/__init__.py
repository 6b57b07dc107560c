"""svc_node_client: a typed Python client for svc-node's JSON-RPC API, generated from its OpenRPC document."""

from ._runtime import Pending, RpcError
from ._websocket import WebSocketClosed
from ._ws_client import AsyncSubscription, Subscription
from .client import AsyncClient, AsyncWsClient, Batch, Client, WsClient

__all__ = [
    "AsyncClient",
    "AsyncSubscription",
    "AsyncWsClient",
    "Batch",
    "Client",
    "Pending",
    "RpcError",
    "Subscription",
    "WebSocketClosed",
    "WsClient",
]
