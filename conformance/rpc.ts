/** A small sequential JSON-RPC client over HTTP: the runner talks to the node through RPC only. */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { RpcCallError } from '../test/helpers/rpc.js';

export class RpcClient {
  private id = 0;
  private readonly target: URL;
  /**
   * One kept-alive connection, through node:http rather than fetch: a run makes a few thousand calls, and fetch
   * cost ~1.4 ms of CPU per call where node:http costs ~0.5 ms.
   */
  private readonly agent: HttpAgent;

  constructor(readonly url: string) {
    this.target = new URL(url);
    const options = { keepAlive: true, maxSockets: 1 };
    this.agent = this.target.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  }

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const text = await this.post(JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }));
    const body = JSON.parse(text) as { result?: T; error?: { code: number; message: string } };
    if (body.error !== undefined) throw new RpcCallError(method, body.error.code, body.error.message);
    return body.result as T;
  }

  /**
   * Several calls in one JSON-RPC batch (one HTTP request and answer instead of one each: the precompile vectors make
   * thousands of calls). Each element is the call's result, or its RpcCallError when it failed.
   */
  async batch<T = unknown>(
    calls: ReadonlyArray<readonly [method: string, params: unknown[]]>,
  ): Promise<Array<T | RpcCallError>> {
    if (calls.length === 0) return [];
    const first = this.id + 1;
    const requests = calls.map(([method, params]) => ({ jsonrpc: '2.0', id: ++this.id, method, params }));
    const answers = JSON.parse(await this.post(JSON.stringify(requests))) as unknown;
    if (!Array.isArray(answers))
      throw new Error(`a batch of ${calls.length} answered ${JSON.stringify(answers).slice(0, 200)}`);
    type Answer = { id?: unknown; result?: T; error?: { code: number; message: string } };
    const byId = new Map((answers as Answer[]).map((answer) => [answer.id, answer]));
    return calls.map(([method], i) => {
      const answer = byId.get(first + i);
      if (answer === undefined) throw new Error(`a batch answered nothing for ${method} (id ${first + i})`);
      return answer.error !== undefined
        ? new RpcCallError(method, answer.error.code, answer.error.message)
        : (answer.result as T);
    });
  }

  /** The call's error, or undefined when it succeeded (for calls that are expected to fail). */
  async failure(method: string, params: unknown[] = []): Promise<RpcCallError | undefined> {
    try {
      await this.call(method, params);
      return undefined;
    } catch (err) {
      if (err instanceof RpcCallError) return err;
      throw err;
    }
  }

  /** Closes the kept-alive connection. */
  close(): void {
    this.agent.destroy();
  }

  private post(body: string): Promise<string> {
    const send = this.target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        this.target,
        {
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
