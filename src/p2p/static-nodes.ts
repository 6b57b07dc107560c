/** The configured peers: bootnode URLs from the settings and `<datadir>/static-nodes.json`, parsed with clear errors. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnode, type Enode } from './enode.js';
import { PeerInputError } from './types.js';

export function parseBootnodes(bootnodes: readonly string[]): Enode[] {
  return bootnodes.map((url, i) => {
    try {
      return parseEnode(url);
    } catch (err) {
      throw new PeerInputError(`bootnode ${i + 1} ("${url}"): ${(err as Error).message}`);
    }
  });
}

/** `<datadir>/static-nodes.json` (a JSON array of enode URLs, as geth keeps it): peers kept connected. */
export function staticNodesOf(datadir: string): Enode[] {
  const out: Enode[] = [];
  const file = join(datadir, 'static-nodes.json');
  if (existsSync(file)) {
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new PeerInputError(`${file} is not valid JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(list)) throw new PeerInputError(`${file} must hold a JSON array of enode URLs`);
    list.forEach((url, i) => {
      try {
        out.push(parseEnode(String(url)));
      } catch (err) {
        throw new PeerInputError(`${file} entry ${i + 1} ("${String(url)}"): ${(err as Error).message}`);
      }
    });
  }
  return out;
}
