/**
 * viem, the way its docs show: a public client per transport (`http`, `webSocket`), wallet clients for a local
 * account (`privateKeyToAccount`) and for a JSON-RPC account (an address the node signs for), `simulateContract`
 * before `writeContract`, `waitForTransactionReceipt`, `getContractEvents`, `watchBlockNumber` and
 * `watchContractEvent` over WebSocket. No setting is needed for an automining chain.
 */
import { createRequire } from 'node:module';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  http,
  recoverMessageAddress,
  webSocket,
  type Abi,
  type Address,
  type Hex,
  type Log,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type {
  ClientAdapter,
  ClientSession,
  ConnectOptions,
  IncrementedEvent,
  ReceiptSummary,
  Sender,
} from '../adapter.js';

const { version } = createRequire(import.meta.url)('viem/package.json') as { version: string };

export const viemAdapter: ClientAdapter = {
  name: `viem ${version}`,
  async connect(options: ConnectOptions): Promise<ClientSession> {
    const chain = defineChain({
      id: options.chainId,
      name: 'svc-node dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETC', decimals: 18 },
      rpcUrls: { default: { http: [options.httpUrl], webSocket: [options.wsUrl] } },
    });
    const abi = options.counter.abi as Abi;
    const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 50 });
    const wsClient = createPublicClient({ chain, transport: webSocket() });
    const wallets = {
      local: createWalletClient({ chain, transport: http(), account: privateKeyToAccount(options.localKey as Hex) }),
      node: createWalletClient({ chain, transport: http(), account: options.nodeAccount as Address }),
    };

    const decode = (log: Log): IncrementedEvent => {
      const { args } = decodeEventLog({
        abi,
        eventName: 'Incremented',
        data: log.data,
        topics: log.topics,
      }) as unknown as {
        args: { by: Address; amount: bigint; newCount: bigint };
      };
      return { ...args, address: log.address, blockNumber: log.blockNumber!, transactionHash: log.transactionHash! };
    };
    const incrementedTopic = (() => {
      const item = abi.find((x) => x.type === 'event' && x.name === 'Incremented');
      if (!item) throw new Error('Counter ABI has no Incremented event');
      return item;
    })();
    const summary = (receipt: TransactionReceipt): ReceiptSummary => ({
      status: receipt.status,
      transactionHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      from: receipt.from,
      gasUsed: receipt.gasUsed,
      ...(receipt.contractAddress ? { contractAddress: receipt.contractAddress } : {}),
      events: receipt.logs
        .filter((log) => {
          try {
            return (
              decodeEventLog({ abi: [incrementedTopic], data: log.data, topics: log.topics }).eventName ===
              'Incremented'
            );
          } catch {
            return false;
          }
        })
        .map(decode),
    });
    const waitFor = async (hash: Hex) => summary(await publicClient.waitForTransactionReceipt({ hash }));
    const reasonOf = (err: unknown): string => {
      const reverted =
        err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
      if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
      throw err;
    };

    return {
      async chainId(over) {
        return BigInt(await (over === 'http' ? publicClient : wsClient).getChainId());
      },
      // Uncached: viem keeps a block number for the polling interval (50 ms here), and a deploy and its receipt can
      // now take less than that, so the cached number was the block before the receipt's.
      blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
      getBalance: (address, blockNumber) =>
        publicClient.getBalance({ address: address as Address, ...(blockNumber === undefined ? {} : { blockNumber }) }),
      async getBlock(ref) {
        const block = await publicClient.getBlock(ref === 'latest' ? { blockTag: 'latest' } : { blockNumber: ref });
        return {
          number: block.number,
          hash: block.hash,
          parentHash: block.parentHash,
          timestamp: block.timestamp,
          miner: block.miner,
          transactions: block.transactions,
        };
      },
      async deployCounter(initial, from) {
        const hash = await wallets[from].deployContract({
          abi,
          bytecode: options.counter.bytecode as Hex,
          args: [initial],
        });
        const receipt = await waitFor(hash);
        return { address: receipt.contractAddress!, receipt };
      },
      async readCount(counter, blockNumber) {
        return (await publicClient.readContract({
          address: counter as Address,
          abi,
          functionName: 'count',
          ...(blockNumber === undefined ? {} : { blockNumber }),
        })) as bigint;
      },
      async increment(counter, amount, from) {
        const { request } = await publicClient.simulateContract({
          account: wallets[from].account,
          address: counter as Address,
          abi,
          functionName: 'increment',
          args: [amount],
        });
        return waitFor(await wallets[from].writeContract(request));
      },
      async transfer(to, value, from) {
        return waitFor(await wallets[from].sendTransaction({ to: to as Address, value }));
      },
      async pastIncrements(counter, fromBlock, toBlock) {
        const logs = await publicClient.getContractEvents({
          address: counter as Address,
          abi,
          eventName: 'Incremented',
          fromBlock,
          toBlock,
        });
        return logs.map(decode);
      },
      estimateIncrementGas(counter, amount, from: Sender) {
        return publicClient.estimateContractGas({
          account: wallets[from].account,
          address: counter as Address,
          abi,
          functionName: 'increment',
          args: [amount],
        });
      },
      async revertReason(counter, amount, via) {
        const call = {
          account: wallets.local.account,
          address: counter as Address,
          abi,
          functionName: 'increment',
          args: [amount],
        } as const;
        const attempt =
          via === 'call'
            ? publicClient.simulateContract(call)
            : via === 'estimateGas'
              ? publicClient.estimateContractGas(call)
              : // Sending straight away (no simulation first): viem estimates the gas, and that is where it fails.
                wallets.local.writeContract(call);
        return attempt.then(() => Promise.reject(new Error(`increment(${amount}) did not revert`)), reasonOf);
      },
      signMessage(message, by) {
        return wallets[by].signMessage({ message });
      },
      recoverMessageSigner(message, signature) {
        return recoverMessageAddress({ message, signature: signature as Hex });
      },
      async watchHeads(onHead) {
        const unwatch = wsClient.watchBlockNumber({
          emitMissed: true,
          onBlockNumber: onHead,
          onError: (e) => console.error('watchBlockNumber', e),
        });
        return async () => unwatch();
      },
      async watchIncrements(counter, onEvent) {
        const unwatch = wsClient.watchContractEvent({
          address: counter as Address,
          abi,
          eventName: 'Incremented',
          onLogs: (logs) =>
            logs.forEach((log) => {
              onEvent(decode(log));
            }),
          onError: (e) => console.error('watchContractEvent', e),
        });
        return async () => unwatch();
      },
      async close() {
        await wsClient.transport.getRpcClient().then((rpc) => rpc.close());
      },
    };
  },
};
