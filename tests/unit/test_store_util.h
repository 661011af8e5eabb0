/* Helpers shared by the store tests: a seeded PRNG, random events and
 * definitions of every kind with attributes of every type, and an expected
 * merge order. */
#ifndef PT_TEST_STORE_UTIL_H
#define PT_TEST_STORE_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "paratrace/paratrace.h"

static uint64_t rng_s = 0x9E3779B97F4A7C15ull;
static inline void rng_seed(uint64_t s) { rng_s = s ? s : 1; }
static inline uint64_t rnd(void) {
  uint64_t x = rng_s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_s = x;
  return x * 0x2545F4914F6CDD1Dull;
}
static inline uint64_t rndn(uint64_t n) { return n ? rnd() % n : 0; }

/* Interesting integers: small, edges, random. */
static inline uint64_t rnd_u64(void) {
  switch (rndn(6)) {
    case 0: return rndn(4);
    case 1: return rndn(200);
    case 2: return UINT64_MAX - rndn(3);
    case 3: return (uint64_t)1 << rndn(64);
    default: return rnd();
  }
}

static inline const char *rnd_str(pt__arena *a) {
  if (rndn(8) == 0) return NULL;
  size_t n = rndn(5) == 0 ? rndn(300) : rndn(12);
  char *s = pt__arena_alloc(a, n + 1);
  for (size_t i = 0; i < n; i++) s[i] = (char)(1 + rndn(255));
  s[n] = 0;
  return s;
}

static inline void rnd_value(pt__arena *a, pt_value *v) {
  memset(v, 0, sizeof *v);
  v->type = (uint32_t)rndn(PT_TYPE__COUNT);
  switch (v->type) {
    case PT_TYPE_INT: v->v.i = (int64_t)rnd_u64(); break;
    case PT_TYPE_UINT: v->v.u = rnd_u64(); break;
    case PT_TYPE_DOUBLE: {
      uint64_t u = rnd();
      memcpy(&v->v.d, &u, 8);
      break;
    }
    case PT_TYPE_STRING: v->v.s = rnd_str(a); break;
    case PT_TYPE_INTS: {
      v->count = (uint32_t)rndn(6);
      if (v->count) {
        int64_t *x = pt__arena_alloc(a, v->count * sizeof *x);
        for (uint32_t i = 0; i < v->count; i++) x[i] = (int64_t)rnd_u64();
        v->v.ints = x;
      }
      break;
    }
    default: break;
  }
}

/* A random event of a random kind (or `kind` if non-zero) using only the
 * slots its kind has; attributes with probability 1/attr_odds. */
static inline void rnd_event(pt__arena *a, pt_event *ev, uint32_t kind,
                             uint64_t time, uint64_t loc, int attr_odds) {
  if (!kind) kind = 1 + (uint32_t)rndn(PT_EV__COUNT - 1);
  pt_event_init(ev, kind, time, loc);
  uint32_t m = pt_event_slot_mask(kind);
  if (m & (1u << PT_ESLOT_REF)) ev->ref = rnd_u64();
  if (m & (1u << PT_ESLOT_PEER)) ev->peer = (int64_t)rnd_u64();
  if (m & (1u << PT_ESLOT_COMM)) ev->comm = rnd_u64();
  if (m & (1u << PT_ESLOT_TAG)) ev->tag = (int64_t)rnd_u64();
  if (m & (1u << PT_ESLOT_SIZE)) ev->size = rnd_u64();
  if (m & (1u << PT_ESLOT_SIZE2)) ev->size2 = rnd_u64();
  if (m & (1u << PT_ESLOT_REQUEST)) ev->request = rnd_u64();
  if (m & (1u << PT_ESLOT_VALUE)) rnd_value(a, &ev->value);
  if (m & (1u << PT_ESLOT_TEXT)) ev->text = rnd_str(a);
  if (attr_odds && rndn((uint64_t)attr_odds) == 0) {
    uint32_t n = 1 + (uint32_t)rndn(5);
    pt_attr *at = pt__arena_alloc(a, n * sizeof *at);
    for (uint32_t i = 0; i < n; i++) {
      at[i].key = rnd_u64();
      rnd_value(a, &at[i].val);
    }
    ev->nattrs = n;
    ev->attrs = at;
  }
}

static inline void rnd_def(pt__arena *a, pt_def *d, uint32_t kind) {
  if (!kind) kind = 1 + (uint32_t)rndn(PT_DEF__COUNT - 1);
  pt_def_init(d, kind, 0);
  uint32_t m = pt_def_slot_mask(kind);
#define DS(s) (m & (1u << PT_DSLOT_##s))
  if (DS(ID)) d->id = rnd_u64();
  if (DS(PARENT)) d->parent = rnd_u64();
  if (DS(REF)) d->ref = rnd_u64();
  if (DS(REF2)) d->ref2 = rnd_u64();
  if (DS(I0)) d->i0 = (int64_t)rnd_u64();
  if (DS(I1)) d->i1 = (int64_t)rnd_u64();
  if (DS(I2)) d->i2 = (int64_t)rnd_u64();
  if (DS(I3)) d->i3 = (int64_t)rnd_u64();
  if (DS(D0)) {
    uint64_t u = rnd();
    memcpy(&d->d0, &u, 8);
  }
  if (DS(NAME)) d->name = rnd_str(a);
  if (DS(S1)) d->s1 = rnd_str(a);
  if (DS(S2)) d->s2 = rnd_str(a);
  if (DS(S3)) d->s3 = rnd_str(a);
  if (DS(MEMBERS)) {
    d->nmembers = rndn(10);
    if (d->nmembers) {
      uint64_t *mm = pt__arena_alloc(a, d->nmembers * sizeof *mm);
      for (uint64_t i = 0; i < d->nmembers; i++) mm[i] = rnd_u64();
      d->members = mm;
    }
  }
#undef DS
}

/* An expected event with the stream it was written to and its order. */
typedef struct xev {
  pt_event ev;
  uint64_t stream;
  uint64_t seq;
} xev;

static inline int xev_cmp(const void *pa, const void *pb) {
  const xev *a = pa, *b = pb;
  if (a->ev.time != b->ev.time) return a->ev.time < b->ev.time ? -1 : 1;
  if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

#endif
