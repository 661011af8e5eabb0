/* The oldest waiting send among many channels, for the receives that may
 * take any of them (MPI_ANY_SOURCE / MPI_ANY_TAG without a recorded
 * status): a min-heap of the channels' oldest sends with lazy deletion,
 * shared by the statistics, the checker and the timeline.  Not public API.
 *
 * Each channel that holds sends has one current entry: its oldest send's
 * ordering key and a serial that names that send alone.  When a channel's
 * oldest send changes (taken, or the channel begins to hold sends) its
 * owner pushes a new entry; the old one stays in the heap, stale, until it
 * reaches the top or a compaction drops it (the owner's validity test
 * tells: the channel's oldest send still has that serial).  `live` counts
 * the channels with a current entry; the heap is compacted when it holds
 * more than twice as many entries (and 2), so its size stays O(live) and
 * every operation costs O(log n) amortized (a compaction of n entries
 * follows at least n / 2 pushes). */
#ifndef PT_ANALYSIS_OHEAP_H
#define PT_ANALYSIS_OHEAP_H

#include <stddef.h>
#include <stdint.h>

/* key: compared word by word (the oldest first); ch: what the owner needs
 * to find the channel besides the heap's own key; serial: the send. */
typedef struct pt__oh_ent {
  uint64_t key[4];
  uint64_t ch[2];
  uint64_t serial;
} pt__oh_ent;

/* A record of a pt__ktab (k: the owner's key of the heap). */
typedef struct pt__oheap {
  uint64_t k[4];
  pt__oh_ent *v;
  size_t n, cap, live;
} pt__oheap;

/* Whether e is its channel's current entry (1) or stale (0). */
typedef int (*pt__oh_valid)(void *user, const pt__oheap *h,
                            const pt__oh_ent *e);

/* Add entry e; a new channel (live + 1) when is_new.  Stale entries are
 * dropped first when they are more than half.  h NULL: PT_ENOMEM.
 * PT_OK or PT_ENOMEM (nothing added). */
int pt__oh_push(pt__oheap *h, const pt__oh_ent *e, int is_new,
                pt__oh_valid ok, void *user);
/* A channel of h holds no more sends (its entry is stale now). */
static inline void pt__oh_gone(pt__oheap *h) {
  if (h && h->live) h->live--;
}
/* The current entry with the least key (stale ones on top are dropped),
 * borrowed until the next push; NULL when none. */
const pt__oh_ent *pt__oh_top(pt__oheap *h, pt__oh_valid ok, void *user);
/* Free the entries of h. */
void pt__oh_free(pt__oheap *h);

struct pt__ktab;
/* The three heaps a send channel (dst, comm, src, tag >= 0) stands in,
 * records of pt__ktabs of pt__oheap: its pair's in `pairs` (key dst,
 * comm, src, 0), its receiver's and its receiver's tag's in `dsts` (dst,
 * comm, 0, 0 and dst, comm, tag, 1).  Push: its current entry e into all
 * three (is_new as pt__oh_push), PT_OK or PT_ENOMEM.  Gone: it holds no
 * more sends. */
int pt__oh_push_chan(struct pt__ktab *pairs, struct pt__ktab *dsts,
                     uint64_t dst, uint64_t comm, uint64_t src, int64_t tag,
                     const pt__oh_ent *e, int is_new, pt__oh_valid ok,
                     void *user);
void pt__oh_gone_chan(struct pt__ktab *pairs, struct pt__ktab *dsts,
                      uint64_t dst, uint64_t comm, uint64_t src, int64_t tag);

#endif
