/* A small open-addressing hash map u64 -> u64 (key UINT64_MAX reserved as
 * "empty").  Used for location sets and stream tables.  Not public API. */
#ifndef PT_STORE_MAP_H
#define PT_STORE_MAP_H

#include <stdint.h>
#include <stdlib.h>

#include "paratrace/status.h"

typedef struct pt__map {
  uint64_t *keys, *vals;
  size_t cap, n; /* cap: 0 or a power of two */
} pt__map;

static inline size_t pt__map_hash(uint64_t x) {
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  return (size_t)x;
}

/* 1 and *v if found, else 0. */
static inline int pt__map_get(const pt__map *m, uint64_t k, uint64_t *v) {
  if (!m->cap) return 0;
  size_t mask = m->cap - 1, i = pt__map_hash(k) & mask;
  for (;;) {
    if (m->keys[i] == k) {
      if (v) *v = m->vals[i];
      return 1;
    }
    if (m->keys[i] == UINT64_MAX) return 0;
    i = (i + 1) & mask;
  }
}

static inline int pt__map_put(pt__map *m, uint64_t k, uint64_t v);

static inline int pt__map_grow(pt__map *m) {
  size_t nc = m->cap ? m->cap * 2 : 16;
  pt__map t = {malloc(nc * sizeof(uint64_t)), malloc(nc * sizeof(uint64_t)),
               nc, 0};
  if (!t.keys || !t.vals) {
    free(t.keys);
    free(t.vals);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < nc; i++) t.keys[i] = UINT64_MAX;
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i] != UINT64_MAX) pt__map_put(&t, m->keys[i], m->vals[i]);
  free(m->keys);
  free(m->vals);
  *m = t;
  return PT_OK;
}

/* Insert or replace.  PT_OK, PT_ENOMEM, PT_EINVAL (key UINT64_MAX). */
static inline int pt__map_put(pt__map *m, uint64_t k, uint64_t v) {
  if (k == UINT64_MAX) return PT_EINVAL;
  if ((m->n + 1) * 4 > m->cap * 3 && pt__map_grow(m)) return PT_ENOMEM;
  size_t mask = m->cap - 1, i = pt__map_hash(k) & mask;
  while (m->keys[i] != UINT64_MAX && m->keys[i] != k) i = (i + 1) & mask;
  if (m->keys[i] == UINT64_MAX) m->n++;
  m->keys[i] = k;
  m->vals[i] = v;
  return PT_OK;
}

static inline void pt__map_free(pt__map *m) {
  free(m->keys);
  free(m->vals);
  m->keys = m->vals = NULL;
  m->cap = m->n = 0;
}

#endif
