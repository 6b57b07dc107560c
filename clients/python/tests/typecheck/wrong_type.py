"""Must FAIL the type check: a balance is an int, an address is not a block, a new head is a Block (not a Log),
and a batched block number is an int."""

from __future__ import annotations

from svc_node_client import Batch, Client, WsClient
from svc_node_client.types import Log


def wrong(client: Client, ws: WsClient) -> str:
    balance: str = client.eth_get_balance("0x0000000000000000000000000000000000000000")
    client.eth_get_block_by_number(["latest"], False)
    head: Log = next(ws.subscribe("newHeads"))
    number: str = Batch().eth_block_number().result()
    return balance + str(head) + number
