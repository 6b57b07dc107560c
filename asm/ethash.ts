// Ethash light evaluation and cache generation in WebAssembly (AssemblyScript; compiled by scripts/build-wasm.ts into
// src/chain/pow/ethash-wasm-bytes.ts). The TypeScript in src/chain/pow (hashimoto.ts, cache.ts) is the reference this
// must agree with word for word; test/chain/pow/wasm-differential.test.ts checks that.
//
// Memory is imported (shared, so seal workers can read one copy of an epoch's cache) and laid out as:
//   [0, 64 * 8192)           one scratch slot per thread, chosen by the caller (`s` below), so threads sharing the
//                            memory never write each other's scratch; a slot is LANES lanes of 1 KB, one per hash of
//                            a batch (a single hash uses lane 0);
//   [CACHE, CACHE + size)    the epoch cache, little-endian words exactly as hashimoto reads them.
// Nothing else lives in memory: no data segments (instantiating on a shared memory would rewrite them while other
// threads read) and no allocator. One hash is a single call: keccak, FNV and all 128 dataset items stay in here.

const CACHE: usize = 64 * 8192;
const LANE: usize = 1024;
const LANES: u32 = 8;
const HASH_BYTES: usize = 64;
const FNV_PRIME: u32 = 0x01000193;

// Offsets inside a scratch slot.
const ST: usize = 0; //      keccak state, 25 lanes
const SEED: usize = 256; //  keccak512(header ‖ nonce), 64 bytes, followed by
const CMIX: usize = 320; //  the compressed mix, 32 bytes (the mix digest): SEED..CMIX+32 is the final keccak256's input
const HDR: usize = 384; //   input: the 32-byte pow hash (or the seed, for the cache)
const MIX: usize = 448; //   the 128-byte mix
const PAGE: usize = 576; //  the two dataset items of one page
const RES: usize = 704; //   output: the 32-byte result
const NONCE: usize = 736; // batch input: the nonce, low word then high word
const PARENT: usize = 744; // batch: the page this access reads

// @ts-ignore: decorator
@inline function fnv4(a: v128, b: v128): v128 {
  return v128.xor(i32x4.mul(a, i32x4.splat(FNV_PRIME)), b);
}

/**
 * x % d for the parent loops without a division (Lemire's fastmod; exact for all 32-bit x and d): m = 2^64 / d
 * rounded up, computed once per page. A division's latency sits on the dependency chain between one parent read
 * and the next, so it counts in full 16,384 times a hash.
 */
// @ts-ignore: decorator
@inline function fastmod(x: u32, m: u64, d: u64): u32 {
  const low = m * <u64>x;
  return <u32>(((low >> 32) * d + (((low & 0xffffffff) * d) >> 32)) >> 32);
}

// @ts-ignore: decorator
@inline function roundConstant(round: i32): u64 {
  switch (round) {
    case 0: return 0x0000000000000001;
    case 1: return 0x0000000000008082;
    case 2: return 0x800000000000808a;
    case 3: return 0x8000000080008000;
    case 4: return 0x000000000000808b;
    case 5: return 0x0000000080000001;
    case 6: return 0x8000000080008081;
    case 7: return 0x8000000000008009;
    case 8: return 0x000000000000008a;
    case 9: return 0x0000000000000088;
    case 10: return 0x0000000080008009;
    case 11: return 0x000000008000000a;
    case 12: return 0x000000008000808b;
    case 13: return 0x800000000000008b;
    case 14: return 0x8000000000008089;
    case 15: return 0x8000000000008003;
    case 16: return 0x8000000000008002;
    case 17: return 0x8000000000000080;
    case 18: return 0x000000000000800a;
    case 19: return 0x800000008000000a;
    case 20: return 0x8000000080008081;
    case 21: return 0x8000000000008080;
    case 22: return 0x0000000080000001;
    default: return 0x8000000080008008;
  }
}

/** Keccak-f[1600] over the 25 lanes at p, the state held in locals for the 24 rounds. */
function permute(p: usize): void {
  let a0 = load<u64>(p, 0);
  let a1 = load<u64>(p, 8);
  let a2 = load<u64>(p, 16);
  let a3 = load<u64>(p, 24);
  let a4 = load<u64>(p, 32);
  let a5 = load<u64>(p, 40);
  let a6 = load<u64>(p, 48);
  let a7 = load<u64>(p, 56);
  let a8 = load<u64>(p, 64);
  let a9 = load<u64>(p, 72);
  let a10 = load<u64>(p, 80);
  let a11 = load<u64>(p, 88);
  let a12 = load<u64>(p, 96);
  let a13 = load<u64>(p, 104);
  let a14 = load<u64>(p, 112);
  let a15 = load<u64>(p, 120);
  let a16 = load<u64>(p, 128);
  let a17 = load<u64>(p, 136);
  let a18 = load<u64>(p, 144);
  let a19 = load<u64>(p, 152);
  let a20 = load<u64>(p, 160);
  let a21 = load<u64>(p, 168);
  let a22 = load<u64>(p, 176);
  let a23 = load<u64>(p, 184);
  let a24 = load<u64>(p, 192);
  for (let round = 0; round < 24; round++) {
    const c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
    const c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
    const c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
    const c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
    const c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
    const d0 = c4 ^ rotl<u64>(c1, 1);
    const d1 = c0 ^ rotl<u64>(c2, 1);
    const d2 = c1 ^ rotl<u64>(c3, 1);
    const d3 = c2 ^ rotl<u64>(c4, 1);
    const d4 = c3 ^ rotl<u64>(c0, 1);
    const b0 = a0 ^ d0;
    const b1 = rotl<u64>(a6 ^ d1, 44);
    const b2 = rotl<u64>(a12 ^ d2, 43);
    const b3 = rotl<u64>(a18 ^ d3, 21);
    const b4 = rotl<u64>(a24 ^ d4, 14);
    const b5 = rotl<u64>(a3 ^ d3, 28);
    const b6 = rotl<u64>(a9 ^ d4, 20);
    const b7 = rotl<u64>(a10 ^ d0, 3);
    const b8 = rotl<u64>(a16 ^ d1, 45);
    const b9 = rotl<u64>(a22 ^ d2, 61);
    const b10 = rotl<u64>(a1 ^ d1, 1);
    const b11 = rotl<u64>(a7 ^ d2, 6);
    const b12 = rotl<u64>(a13 ^ d3, 25);
    const b13 = rotl<u64>(a19 ^ d4, 8);
    const b14 = rotl<u64>(a20 ^ d0, 18);
    const b15 = rotl<u64>(a4 ^ d4, 27);
    const b16 = rotl<u64>(a5 ^ d0, 36);
    const b17 = rotl<u64>(a11 ^ d1, 10);
    const b18 = rotl<u64>(a17 ^ d2, 15);
    const b19 = rotl<u64>(a23 ^ d3, 56);
    const b20 = rotl<u64>(a2 ^ d2, 62);
    const b21 = rotl<u64>(a8 ^ d3, 55);
    const b22 = rotl<u64>(a14 ^ d4, 39);
    const b23 = rotl<u64>(a15 ^ d0, 41);
    const b24 = rotl<u64>(a21 ^ d1, 2);
    a0 = b0 ^ (~b1 & b2);
    a1 = b1 ^ (~b2 & b3);
    a2 = b2 ^ (~b3 & b4);
    a3 = b3 ^ (~b4 & b0);
    a4 = b4 ^ (~b0 & b1);
    a5 = b5 ^ (~b6 & b7);
    a6 = b6 ^ (~b7 & b8);
    a7 = b7 ^ (~b8 & b9);
    a8 = b8 ^ (~b9 & b5);
    a9 = b9 ^ (~b5 & b6);
    a10 = b10 ^ (~b11 & b12);
    a11 = b11 ^ (~b12 & b13);
    a12 = b12 ^ (~b13 & b14);
    a13 = b13 ^ (~b14 & b10);
    a14 = b14 ^ (~b10 & b11);
    a15 = b15 ^ (~b16 & b17);
    a16 = b16 ^ (~b17 & b18);
    a17 = b17 ^ (~b18 & b19);
    a18 = b18 ^ (~b19 & b15);
    a19 = b19 ^ (~b15 & b16);
    a20 = b20 ^ (~b21 & b22);
    a21 = b21 ^ (~b22 & b23);
    a22 = b22 ^ (~b23 & b24);
    a23 = b23 ^ (~b24 & b20);
    a24 = b24 ^ (~b20 & b21);
    a0 ^= roundConstant(round);
  }
  store<u64>(p, a0, 0);
  store<u64>(p, a1, 8);
  store<u64>(p, a2, 16);
  store<u64>(p, a3, 24);
  store<u64>(p, a4, 32);
  store<u64>(p, a5, 40);
  store<u64>(p, a6, 48);
  store<u64>(p, a7, 56);
  store<u64>(p, a8, 64);
  store<u64>(p, a9, 72);
  store<u64>(p, a10, 80);
  store<u64>(p, a11, 88);
  store<u64>(p, a12, 96);
  store<u64>(p, a13, 104);
  store<u64>(p, a14, 112);
  store<u64>(p, a15, 120);
  store<u64>(p, a16, 128);
  store<u64>(p, a17, 136);
  store<u64>(p, a18, 144);
  store<u64>(p, a19, 152);
  store<u64>(p, a20, 160);
  store<u64>(p, a21, 168);
  store<u64>(p, a22, 176);
  store<u64>(p, a23, 184);
  store<u64>(p, a24, 192);
}

/** Zeroes lanes from..24 of the state at p. */
// @ts-ignore: decorator
@inline function clearLanes(p: usize, from: usize): void {
  memory.fill(p + from * 8, 0, (25 - from) * 8);
}

/** keccak512 of the 64 bytes at src into dst (64 bytes); src and dst may overlap. */
function keccak512of64(s: usize, src: usize, dst: usize): void {
  const st = s + ST;
  memory.copy(st, src, 64);
  store<u64>(st, 0x8000000000000001, 64);
  clearLanes(st, 9);
  permute(st);
  memory.copy(dst, st, 64);
}

/** Loads dataset item `index`'s cache item into the state at st, xors its index in and hashes it (keccak512). */
// @ts-ignore: decorator
@inline function itemSeed(st: usize, items: u32, index: u32): void {
  memory.copy(st, CACHE + <usize>(index % items) * HASH_BYTES, 64);
  store<u32>(st, load<u32>(st) ^ index);
  store<u64>(st, 0x8000000000000001, 64);
  clearLanes(st, 9);
  permute(st);
}

/** keccak512 of the 64 bytes already at st into dst. */
// @ts-ignore: decorator
@inline function itemEnd(st: usize, dst: usize): void {
  store<u64>(st, 0x8000000000000001, 64);
  clearLanes(st, 9);
  permute(st);
  memory.copy(dst, st, 64);
}

/**
 * Dataset items 2·page and 2·page + 1 into the slot's PAGE: each is its cache item mixed with 256 parents by FNV.
 * The two items are independent chains of random cache reads, computed step by step together so the CPU has both
 * reads in flight; the 16 words of each item live in 4 v128 locals and the loop is unrolled by 16 so that the word
 * choosing each parent (mix[j % 16]) is a constant lane.
 */
function calcPage(s: usize, items: u32, page: u32): void {
  const st = s + ST;
  const ia = page << 1;
  const ib = ia + 1;
  itemSeed(st, items, ia);
  let a0 = v128.load(st), a1 = v128.load(st, 16), a2 = v128.load(st, 32), a3 = v128.load(st, 48);
  itemSeed(st, items, ib);
  let b0 = v128.load(st), b1 = v128.load(st, 16), b2 = v128.load(st, 32), b3 = v128.load(st, 48);
  const id64 = <u64>items;
  const im = u64.MAX_VALUE / id64 + 1;
  let pa: usize, pb: usize;
  for (let j: u32 = 0; j < 256; j += 16) {
    pa = CACHE + <usize>fastmod(((ia ^ (j + 0)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a0, 0), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 0)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b0, 0), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 1)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a0, 1), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 1)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b0, 1), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 2)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a0, 2), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 2)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b0, 2), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 3)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a0, 3), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 3)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b0, 3), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 4)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a1, 0), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 4)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b1, 0), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 5)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a1, 1), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 5)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b1, 1), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 6)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a1, 2), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 6)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b1, 2), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 7)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a1, 3), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 7)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b1, 3), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 8)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a2, 0), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 8)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b2, 0), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 9)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a2, 1), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 9)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b2, 1), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 10)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a2, 2), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 10)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b2, 2), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 11)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a2, 3), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 11)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b2, 3), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 12)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a3, 0), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 12)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b3, 0), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 13)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a3, 1), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 13)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b3, 1), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 14)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a3, 2), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 14)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b3, 2), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
    pa = CACHE + <usize>fastmod(((ia ^ (j + 15)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(a3, 3), im, id64) * HASH_BYTES;
    pb = CACHE + <usize>fastmod(((ib ^ (j + 15)) * FNV_PRIME) ^ <u32>i32x4.extract_lane(b3, 3), im, id64) * HASH_BYTES;
    a0 = fnv4(a0, v128.load(pa)); a1 = fnv4(a1, v128.load(pa, 16)); a2 = fnv4(a2, v128.load(pa, 32)); a3 = fnv4(a3, v128.load(pa, 48));
    b0 = fnv4(b0, v128.load(pb)); b1 = fnv4(b1, v128.load(pb, 16)); b2 = fnv4(b2, v128.load(pb, 32)); b3 = fnv4(b3, v128.load(pb, 48));
  }
  v128.store(st, a0); v128.store(st, a1, 16); v128.store(st, a2, 32); v128.store(st, a3, 48);
  itemEnd(st, s + PAGE);
  v128.store(st, b0); v128.store(st, b1, 16); v128.store(st, b2, 32); v128.store(st, b3, 48);
  itemEnd(st, s + PAGE + 64);
}

/** Starts a hash in slot s: SEED = keccak512(pow hash at HDR ‖ nonce little-endian), MIX = SEED twice. */
function start(s: usize, nonceLo: u32, nonceHi: u32): void {
  const st = s + ST;
  memory.copy(st, s + HDR, 32);
  store<u64>(st, (<u64>nonceHi << 32) | <u64>nonceLo, 32);
  store<u64>(st, 0x01, 40);
  clearLanes(st, 6);
  store<u64>(st, 0x8000000000000000, 64);
  permute(st);
  memory.copy(s + SEED, st, 64);
  memory.copy(s + MIX, s + SEED, 64);
  memory.copy(s + MIX + 64, s + SEED, 64);
}

/** The page that access i of the hash in slot s reads. */
// @ts-ignore: decorator
@inline function parentOf(s: usize, i: u32, pages: u32): u32 {
  return (((i ^ load<u32>(s + SEED)) * FNV_PRIME) ^ load<u32>(s + MIX + ((<usize>i & 31) << 2))) % pages;
}

/** MIX = fnv(MIX, PAGE), word by word. */
// @ts-ignore: decorator
@inline function fold(s: usize): void {
  const mix = s + MIX;
  const page = s + PAGE;
  for (let k: usize = 0; k < 128; k += 16) v128.store(mix + k, fnv4(v128.load(mix + k), v128.load(page + k)));
}

/** Compresses the 32-word mix to 8 words after the seed (the mix digest) and hashes the 96 bytes into RES. */
function finish(s: usize): void {
  const st = s + ST;
  const mix = s + MIX;
  for (let k: usize = 0; k < 8; k++) {
    const w = mix + (k << 4);
    const c = ((((load<u32>(w) * FNV_PRIME) ^ load<u32>(w, 4)) * FNV_PRIME) ^ load<u32>(w, 8)) * FNV_PRIME;
    store<u32>(s + CMIX + (k << 2), c ^ load<u32>(w, 12));
  }
  memory.copy(st, s + SEED, 96);
  store<u64>(st, 0x01, 96);
  clearLanes(st, 13);
  store<u64>(st, 0x8000000000000000, 128);
  permute(st);
  memory.copy(s + RES, st, 32);
}

/**
 * Light hashimoto of the pow hash at the slot's HDR and the nonce (hi:lo) over a cache of `items` 64-byte items and
 * a dataset of `pages` 128-byte pages. Leaves the mix digest at CMIX and the result at RES.
 */
export function hashimoto(s: usize, items: u32, pages: u32, nonceLo: u32, nonceHi: u32): void {
  start(s, nonceLo, nonceHi);
  for (let i: u32 = 0; i < 64; i++) {
    calcPage(s, items, parentOf(s, i, pages));
    fold(s);
  }
  finish(s);
}

/** Cache generation, first pass over items [from, to): item 0 = keccak512(seed at HDR), item i = keccak512(item i-1). */
export function cacheInit(s: usize, from: u32, to: u32): void {
  for (let i = from; i < to; i++) {
    const dst = CACHE + <usize>i * HASH_BYTES;
    if (i === 0) {
      const st = s + ST;
      memory.copy(st, s + HDR, 32);
      store<u64>(st, 0x01, 32);
      clearLanes(st, 5);
      store<u64>(st, 0x8000000000000000, 64);
      permute(st);
      memory.copy(dst, st, 64);
    } else {
      keccak512of64(s, dst - HASH_BYTES, dst);
    }
  }
}

/**
 * One RandMemoHash round over items [from, to) of `items`: item i = keccak512(item i-1 ^ item (word 0 of item i) % items),
 * in order, each step reading the items before it as already updated in this round.
 */
export function cacheRound(s: usize, items: u32, from: u32, to: u32): void {
  const st = s + ST;
  for (let i = from; i < to; i++) {
    const self = CACHE + <usize>i * HASH_BYTES;
    const prev = CACHE + <usize>((i + items - 1) % items) * HASH_BYTES;
    const other = CACHE + <usize>(load<u32>(self) % items) * HASH_BYTES;
    for (let k: usize = 0; k < 64; k += 16) v128.store(st + k, v128.xor(v128.load(prev + k), v128.load(other + k)));
    store<u64>(st, 0x8000000000000001, 64);
    clearLanes(st, 9);
    permute(st);
    memory.copy(self, st, 64);
  }
}

/**
 * One FNV step of a dataset item held in memory at `item` (16 words): parent number j of dataset item `index`.
 * The item stays in memory, not in locals, so any number of chains can be stepped in turn without spills.
 */
// @ts-ignore: decorator
@inline function parentStep(item: usize, index: u32, j: u32, im: u64, id64: u64): void {
  const w = load<u32>(item + ((<usize>j & 15) << 2));
  const p = CACHE + <usize>fastmod(((index ^ j) * FNV_PRIME) ^ w, im, id64) * HASH_BYTES;
  v128.store(item, fnv4(v128.load(item), v128.load(p)));
  v128.store(item, fnv4(v128.load(item, 16), v128.load(p, 16)), 16);
  v128.store(item, fnv4(v128.load(item, 32), v128.load(p, 32)), 32);
  v128.store(item, fnv4(v128.load(item, 48), v128.load(p, 48)), 48);
}

/**
 * `n` (1..LANES) light hashimotos at once, lane k of slot s holding hash k's pow hash at HDR and nonce at NONCE;
 * each lane gets its mix digest at CMIX and result at RES, as `hashimoto` leaves them. A light hash is a chain of
 * 64 pages, each two chains of 256 dependent random cache reads; one chain leaves the CPU waiting on memory for
 * each read, so the batch steps all 2n chains of the current page together, parent by parent, to keep 2n reads
 * in flight. The hashes share nothing but the read-only cache: one lane's values never reach another's.
 */
export function hashimotoBatch(s: usize, n: u32, items: u32, pages: u32): void {
  if (n > LANES) n = LANES;
  const end = s + <usize>n * LANE;
  const id64 = <u64>items;
  const im = u64.MAX_VALUE / id64 + 1;
  for (let l = s; l < end; l += LANE) start(l, load<u32>(l + NONCE), load<u32>(l + NONCE, 4));
  for (let i: u32 = 0; i < 64; i++) {
    for (let l = s; l < end; l += LANE) {
      const page = parentOf(l, i, pages);
      store<u32>(l + PARENT, page);
      itemSeed(l + ST, items, page << 1);
      memory.copy(l + PAGE, l + ST, 64);
      itemSeed(l + ST, items, (page << 1) + 1);
      memory.copy(l + PAGE + 64, l + ST, 64);
    }
    for (let j: u32 = 0; j < 256; j++) {
      for (let l = s; l < end; l += LANE) {
        const ia = load<u32>(l + PARENT) << 1;
        parentStep(l + PAGE, ia, j, im, id64);
        parentStep(l + PAGE + 64, ia + 1, j, im, id64);
      }
    }
    for (let l = s; l < end; l += LANE) {
      memory.copy(l + ST, l + PAGE, 64);
      itemEnd(l + ST, l + PAGE);
      memory.copy(l + ST, l + PAGE + 64, 64);
      itemEnd(l + ST, l + PAGE + 64);
      fold(l);
    }
  }
  for (let l = s; l < end; l += LANE) finish(l);
}
