/*
 * Node-API face of the C hashimoto (hashimoto.c), loaded by src/chain/pow/ethash-native.ts:
 *
 *   bind(cache: Uint32Array) -> handle   a copy of the epoch cache in memory of this add-on's own, mapped 2 MiB
 *                                        aligned and advised into transparent huge pages before its first touch (a
 *                                        light hash reads 32,768 random items of a 16 MB+ cache: with 4 KiB pages
 *                                        most reads also miss the TLB). Not posix_memalign: once glibc has raised
 *                                        its mmap threshold (after a large free) it serves 16 MB from the heap,
 *                                        whose pages are already faulted in 4 KiB, and the advice comes too late;
 *   hash(handle, pages, lanes, input, output)
 *                                        input: 40 bytes a hash (pow hash, then the nonce as a little-endian u64);
 *                                        output: 64 bytes a hash (mix digest, then result); `lanes` hashes at once;
 *   hugePages(handle) -> number          KiB of the copy's mapping the kernel backs with huge pages (from smaps);
 *   copies(bytes) -> number              live copies of caches of that size in the process (tests: one per epoch).
 *
 * The copies are process-wide and found by content: every thread (the main thread and each seal worker) that binds
 * the same cache gets the same copy, whatever buffer it came in, so one copy per epoch serves the whole process.
 * A copy is freed when the last handle on it is collected.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hashimoto.h"

#define HUGE_PAGE (2u << 20)

typedef struct copy {
  struct copy *next;
  uint32_t *words;
  size_t bytes;
  size_t mapped;
  unsigned handles;
} copy_t;

/* `mapped` bytes (a multiple of HUGE_PAGE) at a HUGE_PAGE boundary, advised into huge pages; NULL if none. */
static void *map_huge(size_t mapped) {
  size_t span = mapped + HUGE_PAGE;
  uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uint8_t *aligned = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  if (aligned > raw) munmap(raw, aligned - raw);
  if (raw + span > aligned + mapped) munmap(aligned + mapped, raw + span - (aligned + mapped));
#ifdef MADV_HUGEPAGE
  madvise(aligned, mapped, MADV_HUGEPAGE);
#endif
  return aligned;
}

static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;
static copy_t *copies;

static copy_t *acquire(const void *data, size_t bytes) {
  pthread_mutex_lock(&copies_lock);
  copy_t *found = NULL;
  for (copy_t *c = copies; c != NULL && found == NULL; c = c->next)
    if (c->bytes == bytes && memcmp(c->words, data, bytes) == 0) found = c;
  if (found == NULL) {
    size_t mapped = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *words = NULL;
    found = calloc(1, sizeof *found);
    if (found != NULL && (words = map_huge(mapped)) != NULL) {
      memcpy(words, data, bytes);
      found->words = words;
      found->bytes = bytes;
      found->mapped = mapped;
      found->next = copies;
      copies = found;
    } else {
      free(found);
      found = NULL;
    }
  }
  if (found != NULL) found->handles++;
  pthread_mutex_unlock(&copies_lock);
  return found;
}

static void release(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  copy_t *copy = data;
  pthread_mutex_lock(&copies_lock);
  if (--copy->handles == 0) {
    for (copy_t **at = &copies; *at != NULL; at = &(*at)->next) {
      if (*at == copy) {
        *at = copy->next;
        break;
      }
    }
    munmap(copy->words, copy->mapped);
    free(copy);
  }
  pthread_mutex_unlock(&copies_lock);
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static int typed_bytes(napi_env env, napi_value value, napi_typedarray_type want, void **data, size_t *bytes) {
  bool is_typed = false;
  napi_typedarray_type type;
  size_t length;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return 0;
  if (napi_get_typedarray_info(env, value, &type, &length, data, NULL, NULL) != napi_ok || type != want) return 0;
  *bytes = want == napi_uint32_array ? 4 * length : length;
  return 1;
}

static napi_value bind(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *data;
  size_t bytes;
  if (argc < 1 || !typed_bytes(env, argv[0], napi_uint32_array, &data, &bytes) || bytes == 0 || bytes % 64 != 0 ||
      bytes / 64 > UINT32_MAX)
    return fail(env, "bind(cache): a Uint32Array of whole 64-byte items");
  copy_t *copy = acquire(data, bytes);
  if (copy == NULL) {
    napi_throw_error(env, NULL, "no memory for a copy of the Ethash cache");
    return NULL;
  }
  napi_value handle;
  if (napi_create_external(env, copy, release, NULL, &handle) != napi_ok) {
    release(env, copy, NULL);
    return fail(env, "bind(cache): could not wrap the copy");
  }
  return handle;
}

static copy_t *unwrap(napi_env env, napi_value value) {
  napi_valuetype type;
  void *data = NULL;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_external) return NULL;
  napi_get_value_external(env, value, &data);
  return data;
}

static napi_value hash(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  copy_t *copy = argc == 5 ? unwrap(env, argv[0]) : NULL;
  uint32_t pages = 0, lanes = 0;
  void *in, *out;
  size_t in_bytes, out_bytes;
  if (copy == NULL || napi_get_value_uint32(env, argv[1], &pages) != napi_ok || pages == 0 ||
      napi_get_value_uint32(env, argv[2], &lanes) != napi_ok || lanes < 1 || lanes > ETHASH_MAX_LANES ||
      !typed_bytes(env, argv[3], napi_uint8_array, &in, &in_bytes) || in_bytes % 40 != 0 ||
      !typed_bytes(env, argv[4], napi_uint8_array, &out, &out_bytes) || out_bytes < in_bytes / 40 * 64)
    return fail(env, "hash(handle, pages, lanes 1..16, input: 40 bytes a hash, output: 64 bytes a hash)");
  ethash_hashimoto_many(copy->words, (uint32_t)(copy->bytes / 64), pages, in_bytes / 40, lanes, in, out);
  return NULL;
}

/* AnonHugePages of the mapping holding the copy, in KiB (0 where smaps cannot be read). */
static napi_value huge_pages(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  copy_t *copy = argc == 1 ? unwrap(env, argv[0]) : NULL;
  if (copy == NULL) return fail(env, "hugePages(handle)");
  uintptr_t at = (uintptr_t)copy->words;
  double kib = 0;
  FILE *smaps = fopen("/proc/self/smaps", "r");
  if (smaps != NULL) {
    char line[512];
    int inside = 0;
    while (fgets(line, sizeof line, smaps) != NULL) {
      unsigned long from, to;
      unsigned long value;
      if (sscanf(line, "%lx-%lx ", &from, &to) == 2 && strchr(line, ':') != NULL && line[0] != ' ') {
        inside = at >= from && at < to;
      } else if (inside && sscanf(line, "AnonHugePages: %lu kB", &value) == 1) {
        kib += value;
      }
    }
    fclose(smaps);
  }
  napi_value result;
  napi_create_double(env, kib, &result);
  return result;
}

static napi_value count_copies(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  double bytes = 0;
  if (argc < 1 || napi_get_value_double(env, argv[0], &bytes) != napi_ok) return fail(env, "copies(bytes)");
  uint32_t count = 0;
  pthread_mutex_lock(&copies_lock);
  for (copy_t *c = copies; c != NULL; c = c->next)
    if ((double)c->bytes == bytes) count++;
  pthread_mutex_unlock(&copies_lock);
  napi_value result;
  napi_create_uint32(env, count, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
    {"bind", NULL, bind, NULL, NULL, NULL, napi_enumerable, NULL},
    {"hash", NULL, hash, NULL, NULL, NULL, napi_enumerable, NULL},
    {"hugePages", NULL, huge_pages, NULL, NULL, NULL, napi_enumerable, NULL},
    {"copies", NULL, count_copies, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}
