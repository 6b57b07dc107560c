/** The JSON-RPC server: namespaces, limits, HTTP (TLS, CORS, rate limit), WebSocket, metrics. */
import { namespaces, type Namespace } from '../../generated/registry.js';
import type { NetworkName } from '../../chain/index.js';
import * as s from './setting.js';

/** Default `apis` per network: mordor/etc follow the spec's sample production configuration. */
export function defaultApis(network: NetworkName): Namespace[] {
  if (network === 'dev') return namespaces.filter((ns) => ns !== 'test');
  return ['eth', 'web3', 'net'];
}

// In the order --help lists them.
export const rpcSettings = {
  'network.rpc.apis': s.list({
    flag: 'apis',
    default: ({ network }) => defaultApis(network),
    help: 'dev: all but test; mordor/etc: eth,web3,net',
    description: 'comma-separated namespaces to enable (rpc is always on)',
  }),
  'network.rpc.max-batch-size': s.count({ default: 1000, description: 'most requests in one JSON-RPC batch' }),
  'network.rpc.validate-results': s.bool({
    default: ({ env, testmode }) => env.NODE_ENV === 'test' || testmode,
    help: 'true when NODE_ENV=test or testmode',
    description: 'check every result against its OpenRPC schema (a mismatch is answered -32603)',
  }),
  'network.rpc.account-transactions-max-blocks': s.count({
    default: 1000,
    description: 'widest block range svc_getAccountTransactions searches',
  }),
  'network.rpc.logs.max-block-range': s.int({
    default: 10_000,
    description: 'widest fromBlock..toBlock range one eth_getLogs / eth_getFilterLogs query may span (-32602 above it)',
  }),
  'network.rpc.logs.max-results': s.count({
    default: 10_000,
    description: 'most logs one eth_getLogs / eth_getFilterLogs query may return (-32602 above it)',
  }),
  'network.rpc.trace.filter-max-blocks': s.int({
    default: 10_000,
    description: 'widest fromBlock..toBlock range one trace_filter query may span (-32602 above it)',
  }),
  'network.rpc.trace.filter-max-count': s.count({
    default: 10_000,
    description:
      'most traces one trace_filter query may return: a larger count, or more matches without one, is -32602',
  }),
  'filter.filter-timeout': s.duration({
    default: 5 * 60_000,
    description: 'a filter not polled for this long is removed (every eth_getFilterChanges resets it)',
  }),
  'network.rpc.http.mode': s.oneOf(['http', 'https'], {
    default: 'http',
    description: 'https needs network.rpc.http.certificate.*',
  }),
  'network.rpc.http.interface': s.address({
    flag: 'http.addr',
    default: '127.0.0.1',
    description: 'address the RPC server listens on',
  }),
  'network.rpc.http.port': s.port({
    flag: 'http.port',
    default: 8546,
    description: 'RPC port (0 picks a free one; the "listening" log line reports it)',
  }),
  'network.rpc.http.cors-allowed-origins': s.origins({
    flag: 'http.cors',
    default: [],
    description: 'browser origins allowed to call the node: "*" or a comma list',
  }),
  'network.rpc.http.max-body-size': s.count({
    default: 5 * 1024 * 1024,
    description: 'largest request body in bytes (HTTP 413 above it; also the WebSocket message limit)',
  }),
  'network.rpc.http.certificate.keystore-path': s.path({
    default: undefined,
    description: 'PKCS#12 keystore holding the TLS key and certificate',
  }),
  'network.rpc.http.certificate.keystore-type': s.oneOf(['pkcs12'], {
    default: 'pkcs12',
    description: 'keystore format',
  }),
  'network.rpc.http.certificate.password-file': s.path({
    default: undefined,
    description: 'file whose first line is the keystore password',
  }),
  'network.rpc.http.rate-limit.enabled': s.bool({
    default: false,
    description: 'limit each client IP to one request per min-request-interval',
  }),
  'network.rpc.http.rate-limit.min-request-interval': s.duration({
    default: 10_000,
    description: 'shortest time between two requests of one IP (ms, or "100ms", "10s", "1m")',
  }),
  'network.rpc.http.rate-limit.latest-timestamp-cache-size': s.count({
    default: 1024,
    description: 'how many client IPs the limiter remembers (least recently seen are forgotten)',
  }),
  'network.rpc.metrics.enabled': s.bool({
    flag: 'metrics',
    default: ({ network }) => network === 'dev',
    help: 'dev: true; mordor/etc: false',
    description:
      'serve Prometheus metrics at GET /metrics on the RPC port (head, peers, pool, import and seal times, RPC calls by method, process)',
  }),
  'network.rpc.ws.enabled': s.bool({
    default: true,
    description: 'serve JSON-RPC over WebSocket at /ws on the RPC port',
  }),
  'network.rpc.ws.max-buffered-bytes': s.count({
    default: 16 * 1024 * 1024,
    description:
      'most bytes of responses and notifications waiting for one WebSocket client; a slower client is disconnected (close code 1008)',
  }),
  'network.rpc.call.gas-cap': s.count({
    default: 50_000_000,
    description:
      'most gas an eth_call / eth_estimateGas request runs with (more is lowered to it, as geth does); without gas they run with the block gas limit',
  }),
  'network.rpc.call.timeout': s.duration({
    default: 5_000,
    description:
      'longest an eth_call / eth_estimateGas request may execute (the whole search for eth_estimateGas); a longer one is stopped and answered -32005 (0 = no limit)',
  }),
  'network.rpc.call.simulate-max-blocks': s.count({
    default: 256,
    description:
      'most blocks one eth_simulateV1 request may simulate, the empty blocks filling gaps in their numbers included (-38026 above it; 256, as the spec suggests); all its calls together get network.rpc.call.gas-cap gas',
  }),
  'network.rpc.send-sync-timeout': s.duration({
    default: 30_000,
    description:
      'longest eth_sendRawTransactionSync waits for its receipt, and its wait when the request names none (a longer request waits this long, as Anvil caps at 30 s); past it: error 4 with the transaction hash (EIP-7966)',
  }),
  'network.rpc.debug.max-range-results': s.count({
    default: 10_000,
    description: 'largest maxResults debug_accountRange / debug_storageRangeAt accept (-32602 above it)',
  }),
  'network.rpc.debug.trace-timeout': s.duration({
    default: 5_000,
    description:
      'longest one debug_trace* request may run, and its default; a request may ask for less with its timeout (-32005 past it, 0 = no limit)',
  }),
  'network.rpc.debug.max-struct-logs': s.count({
    default: 500_000,
    description:
      'most opcode entries one struct-logger trace may record (-32602 past it: the same trace always reaches it; the config limit truncates instead)',
  }),
  'network.rpc.debug.max-trace-bytes': s.count({
    default: 128 * 1024 * 1024,
    description:
      'most memory one trace request (debug_trace*, trace_*, ots_*) may take: what it holds while tracing plus its answer, counted as the process spends it (-32602 past it)',
  }),
  'network.rpc.debug.max-concurrent-traces': s.count({
    default: 2,
    description:
      'most trace requests (debug_trace*, trace_*, ots_* that replay) running at once; more wait (0 = no limit)',
  }),
  'network.rpc.debug.trace-queue': s.count({
    default: 16,
    description:
      'most trace requests waiting for one of max-concurrent-traces; more, or one waiting longer than trace-timeout, are answered -32005 with data.backoffSeconds',
  }),
  'network.rpc.ws.ping-interval': s.duration({
    default: 30_000,
    description:
      'ping every WebSocket client this often; one that has not answered the previous ping (a client that stopped reading, or vanished without closing) is disconnected (0 = never)',
  }),
  'network.rpc.ws.max-outstanding-requests': s.count({
    default: 256,
    description:
      'most requests one WebSocket connection may have in flight; more are answered -32005 at once (a batch counts once)',
  }),
};
