/**
 * How far `@ethereumjs/client` (0.10.5, `--snap`) gets when asked to snap-sync svc-node's dev chain (issue 26's
 * interop check). Starts svc-node (Ethash dev chain), mines a few blocks with a transfer and a contract with
 * storage, starts the client with `--snap`, links them, waits, then prints the client's snap and sync log lines
 * and what it holds. Not a test: the client's version decides how far it can go, and this shows it.
 *
 * Usage: npx tsx scripts/interop/ethereumjs-snap-probe.ts [seconds=60]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { dev } from '../../src/chain/networks/dev.js';
import { createClient, httpTransport } from '../../clients/typescript/src/client.js';
import { repoRoot, startNode } from '../../test/helpers/node-process.js';
import { startEthereumjsClient } from './ethereumjs-client.js';
import { ethereumjsChainFiles, writeChainFiles } from './ethereumjs-dev-chain.js';

const seconds = Number(process.argv[2] ?? 60);
const entry = execFileSync('bash', [join(repoRoot, 'scripts/interop/install-ethereumjs-client.sh')], {
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .at(-1)!;
const chainDir = mkdtempSync(join(tmpdir(), 'svc-node-ethereumjs-chain-'));
const { chainPath, genesisStatePath } = writeChainFiles(await ethereumjsChainFiles(dev), chainDir);
const node = await startNode({ args: ['--seal', 'ethash'] });
const svc = createClient(httpTransport(node.url));
const sender = DEV_ACCOUNTS[1]!.address as `0x${string}`;
try {
  // A transfer and a contract that stores 42 in slot 0, so there are accounts, code and storage to download.
  for (const tx of [
    { from: sender, to: '0x000000000000000000000000000000000000beef' as const, value: '0x1' as const },
    { from: sender, data: '0x602a5f556008600e5f3960085ff35f546001015f5500' as const, gas: '0x30d40' as const },
  ]) {
    const hash = await svc.eth_sendTransaction(tx);
    while ((await svc.eth_getTransactionReceipt(hash)) === null) await new Promise((r) => setTimeout(r, 200));
  }
  const head = await svc.eth_blockNumber();
  const client = await startEthereumjsClient({
    entry,
    chainPath,
    genesisStatePath,
    extraArgs: ['--snap', '--logLevel', 'debug'],
  });
  try {
    await svc.net_connectToPeer(client.enode);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const snapLines = client.logLines.filter((l) => /snap|Snap|skeleton|AccountFetcher|sync target|head state/.test(l));
    console.log(`svc-node head ${BigInt(head)}; client eth_blockNumber ${await client.rpc('eth_blockNumber')}`);
    console.log(`client log lines about snap sync (${snapLines.length} of ${client.logLines.length}):`);
    for (const line of [...new Set(snapLines.map((l) => l.replace(/^\S+ \S+ /, '')))].slice(0, 40)) console.log(line);
  } finally {
    await client.stop();
  }
} finally {
  await svc.close();
  await node.stop();
  rmSync(chainDir, { recursive: true, force: true });
}
