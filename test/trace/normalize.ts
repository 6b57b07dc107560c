/**
 * The differences between Anvil's traces and geth's that the differential tests accept, each undone here on
 * Anvil's side (or on both, where the chains differ by rule). Every one is listed in the debug_trace* method
 * descriptions of openrpc.json with its reason.
 */
type Json = any;

/** Anvil's words for EVM errors (revm's names) → geth's. */
const ANVIL_ERRORS: Readonly<Record<string, string>> = {
  StateChangeDuringStaticCall: 'write protection',
  OutOfGas: 'out of gas',
  CreateCollision: 'contract address collision',
};

export const gethErrorOf = (anvil: string): string => {
  const bare = anvil.replace(/^Some\((.*)\)$/, '$1');
  return ANVIL_ERRORS[bare] ?? bare;
};

/**
 * callTracer: Anvil's top frame `gas` is the gas left after intrinsic gas (geth's is the transaction's gas limit),
 * its logs carry an `index` geth's do not, and its errors are revm's names.
 */
export function normalizeCallFrame(frame: Json, top = true): Json {
  const out: Json = { ...frame };
  if (top) delete out.gas;
  if (out.error !== undefined) out.error = gethErrorOf(out.error);
  if (out.logs !== undefined) out.logs = out.logs.map(({ index: _index, ...log }: Json) => log);
  if (out.calls !== undefined) out.calls = out.calls.map((c: Json) => normalizeCallFrame(c, false));
  return out;
}

/**
 * prestateTracer: the coinbase's balance differs by ETC's block reward (Anvil pays none); Anvil keeps a contract
 * created by the transaction in the plain prestate as {balance: 0x0} where geth leaves it out.
 */
export function normalizePrestate(result: Json, coinbase: string, created: string | undefined, diff: boolean): Json {
  const strip = (state: Json): Json => {
    const out: Json = {};
    for (const [address, account] of Object.entries<Json>(state ?? {})) {
      if (address === created && !diff && JSON.stringify(account) === '{"balance":"0x0"}') continue;
      const { balance, ...rest } = account;
      const kept = address === coinbase ? rest : account;
      if (Object.keys(kept).length > 0 || address !== coinbase) out[address] = kept;
    }
    return out;
  };
  return diff ? { pre: strip(result.pre), post: strip(result.post) } : strip(result);
}

/** 4byteTracer: Anvil also counts calls to precompiles (geth skips them); `frames` is the callTracer tree. */
export function normalizeFourByte(result: Json, frame: Json): Json {
  const out: Json = { ...result };
  const visit = (f: Json): void => {
    const to = BigInt(f.to ?? '0x0');
    if (f.type !== 'CREATE' && f.type !== 'CREATE2' && to > 0n && to < 10n && f.input.length >= 10) {
      const key = `${f.input.slice(0, 10)}-${(f.input.length - 10) / 2}`;
      if (out[key] !== undefined && --out[key] === 0) delete out[key];
    }
    for (const c of f.calls ?? []) visit(c);
  };
  visit(frame);
  return out;
}

/**
 * Struct logger, opcode by opcode: pc, op, gas, depth and stack always; gasCost except where Anvil counts
 * otherwise (CREATE/CREATE2: Anvil adds the gas handed to the new frame; an opcode that ran out of gas: Anvil
 * reports the gas left instead of the opcode's cost); error in geth's words.
 */
export function structEntry(entry: Json, anvil: boolean): Json {
  const out: Json = { pc: entry.pc, op: entry.op, gas: entry.gas, depth: entry.depth, stack: entry.stack };
  const skipCost = entry.op === 'CREATE' || entry.op === 'CREATE2' || entry.error !== undefined;
  if (!skipCost) out.gasCost = entry.gasCost;
  if (entry.error !== undefined) out.error = anvil ? gethErrorOf(entry.error) : entry.error;
  return out;
}
