import { randomBytes } from 'node:crypto';

/** A random, non-zero 128-bit id: unguessable, so one client cannot poll or remove another's filter. */
export function randomId(taken: (id: bigint) => boolean): bigint {
  for (;;) {
    const id = BigInt(`0x${randomBytes(16).toString('hex')}`);
    if (id !== 0n && !taken(id)) return id;
  }
}
