/**
 * ethers v6, the way its docs show: a `JsonRpcProvider` and a `WebSocketProvider`, a `Wallet` for the local key,
 * the provider's `JsonRpcSigner` for the node-held account, `ContractFactory`/`Contract` for the fixture.
 *
 * The one setting for an automining chain: `cacheTimeout: -1` (the dev chain guide, codegen/docs/guides/dev-chain.md). Without it ethers
 * answers a repeated request from a 250 ms cache: a stale pending nonce for back-to-back sends.
 */
import {
  Contract,
  ContractFactory,
  JsonRpcProvider,
  Wallet,
  WebSocketProvider,
  isCallException,
  verifyMessage,
  version,
  type ContractRunner,
  type ContractTransactionReceipt,
  type EventLog,
  type InterfaceAbi,
  type Log,
  type TransactionReceipt,
} from 'ethers';
import type {
  BlockSummary,
  ClientAdapter,
  ClientSession,
  ConnectOptions,
  IncrementedEvent,
  ReceiptSummary,
  Sender,
} from '../adapter.js';

export const ethersAdapter: ClientAdapter = {
  name: `ethers ${version}`,
  async connect(options: ConnectOptions): Promise<ClientSession> {
    // No network given: ethers detects it with eth_chainId, as it does for any URL a user passes.
    const http = new JsonRpcProvider(options.httpUrl, undefined, { pollingInterval: 50, cacheTimeout: -1 });
    const ws = new WebSocketProvider(options.wsUrl);
    const abi = options.counter.abi as InterfaceAbi;
    const wallet = new Wallet(options.localKey, http);
    const nodeSigner = await http.getSigner(options.nodeAccount);
    const signer = (from: Sender): ContractRunner => (from === 'local' ? wallet : nodeSigner);
    const counterAt = (address: string, runner: ContractRunner = http) => new Contract(address, abi, runner);

    const decode = (log: EventLog | Log): IncrementedEvent => {
      const parsed = 'args' in log ? log : counterAt(log.address).interface.parseLog(log)!;
      return {
        by: parsed.args.by as string,
        amount: parsed.args.amount as bigint,
        newCount: parsed.args.newCount as bigint,
        address: log.address,
        blockNumber: BigInt(log.blockNumber),
        transactionHash: log.transactionHash,
      };
    };
    const summary = (receipt: TransactionReceipt | ContractTransactionReceipt | null): ReceiptSummary => {
      if (receipt === null) throw new Error('no receipt');
      const iface = counterAt(
        receipt.to ?? receipt.contractAddress ?? '0x0000000000000000000000000000000000000000',
      ).interface;
      const events = receipt.logs.filter((l) => iface.parseLog(l)?.name === 'Incremented').map(decode);
      return {
        status: receipt.status === 1 ? 'success' : 'reverted',
        transactionHash: receipt.hash,
        blockNumber: BigInt(receipt.blockNumber),
        from: receipt.from,
        gasUsed: receipt.gasUsed,
        ...(receipt.contractAddress ? { contractAddress: receipt.contractAddress } : {}),
        events,
      };
    };
    const reasonOf = (err: unknown): string => {
      if (isCallException(err) && err.reason) return err.reason;
      throw err;
    };

    return {
      async chainId(over) {
        return (await (over === 'http' ? http : ws).getNetwork()).chainId;
      },
      async blockNumber() {
        return BigInt(await http.getBlockNumber());
      },
      getBalance(address, blockNumber) {
        return http.getBalance(address, blockNumber);
      },
      async getBlock(ref): Promise<BlockSummary> {
        const block = await http.getBlock(ref);
        if (block === null) throw new Error(`no block ${ref}`);
        return {
          number: BigInt(block.number),
          hash: block.hash!,
          parentHash: block.parentHash,
          timestamp: BigInt(block.timestamp),
          miner: block.miner,
          transactions: block.transactions,
        };
      },
      async deployCounter(initial, from) {
        const contract = await new ContractFactory(abi, options.counter.bytecode, signer(from)).deploy(initial);
        const receipt = await contract.deploymentTransaction()!.wait();
        return { address: await contract.getAddress(), receipt: summary(receipt) };
      },
      async readCount(counter, blockNumber) {
        return (await counterAt(counter).getFunction('count')(
          blockNumber === undefined ? {} : { blockTag: blockNumber },
        )) as bigint;
      },
      async increment(counter, amount, from) {
        const tx = await counterAt(counter, signer(from)).getFunction('increment')(amount);
        return summary(await tx.wait());
      },
      async transfer(to, value, from) {
        const tx = await (from === 'local' ? wallet : nodeSigner).sendTransaction({ to, value });
        return summary(await tx.wait());
      },
      async pastIncrements(counter, fromBlock, toBlock) {
        const logs = await counterAt(counter).queryFilter('Incremented', fromBlock, toBlock);
        return logs.map(decode);
      },
      estimateIncrementGas(counter, amount, from) {
        return counterAt(counter, signer(from)).getFunction('increment').estimateGas(amount);
      },
      async revertReason(counter, amount, via) {
        const increment = counterAt(counter, wallet).getFunction('increment');
        const attempt =
          via === 'call'
            ? increment.staticCall(amount)
            : via === 'estimateGas'
              ? increment.estimateGas(amount)
              : increment(amount);
        return attempt.then(() => Promise.reject(new Error(`increment(${amount}) did not revert`)), reasonOf);
      },
      signMessage(message, by) {
        return (by === 'local' ? wallet : nodeSigner).signMessage(message);
      },
      async recoverMessageSigner(message, signature) {
        return verifyMessage(message, signature);
      },
      async watchHeads(onHead) {
        const listener = (n: number) => onHead(BigInt(n));
        await ws.on('block', listener);
        return async () => void (await ws.off('block', listener));
      },
      async watchIncrements(counter, onEvent) {
        const contract = counterAt(counter, ws);
        // The listener's last argument is the ContractEventPayload, whose `log` is the EventLog.
        const listener = (...args: unknown[]) => onEvent(decode((args.at(-1) as { log: EventLog }).log));
        await contract.on('Incremented', listener);
        return async () => void (await contract.off('Incremented', listener));
      },
      async close() {
        http.destroy();
        await ws.destroy();
      },
    };
  },
};
