/*
 * Light hashimoto with the parent reads of many hashes interleaved. A light hash is 64 accesses, each computing two
 * dataset items by 256 dependent reads at pseudo-random places of a cache far larger than the CPU's caches: one
 * hash alone waits a memory latency per read. The reads of different hashes (and of the two items of a page) are
 * independent, so each parent step computes every chain's next address, prefetches them all, then folds them in:
 * up to 2 * lanes reads are in flight instead of one. Each batch width is compiled on its own so that the chains'
 * items (16 words, one vector each) stay in registers, and the items' keccak-512s at both ends of a page run eight
 * to a permutation, one vector lane each: one at a time they were two thirds of the arithmetic of a hash.
 */
#include "hashimoto.h"

#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the cache and the hashes are read as little-endian words"
#endif

#define FNV_PRIME 0x01000193u
#define ACCESSES 64
#define PARENTS 256
#define CACHE_ROUNDS 3

static const uint64_t round_constants[24] = {
  0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
  0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
  0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
  0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
  0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
  0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

static inline uint64_t rol(uint64_t x, unsigned s) { return s == 0 ? x : (x << s) | (x >> (64 - s)); }

/*
 * Keccak-f[1600] with the state in 25 locals and every step written out (generated from the round's definition:
 * theta, then rho and pi moving lane (x, y) to (y, 2x + 3y) rotated, then chi and iota), so the compiler keeps the
 * state in registers: a loop over an array with a rotation table was 2.5 times slower.
 */
static void keccakf(uint64_t s[25]) {
  uint64_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], a4 = s[4], a5 = s[5], a6 = s[6], a7 = s[7], a8 = s[8], a9 = s[9], a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14], a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19], a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
  for (int round = 0; round < 24; round++) {
    const uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
    const uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
    const uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
    const uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
    const uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
    const uint64_t d0 = c4 ^ rol(c1, 1);
    const uint64_t d1 = c0 ^ rol(c2, 1);
    const uint64_t d2 = c1 ^ rol(c3, 1);
    const uint64_t d3 = c2 ^ rol(c4, 1);
    const uint64_t d4 = c3 ^ rol(c0, 1);
    const uint64_t b0 = rol(a0 ^ d0, 0);
    const uint64_t b1 = rol(a6 ^ d1, 44);
    const uint64_t b2 = rol(a12 ^ d2, 43);
    const uint64_t b3 = rol(a18 ^ d3, 21);
    const uint64_t b4 = rol(a24 ^ d4, 14);
    const uint64_t b5 = rol(a3 ^ d3, 28);
    const uint64_t b6 = rol(a9 ^ d4, 20);
    const uint64_t b7 = rol(a10 ^ d0, 3);
    const uint64_t b8 = rol(a16 ^ d1, 45);
    const uint64_t b9 = rol(a22 ^ d2, 61);
    const uint64_t b10 = rol(a1 ^ d1, 1);
    const uint64_t b11 = rol(a7 ^ d2, 6);
    const uint64_t b12 = rol(a13 ^ d3, 25);
    const uint64_t b13 = rol(a19 ^ d4, 8);
    const uint64_t b14 = rol(a20 ^ d0, 18);
    const uint64_t b15 = rol(a4 ^ d4, 27);
    const uint64_t b16 = rol(a5 ^ d0, 36);
    const uint64_t b17 = rol(a11 ^ d1, 10);
    const uint64_t b18 = rol(a17 ^ d2, 15);
    const uint64_t b19 = rol(a23 ^ d3, 56);
    const uint64_t b20 = rol(a2 ^ d2, 62);
    const uint64_t b21 = rol(a8 ^ d3, 55);
    const uint64_t b22 = rol(a14 ^ d4, 39);
    const uint64_t b23 = rol(a15 ^ d0, 41);
    const uint64_t b24 = rol(a21 ^ d1, 2);
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
    a0 ^= round_constants[round];
  }
  s[0] = a0; s[1] = a1; s[2] = a2; s[3] = a3; s[4] = a4; s[5] = a5; s[6] = a6; s[7] = a7; s[8] = a8; s[9] = a9; s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14; s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19; s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;

}

typedef uint64_t lanes8 __attribute__((vector_size(64)));

static inline lanes8 rol8(lanes8 x, unsigned s) { return s == 0 ? x : (x << s) | (x >> (64 - s)); }

/* Eight Keccak-f[1600] side by side, lane i of each vector being permutation i's (AVX-512: one instruction each). */
static void keccakf_x8(lanes8 s[25]) {
  lanes8 a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], a4 = s[4], a5 = s[5], a6 = s[6], a7 = s[7], a8 = s[8], a9 = s[9], a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14], a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19], a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
  for (int round = 0; round < 24; round++) {
    const lanes8 c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
    const lanes8 c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
    const lanes8 c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
    const lanes8 c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
    const lanes8 c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
    const lanes8 d0 = c4 ^ rol8(c1, 1);
    const lanes8 d1 = c0 ^ rol8(c2, 1);
    const lanes8 d2 = c1 ^ rol8(c3, 1);
    const lanes8 d3 = c2 ^ rol8(c4, 1);
    const lanes8 d4 = c3 ^ rol8(c0, 1);
    const lanes8 b0 = rol8(a0 ^ d0, 0);
    const lanes8 b1 = rol8(a6 ^ d1, 44);
    const lanes8 b2 = rol8(a12 ^ d2, 43);
    const lanes8 b3 = rol8(a18 ^ d3, 21);
    const lanes8 b4 = rol8(a24 ^ d4, 14);
    const lanes8 b5 = rol8(a3 ^ d3, 28);
    const lanes8 b6 = rol8(a9 ^ d4, 20);
    const lanes8 b7 = rol8(a10 ^ d0, 3);
    const lanes8 b8 = rol8(a16 ^ d1, 45);
    const lanes8 b9 = rol8(a22 ^ d2, 61);
    const lanes8 b10 = rol8(a1 ^ d1, 1);
    const lanes8 b11 = rol8(a7 ^ d2, 6);
    const lanes8 b12 = rol8(a13 ^ d3, 25);
    const lanes8 b13 = rol8(a19 ^ d4, 8);
    const lanes8 b14 = rol8(a20 ^ d0, 18);
    const lanes8 b15 = rol8(a4 ^ d4, 27);
    const lanes8 b16 = rol8(a5 ^ d0, 36);
    const lanes8 b17 = rol8(a11 ^ d1, 10);
    const lanes8 b18 = rol8(a17 ^ d2, 15);
    const lanes8 b19 = rol8(a23 ^ d3, 56);
    const lanes8 b20 = rol8(a2 ^ d2, 62);
    const lanes8 b21 = rol8(a8 ^ d3, 55);
    const lanes8 b22 = rol8(a14 ^ d4, 39);
    const lanes8 b23 = rol8(a15 ^ d0, 41);
    const lanes8 b24 = rol8(a21 ^ d1, 2);
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
    a0 ^= round_constants[round];
  }
  s[0] = a0; s[1] = a1; s[2] = a2; s[3] = a3; s[4] = a4; s[5] = a5; s[6] = a6; s[7] = a7; s[8] = a8; s[9] = a9; s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14; s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19; s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;
}


/* keccak-512 (original padding, 72-byte rate) of `len` ≤ 64 bytes at `in` into the 64 bytes at `out`. */
static void keccak512(const void *in, size_t len, void *out) {
  uint64_t st[25] = {0};
  memcpy(st, in, len);
  ((uint8_t *)st)[len] ^= 0x01;
  st[8] ^= 0x8000000000000000ull;
  keccakf(st);
  memcpy(out, st, 64);
}

/* keccak-512 in place of `count` 64-byte items: eight at a time where at least three share a permutation. */
static void keccak512_items(uint32_t (*items)[16], unsigned count) {
  for (unsigned from = 0; from < count; from += 8) {
    unsigned n = count - from < 8 ? count - from : 8;
    if (n >= 3) {
      lanes8 st[25] = {0};
      for (unsigned w = 0; w < 8; w++)
        for (unsigned i = 0; i < n; i++) memcpy(&st[w][i], &items[from + i][2 * w], 8);
      st[8] ^= 0x8000000000000001ull;
      keccakf_x8(st);
      for (unsigned w = 0; w < 8; w++)
        for (unsigned i = 0; i < n; i++) memcpy(&items[from + i][2 * w], &st[w][i], 8);
    } else {
      for (unsigned i = 0; i < n; i++) keccak512(items[from + i], 64, items[from + i]);
    }
  }
}

/* keccak-256 (original padding, 136-byte rate) of 96 bytes into 32. */
static void keccak256_96(const void *in, void *out) {
  uint64_t st[25] = {0};
  memcpy(st, in, 96);
  st[12] ^= 0x01;
  st[16] ^= 0x8000000000000000ull;
  keccakf(st);
  memcpy(out, st, 32);
}

static inline uint32_t fnv(uint32_t a, uint32_t b) { return a * FNV_PRIME ^ b; }

/*
 * x % d without a division (Lemire's fastmod, exact for 32-bit x and d; m = 2^64 / d rounded up): its latency sits
 * on every chain between one read and the next.
 */
static inline uint32_t fastmod(uint32_t x, uint64_t m, uint32_t d) {
  uint64_t low = m * x;
  return (uint32_t)(((unsigned __int128)low * d) >> 64);
}

typedef uint32_t v16 __attribute__((vector_size(64)));

/* One parent step of every chain: the word choosing the parent is lane r (a constant) of the chain's item. */
#define PARENT_STEP(r)                                                                                           \
  do {                                                                                                           \
    const uint32_t *p[2 * N];                                                                                    \
    for (unsigned c = 0; c < 2 * N; c++) {                                                                       \
      p[c] = cache + 16 * (size_t)fastmod(fnv(index[c] ^ (j + (r)), item[c][(r)]), m, items);                    \
      __builtin_prefetch(p[c]);                                                                                  \
    }                                                                                                            \
    for (unsigned c = 0; c < 2 * N; c++) {                                                                       \
      v16 parent;                                                                                                \
      memcpy(&parent, p[c], 64);                                                                                 \
      item[c] = item[c] * FNV_PRIME ^ parent;                                                                    \
    }                                                                                                            \
  } while (0)

static inline __attribute__((always_inline)) void hashimoto_fixed(const uint32_t *cache, uint32_t items,
                                                                  uint32_t pages, const unsigned N,
                                                                  const uint8_t *in, uint8_t *out) {
  uint32_t seed[ETHASH_MAX_LANES][24]; /* keccak512(pow hash ‖ nonce), then the compressed mix: the last input */
  uint32_t mix[ETHASH_MAX_LANES][32];
  v16 item[2 * ETHASH_MAX_LANES];
  uint32_t index[2 * ETHASH_MAX_LANES];
  uint32_t words[2 * ETHASH_MAX_LANES][16] __attribute__((aligned(64)));
  const uint64_t m = UINT64_MAX / items + 1;

  for (unsigned k = 0; k < N; k++) {
    keccak512(in + 40 * k, 40, seed[k]);
    for (unsigned w = 0; w < 32; w++) mix[k][w] = seed[k][w % 16];
  }
  for (uint32_t i = 0; i < ACCESSES; i++) {
    for (unsigned k = 0; k < N; k++) {
      uint32_t page = fnv(i ^ seed[k][0], mix[k][i % 32]) % pages;
      index[2 * k] = 2 * page;
      index[2 * k + 1] = 2 * page + 1;
    }
    for (unsigned c = 0; c < 2 * N; c++) {
      memcpy(words[c], cache + 16 * (size_t)fastmod(index[c], m, items), 64);
      words[c][0] ^= index[c];
    }
    keccak512_items(words, 2 * N);
    for (unsigned c = 0; c < 2 * N; c++) memcpy(&item[c], words[c], 64);
    for (uint32_t j = 0; j < PARENTS; j += 16) {
      PARENT_STEP(0); PARENT_STEP(1); PARENT_STEP(2); PARENT_STEP(3);
      PARENT_STEP(4); PARENT_STEP(5); PARENT_STEP(6); PARENT_STEP(7);
      PARENT_STEP(8); PARENT_STEP(9); PARENT_STEP(10); PARENT_STEP(11);
      PARENT_STEP(12); PARENT_STEP(13); PARENT_STEP(14); PARENT_STEP(15);
    }
    for (unsigned c = 0; c < 2 * N; c++) memcpy(words[c], &item[c], 64);
    keccak512_items(words, 2 * N);
    for (unsigned k = 0; k < N; k++) {
      uint32_t page[32];
      memcpy(page, words[2 * k], 128);
      for (unsigned w = 0; w < 32; w++) mix[k][w] = fnv(mix[k][w], page[w]);
    }
  }
  for (unsigned k = 0; k < N; k++) {
    for (unsigned w = 0; w < 8; w++)
      seed[k][16 + w] = fnv(fnv(fnv(mix[k][4 * w], mix[k][4 * w + 1]), mix[k][4 * w + 2]), mix[k][4 * w + 3]);
    memcpy(out + 64 * k, seed[k] + 16, 32);
    keccak256_96(seed[k], out + 64 * k + 32);
  }
}

#define WIDTH(n)                                                                                              \
  static void hashimoto_##n(const uint32_t *cache, uint32_t items, uint32_t pages, const uint8_t *in,         \
                            uint8_t *out) {                                                                   \
    hashimoto_fixed(cache, items, pages, n, in, out);                                                         \
  }
WIDTH(1)
WIDTH(2)
WIDTH(3)
WIDTH(4)
WIDTH(5)
WIDTH(6)
WIDTH(7)
WIDTH(8)
WIDTH(16)

/* Each width compiled on its own: the chains' items stay in registers (32 of them at 8 lanes with AVX-512). */
static void (*const hashimoto_width[])(const uint32_t *, uint32_t, uint32_t, const uint8_t *, uint8_t *) = {
  hashimoto_1, hashimoto_2, hashimoto_3, hashimoto_4, hashimoto_5, hashimoto_6, hashimoto_7, hashimoto_8,
};

static void hashimoto_lanes(const uint32_t *cache, uint32_t items, uint32_t pages, unsigned n, const uint8_t *in,
                            uint8_t *out) {
  if (n == 16) hashimoto_16(cache, items, pages, in, out);
  else if (n > 8) {
    hashimoto_8(cache, items, pages, in, out);
    hashimoto_lanes(cache, items, pages, n - 8, in + 40 * 8, out + 64 * 8);
  } else hashimoto_width[n - 1](cache, items, pages, in, out);
}

void ethash_hashimoto_many(const uint32_t *cache, uint32_t items, uint32_t pages, size_t n, unsigned lanes,
                           const uint8_t *in, uint8_t *out) {
  if (lanes < 1) lanes = 1;
  if (lanes > ETHASH_MAX_LANES) lanes = ETHASH_MAX_LANES;
  for (size_t from = 0; from < n; from += lanes) {
    unsigned count = n - from < lanes ? (unsigned)(n - from) : lanes;
    hashimoto_lanes(cache, items, pages, count, in + 40 * from, out + 64 * from);
  }
}

void ethash_build_cache(uint32_t *cache, uint32_t items, const uint8_t seed[32]) {
  keccak512(seed, 32, cache);
  for (uint32_t i = 1; i < items; i++) keccak512(cache + 16 * (size_t)(i - 1), 64, cache + 16 * (size_t)i);
  for (int round = 0; round < CACHE_ROUNDS; round++) {
    for (uint32_t i = 0; i < items; i++) {
      uint32_t *item = cache + 16 * (size_t)i;
      const uint32_t *left = cache + 16 * (size_t)((i + items - 1) % items);
      const uint32_t *right = cache + 16 * (size_t)(item[0] % items);
      uint32_t mixed[16];
      for (int w = 0; w < 16; w++) mixed[w] = left[w] ^ right[w];
      keccak512(mixed, 64, item);
    }
  }
}
