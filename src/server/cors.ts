/**
 * Browser origins. Requests without an `Origin` header (curl, SDKs, other servers) always pass. A page served by
 * the node itself (the docs portal's "try it") is same-origin and passes too. Anyone else must be listed in
 * `cors-allowed-origins` (or it is `"*"`), otherwise HTTP 403.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';

/** The shape @hono/node-server calls (we only ever run on HTTP/1.1 servers). */
export type FetchCallback = (request: Request, env: HttpBindings | Http2Bindings) => unknown;

export interface CorsPolicy {
  /** For a request with an `Origin` header: `false` = refuse with 403, else the Access-Control-Allow-Origin value. */
  check(origin: string, host: string | undefined, secure: boolean): string | false;
}

export function createCorsPolicy(allowed: '*' | readonly string[]): CorsPolicy {
  const list = allowed === '*' ? undefined : new Set(allowed.map(normalizeOrigin));
  return {
    check(origin, host, secure) {
      if (list === undefined) return '*';
      if (list.has(normalizeOrigin(origin))) return origin;
      if (host !== undefined && normalizeOrigin(origin) === `${secure ? 'https' : 'http'}://${host.toLowerCase()}`)
        return origin;
      return false;
    },
  };
}

/** Origins compare case-insensitively and without a trailing slash (`https://App.example/` = `https://app.example`). */
const normalizeOrigin = (origin: string) => origin.trim().toLowerCase().replace(/\/+$/, '');

type Fetch = (request: Request, env: HttpBindings) => unknown;

/**
 * Puts the policy in front of a fetch handler: no Origin → straight through; refused → 403 with no body;
 * preflight (OPTIONS) → 204 with the allow headers; allowed → the response gains Access-Control-Allow-Origin.
 */
export function withCors(fetch: Fetch, policy: CorsPolicy, secure: boolean): FetchCallback {
  return (request, env) => {
    const headers = (env as HttpBindings).incoming.headers;
    const origin = headers.origin;
    if (origin === undefined) return fetch(request, env as HttpBindings);
    const allowOrigin = policy.check(origin, headers.host, secure);
    if (allowOrigin === false) return new Response(null, { status: 403 });
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': allowOrigin,
          'access-control-allow-methods': 'POST, GET, OPTIONS',
          'access-control-allow-headers': headers['access-control-request-headers'] ?? 'content-type',
          'access-control-max-age': '600',
          vary: 'Origin',
        },
      });
    }
    return Promise.resolve(fetch(request, env as HttpBindings)).then((response) => {
      const res = response as Response;
      res.headers.set('access-control-allow-origin', allowOrigin);
      res.headers.append('vary', 'Origin');
      return res;
    });
  };
}
