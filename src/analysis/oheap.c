/* The oldest waiting send among many channels: see oheap.h. */
#include "analysis/oheap.h"

#include <stdlib.h>

#include "analysis/stats_int.h"
#include "paratrace/status.h"

static int less(const pt__oh_ent *a, const pt__oh_ent *b) {
  for (int i = 0; i < 4; i++)
    if (a->key[i] != b->key[i]) return a->key[i] < b->key[i];
  return a->serial < b->serial;
}

static void sift_up(pt__oh_ent *v, size_t i) {
  pt__oh_ent e = v[i];
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!less(&e, &v[p])) break;
    v[i] = v[p];
    i = p;
  }
  v[i] = e;
}

static void sift_down(pt__oh_ent *v, size_t n, size_t i) {
  pt__oh_ent e = v[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && less(&v[c + 1], &v[c])) c++;
    if (!less(&v[c], &e)) break;
    v[i] = v[c];
    i = c;
  }
  v[i] = e;
}

/* Keep the current entries only, then restore the heap order (O(n)). */
static void compact(pt__oheap *h, pt__oh_valid ok, void *user) {
  size_t m = 0;
  for (size_t i = 0; i < h->n; i++)
    if (ok(user, h, &h->v[i])) h->v[m++] = h->v[i];
  h->n = m;
  for (size_t i = m / 2; i-- > 0;) sift_down(h->v, m, i);
}

int pt__oh_push(pt__oheap *h, const pt__oh_ent *e, int is_new,
                pt__oh_valid ok, void *user) {
  if (!h) return PT_ENOMEM;
  if (h->n >= 2 * (h->live + (is_new != 0)) + 2) compact(h, ok, user);
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 2;
    pt__oh_ent *q = realloc(h->v, nc * sizeof *q);
    if (!q) return PT_ENOMEM;
    h->v = q;
    h->cap = nc;
  }
  h->v[h->n] = *e;
  sift_up(h->v, h->n++);
  if (is_new) h->live++;
  return PT_OK;
}

const pt__oh_ent *pt__oh_top(pt__oheap *h, pt__oh_valid ok, void *user) {
  while (h && h->n) {
    if (ok(user, h, &h->v[0])) return &h->v[0];
    h->v[0] = h->v[--h->n];
    if (h->n) sift_down(h->v, h->n, 0);
  }
  return NULL;
}

void pt__oh_free(pt__oheap *h) {
  if (!h) return;
  free(h->v);
  h->v = NULL;
  h->n = h->cap = h->live = 0;
}

int pt__oh_push_chan(pt__ktab *pairs, pt__ktab *dsts, uint64_t dst,
                     uint64_t comm, uint64_t src, int64_t tag,
                     const pt__oh_ent *e, int is_new, pt__oh_valid ok,
                     void *user) {
  int rc = pt__oh_push(pt__kt_get(pairs, PT__K(dst, comm, src, 0)), e, is_new,
                       ok, user);
  if (rc == PT_OK)
    rc = pt__oh_push(pt__kt_get(dsts, PT__K(dst, comm, 0, 0)), e, is_new, ok,
                     user);
  if (rc == PT_OK)
    rc = pt__oh_push(pt__kt_get(dsts, PT__K(dst, comm, (uint64_t)tag, 1)), e,
                     is_new, ok, user);
  return rc;
}

void pt__oh_gone_chan(pt__ktab *pairs, pt__ktab *dsts, uint64_t dst,
                      uint64_t comm, uint64_t src, int64_t tag) {
  pt__oh_gone(pt__kt_find(pairs, PT__K(dst, comm, src, 0)));
  pt__oh_gone(pt__kt_find(dsts, PT__K(dst, comm, 0, 0)));
  pt__oh_gone(pt__kt_find(dsts, PT__K(dst, comm, (uint64_t)tag, 1)));
}
