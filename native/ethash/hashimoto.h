/*
 * Ethash light evaluation in C for the native add-on (addon.c). The TypeScript in src/chain/pow (hashimoto.ts) is
 * the reference this must agree with word for word; test/chain/pow/wasm-differential.test.ts checks that.
 */
#ifndef SVC_ETHASH_HASHIMOTO_H
#define SVC_ETHASH_HASHIMOTO_H
#include <stddef.h>
#include <stdint.h>

/* The most hashes one call interleaves (2 dataset items each, so twice as many reads in flight). */
#define ETHASH_MAX_LANES 16

/*
 * n hashes over one cache (`items` 64-byte items, 64-byte aligned): hash k reads its 32-byte pow hash and 8-byte
 * little-endian nonce at in + 40k and writes its mix digest and result at out + 64k. `lanes` hashes run at once.
 */
void ethash_hashimoto_many(const uint32_t *cache, uint32_t items, uint32_t pages, size_t n, unsigned lanes,
                           const uint8_t *in, uint8_t *out);

/* The epoch cache of `items` items for `seed` into cache (items * 64 bytes). */
void ethash_build_cache(uint32_t *cache, uint32_t items, const uint8_t seed[32]);

#endif
