import { randomBytes } from 'node:crypto';
import { MAC } from '@ethereumjs/devp2p';
import { afterAll, describe, expect, it } from 'vitest';
import { installNativeFrameMac } from './frame-mac.js';

type Op = ['update' | 'updateHeader' | 'updateBody', Uint8Array] | ['digest'];

/** A link's worth of MAC work: the handshake's seed, then frames of every size class (empty to 3 sponge blocks). */
function script(): Op[] {
  const ops: Op[] = [['update', randomBytes(200)]];
  for (const size of [0, 1, 16, 135, 136, 137, 500, 70_000]) {
    ops.push(['updateHeader', randomBytes(16)], ['digest'], ['updateBody', randomBytes(size)], ['digest']);
  }
  return ops;
}

function run(secret: Uint8Array, ops: readonly Op[]): string[] {
  const mac = new MAC(secret);
  const out: string[] = [];
  for (const op of ops) {
    if (op[0] === 'digest') out.push(Buffer.from(mac.digest()).toString('hex'));
    else mac[op[0]](op[1]);
  }
  return out;
}

describe('native RLPx frame MAC', () => {
  let restore: (() => void) | undefined;
  afterAll(() => restore?.());

  it('gives the digests of the library MAC for the same frames', () => {
    const secret = randomBytes(32);
    const ops = script();
    const library = run(secret, ops);
    restore = installNativeFrameMac();
    const native = run(secret, ops);
    expect(native).toHaveLength(16);
    expect(native).toEqual(library);
    // Two MACs do not share a sponge: a second link from the same secret starts from scratch.
    expect(run(secret, ops)).toEqual(library);
  });
});
