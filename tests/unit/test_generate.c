/* The synthetic trace generator: determinism, counts, nesting, messages,
 * time order, metrics, definitions. */
#include "paratrace/generate.h"
#include "paratrace/paratrace.h"
#include "test.h"

/* All events of all locations, location-major. */
typedef struct trace {
  uint64_t P, N;
  pt_event *ev; /* P * N */
} trace;

static int gen_all(const pt_gen_opts *o, trace *t) {
  pt_gen *g;
  int rc = pt_gen_create(&g, o);
  if (rc != PT_OK) return rc;
  t->P = o->locations;
  t->N = o->events;
  t->ev = malloc((size_t)(t->P * t->N + 1) * sizeof *t->ev);
  if (!t->ev) abort();
  for (uint64_t l = 0; l < t->P; l++) {
    uint64_t k = 0;
    while ((rc = pt_gen_next(g, l, &t->ev[l * t->N + k])) == PT_OK) {
      if (++k > t->N) break;
    }
    if (k != t->N || rc != PT_END) {
      pt_gen_destroy(g);
      return PT_ECHECK;
    }
  }
  pt_gen_destroy(g);
  return PT_OK;
}

static int same_events(const trace *a, const trace *b) {
  if (a->P != b->P || a->N != b->N) return 0;
  for (uint64_t i = 0; i < a->P * a->N; i++)
    if (!pt_event_equal(&a->ev[i], &b->ev[i])) return 0;
  return 1;
}

TEST(determinism) {
  pt_gen_opts o = {.locations = 3, .events = 5000, .seed = 42};
  trace a, b, c;
  ASSERT_OK(gen_all(&o, &a));
  ASSERT_OK(gen_all(&o, &b));
  ASSERT_TRUE(same_events(&a, &b));
  o.seed = 43;
  ASSERT_OK(gen_all(&o, &c));
  ASSERT_TRUE(!same_events(&a, &c));
  free(a.ev);
  free(b.ev);
  free(c.ev);
}

/* Generating locations interleaved (as a round-robin writer would) or after
 * a rewind gives the same sequence as generating them one after another. */
TEST(independent_locations) {
  pt_gen_opts o = {.locations = 4, .events = 3000, .seed = 7};
  trace a;
  ASSERT_OK(gen_all(&o, &a));
  pt_gen *g;
  ASSERT_OK(pt_gen_create(&g, &o));
  pt_event ev;
  for (uint64_t k = 0; k < o.events; k++)
    for (uint64_t l = o.locations; l-- > 0;) {
      ASSERT_OK(pt_gen_next(g, l, &ev));
      ASSERT_TRUE(pt_event_equal(&ev, &a.ev[l * o.events + k]));
    }
  ASSERT_STATUS(pt_gen_next(g, 0, &ev), PT_END);
  ASSERT_STATUS(pt_gen_next(g, 0, &ev), PT_END);
  ASSERT_OK(pt_gen_rewind(g, 2));
  for (uint64_t k = 0; k < 100; k++) {
    ASSERT_OK(pt_gen_next(g, 2, &ev));
    ASSERT_TRUE(pt_event_equal(&ev, &a.ev[2 * o.events + k]));
  }
  ASSERT_STATUS(pt_gen_next(g, 4, &ev), PT_EINVAL);
  ASSERT_STATUS(pt_gen_rewind(g, 4), PT_EINVAL);
  pt_gen_destroy(g);
  free(a.ev);
}

/* Exact counts, balance, depth bound, per-location time order, metrics. */
static void check_shape(const pt_gen_opts *o) {
  trace t;
  ASSERT_OK(gen_all(o, &t));
  uint32_t R = o->regions ? o->regions : 16;
  for (uint64_t l = 0; l < t.P; l++) {
    uint64_t stack[PT_GEN_MAX_DEPTH + 1];
    unsigned depth = 0, maxdepth = 0;
    uint64_t metrics = 0, lastmetric = 0, prev = 0;
    for (uint64_t k = 0; k < t.N; k++) {
      const pt_event *e = &t.ev[l * t.N + k];
      ASSERT_EQ_U64(e->location, l);
      if (k) ASSERT_TRUE(e->time > prev); /* strictly increasing */
      prev = e->time;
      switch (e->kind) {
        case PT_EV_ENTER:
          ASSERT_TRUE(e->ref <= R);
          ASSERT_TRUE(depth < PT_GEN_MAX_DEPTH);
          stack[depth++] = e->ref;
          if (depth > maxdepth) maxdepth = depth;
          break;
        case PT_EV_LEAVE:
          ASSERT_TRUE(depth > 0);
          ASSERT_EQ_U64(e->ref, stack[--depth]);
          break;
        case PT_EV_METRIC:
          ASSERT_EQ_U64(e->ref, 0);
          ASSERT_EQ_U64(e->value.type, PT_TYPE_UINT);
          ASSERT_TRUE(e->value.v.u >= lastmetric);
          lastmetric = e->value.v.u;
          metrics++;
          break;
        case PT_EV_SEND:
        case PT_EV_RECV:
          /* inside MPI_Sendrecv */
          ASSERT_TRUE(depth > 0 && stack[depth - 1] == R);
          break;
        default:
          TEST_FAIL_("unexpected kind %u", e->kind);
      }
    }
    ASSERT_EQ_U64(depth, 0);
    ASSERT_TRUE(maxdepth <= PT_GEN_MAX_DEPTH);
    uint32_t me = o->metric_every ? o->metric_every : 100;
    uint32_t mm = o->msg_every ? o->msg_every : 50;
    if (t.N >= 1000) {
      /* one sample per metric_every events, at most one per free slot */
      uint64_t want = t.N / me, free_slots = t.N - 4 * (t.N / mm) - 16;
      if (want > free_slots) want = free_slots;
      ASSERT_TRUE(metrics + 2 >= want);
      if (me > 2) ASSERT_TRUE(maxdepth >= 3); /* it does nest */
    }
  }
  free(t.ev);
}

TEST(shape_default) {
  pt_gen_opts o = {.locations = 4, .events = 20000, .seed = 1};
  check_shape(&o);
}

TEST(shape_small_and_odd) {
  /* Tiny and odd sizes exercise the closing tail and the parity filler. */
  for (uint64_t n = 0; n < 80; n++) {
    pt_gen_opts o = {.locations = 2, .events = n, .seed = n, .msg_every = 4,
                     .metric_every = 3, .regions = 1};
    check_shape(&o);
    if (test_failed_) {
      fprintf(stderr, "  with events = %" PRIu64 "\n", n);
      return;
    }
  }
  pt_gen_opts o1 = {.locations = 1, .events = 10001, .seed = 9,
                    .metric_every = 1};
  check_shape(&o1);
  pt_gen_opts o2 = {.locations = 5, .events = 9999, .seed = 3,
                    .msg_every = 7, .regions = 300};
  check_shape(&o2);
}

/* Every receive matches a send of the predecessor rank, at the previous
 * index, with the same tag and size, and is not earlier than it; every
 * send is received. */
static void check_messages(const pt_gen_opts *o) {
  trace t;
  ASSERT_OK(gen_all(o, &t));
  uint64_t sends = 0, recvs = 0;
  for (uint64_t l = 0; l < t.P; l++) {
    uint64_t from = (l + t.P - 1) % t.P, to = (l + 1) % t.P;
    for (uint64_t k = 0; k < t.N; k++) {
      const pt_event *e = &t.ev[l * t.N + k];
      if (e->kind == PT_EV_SEND) {
        sends++;
        ASSERT_EQ_I64(e->peer, (int64_t)to);
        ASSERT_EQ_U64(e->comm, 0);
        ASSERT_TRUE(e->size > 0);
        ASSERT_TRUE(k + 1 < t.N);
        const pt_event *r = &t.ev[to * t.N + k + 1];
        ASSERT_EQ_U64(r->kind, PT_EV_RECV);
      }
      if (e->kind != PT_EV_RECV) continue;
      recvs++;
      ASSERT_EQ_I64(e->peer, (int64_t)from);
      ASSERT_EQ_U64(e->comm, 0);
      ASSERT_TRUE(k > 0);
      const pt_event *s = &t.ev[from * t.N + k - 1];
      ASSERT_EQ_U64(s->kind, PT_EV_SEND);
      ASSERT_EQ_I64(s->peer, (int64_t)l);
      ASSERT_EQ_I64(s->tag, e->tag);
      ASSERT_EQ_U64(s->size, e->size);
      ASSERT_TRUE(s->time <= e->time);
    }
  }
  ASSERT_EQ_U64(sends, recvs);
  if (t.N >= 1000) ASSERT_TRUE(sends >= t.P * (t.N / 60));
  free(t.ev);
}

TEST(messages) {
  pt_gen_opts o = {.locations = 5, .events = 20000, .seed = 11};
  check_messages(&o);
  pt_gen_opts o1 = {.locations = 1, .events = 5000, .seed = 2, .msg_every = 4};
  check_messages(&o1);
  pt_gen_opts o2 = {.locations = 2, .events = 777, .seed = 5, .msg_every = 9};
  check_messages(&o2);
}

/* Sizes and durations vary (not constant), tags vary. */
TEST(variety) {
  pt_gen_opts o = {.locations = 2, .events = 20000, .seed = 5};
  trace t;
  ASSERT_OK(gen_all(&o, &t));
  uint64_t mind = UINT64_MAX, maxd = 0, minb = UINT64_MAX, maxb = 0;
  uint64_t tagmask = 0, regions = 0;
  for (uint64_t k = 1; k < t.N; k++) {
    const pt_event *e = &t.ev[k];
    uint64_t d = e->time - t.ev[k - 1].time;
    if (d < mind) mind = d;
    if (d > maxd) maxd = d;
    if (e->kind == PT_EV_SEND) {
      if (e->size < minb) minb = e->size;
      if (e->size > maxb) maxb = e->size;
      tagmask |= UINT64_C(1) << e->tag;
    }
    if (e->kind == PT_EV_ENTER) regions |= UINT64_C(1) << e->ref;
  }
  ASSERT_TRUE(maxd > 100 * mind);
  ASSERT_TRUE(maxb > 1000 * minb);
  ASSERT_TRUE(__builtin_popcountll(tagmask) > 16);
  ASSERT_EQ_U64(regions, (UINT64_C(1) << 17) - 1); /* 16 user + MPI */
  free(t.ev);
}

TEST(definitions) {
  pt_gen_opts o = {.locations = 3, .events = 1000, .seed = 1, .regions = 5};
  pt_gen *g;
  ASSERT_OK(pt_gen_create(&g, &o));
  size_t counts[PT_DEF__COUNT] = {0};
  uint64_t last_event = 0;
  for (uint64_t l = 0; l < 3; l++) {
    pt_event ev;
    while (pt_gen_next(g, l, &ev) == PT_OK) last_event = ev.time;
  }
  for (size_t i = 0; i < pt_gen_ndefs(g); i++) {
    const pt_def *d = pt_gen_def(g, i);
    ASSERT_TRUE(d && d->kind > 0 && d->kind < PT_DEF__COUNT);
    counts[d->kind]++;
    if (d->kind == PT_DEF_CLOCK) {
      ASSERT_EQ_I64(d->i0, 1000000000);
      ASSERT_TRUE((uint64_t)d->i2 > last_event);
    }
    if (d->kind == PT_DEF_REGION) {
      ASSERT_TRUE(d->name && d->s3);
      ASSERT_TRUE(d->i3 >= d->i2);
    }
    if (d->kind == PT_DEF_LOCATION) ASSERT_EQ_I64(d->i1, 1000);
    if (d->kind == PT_DEF_GROUP) ASSERT_EQ_U64(d->nmembers, 3);
  }
  ASSERT_TRUE(pt_gen_def(g, pt_gen_ndefs(g)) == NULL);
  ASSERT_EQ_U64(counts[PT_DEF_CLOCK], 1);
  ASSERT_EQ_U64(counts[PT_DEF_SYSTEM_NODE], 1);
  ASSERT_EQ_U64(counts[PT_DEF_LOCATION_GROUP], 3);
  ASSERT_EQ_U64(counts[PT_DEF_LOCATION], 3);
  ASSERT_EQ_U64(counts[PT_DEF_REGION], 6);
  ASSERT_EQ_U64(counts[PT_DEF_GROUP], 2);
  ASSERT_EQ_U64(counts[PT_DEF_COMM], 1);
  ASSERT_EQ_U64(counts[PT_DEF_METRIC], 1);
  pt_gen_destroy(g);
}

TEST(bad_options) {
  pt_gen *g = (pt_gen *)1;
  pt_gen_opts o = {.locations = 0, .events = 10};
  ASSERT_STATUS(pt_gen_create(&g, &o), PT_EINVAL);
  ASSERT_TRUE(g == NULL);
  o.locations = 2;
  o.msg_every = 3;
  ASSERT_STATUS(pt_gen_create(&g, &o), PT_EINVAL);
  pt_gen_destroy(NULL);
}

/* A fixed seed gives fixed values on every machine: pin a few. */
TEST(golden_values) {
  pt_gen_opts o = {.locations = 2, .events = 1000, .seed = 12345};
  pt_gen *g;
  ASSERT_OK(pt_gen_create(&g, &o));
  pt_event ev;
  uint64_t h = 0;
  for (uint64_t l = 0; l < 2; l++)
    while (pt_gen_next(g, l, &ev) == PT_OK)
      h = h * 31 + ev.time * 7 + ev.kind * 131 + ev.ref + (uint64_t)ev.tag +
          ev.size + ev.value.v.u;
  pt_gen_destroy(g);
  printf("  golden hash %" PRIu64 "\n", h);
  ASSERT_EQ_U64(h, UINT64_C(2696765831481447645));
}

int main(void) {
  RUN(determinism);
  RUN(independent_locations);
  RUN(shape_default);
  RUN(shape_small_and_odd);
  RUN(messages);
  RUN(variety);
  RUN(definitions);
  RUN(bad_options);
  RUN(golden_values);
  return test_summary();
}
