/**
 * The client compatibility script: what a dapp developer does with a dev node, written once against the
 * `ClientSession` interface and run in order, unchanged, under every library adapter. Later scenarios use what
 * earlier ones left in `state` (the deployed contract, block numbers, balances).
 */
import { expect } from 'vitest';
import type { ClientSession, IncrementedEvent } from './adapter.js';

export interface ScenarioState {
  counter?: string;
  deployedAt?: bigint;
  balanceBeforeDeploy?: bigint;
}

export interface ScenarioContext {
  readonly session: ClientSession;
  readonly chainId: bigint;
  /** The address of the session's local key. */
  readonly localAddress: string;
  /** The node-held account the session sends from with eth_sendTransaction. */
  readonly nodeAccount: string;
  /** An address nobody has sent to before this library's run (fresh per adapter). */
  readonly freshAddress: string;
  readonly state: ScenarioState;
}

export interface Scenario {
  readonly name: string;
  run(ctx: ScenarioContext): Promise<void>;
}

const REVERT_REASON = 'amount must be positive';
const sameAddress = (a: string, b: string) => expect(a.toLowerCase()).toBe(b.toLowerCase());

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`an earlier scenario did not leave ${what}`);
  return value;
}

/** Resolves once `check` holds (polled), or fails naming `what`. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'connects over HTTP and WebSocket and reads the chain id',
    async run({ session, chainId }) {
      expect(await session.chainId('http')).toBe(chainId);
      expect(await session.chainId('ws')).toBe(chainId);
    },
  },
  {
    name: 'reads balances',
    async run({ session, localAddress, freshAddress }) {
      expect(await session.getBalance(localAddress)).toBeGreaterThan(10n ** 21n);
      expect(await session.getBalance(freshAddress)).toBe(0n);
    },
  },
  {
    name: 'reads blocks: the genesis, the head, and the head’s parent link',
    async run({ session }) {
      const genesis = await session.getBlock(0n);
      expect(genesis.number).toBe(0n);
      expect(genesis.hash).toMatch(/^0x[0-9a-f]{64}$/);
      const head = await session.getBlock('latest');
      expect(head.number).toBe(await session.blockNumber());
      if (head.number > 0n) expect((await session.getBlock(head.number - 1n)).hash).toBe(head.parentHash);
    },
  },
  {
    name: 'deploys a contract with a locally signed transaction and waits for its receipt',
    async run({ session, localAddress, state }) {
      state.balanceBeforeDeploy = await session.getBalance(localAddress);
      const { address, receipt } = await session.deployCounter(41n, 'local');
      expect(receipt.status).toBe('success');
      sameAddress(receipt.from, localAddress);
      sameAddress(need(receipt.contractAddress, 'a contract address'), address);
      expect(receipt.blockNumber).toBe(await session.blockNumber());
      state.counter = address;
      state.deployedAt = receipt.blockNumber;
    },
  },
  {
    name: 'calls a view function',
    async run({ session, state }) {
      expect(await session.readCount(need(state.counter, 'the contract'))).toBe(41n);
    },
  },
  {
    name: 'sends a locally signed contract call, waits for the receipt and reads its event',
    async run({ session, localAddress, state }) {
      const counter = need(state.counter, 'the contract');
      const receipt = await session.increment(counter, 5n, 'local');
      expect(receipt.status).toBe('success');
      expect(receipt.blockNumber).toBeGreaterThan(need(state.deployedAt, 'the deploy block'));
      expect(receipt.events).toHaveLength(1);
      const event = receipt.events[0]!;
      sameAddress(event.by, localAddress);
      sameAddress(event.address, counter);
      expect([event.amount, event.newCount]).toEqual([5n, 46n]);
      expect(event.transactionHash).toBe(receipt.transactionHash);
      expect(await session.readCount(counter)).toBe(46n);
    },
  },
  {
    name: 'sends through a node-held account (eth_sendTransaction): a contract call and a value transfer',
    async run({ session, nodeAccount, freshAddress, state }) {
      const counter = need(state.counter, 'the contract');
      const receipt = await session.increment(counter, 2n, 'node');
      expect(receipt.status).toBe('success');
      sameAddress(receipt.from, nodeAccount);
      expect(receipt.events.map((e) => e.newCount)).toEqual([48n]);
      sameAddress(receipt.events[0]!.by, nodeAccount);

      const transfer = await session.transfer(freshAddress, 1234n, 'node');
      expect(transfer.status).toBe('success');
      expect(transfer.gasUsed).toBe(21_000n);
      expect(await session.getBalance(freshAddress)).toBe(1234n);
    },
  },
  {
    name: 'transfers value with a locally signed transaction',
    async run({ session, localAddress, freshAddress }) {
      const receipt = await session.transfer(freshAddress, 10n ** 15n, 'local');
      expect(receipt.status).toBe('success');
      sameAddress(receipt.from, localAddress);
      expect(await session.getBalance(freshAddress)).toBe(10n ** 15n + 1234n);
    },
  },
  {
    name: 'reads past events (eth_getLogs)',
    async run({ session, localAddress, nodeAccount, state }) {
      const counter = need(state.counter, 'the contract');
      const events = await session.pastIncrements(
        counter,
        need(state.deployedAt, 'the deploy block'),
        await session.blockNumber(),
      );
      expect(events.map((e) => [e.by.toLowerCase(), e.amount, e.newCount])).toEqual([
        [localAddress.toLowerCase(), 5n, 46n],
        [nodeAccount.toLowerCase(), 2n, 48n],
      ]);
      expect(events[0]!.blockNumber).toBeLessThan(events[1]!.blockNumber);
    },
  },
  {
    name: 'estimates gas, from a local key and from a node-held account',
    async run({ session, state }) {
      const counter = need(state.counter, 'the contract');
      for (const from of ['local', 'node'] as const) {
        const gas = await session.estimateIncrementGas(counter, 3n, from);
        // A warm-slot increment with an event: well above a transfer, well below a block.
        expect(gas).toBeGreaterThan(26_000n);
        expect(gas).toBeLessThan(60_000n);
      }
    },
  },
  {
    name: 'catches the revert reason from a call, a gas estimate and a send',
    async run({ session, state }) {
      const counter = need(state.counter, 'the contract');
      const before = await session.blockNumber();
      for (const via of ['call', 'estimateGas', 'send'] as const) {
        expect(await session.revertReason(counter, 0n, via), via).toBe(REVERT_REASON);
      }
      // Nothing was mined for the refused send.
      expect(await session.blockNumber()).toBe(before);
    },
  },
  {
    name: 'subscribes to new heads and to contract logs over WebSocket',
    async run({ session, localAddress, state }) {
      const counter = need(state.counter, 'the contract');
      const heads: bigint[] = [];
      const events: IncrementedEvent[] = [];
      const unsubscribe = [
        await session.watchHeads((n) => heads.push(n)),
        await session.watchIncrements(counter, (e) => events.push(e)),
      ];
      try {
        // A library may still be installing its subscriptions when its watch call returns: send until both
        // streams deliver, then check that the next two blocks arrive complete and in order.
        for (let attempt = 0; heads.length === 0 || events.length === 0; attempt++) {
          if (attempt === 5)
            throw new Error(`no notification after 5 blocks (heads ${heads.length}, logs ${events.length})`);
          const warmUp = await session.increment(counter, 1n, 'local');
          await until(
            () =>
              heads.includes(warmUp.blockNumber) && events.some((e) => e.transactionHash === warmUp.transactionHash),
            'the first notifications',
            1_000,
          ).catch(() => undefined);
        }
        const seen = events.length;
        const count = await session.readCount(counter);
        const first = await session.increment(counter, 1n, 'local');
        const second = await session.increment(counter, 1n, 'local');
        await until(
          () => heads.includes(second.blockNumber) && events.length >= seen + 2,
          'the heads and logs of two blocks',
        );
        expect(heads).toContain(first.blockNumber);
        expect(events.slice(seen).map((e) => [e.newCount, e.blockNumber, e.transactionHash])).toEqual([
          [count + 1n, first.blockNumber, first.transactionHash],
          [count + 2n, second.blockNumber, second.transactionHash],
        ]);
        sameAddress(events[seen]!.by, localAddress);
        sameAddress(events[seen]!.address, counter);
      } finally {
        for (const stop of unsubscribe) await stop();
      }
    },
  },
  {
    name: 'signs a message (local key and node-held account) and verifies it',
    async run({ session, localAddress, nodeAccount }) {
      const message = 'svc-node client compatibility';
      const local = await session.signMessage(message, 'local');
      expect(local).toMatch(/^0x[0-9a-f]{130}$/i);
      sameAddress(await session.recoverMessageSigner(message, local), localAddress);
      const byNode = await session.signMessage(message, 'node');
      sameAddress(await session.recoverMessageSigner(message, byNode), nodeAccount);
      // The signature binds the message: over another text it recovers someone else.
      expect((await session.recoverMessageSigner('another message', local)).toLowerCase()).not.toBe(
        localAddress.toLowerCase(),
      );
    },
  },
  {
    name: 'reads a historical balance and historical contract state',
    async run({ session, localAddress, state }) {
      const deployedAt = need(state.deployedAt, 'the deploy block');
      expect(await session.getBalance(localAddress, deployedAt - 1n)).toBe(
        need(state.balanceBeforeDeploy, 'the balance before'),
      );
      expect(await session.getBalance(localAddress)).toBeLessThan(state.balanceBeforeDeploy!);
      expect(await session.readCount(need(state.counter, 'the contract'), deployedAt)).toBe(41n);
    },
  },
];
