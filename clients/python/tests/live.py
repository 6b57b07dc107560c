"""Runs the generated client against a live dev node (URL as argv[1]); exits non-zero on the first wrong answer.

test/clients/python.test.ts starts the node and runs this; it prints one line per checked area.
"""

from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_node_client import AsyncClient, Batch, Client, RpcError  # noqa: E402

# Init code whose constructor emits one LOG0 and deploys nothing: PUSH1 0 PUSH1 0 LOG0 STOP.
EMIT_LOG = "0x60006000a000"


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"FAILED: {what}")


def main(url: str) -> None:
    with Client(url) as client:
        accounts = client.eth_accounts()
        check(len(accounts) >= 2, f"dev accounts: {accounts}")
        sender, recipient = accounts[0], accounts[1]
        balance = client.eth_get_balance(sender, "latest")
        check(isinstance(balance, int) and balance > 0, f"balance is a positive int: {balance!r}")
        print("balance", balance)

        before = client.eth_get_balance(recipient)
        tx = client.eth_send_transaction({"from": sender, "to": recipient, "value": 12345, "gas": 21000})
        receipt = client.eth_get_transaction_receipt(tx)
        check(receipt is not None and receipt["status"] == "0x1", f"transfer receipt: {receipt!r}")
        assert receipt is not None
        check(isinstance(receipt["blockNumber"], int) and receipt["gasUsed"] == 21000, "receipt quantities are ints")
        check(client.eth_get_balance(recipient) == before + 12345, "recipient got the value")
        print("receipt", receipt["blockNumber"], receipt["gasUsed"])

        deploy = client.eth_send_transaction({"from": sender, "data": EMIT_LOG, "gas": 100000})
        mined = client.eth_get_transaction_receipt(deploy)
        assert mined is not None
        logs = client.eth_get_logs({"fromBlock": mined["blockNumber"], "toBlock": mined["blockNumber"]})
        check(len(logs) == 1 and logs[0]["transactionHash"] == deploy, f"one log from the deploy: {logs!r}")
        check(isinstance(logs[0]["logIndex"], int), "log quantities are ints")
        print("logs", len(logs))

        traces = client.trace_transaction(tx)
        check(traces is not None and len(traces) == 1, f"one trace for a transfer: {traces!r}")
        assert traces is not None
        action = traces[0]["action"]
        check(action.get("value") == 12345, f"trace action value is an int: {action!r}")
        print("trace", traces[0]["type"])

        head = client.eth_block_number()
        try:
            client.eth_get_balance(sender, head + 1000)
            check(False, "a block above the head must fail")
        except RpcError as error:
            check(error.code == -32001, f"block not found code: {error.code} {error.message}")
            print("error", error.code, error.message)

        results = client.batch([("eth_blockNumber", []), ("eth_getBalance", [recipient]), ("no_such_method", [])])
        check(results[0] == head, f"batch blockNumber: {results[0]!r}")
        check(results[1] == before + 12345, f"batch balance: {results[1]!r}")
        check(isinstance(results[2], RpcError) and results[2].code == -32601, f"batch error: {results[2]!r}")
        print("batch", len(results))

        batch = Batch()
        number = batch.eth_block_number()
        receipt_later = batch.eth_get_transaction_receipt(tx)
        refused = batch.eth_get_balance("0x1234")
        try:
            number.result()
            check(False, "a handle before the batch is sent")
        except RuntimeError:
            pass
        client.send(batch)
        later = receipt_later.result()
        check(number.result() == head and later is not None and later["gasUsed"] == 21000, "typed batch results")
        check(refused.error is not None and refused.error.code == -32602, f"typed batch error: {refused.error!r}")
        print("typed batch", len(batch))
    asyncio.run(check_async(url))
    print("ok")


async def check_async(url: str) -> None:
    async with AsyncClient(url) as client:
        head, chain_id, accounts = await asyncio.gather(
            client.eth_block_number(), client.eth_chain_id(), client.eth_accounts()
        )
        check(isinstance(head, int) and head > 0 and isinstance(chain_id, int), f"async head {head!r}")
        balance = await client.eth_get_balance(accounts[0], head)
        check(isinstance(balance, int) and balance > 0, f"async balance {balance!r}")
        try:
            await client.eth_get_balance(accounts[0], head + 1000)
            check(False, "async: a block above the head must fail")
        except RpcError as error:
            check(error.code == -32001, f"async error code {error.code}")
        results = await client.batch([("eth_blockNumber", []), ("no_such_method", [])])
        check(results[0] == head and isinstance(results[1], RpcError), f"async batch {results!r}")
        batch = Batch()
        number, chain = batch.eth_block_number(), batch.eth_chain_id()
        await client.send(batch)
        check(number.result() == head and chain.result() == chain_id, "async typed batch")
        print("async", head, chain_id)


if __name__ == "__main__":
    main(sys.argv[1])
