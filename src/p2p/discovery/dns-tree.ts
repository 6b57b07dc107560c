/**
 * EIP-1459 node lists: walks an `enrtree://<key>@<domain>` tree of DNS TXT records and returns the node records
 * it lists. The root's signature is checked against the tree's public key, every other entry against the hash
 * its name carries, so a resolver can only withhold records, not forge them. A loop (a name reached twice) or a
 * tree larger than the walk's budget is refused with a reason. The resolver's servers are settable per walker,
 * so tests answer from a local DNS server and nothing else in the process is affected.
 */
import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { base32 } from '@scure/base';
import { keccak256 } from '../../chain/index.js';
import { type NodeRecord, recordFromText } from './enr.js';
import { TREE_URL } from './tree-url.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

/** Most TXT lookups of one tree walk (links included): a hostile tree cannot keep us walking for ever. */
const MAX_LOOKUPS = 2_000;
const ROOT = /^enrtree-root:v1 e=([A-Z2-7]+) l=([A-Z2-7]+) seq=(\d+) sig=([A-Za-z0-9_-]+)$/;

export class DnsTreeError extends Error {
  override name = 'DnsTreeError';
}

export interface TreeUrl {
  /** Compressed secp256k1 key (33 bytes). */
  readonly key: Uint8Array;
  readonly domain: string;
}

export function parseTreeUrl(url: string): TreeUrl {
  const match = TREE_URL.exec(url.trim());
  if (match === null) throw new DnsTreeError(`not an enrtree://<public key>@<domain> URL: ${url}`);
  let key: Uint8Array;
  try {
    key = base32.decode(padBase32(match[1]!));
  } catch {
    throw new DnsTreeError(`the public key of ${url} is not base32`);
  }
  if (key.length !== 33 || !secp256k1.publicKeyVerify(key))
    throw new DnsTreeError(`the public key of ${url} is not a compressed secp256k1 key`);
  return { key, domain: match[2]!.toLowerCase() };
}

function padBase32(text: string): string {
  return text + '='.repeat((8 - (text.length % 8)) % 8);
}

/** base32 (no padding) of the first 16 bytes of keccak256(text): the name a subtree entry is stored under. */
export function entryHash(text: string): string {
  return base32.encode(keccak256(new TextEncoder().encode(text)).subarray(0, 16)).replace(/=+$/, '');
}

export interface WalkResult {
  readonly records: NodeRecord[];
  /** Records skipped (undecodable or badly signed), with why: the walk goes on without them. */
  readonly skipped: string[];
}

export class DnsTreeWalker {
  readonly #resolver: Resolver;

  /** `server`: `ip` or `ip:port` of the DNS server to ask; the system's when absent. */
  constructor(server?: string, timeoutMs = 3_000) {
    this.#resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (server !== undefined && server !== '') this.#resolver.setServers([server]);
  }

  cancel(): void {
    this.#resolver.cancel();
  }

  /** Every node record of the tree and of the trees it links to; throws DnsTreeError for a refused tree. */
  async walk(url: string): Promise<WalkResult> {
    const state = { lookups: 0, seen: new Set<string>(), records: [] as NodeRecord[], skipped: [] as string[] };
    await this.#walkTree(parseTreeUrl(url), state, new Set());
    return { records: state.records, skipped: state.skipped };
  }

  async #walkTree(tree: TreeUrl, state: WalkState, trees: Set<string>): Promise<void> {
    if (trees.has(tree.domain)) throw new DnsTreeError(`loop: tree ${tree.domain} links back to itself`);
    trees.add(tree.domain);
    const rootText = await this.#txt(tree.domain, state);
    const root = ROOT.exec(rootText);
    if (root === null) throw new DnsTreeError(`${tree.domain}: root entry is malformed: ${rootText.slice(0, 120)}`);
    const signed = rootText.slice(0, rootText.indexOf(' sig='));
    const sig = Buffer.from(root[4]!, 'base64url');
    let valid = false;
    try {
      valid = sig.length === 65 && secp256k1.ecdsaVerify(sig.subarray(0, 64), keccak256(Buffer.from(signed)), tree.key);
    } catch {
      valid = false;
    }
    if (!valid) throw new DnsTreeError(`${tree.domain}: root signature does not match the tree's public key`);
    await this.#walkEntry(root[1]!, tree, state, 'enr', trees);
    await this.#walkEntry(root[2]!, tree, state, 'link', trees);
  }

  async #walkEntry(hash: string, tree: TreeUrl, state: WalkState, kind: 'enr' | 'link', trees: Set<string>) {
    const name = `${hash.toLowerCase()}.${tree.domain}`;
    if (state.seen.has(name)) throw new DnsTreeError(`loop: ${name} is reached twice`);
    state.seen.add(name);
    const text = await this.#txt(name, state);
    const children = text.startsWith('enrtree-branch:')
      ? text.slice('enrtree-branch:'.length).split(',').filter(Boolean)
      : undefined;
    // A branch naming an entry already on the walk (itself, an ancestor, a sibling twice) is a loop, however signed.
    const looped = children?.find((child) => state.seen.has(`${child.toLowerCase()}.${tree.domain}`));
    if (looped !== undefined) throw new DnsTreeError(`loop: ${name} lists ${looped}, which the walk already reached`);
    if (entryHash(text) !== hash.toUpperCase())
      throw new DnsTreeError(`${name}: content does not match the hash in its name`);
    if (children !== undefined) {
      for (const child of children) await this.#walkEntry(child, tree, state, kind, trees);
    } else if (kind === 'enr' && text.startsWith('enr:')) {
      try {
        state.records.push(recordFromText(text));
      } catch (err) {
        state.skipped.push(`${name}: ${(err as Error).message}`);
      }
    } else if (kind === 'link' && text.startsWith('enrtree://')) {
      await this.#walkTree(parseTreeUrl(text), state, trees);
    } else {
      state.skipped.push(`${name}: unexpected ${kind} entry ${text.slice(0, 40)}`);
    }
  }

  async #txt(name: string, state: WalkState): Promise<string> {
    if (++state.lookups > MAX_LOOKUPS) throw new DnsTreeError(`tree is larger than ${MAX_LOOKUPS} entries`);
    let answers: string[][];
    try {
      answers = await this.#resolver.resolveTxt(name);
    } catch (err) {
      throw new DnsTreeError(`TXT lookup of ${name} failed: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
    // One TXT record per name; long ones arrive as several strings that belong together.
    if (answers.length === 0) throw new DnsTreeError(`${name} has no TXT record`);
    return answers[0]!.join('');
  }
}

interface WalkState {
  lookups: number;
  readonly seen: Set<string>;
  readonly records: NodeRecord[];
  readonly skipped: string[];
}
