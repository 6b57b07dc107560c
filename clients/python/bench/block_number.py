"""Requests/s of eth_blockNumber on one thread over one keep-alive connection: the client, raw http.client, and the
client over the node's WebSocket.

usage: python3 block_number.py URL [SECONDS]; the difference is the client's own overhead (codec, ids, checks).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from urllib.parse import urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_node_client import AsyncClient, Client, WsClient  # noqa: E402


def rate(step: Callable[[], object], seconds: float) -> float:
    for _ in range(200):  # warm the connection and the node's caches
        step()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            step()
        count += 100
    return count / (time.perf_counter() - start)


def main(url: str, seconds: float) -> None:
    client = Client(url)
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []}).encode()
    headers = {"Content-Type": "application/json"}

    def raw() -> int:
        conn.request("POST", parts.path or "/", body, headers)
        return int(json.loads(conn.getresponse().read())["result"], 16)

    # Alternating short rounds, medians: the machine is shared, and a burst of other work would bias one side.
    ws = WsClient(url.replace("http://", "ws://", 1).rstrip("/") + "/ws")
    typed_rounds: list[float] = []
    plain_rounds: list[float] = []
    ws_rounds: list[float] = []
    for _ in range(7):
        typed_rounds.append(rate(client.eth_block_number, seconds / 7))
        plain_rounds.append(rate(raw, seconds / 7))
        ws_rounds.append(rate(ws.eth_block_number, seconds / 7))
    typed, plain = statistics.median(typed_rounds), statistics.median(plain_rounds)
    print(f"client {typed:.0f} req/s, raw http.client {plain:.0f} req/s, client/raw {typed / plain:.2f} (medians of 7)")
    print(f"WsClient {statistics.median(ws_rounds):.0f} req/s (median of 7, same rounds)")
    ws.close()
    print(f"AsyncClient (awaited one by one) {asyncio.run(async_rate(url, seconds)):.0f} req/s")


async def async_rate(url: str, seconds: float) -> float:
    async with AsyncClient(url) as client:
        for _ in range(200):
            await client.eth_block_number()
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(100):
                await client.eth_block_number()
            count += 100
        return count / (time.perf_counter() - start)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 3.0)
