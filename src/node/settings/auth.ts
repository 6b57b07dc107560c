/** Authentication of JSON-RPC callers (src/server/auth.ts): off unless turned on. */
import { join } from 'node:path';
import * as s from './setting.js';

/** What the default `protected` list names: every method that spends, signs, mines or inspects the node. */
export const DEFAULT_PROTECTED: readonly string[] = [
  'personal',
  'debug',
  'qa',
  'test',
  'anvil',
  'checkpointing',
  'eth_sendTransaction',
  'eth_sendRawTransaction',
  'eth_sign',
  'eth_submitWork',
  'eth_submitHashrate',
  'miner_start',
  'miner_stop',
  'miner_setEtherbase',
];

export const authSettings = {
  'network.rpc.auth.enabled': s.bool({
    default: false,
    description:
      'require a JWT bearer token or an API key for the protected methods, and for every WebSocket connection (HTTP 401 otherwise)',
  }),
  'network.rpc.auth.protected': s.list({
    default: DEFAULT_PROTECTED,
    description: 'namespaces and method names only an authenticated caller may call ("*" = every method)',
  }),
  'network.rpc.auth.jwt-secret-file': s.path({
    default: ({ datadir }) => join(datadir, 'jwt.hex'),
    help: '<datadir>/jwt.hex',
    description: 'HS256 secret (32 bytes as hex); created with mode 0600 when auth is on and the file is missing',
  }),
  'network.rpc.auth.api-keys-file': s.path({
    default: undefined,
    description: 'file with one API key per line, accepted in the X-API-Key header',
  }),
};
