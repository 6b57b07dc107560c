import fs from 'node:fs';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { describe, expect, it } from 'vitest';
import type { MethodObject, OpenRpcDocument } from '../../codegen/document.js';
import { findMethod, methods, namespaces } from '../../src/generated/registry.js';
import { openrpcFile } from './paths.js';

const doc = JSON.parse(fs.readFileSync(openrpcFile, 'utf8')) as OpenRpcDocument;
const namespaceOf = (m: MethodObject) => String(m.tags?.[0]?.$ref).replace('#/components/tags/', '');

/**
 * The names the original product routes, by `apis` group (reference/product-behaviour.md §1.2: 95 strings),
 * moved per ARCHITECTURE.md's placement choices, plus what the document adds on purpose.
 */
const ROUTED: Record<string, string[]> = {
  eth: [
    'eth_accounts',
    'eth_blockNumber',
    'eth_call',
    'eth_chainId',
    'eth_coinbase',
    'eth_estimateGas',
    'eth_gasPrice',
    'eth_getBalance',
    'eth_getBlockByHash',
    'eth_getBlockByNumber',
    'eth_getBlockTransactionCountByHash',
    'eth_getBlockTransactionCountByNumber',
    'eth_getCode',
    'eth_getFilterChanges',
    'eth_getFilterLogs',
    'eth_getLogs',
    'eth_getProof',
    'eth_getRawTransactionByBlockHashAndIndex',
    'eth_getRawTransactionByBlockNumberAndIndex',
    'eth_getRawTransactionByHash',
    'eth_getStorageAt',
    'eth_getStorageRoot',
    'eth_getTransactionByBlockHashAndIndex',
    'eth_getTransactionByBlockNumberAndIndex',
    'eth_getTransactionByHash',
    'eth_getTransactionCount',
    'eth_getTransactionReceipt',
    'eth_getUncleByBlockHashAndIndex',
    'eth_getUncleByBlockNumberAndIndex',
    'eth_getUncleCountByBlockHash',
    'eth_getUncleCountByBlockNumber',
    'eth_getWork',
    'eth_hashrate',
    'eth_mining',
    'eth_newBlockFilter',
    'eth_newFilter',
    'eth_newPendingTransactionFilter',
    'eth_pendingTransactions',
    'eth_protocolVersion',
    'eth_sendRawTransaction',
    'eth_sendTransaction',
    'eth_sign',
    'eth_submitHashrate',
    'eth_submitWork',
    'eth_syncing',
    'eth_uninstallFilter',
    'miner_start',
    'miner_stop',
    'miner_getStatus',
  ],
  web3: ['web3_clientVersion', 'web3_sha3'],
  net: [
    'net_version',
    'net_listening',
    'net_peerCount',
    'net_listPeers',
    'net_disconnectPeer',
    'net_connectToPeer',
    'net_listBlacklistedPeers',
    'net_addToBlacklist',
    'net_removeFromBlacklist',
  ],
  personal: [
    'personal_importRawKey',
    'personal_newAccount',
    'personal_listAccounts',
    'personal_sendTransaction',
    'personal_unlockAccount',
    'personal_lockAccount',
    'personal_sign',
    'personal_ecRecover',
    'personal_signAndSendTransaction',
  ],
  debug: ['debug_listPeersInfo'],
  test: [
    'test_setChainParams',
    'test_mineBlocks',
    'test_modifyTimestamp',
    'test_rewindToBlock',
    'test_importRawBlock',
    'test_getLogHash',
    'miner_setEtherbase',
    'debug_accountRange',
    'debug_storageRangeAt',
  ],
  iele: ['iele_sendTransaction', 'iele_call'],
  svc: ['svc_getAccountTransactions'],
  mcp: [
    'mcp_initialize',
    'tools/list',
    'tools/call',
    'resources/list',
    'resources/read',
    'prompts/list',
    'prompts/get',
  ],
  qa: ['qa_mineBlocks', 'qa_generateCheckpoint', 'qa_getFederationMembersInfo'],
  checkpointing: ['checkpointing_getLatestBlock', 'checkpointing_pushCheckpoint'],
  rpc: ['rpc_modules'],
};
/** ARCHITECTURE.md: "debug_accountRange and debug_storageRangeAt are debug" (the product gates them by test). */
const MOVED: Record<string, string> = { debug_accountRange: 'debug', debug_storageRangeAt: 'debug' };
/** Added to the catalog: the 97th/96th (`eth_getBlockReceipts`, `rpc.discover`) and the WebSocket pair. */
const ADDED: Record<string, string> = { eth_getBlockReceipts: 'eth', 'rpc.discover': 'rpc' };
const WS_ONLY: Record<string, string> = { eth_subscribe: 'eth', eth_unsubscribe: 'eth' };
/**
 * Beyond the spec's catalog (issues 27 and 28): each extension says whose API it follows, and the portal marks it.
 * The catalog itself (97 methods plus the WebSocket pair) stays as the spec and its agreed namespaces have it.
 */
const EXTENSION_SOURCES = ['geth', 'openethereum', 'anvil', 'otterscan', 'svc-node'];
const isExtension = (m: { [key: string]: unknown }): boolean => m['x-extension'] !== undefined;

function expectedNamespaces(): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [ns, names] of Object.entries(ROUTED)) for (const name of names) expected.set(name, MOVED[name] ?? ns);
  for (const [name, ns] of Object.entries({ ...ADDED, ...WS_ONLY })) expected.set(name, ns);
  return expected;
}

const countBy = (namespacesOfMethods: Iterable<string>): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const ns of namespacesOfMethods) counts[ns] = (counts[ns] ?? 0) + 1;
  return counts;
};

describe('openrpc.json', () => {
  it('passes the OpenRPC meta-schema', () => {
    expect(validateOpenRPCDocument(doc as never)).toBe(true);
  });

  it('has the 97 catalog methods plus eth_subscribe/eth_unsubscribe, in the agreed namespaces', () => {
    const expected = expectedNamespaces();
    const catalog = doc.methods.filter((m) => !isExtension(m as never));
    const actual = new Map(catalog.map((m) => [m.name, namespaceOf(m)]));
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    const spec = catalog.filter((m) => !(m.name in WS_ONLY));
    expect(spec).toHaveLength(97);
    expect(countBy(spec.map(namespaceOf))).toEqual({
      eth: 50,
      web3: 2,
      net: 9,
      personal: 9,
      debug: 3,
      qa: 3,
      checkpointing: 2,
      svc: 1,
      test: 7,
      iele: 2,
      mcp: 7,
      rpc: 2,
    });
    for (const name of Object.keys(WS_ONLY)) expect(findMethod(name)?.transport, name).toBe('ws');
  });

  it('marks every method beyond the catalog as an extension, with whose API it follows', () => {
    const extensions = doc.methods.filter((m) => isExtension(m as never));
    expect(extensions.length).toBeGreaterThan(0);
    for (const m of extensions)
      expect(EXTENSION_SOURCES, `${m.name} x-extension`).toContain(
        (m as never as Record<string, unknown>)['x-extension'],
      );
  });

  it('is what the registry was generated from', () => {
    expect(Object.keys(methods).sort()).toEqual(doc.methods.map((m) => m.name).sort());
    expect(new Set(Object.values(methods).map((m) => m.namespace))).toEqual(new Set(namespaces));
  });

  it('every example validates with the generated validators', () => {
    let checked = 0;
    for (const method of doc.methods) {
      const spec = findMethod(method.name)!;
      const examples = (method.examples ?? []) as {
        name: string;
        params: { value: unknown }[];
        result?: { value: unknown };
      }[];
      expect(examples.length, `${method.name} has no example`).toBeGreaterThan(0);
      for (const example of examples) {
        const where = `${method.name} example "${example.name}"`;
        expect(example.params.length, `${where}: param count`).toBeGreaterThanOrEqual(spec.requiredParams);
        expect(example.params.length, `${where}: param count`).toBeLessThanOrEqual(spec.params.length);
        example.params.forEach((param, i) => {
          expect(spec.params[i].check(param.value), `${where} param ${spec.params[i].name}`).toBeUndefined();
          checked++;
        });
        if (example.result) {
          expect(spec.checkResult(example.result.value), `${where} result`).toBeUndefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(99);
  });
});
