"""A tour of the typed client across eth_, trace_ and ots_ (strictly type-checked by pyright in the suite).

usage: python3 examples/tour.py [URL]
"""

from __future__ import annotations

import sys

from svc_node_client import Client, RpcError
from svc_node_client.types import Block, Hash32, Receipt


def tour(client: Client) -> None:
    head: int = client.eth_block_number()
    chain_id: int = client.eth_chain_id()
    sender = client.eth_accounts()[0]
    balance: int = client.eth_get_balance(sender, "latest")
    nonce: int = client.eth_get_transaction_count(sender, head)
    block: Block | None = client.eth_get_block_by_number(head, False)
    if block is not None:
        print("head", block["number"], block["hash"], "gas used", block["gasUsed"])
    tx: Hash32 = client.eth_send_transaction({"from": sender, "to": sender, "value": 1, "gas": 21000})
    receipt: Receipt | None = client.eth_get_transaction_receipt(tx)
    if receipt is not None:
        print("receipt in block", receipt["blockNumber"], "status", receipt.get("status"))
    for trace in client.trace_transaction(tx) or []:
        print("trace", trace["type"], trace["action"].get("value"))
    print("ots api level", client.ots_get_api_level())
    details = client.ots_get_block_details(head + 1)
    if details is not None:
        print("ots block transactions", details["block"]["transactionCount"], "fees", details["totalFees"])
    print("chain", chain_id, "balance", balance, "nonce", nonce)
    try:
        client.eth_get_balance(sender, head + 1_000_000)
    except RpcError as error:
        print("error", error.code, error.message)


if __name__ == "__main__":
    with Client(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8545/") as c:
        tour(c)
