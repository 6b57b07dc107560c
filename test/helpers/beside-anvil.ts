/**
 * A dev node and, where the binary is installed, Anvil 1.7.1 beside it, for one suite that runs the same script on
 * both: started before the suite's tests and both stopped after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { type AnvilNode, foundryBinary, startAnvil } from './anvil-node.js';
import { type NodeProcess, startNode } from './node-process.js';

export const haveAnvil = foundryBinary('anvil') !== undefined;

export interface BesideAnvil {
  readonly node: NodeProcess;
  /** undefined where Anvil is not installed: the suite's comparisons skip. */
  readonly anvil: AnvilNode | undefined;
}

export function besideAnvil(args: readonly string[] = ['--no-p2p']): BesideAnvil {
  const both = {} as { node: NodeProcess; anvil: AnvilNode | undefined };
  beforeAll(async () => {
    [both.node, both.anvil] = await Promise.all([startNode({ args: [...args] }), haveAnvil ? startAnvil() : undefined]);
  });
  afterAll(async () => {
    await Promise.all([both.node?.stop(), both.anvil?.stop()]);
  });
  return both;
}
