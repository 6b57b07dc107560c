/**
 * Optional authentication of JSON-RPC callers (off unless `network.rpc.auth.enabled`): JWT bearer tokens signed
 * HS256 with a secret kept in a file under the datadir (`<datadir>/jwt.hex`, made 0600 at start when missing, as
 * execution clients do for the engine API), and/or static API keys listed in a file (`X-API-Key` header).
 *
 * Two decisions are made here, both per HTTP request or per WebSocket upgrade:
 * - `authenticate(headers)`: a credential that is presented but wrong is refused outright (HTTP 401 whatever the
 *   methods), so a misconfigured client learns at once; no credential at all is "anonymous".
 * - `isProtected(spec)`: which methods an anonymous caller may not call (namespaces or method names in
 *   `network.rpc.auth.protected`, `*` = every method). The dispatcher refuses those with `-40100`, and the HTTP
 *   transport turns an answer carrying that code into HTTP 401.
 * WebSocket connections carry no per-message headers, so the upgrade itself needs a valid credential.
 *
 * With authentication off every caller is anonymous; on mordor/etc the peer administration methods of `net` (on by
 * default there) are then refused to all unless `network.rpc.auth.anonymous-peer-admin` opens them (`anonymousRefusal`).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { MethodSpec } from '../generated/registry.js';
import { fileProblem, type NetworkName } from '../chain/index.js';
import { ConfigError, type AuthConfig } from '../node/config.js';
import { PEER_ADMIN_METHODS } from '../node/settings/index.js';
import { ErrorCode, unauthorizedError } from '../rpc/errors.js';
import type { JsonRpcErrorObject } from '../rpc/dispatch.js';

/** The `WWW-Authenticate` header every 401 carries (HTTP, the WebSocket upgrade, /mcp). */
export const WWW_AUTHENTICATE = 'Bearer realm="svc-node"';

/** How far a token's `iat` may be from the node's clock when the token has no `exp` (the engine API's rule). */
export const IAT_LEEWAY_SECONDS = 60;

export type AuthOutcome =
  | { readonly status: 'authenticated'; readonly via: 'jwt' | 'api-key' }
  | { readonly status: 'anonymous' }
  | { readonly status: 'refused'; readonly reason: string };

export interface Authenticator {
  authenticate(headers: IncomingHttpHeaders): AuthOutcome;
  isProtected(spec: Pick<MethodSpec, 'name' | 'namespace'>): boolean;
}

const JWT_SECRET_KEY = 'network.rpc.auth.jwt-secret-file';
const API_KEYS_KEY = 'network.rpc.auth.api-keys-file';

/** Reads the secret, creating it (32 random bytes, hex, mode 0600) when the file does not exist. */
export function loadOrCreateJwtSecret(path: string): { secret: Buffer; created: boolean } {
  let created = false;
  let text: string;
  try {
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      chmodSync(path, 0o600); // the umask may have masked bits off, never on; this is belt and braces
      created = true;
    }
    text = readFileSync(path, 'utf8').trim().replace(/^0x/i, '');
  } catch (err) {
    throw new ConfigError(`${JWT_SECRET_KEY}: cannot read or create ${path}: ${fileProblem(err)}`);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new ConfigError(`${JWT_SECRET_KEY}: ${path} must hold 32 bytes as 64 hex digits (optionally 0x-prefixed)`);
  }
  return { secret: Buffer.from(text, 'hex'), created };
}

/** The API keys of the file, as digests; read before the JWT secret is made, so a bad file leaves nothing behind. */
export function readApiKeys(path: string): ReadonlySet<string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${API_KEYS_KEY}: cannot read ${path}: ${fileProblem(err)}`);
  }
  const keys = new Set<string>();
  for (const line of text.split('\n')) {
    const key = line.trim();
    if (key === '' || key.startsWith('#')) continue;
    keys.add(digest(key));
  }
  if (keys.size === 0) throw new ConfigError(`${API_KEYS_KEY}: ${path} lists no key (one key per line)`);
  return keys;
}

/** Keys are compared by SHA-256 digest, so a lookup takes the same time whatever prefix matches. */
const digest = (key: string) => createHash('sha256').update(key).digest('hex');

const base64urlJson = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Verifies an HS256 JWT; returns undefined when valid, else why not (never the token itself). */
export function verifyJwt(token: string, secret: Buffer, nowSeconds = Date.now() / 1000): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return 'malformed token: expected header.payload.signature';
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = base64urlJson(headerPart) as { alg?: unknown } | undefined;
  if (header === undefined || typeof header !== 'object' || header === null) return 'malformed token header';
  // Only HS256: "none" or an asymmetric alg with the secret used as a public key are the classic JWT forgeries.
  if (header.alg !== 'HS256') return `unsupported alg ${JSON.stringify(header.alg)}: only HS256 is accepted`;
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad signature';
  const payload = base64urlJson(payloadPart) as { iat?: unknown; exp?: unknown } | undefined;
  if (payload === undefined || typeof payload !== 'object' || payload === null) return 'malformed token payload';
  const { iat, exp } = payload;
  // `"exp": null` means "no expiry": alloy, and so Foundry's `cast --jwt-secret`, write it that way; geth accepts it.
  if (exp !== undefined && exp !== null) {
    if (typeof exp !== 'number') return 'exp must be a number';
    if (nowSeconds >= exp) return 'token expired';
    if (typeof iat === 'number' && iat > nowSeconds + IAT_LEEWAY_SECONDS) return 'iat is in the future';
    return undefined;
  }
  if (typeof iat !== 'number') return 'token has neither exp nor iat';
  if (Math.abs(nowSeconds - iat) > IAT_LEEWAY_SECONDS)
    return `iat is more than ${IAT_LEEWAY_SECONDS} s from the node's clock`;
  return undefined;
}

/** Makes an HS256 token (used by tests and the docs' example; clients bring their own). */
export function signJwt(payload: Record<string, unknown>, secret: Buffer): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

export function createAuthenticator(
  config: AuthConfig,
  secret: Buffer,
  apiKeys = config.apiKeysFile !== undefined ? readApiKeys(config.apiKeysFile) : undefined,
): Authenticator {
  const everything = config.protected.includes('*');
  const named = new Set(config.protected);
  return {
    authenticate(headers) {
      const apiKey = headers['x-api-key'];
      if (apiKey !== undefined) {
        if (apiKeys === undefined) return { status: 'refused', reason: 'API keys are not configured on this node' };
        const key = Array.isArray(apiKey) ? apiKey[0]! : apiKey;
        return apiKeys.has(digest(key.trim()))
          ? { status: 'authenticated', via: 'api-key' }
          : { status: 'refused', reason: 'unknown API key' };
      }
      const authorization = headers.authorization;
      if (authorization === undefined) return { status: 'anonymous' };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) return { status: 'refused', reason: 'the Authorization header must be "Bearer <JWT>"' };
      const why = verifyJwt(match[1]!, secret);
      return why === undefined ? { status: 'authenticated', via: 'jwt' } : { status: 'refused', reason: why };
    },
    isProtected(spec) {
      return everything || named.has(spec.namespace) || named.has(spec.name);
    },
  };
}

/**
 * What the dispatcher answers a caller without a credential (`refuseAnonymous`), or undefined when every method is
 * open to such callers. Authentication on: the protected methods, answered with what to send. Off: nothing, except
 * the peer administration methods outside dev unless `anonymous-peer-admin` is set, answered with both ways to
 * allow them (a node that anyone can tell whom to dial, drop or block forever is steered by anyone).
 */
export function anonymousRefusal(
  auth: AuthConfig,
  network: NetworkName,
  authenticator: Authenticator | undefined,
): ((spec: MethodSpec) => JsonRpcErrorObject | undefined) | undefined {
  if (authenticator !== undefined)
    return (spec) =>
      authenticator.isProtected(spec) ? unauthorizedError(`${spec.name} requires authentication`) : undefined;
  if (auth.anonymousPeerAdmin) return undefined;
  const peerAdmin = new Set(PEER_ADMIN_METHODS);
  return (spec) => {
    if (!peerAdmin.has(spec.name)) return undefined;
    const reason = `${spec.name} administers this node's peers, which a ${network} node serves only to authenticated callers`;
    return {
      code: ErrorCode.Unauthorized,
      message:
        `Unauthorized: ${reason}; turn authentication on (network.rpc.auth.enabled = true) and send ` +
        '"Authorization: Bearer <HS256 JWT>" or "X-API-Key: <key>", or serve it to every caller with ' +
        'network.rpc.auth.anonymous-peer-admin = true',
      data: { reason },
    };
  };
}
