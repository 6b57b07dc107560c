/** A small sequential JSON-RPC client over HTTP: the runner talks to the node through RPC only. */

import { RpcCallError } from '../test/helpers/rpc.js';

export class RpcClient {
  private id = 0;

  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error !== undefined) throw new RpcCallError(method, body.error.code, body.error.message);
    return body.result as T;
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
}
