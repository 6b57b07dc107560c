"""svc_node_client: a typed Python client for svc-node's JSON-RPC API, generated from its OpenRPC document."""

from ._runtime import RpcError
from .client import AsyncClient, Client

__all__ = ["AsyncClient", "Client", "RpcError"]
