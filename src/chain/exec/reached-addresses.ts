/**
 * The accounts a transaction reached below its top-level call, for the address index (history/address-index.ts):
 * CALL, CALLCODE, DELEGATECALL and STATICCALL targets (and the code a delegated call ran), value-transfer recipients,
 * contracts created by CREATE and CREATE2, and SELFDESTRUCT beneficiaries, as Erigon's and Anvil's Otterscan
 * indexes list them.
 *
 * Read from the EVM's own message events (one per frame, not per opcode) and from a wrapper on the interpreter's
 * `selfDestruct`, so block execution pays a set insertion per frame. The listeners stay on a VM once added and do
 * nothing while no transaction is being watched (`watchReached` ... `takeReached`), so a trace's replay on the same
 * VM is not affected.
 */
import type { Message } from '@ethereumjs/evm';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { interpreterPrototype } from './evm-interpreter.js';

const REACHED = '_svcReached';
const LISTENING = '_svcReachedListening';

type Reached = Map<string, Uint8Array>;
type WatchedEvm = { [REACHED]?: Reached | undefined; [LISTENING]?: true };
/** The EVM as the VM hands it out (`vm.evm`, typed as the narrower EVMInterface). */
type EventfulEvm = { events?: { on(event: string, listener: (payload: never) => void): void } };

function note(evm: WatchedEvm, address: Uint8Array | undefined): void {
  const reached = evm[REACHED];
  if (reached !== undefined && address !== undefined) reached.set(bytesToUnprefixedHex(address), address);
}

/** Starts recording what the next transaction on `evm` reaches. */
export function watchReached(evm: object): void {
  const target = evm as WatchedEvm;
  const events = (evm as EventfulEvm).events;
  if (target[LISTENING] === undefined && events !== undefined) {
    target[LISTENING] = true;
    events.on('beforeMessage', (m: Message) => {
      // The top-level call's sender and recipient are indexed from the transaction itself.
      if (m.depth === 0) return;
      // A creation has no `to` yet (its address comes with newContract), and then `codeAddress` throws.
      if (m.to === undefined) return;
      note(target, m.to.bytes);
      if (!m.codeAddress.equals(m.to)) note(target, m.codeAddress.bytes);
    });
    events.on('newContract', (e: { address: { bytes: Uint8Array } }) => note(target, e.address.bytes));
  }
  target[REACHED] = new Map();
}

/** What the watched transaction reached (each address once), and stops recording. */
export function takeReached(evm: object): Uint8Array[] {
  const target = evm as WatchedEvm;
  const reached = target[REACHED];
  target[REACHED] = undefined;
  return reached === undefined ? [] : [...reached.values()];
}

interface SelfDestructing {
  _evm: WatchedEvm;
  selfDestruct(to: { bytes: Uint8Array }): Promise<void>;
}

async function install(): Promise<boolean> {
  const proto = await interpreterPrototype<SelfDestructing>();
  const original = proto?.selfDestruct;
  if (proto === undefined || typeof original !== 'function') return false;
  proto.selfDestruct = function (this: SelfDestructing, to: { bytes: Uint8Array }): Promise<void> {
    note(this._evm, to.bytes);
    return original.call(this, to);
  };
  return true;
}

/** Resolves once SELFDESTRUCT beneficiaries are recorded too (installed once, on first import). */
export const reachedAddressesInstalled: Promise<boolean> = install();
