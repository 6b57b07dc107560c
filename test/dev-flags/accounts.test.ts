/**
 * `--mnemonic`, `--accounts` and `--balance` give the same test accounts as Anvil's flags of those names: the same
 * addresses in eth_accounts (m/44'/60'/0'/0/i of the same words), each with the same balance, side by side with
 * Anvil 1.7.1 started with the same flags; and the node signs for them (they are unlocked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, foundryBinary, startAnvil } from '../helpers/anvil-node.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const FLAGS = ['--accounts', '13', '--balance', '12'];
const haveAnvil = foundryBinary('anvil') !== undefined;
let node: NodeProcess;
let anvil: AnvilNode | undefined;

beforeAll(async () => {
  [node, anvil] = await Promise.all([
    startNode({ args: ['--no-p2p', '--mnemonic', MNEMONIC, ...FLAGS] }),
    haveAnvil ? startAnvil({ mnemonic: MNEMONIC, args: FLAGS }) : undefined,
  ]);
});

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

async function accountsOf(url: string): Promise<{ address: string; balance: string }[]> {
  const addresses = await call<string[]>(url, 'eth_accounts', []);
  return Promise.all(
    addresses.map(async (a) => ({
      address: a.toLowerCase(),
      balance: await call<string>(url, 'eth_getBalance', [a, 'latest']),
    })),
  );
}

describe('--mnemonic, --accounts, --balance', () => {
  it("fund and unlock the same accounts as Anvil's flags", async () => {
    const ours = await accountsOf(node.url);
    expect(ours).toHaveLength(13);
    expect(ours[0]).toEqual({
      address: '0x9858effd232b4033e47d90003d41ec34ecaeda94',
      balance: `0x${(12n * 10n ** 18n).toString(16)}`,
    });
    if (anvil !== undefined) expect(ours).toEqual(await accountsOf(anvil.url));
    // Unlocked: the node signs a transfer from the last of them.
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: ours[12]!.address, to: ours[0]!.address, value: '0x1' },
    ]);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuse words that are no mnemonic, naming the setting', async () => {
    const run = await runCli(['--no-p2p', '--http.port', '0', '--mnemonic', 'not a real mnemonic at all']);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('dev.mnemonic (--mnemonic): not a BIP-39 mnemonic');
  });
});
