/**
 * What the client compatibility script (compat.test.ts) found wrong in the node, each pinned here through the
 * real dispatcher and generated validators:
 *
 * - ethers' `JsonRpcSigner.signMessage` and viem's JSON-RPC account `signMessage` call
 *   `personal_sign(message, address)` with two parameters: the passphrase is optional, and without it the
 *   account must be unlocked (as for eth_sign).
 * - web3.js v4 adds `chain`, `hardfork` and `networkId` (and `common` when configured) to the estimate it makes
 *   before every send: eth_estimateGas and eth_call accept and ignore them, as geth ignores unknown fields.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyMessage, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager, keystoreDirOf, LIGHT_SCRYPT } from '../../src/chain/accounts/index.js';
import { methods, type Namespace } from '../../src/generated/registry.js';
import type { HandlerContext } from '../../src/rpc/context.js';
import { handlers } from '../../src/handlers/index.js';
import { createDispatcher } from '../../src/rpc/dispatch.js';
import { createLogger } from '../../src/node/logger.js';

const dispatcher = createDispatcher({
  methods,
  handlers,
  enabledNamespaces: new Set<Namespace>(['personal', 'eth']),
  maxBatchSize: 10,
  validateResults: true,
  log: createLogger({ format: 'json', level: 'error', stream: { write: () => true } as never }),
});

let datadir: string;
let accounts: AccountManager;
let ctx: HandlerContext;

async function call(
  method: string,
  ...params: unknown[]
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  return (await dispatcher.handle({ jsonrpc: '2.0', id: 1, method, params }, ctx)) as never;
}

beforeAll(async () => {
  datadir = await mkdtemp(join(tmpdir(), 'svc-client-fixes-'));
  accounts = new AccountManager({ keystoreDir: keystoreDirOf(datadir), scrypt: LIGHT_SCRYPT });
  ctx = { node: { accounts } as never, transport: 'http' };
});

afterAll(async () => {
  accounts.lockAll();
  await rm(datadir, { recursive: true, force: true });
});

describe('personal_sign(message, address) without a passphrase', () => {
  it('signs with an unlocked account and refuses a locked one, as eth_sign does', async () => {
    const wallet = Wallet.createRandom();
    const passphrase = 'client fixes passphrase';
    const address = (await call('personal_importRawKey', wallet.privateKey, passphrase)).result as string;
    const message = `0x${Buffer.from('hello from a wallet').toString('hex')}`;

    expect(await call('personal_sign', message, address)).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/locked/) },
    });
    expect((await call('personal_unlockAccount', address, passphrase)).result).toBe(true);
    const { result: signature } = await call('personal_sign', message, address);
    expect(verifyMessage('hello from a wallet', signature as string)).toBe(wallet.address);
    // The two-parameter form signs exactly what the three-parameter form signs.
    expect((await call('personal_sign', message, address, passphrase)).result).toBe(signature);
  });
});

describe('the fields web3.js v4 adds to a call request', () => {
  const web3Estimate = {
    from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    value: '0x1',
    gasPrice: '0x3b9aca00',
    nonce: '0x0',
    input: '0x',
    chain: 'mainnet',
    hardfork: 'london',
    chainId: '0x539',
    networkId: '0x539',
    type: '0x0',
  };

  it('pass eth_estimateGas and eth_call validation, with and without a configured common', () => {
    for (const method of [methods.eth_estimateGas, methods.eth_call]) {
      expect(method.params[0]!.check(web3Estimate), method.name).toBeUndefined();
      const withCommon = {
        ...web3Estimate,
        common: { customChain: { name: 'classic', chainId: '0x3d', networkId: '0x1' }, baseChain: 'mainnet' },
      };
      expect(method.params[0]!.check(withCommon), method.name).toBeUndefined();
    }
  });

  it('still refuse a field nobody sends (a typo stays an error)', () => {
    expect(methods.eth_estimateGas.params[0]!.check({ ...web3Estimate, gasPirce: '0x1' })).toMatchObject({
      keyword: 'additionalProperties',
      field: 'gasPirce',
    });
  });
});
