/**
 * The table of every setting the node reads. One table drives the config file, the environment variables,
 * the command-line flags and `--help`, so the four can never disagree. Keys are the spec's keys without the
 * `svc.` root (`network.rpc.http.port`); in the TOML file they are written as sections (`[network.rpc.http]`).
 */
import { NETWORK_NAMES } from '../chain/networks/index.js';
import type { NetworkName } from '../chain/networks/types.js';
import { DEFAULT_CACHE_LIMITS } from '../chain/cache-limits.js';
import { SEAL_MODES } from '../chain/seal-mode.js';

export type { NetworkName };
export const networkNames: readonly NetworkName[] = NETWORK_NAMES;

/** What the default `protected` list names: every method that spends, signs, mines or inspects the node. */
export const DEFAULT_PROTECTED: readonly string[] = [
  'personal', 'debug', 'qa', 'test', 'checkpointing',
  'eth_sendTransaction', 'eth_sendRawTransaction', 'eth_sign', 'eth_submitWork', 'eth_submitHashrate',
  'miner_start', 'miner_stop', 'miner_setEtherbase',
];

export type SettingKind = 'string' | 'path' | 'int' | 'bool' | 'duration' | 'list' | 'origins' | 'enum';

export interface Setting {
  readonly key: string;
  readonly kind: SettingKind;
  /** Command-line flag without the leading `--`, when the setting has one. */
  readonly flag?: string;
  readonly values?: readonly string[];
  readonly description: string;
  /** The default as shown by --help; may depend on the network. */
  readonly defaultText: string;
}

export const settings: readonly Setting[] = [
  { key: 'blockchains.network', kind: 'enum', flag: 'network', values: networkNames, defaultText: 'dev',
    description: 'the chain to run: dev (local chain, chain id 1337; instant seal unless --seal ethash), mordor (testnet) or etc (mainnet)' },
  { key: 'blockchains.checkpointing', kind: 'bool', flag: 'checkpointing', defaultText: 'false',
    description: 'dev only: ECIP-1097 checkpointing from block 1, federation = dev accounts 7, 8, 9 (2 signatures make a checkpoint)' },
  { key: 'datadir', kind: 'path', flag: 'datadir', defaultText: '~/.svc-node/<network>; dev: ~/.svc-node/dev-instant (--seal ethash: ~/.svc-node/dev; --checkpointing: dev-checkpointing[-instant])',
    description: 'data directory (chain database, keystore, node key)' },
  { key: 'testmode', kind: 'bool', flag: 'testmode', defaultText: 'false',
    description: 'enable the test and debug namespaces (conformance testing)' },
  { key: 'logging.level', kind: 'enum', flag: 'log-level', values: ['debug', 'info', 'warn', 'error'], defaultText: 'info',
    description: 'lowest log level written' },
  { key: 'network.rpc.apis', kind: 'list', flag: 'apis', defaultText: 'dev: all but test; mordor/etc: eth,web3,net',
    description: 'comma-separated namespaces to enable (rpc is always on)' },
  { key: 'network.rpc.max-batch-size', kind: 'int', defaultText: '1000',
    description: 'most requests in one JSON-RPC batch' },
  { key: 'network.rpc.validate-results', kind: 'bool', defaultText: 'true when NODE_ENV=test or testmode',
    description: 'check every result against its OpenRPC schema (a mismatch is answered -32603)' },
  { key: 'network.rpc.account-transactions-max-blocks', kind: 'int', defaultText: '1000',
    description: 'widest block range svc_getAccountTransactions searches' },
  { key: 'network.rpc.logs.max-block-range', kind: 'int', defaultText: '10000',
    description: 'widest fromBlock..toBlock range one eth_getLogs / eth_getFilterLogs query may span (-32005 above it)' },
  { key: 'network.rpc.logs.max-results', kind: 'int', defaultText: '10000',
    description: 'most logs one eth_getLogs / eth_getFilterLogs query may return (-32005 above it)' },
  { key: 'filter.filter-timeout', kind: 'duration', defaultText: '5m',
    description: 'a filter not polled for this long is removed (every eth_getFilterChanges resets it)' },
  { key: 'network.rpc.http.mode', kind: 'enum', values: ['http', 'https'], defaultText: 'http',
    description: 'https needs network.rpc.http.certificate.*' },
  { key: 'network.rpc.http.interface', kind: 'string', flag: 'http.addr', defaultText: '127.0.0.1',
    description: 'address the RPC server listens on' },
  { key: 'network.rpc.http.port', kind: 'int', flag: 'http.port', defaultText: '8546',
    description: 'RPC port (0 picks a free one; the "listening" log line reports it)' },
  { key: 'network.rpc.http.cors-allowed-origins', kind: 'origins', flag: 'http.cors', defaultText: 'none',
    description: 'browser origins allowed to call the node: "*" or a comma list' },
  { key: 'network.rpc.http.max-body-size', kind: 'int', defaultText: '5242880',
    description: 'largest request body in bytes (HTTP 413 above it; also the WebSocket message limit)' },
  { key: 'network.rpc.http.certificate.keystore-path', kind: 'path', defaultText: 'none',
    description: 'PKCS#12 keystore holding the TLS key and certificate' },
  { key: 'network.rpc.http.certificate.keystore-type', kind: 'enum', values: ['pkcs12'], defaultText: 'pkcs12',
    description: 'keystore format' },
  { key: 'network.rpc.http.certificate.password-file', kind: 'path', defaultText: 'none',
    description: 'file whose first line is the keystore password' },
  { key: 'network.rpc.http.rate-limit.enabled', kind: 'bool', defaultText: 'false',
    description: 'limit each client IP to one request per min-request-interval' },
  { key: 'network.rpc.http.rate-limit.min-request-interval', kind: 'duration', defaultText: '10s',
    description: 'shortest time between two requests of one IP (ms, or "100ms", "10s", "1m")' },
  { key: 'network.rpc.http.rate-limit.latest-timestamp-cache-size', kind: 'int', defaultText: '1024',
    description: 'how many client IPs the limiter remembers (least recently seen are forgotten)' },
  { key: 'network.rpc.metrics.enabled', kind: 'bool', flag: 'metrics', defaultText: 'dev: true; mordor/etc: false',
    description: 'serve Prometheus metrics at GET /metrics on the RPC port (head, peers, pool, import and seal times, RPC calls by method, process)' },
  { key: 'network.rpc.ws.enabled', kind: 'bool', defaultText: 'true',
    description: 'serve JSON-RPC over WebSocket at /ws on the RPC port' },
  { key: 'network.rpc.ws.max-buffered-bytes', kind: 'int', defaultText: '16777216',
    description: 'most bytes of responses and notifications waiting for one WebSocket client; a slower client is disconnected (close code 1008)' },
  { key: 'network.rpc.call.gas-cap', kind: 'int', defaultText: '50000000',
    description: 'most gas an eth_call / eth_estimateGas request may ask for (-32005 above it); without gas they run with the block gas limit' },
  { key: 'network.rpc.call.timeout', kind: 'duration', defaultText: '5s',
    description: 'longest an eth_call / eth_estimateGas request may execute (the whole search for eth_estimateGas); a longer one is stopped and answered -32005 (0 = no limit)' },
  { key: 'network.rpc.debug.max-range-results', kind: 'int', defaultText: '10000',
    description: 'largest maxResults debug_accountRange / debug_storageRangeAt accept (-32005 above it)' },
  { key: 'network.rpc.ws.ping-interval', kind: 'duration', defaultText: '30s',
    description: 'ping every WebSocket client this often; one that has not answered the previous ping (a client that stopped reading, or vanished without closing) is disconnected (0 = never)' },
  { key: 'network.rpc.ws.max-outstanding-requests', kind: 'int', defaultText: '256',
    description: 'most requests one WebSocket connection may have in flight; more are answered -32005 at once (a batch counts once)' },
  { key: 'network.rpc.auth.enabled', kind: 'bool', defaultText: 'false',
    description: 'require a JWT bearer token or an API key for the protected methods, and for every WebSocket connection (HTTP 401 otherwise)' },
  { key: 'network.rpc.auth.protected', kind: 'list', defaultText: DEFAULT_PROTECTED.join(','),
    description: 'namespaces and method names only an authenticated caller may call ("*" = every method)' },
  { key: 'network.rpc.auth.jwt-secret-file', kind: 'path', defaultText: '<datadir>/jwt.hex',
    description: 'HS256 secret (32 bytes as hex); created with mode 0600 when auth is on and the file is missing' },
  { key: 'network.rpc.auth.api-keys-file', kind: 'path', defaultText: 'none',
    description: 'file with one API key per line, accepted in the X-API-Key header' },
  { key: 'network.p2p.enabled', kind: 'bool', flag: 'p2p', defaultText: 'true (false in testmode)',
    description: 'run devp2p peering (eth/68, snap/1 over RLPx): dial bootnodes, accept peers, sync' },
  { key: 'network.server-address.interface', kind: 'string', flag: 'p2p.addr', defaultText: 'dev: 127.0.0.1; mordor/etc: 0.0.0.0',
    description: 'address the devp2p TCP listener binds' },
  { key: 'network.server-address.port', kind: 'int', flag: 'p2p.port', defaultText: '9076',
    description: 'devp2p TCP port (0 picks a free one; the "listening" log line reports it with the enode URL)' },
  { key: 'network.bootnodes', kind: 'list', flag: 'bootnodes', defaultText: 'none',
    description: 'comma-separated enode URLs (enode://<node id>@<host>:<port>) of the peers to dial at start' },
  { key: 'network.max-peers', kind: 'int', flag: 'maxpeers', defaultText: '25',
    description: 'most peer connections, inbound and outbound together' },
  { key: 'network.discovery.discovery-enabled', kind: 'bool', defaultText: 'false',
    description: 'node discovery is not implemented: only bootnodes and net_connectToPeer peers are dialled (true logs a warning)' },
  { key: 'mining.seal', kind: 'enum', flag: 'seal', values: SEAL_MODES, defaultText: 'dev: instant; mordor/etc: ethash (the only choice)',
    description: 'how blocks are sealed: instant = no proof of work, nonce and mixHash zero (dev only; another chain than the Ethash dev chain, whose nodes refuse it); ethash = a real Ethash seal (eth_getWork/eth_submitWork, proof-of-work peers)' },
  { key: 'mining.mining-enabled', kind: 'bool', flag: 'mine', defaultText: 'dev: true; mordor/etc: false',
    description: 'run the internal miner (on dev it seals pending transactions at once)' },
  { key: 'mining.coinbase', kind: 'string', flag: 'miner.coinbase', defaultText: 'dev: the first test account; else none',
    description: 'address credited with the rewards of blocks this node mines' },
  { key: 'mining.block-time', kind: 'duration', defaultText: '0 (dev: seal only when transactions are pending)',
    description: 'on dev, also seal an empty block after this long without one (0 = only on demand)' },
  { key: 'mining.header-extra-data', kind: 'string', defaultText: 'svc-node',
    description: 'extraData of mined blocks (at most 32 bytes)' },
  { key: 'mining.ethash-cache-dir', kind: 'path', flag: 'ethash.cachedir', defaultText: '<datadir>/ethash',
    description: 'where Ethash verification caches are kept; nodes on one machine may share it (each epoch is built once, ~2.5 s)' },
  { key: 'keystore.minimal-passphrase-length', kind: 'int', defaultText: '7',
    description: 'shortest passphrase personal_newAccount and personal_importRawKey accept' },
  { key: 'txpool.tx-pool-size', kind: 'int', defaultText: '1000',
    description: 'most transactions the pool holds' },
  { key: 'txpool.transaction-timeout', kind: 'duration', defaultText: '2m',
    description: 'how long a transaction with a future nonce waits in the pool' },
  { key: 'cache.trie-nodes', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.trieNodes),
    description: 'raw state-trie nodes kept in memory in front of the database (~350 bytes each)' },
  { key: 'cache.trie-decoded-nodes', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.trieDecodedNodes),
    description: 'decoded state-trie nodes kept in memory (~1.8 KiB each)' },
  { key: 'cache.trie-lookups', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.trieLookups),
    description: 'remembered answers of state-trie lookups by (state root, key) (~300 bytes each)' },
  { key: 'cache.blocks', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.blocks),
    description: 'decoded blocks kept in memory' },
  { key: 'cache.headers', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.headers),
    description: 'decoded block headers kept in memory (besides those of cached blocks)' },
  { key: 'cache.receipts', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.receipts),
    description: 'blocks whose decoded receipts are kept in memory' },
  { key: 'cache.canonical-hashes', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.canonicalHashes),
    description: 'canonical block hashes by height kept in memory' },
  { key: 'cache.state-views', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.stateViews),
    description: 'recent blocks whose state read views (eth_getBalance, eth_getCode, …) are kept' },
  { key: 'cache.call-executors', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.callExecutors),
    description: 'recent blocks whose eth_call / eth_estimateGas executors (a VM each) are kept' },
  { key: 'db.cache-size', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.dbCacheBytes),
    description: "LevelDB's block cache in bytes" },
  { key: 'db.write-buffer-size', kind: 'int', defaultText: String(DEFAULT_CACHE_LIMITS.dbWriteBufferBytes),
    description: "LevelDB's write buffer (memtable) in bytes" },
  { key: 'network.rpc.health.no-update-duration-threshold', kind: 'duration', defaultText: '30m',
    description: 'readiness fails when the best block has not moved for this long' },
  { key: 'network.rpc.health.syncing-status-threshold', kind: 'int', defaultText: '10',
    description: 'blocks behind the target before syncStatus reports SYNCING' },
];

export const settingsByKey: ReadonlyMap<string, Setting> = new Map(settings.map((s) => [s.key, s]));

/** `network.rpc.http.rate-limit.enabled` → `SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_ENABLED`. */
export const envNameOf = (key: string): string => 'SVC_NODE_' + key.toUpperCase().replace(/[.-]/g, '_');
