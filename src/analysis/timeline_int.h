/* Internals of the timeline view shared by timeline.c (layout) and
 * timeline_out.c (writers).  Not public API. */
#ifndef PT_ANALYSIS_TIMELINE_INT_H
#define PT_ANALYSIS_TIMELINE_INT_H

#include "paratrace/timeline.h"
#include "stats_int.h" /* pt__ktab */

typedef struct tl_idx { /* u64 id -> u32 index */
  uint64_t *k;
  uint32_t *v; /* UINT32_MAX = empty */
  size_t cap, n;
} tl_idx;

typedef struct tl_frame {
  uint32_t region; /* index into regions */
  uint64_t t0;
} tl_frame;

typedef struct tl_bin { /* aggregated drawing bin: best two regions */
  uint32_t r[2];        /* region index + 1, 0 = none */
  uint64_t ns[2];
} tl_bin;

typedef struct tl_row {
  uint64_t loc;
  char *name;
  tl_frame *stack;
  size_t depth, cap, maxdepth, overflow;
  uint64_t last;    /* time the innermost state last changed */
  uint64_t coll_t0; /* last COLL_BEGIN */
  uint64_t ncoll_seen; /* COLL_ENDs of no communicator in the window */
  uint64_t *util;   /* util_bins x {user, mpi} ns */
  tl_bin *bin;      /* aggregated: bins */
  uint32_t order;   /* creation order (finish sorts rows) */
} tl_row;

typedef struct tl_region {
  uint64_t id;
  char *name;
  int mpi;
} tl_region;

typedef struct tl_locdef {
  uint64_t id, group;
  char *name;
} tl_locdef;

typedef struct tl_group {
  uint64_t id;
  int64_t rank;
} tl_group;

typedef struct tl_pend {
  uint64_t t, bytes;
  uint64_t seq; /* sends queued before it (its heap entry's serial) */
  uint32_t row;
} tl_pend;

typedef struct tl_chan { /* pending sends of (src, dst, comm, tag) */
  int used;
  uint64_t src, dst, comm;
  int64_t tag;
  tl_pend *q;
  size_t head, n, cap;
} tl_chan;



struct pt_timeline {
  pt_timeline_opts o;
  uint64_t *sel;
  int agg, frozen, by_rank, finished, truncated;
  uint64_t sample, coll_sample, matched, pending, visits;
  tl_row *rows;
  size_t nrows, caprows;
  tl_idx row_of, region_of, locdef_of, group_of, rank_loc;
  /* (row, communicator) -> its COLL_ENDs in the window modulo coll_sample
   * (collective sampling: the k-th collective of a communicator is the
   * same instance on each of its members) */
  tl_idx coll_seen;
  tl_region *regions;
  size_t nregions, capregions;
  tl_locdef *locdefs;
  size_t nlocdefs, caplocdefs;
  tl_group *groups;
  size_t ngroups, capgroups;
  pt_timeline_bar *bars; /* region = index until finish, then the id */
  size_t nbars, capbars;
  pt_timeline_msg *msgs;
  size_t nmsgs, capmsgs;
  pt_timeline_coll *colls;
  size_t ncolls, capcolls;
  tl_chan *ch;
  size_t nch, chcap;
  /* heaps (oheap.h) of the channels holding sends (tag >= 0), kept from
   * the first receive that needs them on (lists): per (dst, comm, src, 0)
   * for MPI_ANY_TAG receives; per (dst, comm, 0, 0) and (dst, comm, tag,
   * 1) for MPI_ANY_SOURCE */
  pt__ktab pairs, dsts;
  int lists;
  uint64_t nsends; /* sends queued (tl_pend.seq) */
};

#endif
