/* The deterministic synthetic trace generator (see paratrace/generate.h for
 * the shape of the data and the timing argument).
 *
 * Per event: one draw from the shared step PRNG, one from the location's
 * own PRNG, a few compares.  Everything is integer arithmetic on fixed-width
 * types, so the output is identical on every platform. */
#include "paratrace/generate.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define ZIPF_SIZE 4096u
#define USER_MAX_DEPTH (PT_GEN_MAX_DEPTH - 1)
#define ENTER_THRESHOLD 120u /* of 256: a slight bias towards leave */
#define LOCATION_GROUP_PROCESS 1 /* LOCATION_GROUP.type: a process */

/* splitmix64: one 64-bit state, full period, good enough for test data. */
static inline uint64_t sm64_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline uint64_t mix64(uint64_t x) {
  uint64_t s = x;
  return sm64_next(&s);
}

/* Step n of the shared time line: log-distributed, 200 ticks .. ~4.4 ms;
 * P(shift = k) = 2^-(k+1), so most steps are short and a few are long. */
static inline uint64_t step_from(uint64_t r) {
  uint64_t mant = 200 + (r & 0xfff);
  unsigned shift = (unsigned)__builtin_ctzll((r >> 12) | (UINT64_C(1) << 10));
  return mant << shift;
}

/* State of one location's sequence; padded so that threads driving
 * neighbouring locations do not share cache lines. */
typedef struct loc_state {
  uint64_t n;       /* index of the next event */
  uint64_t T;       /* T(n) */
  uint64_t srng;    /* shared step PRNG (same sequence on every location) */
  uint64_t lrng;    /* this location's PRNG */
  uint64_t counter; /* metric value */
  uint64_t last_metric_t;
  uint32_t msg_ctr; /* n % msg_every */
  uint32_t met_ctr; /* n % metric_every */
  uint32_t depth;
  uint32_t metric_due; /* a sample is due at the next free slot */
  uint32_t stack[PT_GEN_MAX_DEPTH];
  uint8_t pad_[128 - 6 * 8 - 4 * 4 - 4 * PT_GEN_MAX_DEPTH];
} loc_state;

_Static_assert(sizeof(loc_state) == 128, "loc_state is two cache lines");

struct pt_gen {
  uint64_t P, N, seed;
  uint64_t tail_start; /* first index of the closing tail */
  uint32_t R, msg_every, metric_every;
  uint64_t shared_seed, msg_seed;
  loc_state *locs;
  uint32_t zipf[ZIPF_SIZE];
  pt_def *defs;
  size_t ndefs;
  uint64_t *members; /* 0..P-1, shared by both groups */
  char *strings;     /* names of groups, locations and regions */
};

static const char *const base_names[16] = {
    "timestep",     "solve",     "compute_flux", "exchange_halo",
    "update_cells", "residual",  "apply_bc",     "sweep",
    "interpolate",  "restrict",  "prolong",      "smooth",
    "assemble",     "dot",       "axpy",         "norm2"};

static void loc_reset(const pt_gen *g, uint64_t i) {
  loc_state *s = &g->locs[i];
  memset(s, 0, sizeof *s);
  s->srng = g->shared_seed;
  s->lrng = mix64(g->seed ^ ((i + 1) * UINT64_C(0xD1B54A32D192ED03)));
}

/* Zipf-like table: region r has weight ~ 1/(r+1).  Integer arithmetic. */
static void build_zipf(pt_gen *g) {
  uint64_t total = 0;
  for (uint32_t r = 0; r < g->R; r++) total += (UINT64_C(1) << 24) / (r + 1);
  uint64_t cum = 0;
  uint32_t r = 0;
  for (uint32_t j = 0; j < ZIPF_SIZE; j++) {
    uint64_t target = total * j / ZIPF_SIZE;
    while (r + 1 < g->R && cum + (UINT64_C(1) << 24) / (r + 1) <= target) {
      cum += (UINT64_C(1) << 24) / (r + 1);
      r++;
    }
    g->zipf[j] = r;
  }
}

static int build_defs(pt_gen *g) {
  uint64_t P = g->P;
  uint32_t R = g->R;
  size_t n = 2 + 2 * (size_t)P + (R + 1) + 2 + 1 + 1;
  g->defs = calloc(n, sizeof *g->defs);
  g->members = malloc((size_t)P * sizeof *g->members);
  /* Per location: "rank N" and "rank N thread 0"; per region: name + file. */
  size_t strsz = (size_t)P * 64 + ((size_t)R + 1) * 96;
  g->strings = malloc(strsz);
  if (!g->defs || !g->members || !g->strings) return PT_ENOMEM;
  char *sp = g->strings, *send = g->strings + strsz;
#define PUTSTR(var, ...)                                    \
  do {                                                      \
    int len_ = snprintf(sp, (size_t)(send - sp), __VA_ARGS__); \
    assert(len_ >= 0 && sp + len_ < send);                  \
    (var) = sp;                                             \
    sp += len_ + 1;                                         \
  } while (0)

  size_t k = 0;
  pt_def *d;

  /* Trace length: T(N), one pass over the shared steps. */
  uint64_t srng = g->shared_seed, T = 0;
  for (uint64_t i = 0; i < g->N; i++) T += step_from(sm64_next(&srng));

  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_CLOCK, 0);
  d->parent = 0;                          /* start */
  d->i0 = 1000000000;                     /* ticks per second */
  d->i1 = INT64_C(1700000000000000000);   /* epoch, ns since 1970 */
  d->i2 = (int64_t)T;                     /* length */

  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_SYSTEM_NODE, 0);
  d->parent = PT_NONE;
  d->name = "node0";
  d->s1 = "node";

  for (uint64_t i = 0; i < P; i++) {
    d = &g->defs[k++];
    pt_def_init(d, PT_DEF_LOCATION_GROUP, i);
    d->parent = 0;
    d->ref = PT_NONE;
    d->i0 = LOCATION_GROUP_PROCESS;
    d->i1 = (int64_t)i;
    PUTSTR(d->name, "rank %" PRIu64, i);
  }
  for (uint64_t i = 0; i < P; i++) {
    d = &g->defs[k++];
    pt_def_init(d, PT_DEF_LOCATION, i);
    d->parent = i;
    d->i0 = PT_LOCATION_THREAD;
    d->i1 = (int64_t)g->N;
    PUTSTR(d->name, "rank %" PRIu64 " thread 0", i);
  }
  for (uint32_t r = 0; r <= R; r++) {
    d = &g->defs[k++];
    pt_def_init(d, PT_DEF_REGION, r);
    if (r == R) {
      d->i0 = PT_ROLE_POINT2POINT;
      d->i1 = PT_PARADIGM_MPI;
      d->name = d->s1 = "MPI_Sendrecv";
      d->s2 = "MPI point-to-point";
      d->s3 = "mpi.h";
      d->i2 = d->i3 = 0;
      continue;
    }
    d->i0 = PT_ROLE_FUNCTION;
    d->i1 = PT_PARADIGM_COMPILER;
    if (r < 16)
      PUTSTR(d->name, "%s", base_names[r]);
    else
      PUTSTR(d->name, "%s_%" PRIu32, base_names[r % 16], r / 16);
    d->s1 = d->name;
    PUTSTR(d->s3, "src/solver%" PRIu32 ".c", r / 8);
    d->i2 = 10 + (int64_t)(r % 8) * 120;
    d->i3 = d->i2 + 20 + (int64_t)(mix64(g->seed + r) % 90);
  }
#undef PUTSTR

  for (uint64_t i = 0; i < P; i++) g->members[i] = i;
  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_GROUP, 0);
  d->i0 = PT_GROUP_COMM_LOCATIONS;
  d->i1 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_WORLD locations";
  d->nmembers = P;
  d->members = g->members;
  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_GROUP, 1);
  d->i0 = PT_GROUP_COMM_GROUP;
  d->i1 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_WORLD group";
  d->nmembers = P;
  d->members = g->members;

  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_COMM, 0);
  d->parent = PT_NONE;
  d->ref = 1;
  d->i0 = PT_PARADIGM_MPI;
  d->name = "MPI_COMM_WORLD";

  d = &g->defs[k++];
  pt_def_init(d, PT_DEF_METRIC, 0);
  d->ref = PT_NONE;
  d->i0 = PT_TYPE_UINT;
  d->i1 = PT_METRIC_ACCUMULATED;
  d->i2 = 10; /* base */
  d->i3 = 0;  /* exponent */
  d->name = "instructions";
  d->s1 = "#";
  d->s2 = "instructions retired";

  assert(k == n);
  g->ndefs = k;
  return PT_OK;
}

int pt_gen_create(pt_gen **out, const pt_gen_opts *o) {
  assert(out && o);
  *out = NULL;
  pt_gen_opts opt = *o;
  if (!opt.regions) opt.regions = 16;
  if (!opt.msg_every) opt.msg_every = 50;
  if (!opt.metric_every) opt.metric_every = 100;
  if (opt.locations == 0 || opt.locations > (UINT64_C(1) << 32) ||
      opt.msg_every < 4 || opt.regions > (1u << 20))
    return PT_EINVAL;

  pt_gen *g = calloc(1, sizeof *g);
  if (!g) return PT_ENOMEM;
  g->P = opt.locations;
  g->N = opt.events;
  g->seed = opt.seed;
  g->R = opt.regions;
  g->msg_every = opt.msg_every;
  g->metric_every = opt.metric_every;
  g->tail_start = g->N > PT_GEN_TAIL ? g->N - PT_GEN_TAIL : 0;
  g->shared_seed = mix64(g->seed ^ UINT64_C(0x5EED5EED5EED5EED));
  g->msg_seed = mix64(g->seed ^ UINT64_C(0x3E55A6E5));
  size_t bytes = (size_t)g->P * sizeof(loc_state);
  g->locs = aligned_alloc(64, bytes);
  if (!g->locs) {
    pt_gen_destroy(g);
    return PT_ENOMEM;
  }
  for (uint64_t i = 0; i < g->P; i++) loc_reset(g, i);
  build_zipf(g);
  int rc = build_defs(g);
  if (rc != PT_OK) {
    pt_gen_destroy(g);
    return rc;
  }
  *out = g;
  return PT_OK;
}

size_t pt_gen_ndefs(const pt_gen *g) {
  assert(g);
  return g->ndefs;
}

const pt_def *pt_gen_def(const pt_gen *g, size_t i) {
  assert(g);
  return i < g->ndefs ? &g->defs[i] : NULL;
}

/* Tag and size of the message sent by `sender` at its event index k;
 * both ends compute it. */
static inline void msg_params(const pt_gen *g, uint64_t sender, uint64_t k,
                              int64_t *tag, uint64_t *bytes) {
  uint64_t h = mix64(g->msg_seed ^ (sender * UINT64_C(0xA0761D6478BD642F)) ^
                     (k * UINT64_C(0xE7037ED1A0B428DB)));
  *tag = (int64_t)(h >> 58); /* 0..63 */
  /* 1 B .. 8 MiB, roughly log-uniform with a bias towards small. */
  *bytes = ((h & 0xff) + 1) << ((h >> 8) & 15);
}

int pt_gen_next(pt_gen *g, uint64_t location, pt_event *ev) {
  assert(g && ev);
  if (PT_UNLIKELY(location >= g->P)) return PT_EINVAL;
  loc_state *s = &g->locs[location];
  uint64_t n = s->n;
  if (n >= g->N) return PT_END;

  uint64_t step = step_from(sm64_next(&s->srng));
  uint64_t r = sm64_next(&s->lrng);
  uint64_t t = s->T + ((((r & 0xffffffffu) * (step >> 1))) >> 32);
  s->T += step;

  pt_event_init(ev, PT_EV_INVALID, t, location); /* no memset: see there */

  uint32_t hi = (uint32_t)(r >> 32);
  uint32_t me = g->msg_every;
  int done = 0;

  /* A message exchange: the last four events of each msg_every period,
   * if the whole block ends before the tail. */
  if (s->msg_ctr >= me - 4) {
    uint32_t phase = s->msg_ctr - (me - 4);
    if (n - phase + 4 <= g->tail_start) {
      done = 1;
      switch (phase) {
        case 0:
          ev->kind = PT_EV_ENTER;
          ev->ref = g->R;
          s->stack[s->depth++] = g->R;
          break;
        case 1:
          ev->kind = PT_EV_SEND;
          ev->ref = PT_NONE;
          ev->peer = (int64_t)(location + 1 == g->P ? 0 : location + 1);
          ev->comm = 0;
          msg_params(g, location, n, &ev->tag, &ev->size);
          break;
        case 2: {
          uint64_t sender = location == 0 ? g->P - 1 : location - 1;
          ev->kind = PT_EV_RECV;
          ev->ref = PT_NONE;
          ev->peer = (int64_t)sender;
          ev->comm = 0;
          msg_params(g, sender, n - 1, &ev->tag, &ev->size);
          break;
        }
        default:
          ev->kind = PT_EV_LEAVE;
          ev->ref = s->stack[--s->depth];
          break;
      }
    }
  }

  /* A sample is due every metric_every events; one that falls inside a
   * message exchange is taken at the next free slot. */
  if (s->met_ctr == g->metric_every - 1) s->metric_due = 1;
  int metric = 0;
  if (!done) {
    if (n < g->tail_start) {
      if (s->metric_due) {
        s->metric_due = 0;
        metric = 1;
      } else if (s->depth == 0 ||
                 (s->depth < USER_MAX_DEPTH && (hi & 0xff) < ENTER_THRESHOLD)) {
        ev->kind = PT_EV_ENTER;
      } else {
        ev->kind = PT_EV_LEAVE;
      }
    } else {
      /* Closing tail: rem - depth keeps its parity under enter and leave,
       * so one metric sample fixes an odd difference. */
      uint64_t rem = g->N - n;
      if (s->depth == rem)
        ev->kind = PT_EV_LEAVE;
      else if ((rem - s->depth) & 1)
        metric = 1;
      else if (s->depth == 0 ||
               (s->depth + 2 <= rem && s->depth < USER_MAX_DEPTH &&
                (hi & 0xff) < ENTER_THRESHOLD))
        ev->kind = PT_EV_ENTER;
      else
        ev->kind = PT_EV_LEAVE;
    }
    if (metric) {
      uint64_t ipc = 1 + ((hi >> 8) & 3);
      s->counter += (t - s->last_metric_t) * ipc;
      s->last_metric_t = t;
      ev->kind = PT_EV_METRIC;
      ev->ref = 0;
      ev->value.type = PT_TYPE_UINT;
      ev->value.v.u = s->counter;
    } else if (ev->kind == PT_EV_ENTER) {
      uint32_t reg;
      if (((hi >> 8) & 7) == 0) /* 1 in 8: uniform, so every region shows */
        reg = (uint32_t)(((uint64_t)(hi >> 11) * g->R) >> 21);
      else
        reg = g->zipf[(hi >> 11) & (ZIPF_SIZE - 1)];
      ev->ref = reg;
      s->stack[s->depth++] = reg;
    } else {
      ev->ref = s->stack[--s->depth];
    }
  }

  s->n = n + 1;
  if (++s->msg_ctr == me) s->msg_ctr = 0;
  if (++s->met_ctr == g->metric_every) s->met_ctr = 0;
  return PT_OK;
}

int pt_gen_rewind(pt_gen *g, uint64_t location) {
  assert(g);
  if (location >= g->P) return PT_EINVAL;
  loc_reset(g, location);
  return PT_OK;
}

void pt_gen_destroy(pt_gen *g) {
  if (!g) return;
  free(g->locs);
  free(g->defs);
  free(g->members);
  free(g->strings);
  free(g);
}
