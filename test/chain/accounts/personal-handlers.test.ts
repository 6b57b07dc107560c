/**
 * personal_* over the real dispatcher, generated validators and result checks. The seven methods are
 * served here even while the document still marks them x-unavailable (their `unavailable` is dropped
 * from a copy of the registry), so this test holds before and after the markers are removed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyMessage, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager, keystoreDirOf, LIGHT_SCRYPT } from '../../../src/chain/accounts/index.js';
import type { Handlers } from '../../../src/generated/handlers.js';
import { methods, type MethodSpec, type Namespace } from '../../../src/generated/registry.js';
import type { HandlerContext } from '../../../src/rpc/context.js';
import { handlers } from '../../../src/handlers/index.js';
import { personalHandlers } from '../../../src/handlers/personal/index.js';
import { createDispatcher } from '../../../src/rpc/dispatch.js';
import { createLogger } from '../../../src/node/logger.js';

const SERVED = [
  'personal_newAccount',
  'personal_importRawKey',
  'personal_listAccounts',
  'personal_unlockAccount',
  'personal_lockAccount',
  'personal_sign',
  'personal_ecRecover',
] as const;
const PASSPHRASE = 'handler test passphrase';

const registry: Record<string, MethodSpec> = { ...methods };
for (const name of SERVED) {
  const { unavailable: _dropped, ...spec } = methods[name];
  registry[name] = spec;
}

const logLines: string[] = [];
const responses: string[] = [];
const dispatcher = createDispatcher({
  methods: registry,
  handlers: { ...handlers, personal: personalHandlers } as Handlers<HandlerContext>,
  enabledNamespaces: new Set<Namespace>(['personal']),
  maxBatchSize: 10,
  validateResults: true,
  log: createLogger({
    format: 'json',
    level: 'debug',
    stream: { write: (line: string) => logLines.push(line) } as never,
  }),
});

let datadir: string;
let accounts: AccountManager;
let ctx: HandlerContext;
let nextId = 1;

async function call(
  method: string,
  ...params: unknown[]
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await dispatcher.handle({ jsonrpc: '2.0', id: nextId++, method, params }, ctx);
  responses.push(JSON.stringify(response));
  return response as { result?: unknown; error?: { code: number; message: string } };
}

beforeAll(async () => {
  datadir = await mkdtemp(join(tmpdir(), 'svc-personal-'));
  accounts = new AccountManager({ keystoreDir: keystoreDirOf(datadir), scrypt: LIGHT_SCRYPT });
  ctx = { node: { accounts } as never, transport: 'http' };
});

afterAll(async () => {
  accounts.lockAll();
  await rm(datadir, { recursive: true, force: true });
});

describe('personal_* handlers', () => {
  it('create, list, unlock, lock', async () => {
    expect(await call('personal_newAccount', 'short')).toMatchObject({
      error: { code: -32000, message: 'Provided passphrase must have at least 7 characters' },
    });
    const { result: address } = await call('personal_newAccount', PASSPHRASE);
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    expect((await call('personal_listAccounts')).result).toEqual([address]);

    expect((await call('personal_unlockAccount', address, 'wrong passphrase')).result).toBe(false);
    expect((await call('personal_unlockAccount', address, PASSPHRASE)).result).toBe(true);
    expect((await call('personal_unlockAccount', address, PASSPHRASE, null)).result).toBe(true);
    expect((await call('personal_unlockAccount', address, PASSPHRASE, '0x3c')).result).toBe(true);
    expect((await call('personal_unlockAccount', address, PASSPHRASE, 0)).result).toBe(true);
    expect(accounts.isUnlocked(Buffer.from((address as string).slice(2), 'hex'))).toBe(true);
    expect((await call('personal_lockAccount', address)).result).toBe(true);
    expect(accounts.isUnlocked(Buffer.from((address as string).slice(2), 'hex'))).toBe(false);

    const stranger = Wallet.createRandom().address.toLowerCase();
    expect(await call('personal_unlockAccount', stranger, PASSPHRASE)).toMatchObject({
      error: { code: -32000, message: 'No key found for the given address' },
    });
    expect((await call('personal_lockAccount', stranger)).result).toBe(false);
  });

  it('importRawKey accepts keys with or without 0x and refuses duplicates and invalid keys', async () => {
    const wallet = Wallet.createRandom();
    expect((await call('personal_importRawKey', wallet.privateKey.slice(2), PASSPHRASE)).result).toBe(
      wallet.address.toLowerCase(),
    );
    expect(await call('personal_importRawKey', wallet.privateKey, PASSPHRASE)).toMatchObject({
      error: { code: -32000, message: 'account already exists' },
    });
    expect((await call('personal_importRawKey', `0x${'00'.repeat(32)}`, PASSPHRASE)).error?.code).toBe(-32602);
  });

  it('personal_sign → personal_ecRecover → the same address, as ethers agrees', async () => {
    const wallet = Wallet.createRandom();
    const address = (await call('personal_importRawKey', wallet.privateKey, PASSPHRASE)).result;
    const message = `0x${Buffer.from('hello ETC').toString('hex')}`;
    expect(await call('personal_sign', message, address, 'wrong passphrase')).toMatchObject({
      error: { code: -32000, message: 'Could not decrypt key with given passphrase' },
    });
    const { result: signature } = await call('personal_sign', message, address, PASSPHRASE);
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
    expect(signature).toBe(await wallet.signMessage('hello ETC'));
    expect(verifyMessage('hello ETC', signature as string)).toBe(wallet.address);
    expect((await call('personal_ecRecover', message, signature)).result).toBe(address);
    const badV = `${(signature as string).slice(0, -2)}1d`;
    expect(await call('personal_ecRecover', message, badV)).toMatchObject({ error: { code: -32602 } });
    // signing with the passphrase does not leave the account unlocked
    expect(accounts.isUnlocked(Buffer.from((address as string).slice(2), 'hex'))).toBe(false);
  });

  it('echoes no passphrase in any response or log line', () => {
    expect(responses.length).toBeGreaterThan(10);
    const text = [...responses, ...logLines].join('\n');
    expect(text).not.toContain(PASSPHRASE);
    expect(text).not.toContain('wrong passphrase');
  });
});
