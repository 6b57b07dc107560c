/** Network facts and namespace gating per network, over HTTP against nodes started with different flags. */
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const started: NodeProcess[] = [];
async function node(args: string[], env?: NodeJS.ProcessEnv) {
  const n = await startNode({ args, env });
  started.push(n);
  return n;
}
afterAll(async () => {
  await Promise.all(started.map((n) => n.stop()));
});

const call = async (n: NodeProcess, method: string, params: unknown[] = []) =>
  (await post(n.url, request(method, params))).body;

describe('networks and namespaces', () => {
  it('mordor: chain id 63, net_version "63", only eth,web3,net (+rpc) enabled', async () => {
    const mordor = await node(['--network', 'mordor']);
    expect((await call(mordor, 'eth_chainId')).result).toBe('0x3f');
    expect((await call(mordor, 'net_version')).result).toBe('63');
    expect((await call(mordor, 'rpc_modules')).result).toEqual({ eth: '1.0', web3: '1.0', net: '1.0', rpc: '1.0' });
    for (const method of [
      'personal_listAccounts',
      'debug_listPeersInfo',
      'qa_mineBlocks',
      'tools/list',
      'svc_getAccountTransactions',
    ]) {
      const res = await call(mordor, method);
      expect(res.error.code, method).toBe(-32601);
      expect(res.error.message).toMatch(/namespace is not enabled/);
    }
    expect((await call(mordor, 'rpc.discover')).result.openrpc).toBe('1.3.2');
  });

  it('etc: chain id 61 and net_version "61"; --apis and the environment choose namespaces', async () => {
    const etc = await node(['--network', 'etc', '--apis', 'web3'], { SVC_NODE_NETWORK_RPC_APIS: 'eth,net' });
    expect((await call(etc, 'rpc_modules')).result).toEqual({ web3: '1.0', rpc: '1.0' });
    expect((await call(etc, 'eth_chainId')).error.code).toBe(-32601);
    const etcEnv = await node([], { SVC_NODE_BLOCKCHAINS_NETWORK: 'etc', SVC_NODE_NETWORK_RPC_APIS: 'eth,net' });
    expect((await call(etcEnv, 'eth_chainId')).result).toBe('0x3d');
    expect((await call(etcEnv, 'net_version')).result).toBe('61');
    expect((await call(etcEnv, 'web3_clientVersion')).error.code).toBe(-32601);
  });

  it('--testmode adds the test and debug namespaces', async () => {
    const test = await node(['--testmode', '--apis', 'eth']);
    expect((await call(test, 'rpc_modules')).result).toEqual({ eth: '1.0', debug: '1.0', test: '1.0', rpc: '1.0' });
    expect((await call(test, 'test_mineBlocks', [1])).error?.code).not.toBe(-32601);
  });
});
