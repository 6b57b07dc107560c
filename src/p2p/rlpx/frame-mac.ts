/**
 * The RLPx frame MACs on the native keccak sponge instead of the library's pure-JS one.
 *
 * Why: every frame's header and body (each byte a link carries, both ways) goes through a running keccak-256 whose
 * digest is taken twice per frame. @ethereumjs/devp2p builds it on @noble/hashes' JS keccak, and neither its
 * Peer options nor Common's customCrypto (a one-shot hash, used by the handshake only) can replace it: profiled on a
 * 250 k-account snap sync, that keccak was 5-7 % of every node's CPU. The library constructs its `MAC` inside the
 * ECIES session, so its methods are replaced on the class itself, once, with the same arithmetic (RLPx spec:
 * egress/ingress MAC = keccak256 state; header MAC seed = aes(mac-secret, digest) ^ header; body MAC seed =
 * aes(mac-secret, digest) ^ digest, after the body is absorbed).
 */
import { createCipheriv, type Cipher } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { MAC } from '@ethereumjs/devp2p';

/** keccak's N-API sponge (the `keccak` package's addon, without its stream wrapper). */
interface Sponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
  copy(to: Sponge): void;
}
type SpongeClass = new () => Sponge;

/** Keccak-256: a 1088-bit rate and 512-bit capacity. */
const RATE = 1088;
const CAPACITY = 512;

function loadSponge(): SpongeClass {
  // The package's own loader (node-gyp-build) finds the prebuilt addon, exactly as `keccak/bindings` does.
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('keccak/package.json'));
  const loader = createRequire(`${packageDir}/bindings.js`)('node-gyp-build') as (dir: string) => SpongeClass;
  return loader(packageDir);
}

/** What each MAC holds besides the library's fields: our sponge, a scratch copy for digests, the AES-ECB cipher. */
interface NativeParts {
  sponge: Sponge;
  scratch: Sponge;
  aes: Cipher;
}
const parts = Symbol('native frame MAC');
type PatchedMac = { _secret: Uint8Array; [parts]?: NativeParts };

const METHODS = ['update', 'updateHeader', 'updateBody', 'digest'] as const;
let restore: (() => void) | undefined;

/**
 * Replaces the library's MAC methods with the native ones; idempotent. Throws if the addon cannot be loaded.
 * Returns what puts the library's own methods back (for tests, which must leave process-wide state as found).
 */
export function installNativeFrameMac(): () => void {
  if (restore !== undefined) return restore;
  const Sponge = loadSponge();
  const of = (mac: PatchedMac): NativeParts => {
    let p = mac[parts];
    if (p === undefined) {
      const sponge = new Sponge();
      sponge.initialize(RATE, CAPACITY);
      // ECB keeps no state between blocks, so one cipher serves every frame (the library makes one per call).
      const aes = createCipheriv('aes-256-ecb', mac._secret, null);
      aes.setAutoPadding(false);
      p = mac[parts] = { sponge, scratch: new Sponge(), aes };
    }
    return p;
  };
  const absorb = (p: NativeParts, data: Uint8Array) =>
    p.sponge.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const digest = (p: NativeParts): Uint8Array => {
    p.sponge.copy(p.scratch);
    return new Uint8Array(p.scratch.squeeze(32).subarray(0, 16));
  };
  const xor16 = (a: Uint8Array, b: Uint8Array): Buffer => {
    const out = Buffer.allocUnsafe(16);
    for (let i = 0; i < 16; i++) out[i] = a[i]! ^ b[i]!;
    return out;
  };
  const proto = MAC.prototype as unknown as Record<string, unknown>;
  const originals = METHODS.map((m) => proto[m]);
  proto.update = function update(this: PatchedMac, data: Uint8Array) {
    absorb(of(this), data);
  };
  proto.updateHeader = function updateHeader(this: PatchedMac, data: Uint8Array) {
    const p = of(this);
    absorb(p, xor16(p.aes.update(digest(p)), data));
  };
  proto.updateBody = function updateBody(this: PatchedMac, data: Uint8Array) {
    const p = of(this);
    absorb(p, data);
    const prev = digest(p);
    absorb(p, xor16(p.aes.update(prev), prev));
  };
  proto.digest = function digestOf(this: PatchedMac) {
    return digest(of(this));
  };
  restore = () => {
    METHODS.forEach((m, i) => {
      proto[m] = originals[i];
    });
    restore = undefined;
  };
  return restore;
}
