/**
 * web3.js v4, the way its docs show: `new Web3(url)` over HTTP and over a `WebSocketProvider`, the local key in
 * `web3.eth.accounts.wallet` (web3 signs for wallet accounts and sends eth_sendTransaction for any other
 * `from`), `web3.eth.Contract` with `deploy().send()`, `methods.x().call/send/estimateGas`, `getPastEvents`,
 * `web3.eth.subscribe('newBlockHeaders')` and contract event subscriptions over WebSocket.
 *
 * The one setting for Ethereum Classic: `defaultTransactionType: '0x0'` (codegen/docs/guides/contributing.md, "Client libraries"). web3.js v4
 * builds EIP-1559 (type 2) transactions unless told otherwise, and refuses to send on a chain whose blocks have
 * no `baseFeePerGas` (Eip1559NotSupportedError); ETC has no EIP-1559, so every transaction is a legacy one.
 */
import {
  ContractExecutionError,
  Web3,
  eth,
  WebSocketProvider,
  type Contract as Web3Contract,
  type ContractAbi,
  type EventLog,
  type TransactionReceipt,
} from 'web3';
import type {
  ClientAdapter,
  ClientSession,
  ConnectOptions,
  IncrementedEvent,
  ReceiptSummary,
  Sender,
} from '../adapter.js';

const web3Version = Web3.version;

export const web3Adapter: ClientAdapter = {
  name: `web3.js ${web3Version}`,
  async connect(options: ConnectOptions): Promise<ClientSession> {
    const config = { defaultTransactionType: '0x0' };
    const web3 = new Web3({ provider: options.httpUrl, config });
    const web3ws = new Web3({ provider: new WebSocketProvider(options.wsUrl), config });
    const abi = options.counter.abi as ContractAbi;
    const local = web3.eth.accounts.wallet.add(options.localKey)[0]!;
    const fromOf = (from: Sender) => (from === 'local' ? local.address : options.nodeAccount);
    const counterAt = (address: string, over: Web3 = web3): Web3Contract<ContractAbi> =>
      new over.eth.Contract(abi, address);

    const decode = (event: EventLog): IncrementedEvent => {
      const values = event.returnValues as { by: string; amount: bigint; newCount: bigint };
      return {
        by: values.by,
        amount: values.amount,
        newCount: values.newCount,
        address: event.address!,
        blockNumber: BigInt(event.blockNumber!),
        transactionHash: event.transactionHash!,
      };
    };
    const summary = (
      receipt: TransactionReceipt & { events?: Record<string, EventLog | EventLog[]> },
    ): ReceiptSummary => {
      const decoded = receipt.events?.Incremented;
      return {
        status: BigInt(receipt.status) === 1n ? 'success' : 'reverted',
        transactionHash: String(receipt.transactionHash),
        blockNumber: BigInt(receipt.blockNumber),
        from: receipt.from,
        gasUsed: BigInt(receipt.gasUsed),
        ...(receipt.contractAddress ? { contractAddress: receipt.contractAddress } : {}),
        events: decoded === undefined ? [] : (Array.isArray(decoded) ? decoded : [decoded]).map(decode),
      };
    };
    const reasonOf = (err: unknown): string => {
      if (err instanceof ContractExecutionError) {
        // web3 decodes the revert data of a contract call or send itself, not of a gas estimate: its exported
        // decoder (the same one, for the Error(string) and Panic(uint256) built-ins) does that.
        if (err.cause.errorArgs === undefined) eth.abi.decodeContractErrorData([], err.cause);
        const reason = err.cause.errorArgs?.message;
        if (typeof reason === 'string') return reason;
      }
      throw err;
    };

    return {
      chainId: (over) => (over === 'http' ? web3 : web3ws).eth.getChainId(),
      blockNumber: () => web3.eth.getBlockNumber(),
      getBalance: (address, blockNumber) => web3.eth.getBalance(address, blockNumber ?? 'latest'),
      async getBlock(ref) {
        const block = await web3.eth.getBlock(ref);
        return {
          number: BigInt(block.number),
          hash: String(block.hash),
          parentHash: String(block.parentHash),
          timestamp: BigInt(block.timestamp),
          miner: String(block.miner),
          transactions: (block.transactions ?? []).map(String),
        };
      },
      async deployCounter(initial, from) {
        let receipt: TransactionReceipt | undefined;
        const deployed = await new web3.eth.Contract(abi)
          .deploy({ data: options.counter.bytecode, arguments: [initial] as never })
          .send({ from: fromOf(from) })
          .on('receipt', (r) => {
            receipt = r;
          });
        if (receipt === undefined) throw new Error('web3 deployed without a receipt event');
        return { address: deployed.options.address!, receipt: summary(receipt) };
      },
      async readCount(counter, blockNumber) {
        return BigInt(await counterAt(counter).methods.count!().call(undefined, blockNumber ?? 'latest'));
      },
      async increment(counter, amount, from) {
        return summary(await counterAt(counter).methods.increment!(amount).send({ from: fromOf(from) }));
      },
      async transfer(to, value, from) {
        return summary(await web3.eth.sendTransaction({ from: fromOf(from), to, value }));
      },
      async pastIncrements(counter, fromBlock, toBlock) {
        // The ABI comes from JSON, so its event names are not literal types: the cast is for the compiler only.
        const events = (await counterAt(counter).getPastEvents('Incremented' as 'allEvents', {
          fromBlock,
          toBlock,
        })) as EventLog[];
        return events.map(decode);
      },
      async estimateIncrementGas(counter, amount, from) {
        return BigInt(await counterAt(counter).methods.increment!(amount).estimateGas({ from: fromOf(from) }));
      },
      async revertReason(counter, amount, via) {
        const increment = counterAt(counter).methods.increment!(amount);
        const from = local.address;
        const attempt: Promise<unknown> =
          via === 'call'
            ? increment.call({ from })
            : via === 'estimateGas'
              ? increment.estimateGas({ from })
              : Promise.resolve(increment.send({ from }));
        return attempt.then(() => Promise.reject(new Error(`increment(${amount}) did not revert`)), reasonOf);
      },
      async signMessage(message, by) {
        if (by === 'local') return local.sign(message).signature;
        // Not a wallet account: web3 asks the node (eth_sign).
        return String(await web3.eth.sign(web3.utils.utf8ToHex(message), options.nodeAccount));
      },
      async recoverMessageSigner(message, signature) {
        return web3.eth.accounts.recover(message, signature);
      },
      async watchHeads(onHead) {
        const subscription = await web3ws.eth.subscribe('newBlockHeaders');
        subscription.on('data', (header) => onHead(BigInt(header.number!)));
        subscription.on('error', (e: unknown) => console.error('newBlockHeaders', e));
        return async () => void (await subscription.unsubscribe());
      },
      async watchIncrements(counter, onEvent) {
        const subscription = counterAt(counter, web3ws).events.Incremented!();
        subscription.on('data', (event) => onEvent(decode(event)));
        subscription.on('error', (e: unknown) => console.error('Incremented', e));
        return async () => void (await subscription.unsubscribe());
      },
      async close() {
        web3ws.provider?.disconnect?.();
      },
    };
  },
};
