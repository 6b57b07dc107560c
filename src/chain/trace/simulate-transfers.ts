/**
 * eth_simulateV1's traceTransfers: every movement of value during a transaction (its own value, a CALL's or a
 * CREATE's value, the balance SELFDESTRUCT hands on) as an ERC-20 `Transfer(from, to, value)` log emitted by
 * 0xeeee…eeee, placed among the contract's own logs where it happened. A frame that fails takes its transfers
 * with it, as it takes its logs; DELEGATECALL carries its caller's value without moving it, so it logs nothing.
 *
 * The EVM reports no LOG as it happens, so the frames here count the LOG opcodes they run: at the end, each counted
 * LOG is the next of the transaction's logs (the EVM keeps a successful frame's logs in order and drops a failed
 * frame's, as this does), and the transfers fall between them.
 */
import type { EVMInterface, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import type { ReceiptLog } from '../codec/receipts.js';
import { addressFromWord } from './hooks.js';

/** The address that "emits" the transfer logs, as the spec names it. */
export const TRANSFER_LOG_ADDRESS = hexToBytes(`0x${'ee'.repeat(20)}`);
/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');

/** A transfer (its `to` filled in by newContract for a creation), or the place of one of the contract's logs. */
type Entry = { kind: 'transfer'; from: Uint8Array; to?: Uint8Array; value: bigint } | { kind: 'log' };

const word = (bytes: Uint8Array): Uint8Array => setLengthLeft(bytes, 32);

function transferLog(e: Extract<Entry, { kind: 'transfer' }>): ReceiptLog {
  return {
    address: TRANSFER_LOG_ADDRESS,
    topics: [TRANSFER_TOPIC, word(e.from), word(e.to ?? new Uint8Array(20))],
    data: word(bigIntToBytes(e.value)),
  };
}

/** Listens to one EVM for the length of one transaction; `merge` then gives the logs with the transfers in place. */
export class TransferTracker {
  private readonly frames: Entry[][] = [];
  private done: Entry[] = [];
  private readonly detach: () => void;

  constructor(evm: EVMInterface) {
    const before = (m: Message): void => {
      const frame: Entry[] = [];
      this.frames.push(frame);
      if (m.value > 0n && !m.delegatecall) {
        frame.push({ kind: 'transfer', from: m.caller.bytes, ...(m.to ? { to: m.to.bytes } : {}), value: m.value });
      }
    };
    const created = (e: { address: { bytes: Uint8Array } }): void => {
      const first = this.frames[this.frames.length - 1]?.[0];
      if (first?.kind === 'transfer' && first.to === undefined) first.to = e.address.bytes;
    };
    const after = (r: EVMResult): void => {
      const frame = this.frames.pop() ?? [];
      if (r.execResult.exceptionError !== undefined) return;
      const parent = this.frames[this.frames.length - 1];
      if (parent === undefined) this.done.push(...frame);
      else parent.push(...frame);
    };
    const step = (s: InterpreterStep): void => {
      const frame = this.frames[this.frames.length - 1];
      if (frame === undefined) return;
      const name = s.opcode.name;
      if (name.startsWith('LOG')) frame.push({ kind: 'log' });
      else if (name === 'SELFDESTRUCT' && s.account.balance > 0n) {
        const to = addressFromWord(s.stack[s.stack.length - 1]);
        frame.push({ kind: 'transfer', from: s.address.bytes, to, value: s.account.balance });
      }
    };
    const events = evm.events;
    if (events === undefined) throw new Error('traceTransfers: this EVM reports no events');
    events.on('beforeMessage', before);
    events.on('newContract', created);
    events.on('afterMessage', after);
    events.on('step', step);
    this.detach = () => {
      events.off('beforeMessage', before);
      events.off('newContract', created);
      events.off('afterMessage', after);
      events.off('step', step);
    };
  }

  /** The transaction's `logs` with its transfers among them; the tracker is detached. */
  merge(logs: readonly ReceiptLog[]): ReceiptLog[] {
    this.detach();
    const out: ReceiptLog[] = [];
    let next = 0;
    for (const e of this.done) {
      if (e.kind === 'transfer') out.push(transferLog(e));
      else if (next < logs.length) out.push(logs[next++]);
    }
    out.push(...logs.slice(next));
    this.done = [];
    return out;
  }
}
