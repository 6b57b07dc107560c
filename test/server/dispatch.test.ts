/**
 * The dispatcher in process, against a small stand-in registry (so these checks do not depend on which methods
 * the document currently marks available). Transport behaviour is covered over real HTTP/WS in the other files.
 */
import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../src/generated/handlers.js';
import type { MethodSpec, Namespace, ParamProblem } from '../../src/generated/registry.js';
import type { HandlerContext } from '../../src/rpc/context.js';
import { createDispatcher, type DispatcherOptions } from '../../src/rpc/dispatch.js';
import { RpcError } from '../../src/rpc/errors.js';
import { createLogger } from '../../src/node/logger.js';

const problem = (expects: string, value: unknown): ParamProblem => ({ path: '', keyword: 'type', expects, value });
const isHex = (v: unknown) =>
  typeof v === 'string' && /^0x[0-9a-f]*$/.test(v) ? undefined : problem('hex data (0x + hex digits)', v);
const isBool = (v: unknown) => (typeof v === 'boolean' ? undefined : problem('a boolean', v));
const isString = (v: unknown) => (typeof v === 'string' ? undefined : 'must be string');

function spec(name: string, namespace: Namespace, extra: Partial<MethodSpec> = {}): MethodSpec {
  return {
    name: name as MethodSpec['name'],
    namespace,
    params: [],
    requiredParams: 0,
    checkResult: () => undefined,
    transport: 'any',
    ...extra,
  };
}

const methods: Record<string, MethodSpec> = {
  eth_echo: spec('eth_echo', 'eth', {
    params: [
      { name: 'data', required: true, expects: 'hex data (0x + hex digits)', check: isHex },
      { name: 'full', required: false, expects: 'a boolean', check: isBool },
    ],
    requiredParams: 1,
  }),
  eth_boom: spec('eth_boom', 'eth'),
  eth_refuse: spec('eth_refuse', 'eth'),
  eth_badResult: spec('eth_badResult', 'eth', { checkResult: isString }),
  eth_later: spec('eth_later', 'eth', { unavailable: 'needs the engine' }),
  eth_subscribe: spec('eth_subscribe', 'eth', { transport: 'ws' }),
  personal_x: spec('personal_x', 'personal'),
};

const calls: unknown[][] = [];
const handlers = {
  eth: {
    eth_echo: (params: unknown[]) => {
      calls.push(params);
      return { params };
    },
    eth_boom: () => {
      throw new TypeError('secret internals');
    },
    eth_refuse: async () => {
      throw new RpcError(-32000, 'refused', { why: 'test' });
    },
    eth_badResult: () => 42,
    eth_subscribe: () => '0x1',
  },
  personal: { personal_x: () => true },
} as unknown as Handlers<HandlerContext>;

const logLines: string[] = [];
const log = createLogger({ format: 'json', stream: { write: (line: string) => logLines.push(line) } as never });

function makeDispatcher(overrides: Partial<DispatcherOptions> = {}) {
  return createDispatcher({
    methods,
    handlers,
    enabledNamespaces: new Set<Namespace>(['eth', 'rpc']),
    maxBatchSize: 3,
    validateResults: true,
    log,
    ...overrides,
  });
}

const http = { node: {} as never, transport: 'http' } as HandlerContext;
const ws = { node: {} as never, transport: 'ws' } as HandlerContext;
const d = makeDispatcher();

describe('dispatch', () => {
  it('answers a good request and echoes any JSON id', async () => {
    for (const id of [1, 'abc', null, 1.5, { a: 1 }, [1]]) {
      expect(await d.handle({ jsonrpc: '2.0', id, method: 'eth_echo', params: ['0x01'] }, http)).toEqual({
        jsonrpc: '2.0',
        id,
        result: { params: ['0x01'] },
      });
    }
  });

  it('reports -32700, -32600 and -32006', async () => {
    expect(await d.handleText('{"jsonrpc":', http)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await d.handle(42, http)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 5 }, http)).toMatchObject({
      id: 1,
      error: { code: -32600 },
    });
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: 'x' }, http)).toMatchObject({
      error: { code: -32600 },
    });
    expect(await d.handle({ jsonrpc: '1.0', id: 7, method: 'eth_echo', params: ['0x'] }, http)).toMatchObject({
      id: 7,
      error: { code: -32006 },
    });
    // No "jsonrpc" at all is not a request (a stray object in a batch), not a version mismatch.
    expect(await d.handle({ id: 7, method: 'eth_echo', params: ['0x'] }, http)).toMatchObject({
      id: 7,
      error: { code: -32600 },
    });
    expect(await d.handle({ foo: 1 }, http)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('reports -32601 for unknown and disabled methods, -32004 for unavailable ones', async () => {
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_nope' }, http)).toMatchObject({
      error: { code: -32601 },
    });
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'toString' }, http)).toMatchObject({
      error: { code: -32601 },
    });
    const disabled = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'personal_x' }, http)) as any;
    expect(disabled.error.code).toBe(-32601);
    expect(disabled.error.message).toBe(
      'the method personal_x does not exist/is not available: the personal namespace is not enabled on this node ' +
        '(add it to network.rpc.apis, --apis)',
    );
    const later = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_later' }, http)) as any;
    expect(later.error).toEqual({ code: -32004, message: 'Method not supported: eth_later (needs the engine)' });
  });

  it('suggests the method an unknown name is one slip away from, and nothing for a name far from all', async () => {
    const message = async (method: string) =>
      ((await d.handle({ jsonrpc: '2.0', id: 1, method }, http)) as any).error.message as string;
    expect(await message('eth_ECHO')).toBe(
      'the method eth_ECHO does not exist/is not available; did you mean eth_echo?',
    );
    expect(await message('eth_ecoh')).toMatch(/; did you mean eth_echo\?$/); // swapped neighbours
    expect(await message('eth_eco')).toMatch(/; did you mean eth_echo\?$/); // one deleted
    expect(await message('eth_boomm')).toMatch(/; did you mean eth_boom\?$/); // one inserted
    expect(await message('eth_bxom')).toMatch(/; did you mean eth_boom\?$/); // one replaced
    expect(await message('eth_nope')).toBe('the method eth_nope does not exist/is not available');
    expect(await message('eth_bo')).toBe('the method eth_bo does not exist/is not available');
    // The right spelling of a method whose namespace is off would still be refused: the hint says so.
    expect(await message('personal_X')).toBe(
      'the method personal_X does not exist/is not available; did you mean personal_x? (the personal namespace ' +
        'is not enabled on this node: add it to network.rpc.apis, --apis)',
    );
  });

  it('sends WebSocket-only methods over HTTP to -32601 with a hint, and runs them over WS', async () => {
    const overHttp = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe' }, http)) as any;
    expect(overHttp.error.code).toBe(-32601);
    expect(overHttp.error.message).toMatch(/WebSocket/);
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe' }, ws)).toMatchObject({ result: '0x1' });
  });

  it('checks arity with expected and actual counts, and omitted trailing optionals', async () => {
    const none = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: [] }, http)) as any;
    expect(none.error).toEqual({
      code: -32602,
      message: 'invalid params: data (param 1) is missing: eth_echo takes 1 to 2 parameters (data, full), got 0',
      data: { expected: { min: 1, max: 2 }, actual: 0, missing: 'data' },
    });
    const many = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: ['0x', true, 3] }, http)) as any;
    expect(many.error.message).toBe('invalid params: eth_echo takes 1 to 2 parameters (data, full), got 3');
    const zero = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_boom', params: [1] }, http)) as any;
    expect(zero.error.message).toBe('invalid params: eth_boom takes no parameters, got 1');
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: ['0x', true] }, http)).toMatchObject({
      result: { params: ['0x', true] },
    });
  });

  it('names the parameter and what was expected', async () => {
    const bad = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: ['0x1', 'yes'] }, http)) as any;
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toBe('invalid params: full (param 2) must be a boolean; got "yes"');
    expect(bad.error.data).toEqual({ index: 1, param: 'full', keyword: 'type', expected: 'a boolean' });
  });

  it('treats an explicit null for an optional param as omitted', async () => {
    calls.length = 0;
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: ['0x', null] }, http)).toMatchObject({
      result: {},
    });
    expect(calls[0]).toEqual(['0x', undefined]);
    const requiredNull = (await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: [null] }, http)) as any;
    expect(requiredNull.error.code).toBe(-32602);
  });

  it('rejects by-name params, since every method takes them by position', async () => {
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: { data: '0x' } }, http)).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('passes RpcError through and turns other throws into a logged -32603 without internals', async () => {
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_refuse' }, http)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'refused', data: { why: 'test' } },
    });
    logLines.length = 0;
    const boom = (await d.handle({ jsonrpc: '2.0', id: 2, method: 'eth_boom' }, http)) as any;
    expect(boom.error.code).toBe(-32603);
    expect(JSON.stringify(boom)).not.toContain('secret internals');
    const requestId = /request id (\S+)\)/.exec(boom.error.message)![1];
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId);
    expect(logged.error.message).toBe('secret internals');
  });

  it('answers -32603 when a result breaks its schema (validate-results on), and not when off', async () => {
    expect(await d.handle({ jsonrpc: '2.0', id: 1, method: 'eth_badResult' }, http)).toMatchObject({
      error: { code: -32603 },
    });
    const lax = makeDispatcher({ validateResults: false });
    expect(await lax.handle({ jsonrpc: '2.0', id: 1, method: 'eth_badResult' }, http)).toMatchObject({ result: 42 });
  });

  it('handles batches: mixed entries in order, notifications left out, limits like geth', async () => {
    const out = await d.handle(
      [
        { jsonrpc: '2.0', id: 'a', method: 'eth_echo', params: ['0x'] },
        { jsonrpc: '2.0', method: 'eth_echo', params: ['0x02'] },
        { jsonrpc: '2.0', id: 'c', method: 'eth_nope' },
      ],
      http,
    );
    expect(out).toEqual([
      { jsonrpc: '2.0', id: 'a', result: { params: ['0x'] } },
      { jsonrpc: '2.0', id: 'c', error: expect.objectContaining({ code: -32601 }) },
    ]);
    expect(await d.handle([], http)).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid request: empty batch' },
    });
    const tooMany = (await d.handle(
      Array(4).fill({ jsonrpc: '2.0', id: 1, method: 'eth_echo', params: ['0x'] }),
      http,
    )) as any;
    expect(tooMany.error.code).toBe(-32600);
    expect(tooMany.error.message).toMatch(/batch too large/);
    expect(await d.handle([{ jsonrpc: '2.0', method: 'eth_echo', params: ['0x'] }], http)).toBeUndefined();
    expect(await d.handle([1], http)).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
  });

  it('runs notifications but never answers them', async () => {
    calls.length = 0;
    expect(await d.handle({ jsonrpc: '2.0', method: 'eth_echo', params: ['0x03'] }, http)).toBeUndefined();
    expect(calls).toEqual([['0x03']]);
    expect(await d.handle({ jsonrpc: '2.0', method: 'eth_nope' }, http)).toBeUndefined();
  });

  it('serializes a result JSON cannot encode as a logged -32603', () => {
    const text = String(d.serialize({ jsonrpc: '2.0', id: 1, result: 1n }));
    expect(JSON.parse(text)).toMatchObject({ id: 1, error: { code: -32603 } });
  });

  // Found by the fuzzer (npm run fuzz): an id 50,000 levels deep made JSON.stringify overflow the stack while
  // writing the answer: HTTP 500 over HTTP, an unhandled rejection that killed the node over WebSocket.
  it('refuses an id nested too deep to echo, and echoes one just within the limit', async () => {
    const nested = (depth: number): unknown => {
      let id: unknown = 1;
      for (let i = 0; i < depth; i++) id = i % 2 ? { a: id } : [id];
      return id;
    };
    const answer = await d.handleText(
      `{"jsonrpc":"2.0","id":${JSON.stringify(nested(100))},"method":"eth_echo","params":["0x01"]}`,
      ws,
    );
    expect(answer).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid request: "id" nests deeper than 64 levels' },
    });
    const text =
      '{"jsonrpc":"2.0","id":' +
      '['.repeat(50_000) +
      '1' +
      ']'.repeat(50_000) +
      ',"method":"eth_echo","params":["0x01"]}';
    expect(await d.handleText(text, ws)).toMatchObject({ id: null, error: { code: -32600 } });
    const within = nested(64);
    expect(await d.handle({ jsonrpc: '2.0', id: within, method: 'eth_echo', params: ['0x01'] }, http)).toEqual({
      jsonrpc: '2.0',
      id: within,
      result: { params: ['0x01'] },
    });
  });

  it('never throws while serializing, even when the id itself cannot be written', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const text = String(d.serialize({ jsonrpc: '2.0', id: cyclic, result: 1 }));
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
  });

  it('refuses to start when an available method has no handler', () => {
    expect(() => makeDispatcher({ methods: { ...methods, eth_orphan: spec('eth_orphan', 'eth') } })).toThrow(
      /no handler/,
    );
  });
});
