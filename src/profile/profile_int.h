/* Internals of the profile collector (src/profile/). */
#ifndef PT_PROFILE_INT_H
#define PT_PROFILE_INT_H

#include "core/util.h"
#include "paratrace/profile.h"

enum { PT_PROFILE_MAX_DEPTH = 4096 };

typedef struct pt__profile_frame {
  uint32_t node;    /* node this frame accumulates into */
  uint32_t folded;  /* 1: recursive / overflowed re-entry, adds no time */
  uint64_t v_enter; /* virtual time at entry */
} pt__profile_frame;

typedef struct pt__profile_site {
  uintptr_t addr; /* run-time address */
  const char *module;
  uint64_t offset;
  uint64_t key;
} pt__profile_site;

/* Calls whose synchronisation delay is estimated (PT_PROFILE_SYNC_ESTIMATE):
 * settled into trans_ns/sync_ns when the node is read. */
typedef struct pt__profile_est {
  uint64_t sum, count, min;
} pt__profile_est;

struct pt_profile {
  pt_profile_node *nodes;
  pt__profile_est *est; /* per node */
  uint8_t *active; /* per node: open (not folded) on the stack */
  size_t n, cap;
  uint32_t *hslot; /* (parent, kind, key) -> node; UINT32_MAX = empty */
  size_t hmask;
  const char **strs; /* interned strings, open addressing */
  size_t nstrs, str_cap;
  pt__arena arena;
  pt__profile_site *sites;
  size_t nsites, site_cap;
  pt__profile_frame stack[PT_PROFILE_MAX_DEPTH];
  int depth;
  uint64_t overflow; /* enters ignored beyond the depth limit */
  uint64_t dropped;
  double probe_ns, leave_ns, debt; /* intrusion compensation: per enter
                                      and per leave probe, debt so far */
  uint64_t start, last;  /* first and latest time seen */
  int root_from_clock;   /* live collector: root spans start..last */
  int started;           /* start is set (at the first probe) */
  uint64_t merges;       /* profiles merged into this one */
};

/* A destination's key is the partner's COMM_WORLD rank; with this bit
 * set, the partner a receive comes from, where the statement's name does
 * not say the direction (MPI_Start / MPI_Startall of persistent
 * receives: printed `<- rank N`). */
#define PT__PROFILE_FROM (UINT64_C(1) << 63)

/* pt_profile_comm for a statement with several partners (MPI_Startall):
 * the statement accumulates the call and all its bytes (total, which may
 * exceed the sum of bytes[]: partners without a known rank, such as
 * MPI_ANY_SOURCE receives, or beyond the caller's list have no
 * destination); each of the n destinations (keys[i]: a rank, maybe with
 * PT__PROFILE_FROM) its bytes[i] and an equal share of the call's time.
 * Returns as pt_profile_comm. */
int pt__profile_comm_multi(pt_profile *p, uint64_t key, const char *name,
                           const char *module, uint64_t offset,
                           uint64_t total, const uint64_t *keys,
                           const uint64_t *bytes, size_t n, uint64_t t0,
                           uint64_t t1, uint64_t sync_ns);

/* The run reaches time `now` (no probe there): the program node spans it
 * (the MPI recorder marks the end of MPI_Init and the start of
 * MPI_Finalize, mpiP's application time). */
void pt__profile_mark(pt_profile *p, uint64_t now);

/* 1 if the file at `path` starts with a saved profile's magic. */
int pt__profile_is_file(const char *path);

const char *pt__profile_intern(pt_profile *p, const char *s);
uint32_t pt__profile_child(pt_profile *p, uint32_t parent, uint32_t kind,
                           uint64_t key, int *created);
uint64_t pt__profile_name_key(const char *name);
int pt__profile_encode(pt_profile *p, pt__buf *out);
int pt__profile_decode(pt_profile **out, const uint8_t *b, size_t len,
                       const char *file, pt_error *err);

/* Profile mode refused (its directory exists, not to be replaced): off,
 * and nothing is saved at exit (runtime.c). */
void pt__profile_runtime_discard(void);

#endif
