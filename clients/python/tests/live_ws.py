"""WebSocket subscriptions against a live dev node (its HTTP URL as argv[1]; the node pings every second).

Sync and asyncio: subscribe newHeads, logs and newPendingTransactions, send a transaction, see its header, its log
and its hash arrive typed, unsubscribe. test/clients/python.test.ts runs this; it prints "ws ok" at the end.
"""

from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_node_client import AsyncWsClient, Client, RpcError, WsClient  # noqa: E402

# Init code whose constructor emits one LOG0 and deploys nothing: PUSH1 0 PUSH1 0 LOG0 STOP.
EMIT_LOG = "0x60006000a000"


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"FAILED: {what}")


def sync_part(ws_url: str) -> None:
    with WsClient(ws_url, timeout=20) as ws:
        sender = ws.eth_accounts()[0]
        heads = ws.subscribe("newHeads")
        logs = ws.subscribe("logs", {"topics": []})
        pending = ws.subscribe("newPendingTransactions")
        tx = ws.eth_send_transaction({"from": sender, "data": EMIT_LOG, "gas": 100000})
        receipt = ws.eth_get_transaction_receipt(tx)
        assert receipt is not None
        head = next(heads)
        check(head["number"] == receipt["blockNumber"] and head["hash"] == receipt["blockHash"], f"the header: {head!r}")
        check(isinstance(head["gasUsed"], int) and "transactions" not in head, "a header, quantities as ints")
        log = next(logs)
        check(log["transactionHash"] == tx and log["blockNumber"] == receipt["blockNumber"], f"the log: {log!r}")
        check(log["logIndex"] == 0 and log.get("removed") is False, f"log fields: {log!r}")
        check(next(pending) == tx, "the pending transaction's hash")
        print("sync head", head["number"], "log", log["logIndex"])

        for sub in (heads, logs, pending):
            check(sub.unsubscribe() is True, f"unsubscribe {sub.id}")
            check(ws.eth_unsubscribe(sub.id) is False, f"the node no longer knows {sub.id}")
        check(list(heads) == [] and heads.unsubscribe() is False, "an ended subscription iterates nothing")

        # A request and an answer past 64 KiB: the 64-bit frame lengths both ways.
        blocks = ws.batch([("eth_getBlockByNumber", [0, True])] * 1000)
        check(len(blocks) == 1000 and all(b["number"] == 0 for b in blocks), "a 1000-call batch over ws")
        try:
            ws.eth_get_balance(sender, receipt["blockNumber"] + 1000)
            check(False, "a block above the head must fail over ws too")
        except RpcError as error:
            check(error.code == -32001, f"ws error code {error.code}")
        print("sync unsubscribed", len(blocks))

    with Client(ws_url.replace("ws://", "http://", 1).removesuffix("ws")) as http:
        try:
            http.call("eth_subscribe", "newHeads")
            check(False, "eth_subscribe over HTTP must fail")
        except RpcError as error:
            check(error.code == -32601, f"eth_subscribe over HTTP: {error.code} {error.message}")
    try:
        WsClient(ws_url.replace("/ws", "/not-ws"))
        check(False, "an upgrade on the wrong path must fail")
    except ConnectionError as error:
        check("404" in str(error), f"wrong path: {error}")


async def async_part(ws_url: str) -> None:
    async with AsyncWsClient(ws_url, timeout=20) as ws:
        sender = (await ws.eth_accounts())[0]
        heads = await ws.subscribe("newHeads")
        logs = await ws.subscribe("logs", {"topics": []})
        full = await ws.subscribe("newPendingTransactions", True)
        # Idle while the node pings every second: the reader task answers, so the connection stays.
        await asyncio.sleep(2.5)
        tx = await ws.eth_send_transaction({"from": sender, "data": EMIT_LOG, "gas": 100000})
        head = await anext(heads)
        log = await anext(logs)
        transaction = await anext(full)
        check(log["transactionHash"] == tx and log["blockNumber"] == head["number"], f"async log {log!r}")
        check(transaction["hash"] == tx and transaction["gas"] == 100000, f"a full pending transaction {transaction!r}")
        number, chain = await asyncio.gather(ws.eth_block_number(), ws.eth_chain_id())
        check(number == head["number"] and chain == 1337, f"concurrent calls {number} {chain}")

        async def rest() -> list[object]:
            return [h async for h in heads]

        waiting = asyncio.get_running_loop().create_task(rest())
        await asyncio.sleep(0)
        check(await heads.unsubscribe() is True, "async unsubscribe")
        check(await waiting == [], "unsubscribe ends a waiting async for")
        check(await logs.unsubscribe() and await full.unsubscribe(), "the others")
        pings = ws._ws.pings if ws._ws is not None else 0  # pyright: ignore[reportPrivateUsage]
        check(pings > 0, "the node's pings were answered")
        print("async head", head["number"], "pings", pings)


def main(url: str) -> None:
    ws_url = url.replace("http://", "ws://", 1).rstrip("/") + "/ws"
    sync_part(ws_url)
    asyncio.run(async_part(ws_url))
    print("ws ok")


if __name__ == "__main__":
    main(sys.argv[1])
