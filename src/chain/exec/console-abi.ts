/**
 * The payloads of hardhat's console.sol (calls to 0x…636F6e736F6c652e6c6f67) as the lines a developer wrote.
 *
 * console.sol encodes every function, the named ones (logString, logUint, logBytes4, …) included, as a call of a
 * `log(...)` signature: `log()`, one argument of uint256, int256, string, bool, address, bytes or bytes1..32, and
 * every 2-, 3- and 4-argument list of uint256, string, bool and address. The selectors are computed here from those
 * signatures. Older console.sol releases hashed `uint`/`int` instead of `uint256`/`int256`: those selectors decode
 * too. A first argument that is a string is a format (console.sol's, as Node's util.format and Foundry read it):
 * `%s` any value, `%d`/`%i` a number in decimal, `%o` a value as an object (strings quoted), `%x` a number or
 * bytes in hex, `%%` a percent sign; a specifier without an argument stays as written, arguments without one
 * follow, separated by spaces.
 */
import { bytesToHex, bytesToUtf8, toChecksumAddress } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';

type AbiType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`;
type Value =
  | { readonly kind: 'uint' | 'int'; readonly n: bigint }
  | { readonly kind: 'string'; readonly s: string }
  | { readonly kind: 'bool'; readonly b: boolean }
  | { readonly kind: 'address' | 'bytes'; readonly bytes: Uint8Array };

const COMBINED: readonly AbiType[] = ['uint256', 'string', 'bool', 'address'];

function signatures(): AbiType[][] {
  const single: AbiType[] = ['uint256', 'int256', 'string', 'bool', 'address', 'bytes'];
  for (let n = 1; n <= 32; n++) single.push(`bytes${n}`);
  const lists: AbiType[][] = [[], ...single.map((t) => [t])];
  let previous: AbiType[][] = COMBINED.map((t) => [t]);
  for (let arity = 2; arity <= 4; arity++) {
    previous = previous.flatMap((list) => COMBINED.map((t) => [...list, t]));
    lists.push(...previous);
  }
  return lists;
}

const selectorKey = (signature: string): number => {
  const h = keccak256(new TextEncoder().encode(signature));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
};

/** Argument types by selector, built on first use. */
let table: Map<number, readonly AbiType[]> | undefined;

function selectorTable(): Map<number, readonly AbiType[]> {
  if (table !== undefined) return table;
  table = new Map();
  for (const types of signatures()) {
    table.set(selectorKey(`log(${types.join(',')})`), types);
    const legacy = types.map((t) => (t === 'uint256' ? 'uint' : t === 'int256' ? 'int' : t));
    if (legacy.some((t, i) => t !== types[i])) table.set(selectorKey(`log(${legacy.join(',')})`), types);
  }
  return table;
}

/** How many selectors decode (for the tests: 1 + 38 + 4² + 4³ + 4⁴, plus the legacy spellings). */
export function consoleSelectorCount(): number {
  return selectorTable().size;
}

const word = (data: Uint8Array, offset: number): Uint8Array | undefined =>
  offset + 32 <= data.length ? data.subarray(offset, offset + 32) : undefined;

const toBigInt = (w: Uint8Array): bigint => (w.length === 0 ? 0n : BigInt(bytesToHex(w)));

function decodeArg(type: AbiType, args: Uint8Array, index: number): Value | undefined {
  const head = word(args, index * 32);
  if (head === undefined) return undefined;
  switch (type) {
    case 'uint256':
      return { kind: 'uint', n: toBigInt(head) };
    case 'int256':
      return { kind: 'int', n: BigInt.asIntN(256, toBigInt(head)) };
    case 'bool':
      return { kind: 'bool', b: head[31] !== 0 };
    case 'address':
      return { kind: 'address', bytes: head.subarray(12) };
    case 'string':
    case 'bytes': {
      const offset = Number(toBigInt(head));
      const length = word(args, offset);
      if (length === undefined) return undefined;
      const n = Number(toBigInt(length));
      if (offset + 32 + n > args.length) return undefined;
      const body = args.subarray(offset + 32, offset + 32 + n);
      return type === 'string' ? { kind: 'string', s: bytesToUtf8(body) } : { kind: 'bytes', bytes: body };
    }
    default:
      return { kind: 'bytes', bytes: head.subarray(0, Number(type.slice(5))) };
  }
}

function asText(v: Value): string {
  switch (v.kind) {
    case 'uint':
    case 'int':
      return v.n.toString();
    case 'string':
      return v.s;
    case 'bool':
      return String(v.b);
    case 'address':
      return toChecksumAddress(bytesToHex(v.bytes));
    case 'bytes':
      return bytesToHex(v.bytes);
  }
}

function asNumber(v: Value): string {
  if (v.kind === 'bool') return v.b ? '1' : '0';
  if (v.kind === 'address' || v.kind === 'bytes') return toBigInt(v.bytes).toString();
  return asText(v);
}

function asHex(v: Value): string {
  switch (v.kind) {
    case 'uint':
      return `0x${v.n.toString(16)}`;
    case 'int':
      return `0x${BigInt.asUintN(256, v.n).toString(16)}`;
    case 'bool':
      return v.b ? '0x1' : '0x0';
    case 'string':
      return bytesToHex(new TextEncoder().encode(v.s));
    default:
      return bytesToHex(v.bytes);
  }
}

/** util.format's reading of a format string, with console.sol's specifiers. */
function formatConsole(values: readonly Value[]): string {
  const [first, ...rest] = values;
  if (first === undefined) return '';
  if (first.kind !== 'string') return values.map(asText).join(' ');
  let next = 0;
  const out = first.s.replace(/%([sdioxX%])/g, (spec, c: string) => {
    if (c === '%') return '%';
    const v = rest[next];
    if (v === undefined) return spec;
    next++;
    if (c === 'd' || c === 'i') return asNumber(v);
    if (c === 'x' || c === 'X') return asHex(v);
    if (c === 'o' && v.kind === 'string') return `'${v.s}'`;
    return asText(v);
  });
  return [out, ...rest.slice(next).map(asText)].join(' ');
}

/** The line a console.sol call's calldata stands for; undefined for calldata no console.sol signature makes. */
export function decodeConsoleCall(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  const types = selectorTable().get(selector);
  if (types === undefined) return undefined;
  const args = data.subarray(4);
  const values: Value[] = [];
  for (let i = 0; i < types.length; i++) {
    const v = decodeArg(types[i]!, args, i);
    if (v === undefined) return undefined;
    values.push(v);
  }
  return formatConsole(values);
}
