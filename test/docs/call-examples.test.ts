/**
 * The "Call it" commands of method pages run as printed against a fresh dev node (its URL put in place of the
 * default one): curl gets a result, not an error, and so does cast when Foundry's cast is installed. eth_getLogs'
 * command must work on a chain of any length, so its range is `latest`, never a fixed block.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_URL, callExamples } from '../../codegen/docs/call-examples.js';
import { buildModel } from '../../codegen/docs/model.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

const model = buildModel(JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as object);
const castBin = join(repoRoot, 'node_modules/.bin/cast');
const METHODS = ['eth_getLogs', 'eth_getBalance', 'eth_blockNumber', 'eth_getBlockByNumber', 'web3_clientVersion'];

const run = (command: string): string => execFileSync('sh', ['-c', command], { encoding: 'utf8', timeout: 30_000 });

describe('"Call it" commands on a fresh dev node', () => {
  let node: NodeProcess;
  beforeAll(async () => {
    node = await startNode();
  });
  afterAll(async () => {
    await node?.stop();
  });

  it.each(METHODS)('%s', (name) => {
    const method = model.methods.find((m) => m.name === name)!;
    const examples = callExamples(method, method.examples[0]);
    const url = node.url.replace(/\/$/, '');
    const curl = examples.find((e) => e.tool === 'curl')!.code.replaceAll(DEV_URL, url);
    const answer = JSON.parse(run(curl)) as { result?: unknown; error?: unknown };
    expect(answer.error, curl).toBeUndefined();
    expect(answer).toHaveProperty('result');
    if (existsSync(castBin)) {
      const cast = examples
        .find((e) => e.tool === 'cast')!
        .code.replaceAll(DEV_URL, url)
        .replace(/^cast /, `${castBin} `);
      expect(() => run(cast), cast).not.toThrow();
    }
  });

  it("eth_getLogs' command asks for the latest blocks, not a fixed range", () => {
    const method = model.methods.find((m) => m.name === 'eth_getLogs')!;
    const curl = callExamples(method, method.examples[0])[0].code;
    expect(curl).toContain('"fromBlock":"latest"');
  });
});
