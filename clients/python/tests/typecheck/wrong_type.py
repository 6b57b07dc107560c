"""Must FAIL the type check: a balance is an int, and an address is not a block."""

from __future__ import annotations

from svc_node_client import Client


def wrong(client: Client) -> str:
    balance: str = client.eth_get_balance("0x0000000000000000000000000000000000000000")
    client.eth_get_block_by_number(["latest"], False)
    return balance
