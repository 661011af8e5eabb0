/* The model's tables as functions: kind names, slot names and masks, all
 * generated from PT_EVENT_KINDS / PT_DEF_KINDS in model.h. */
#include <string.h>

#include "paratrace/model.h"

/* ---- events ------------------------------------------------------------ */

static const char *const ev_names[PT_EV__COUNT] = {
    [PT_EV_INVALID] = NULL,
#define EV_NAME(NAME, text, ...) [PT_EV_##NAME] = text,
    PT_EVENT_KINDS(EV_NAME)
#undef EV_NAME
};

static const char *const ev_slots[PT_EV__COUNT][PT_ESLOT__COUNT] = {
#define EV_SLOTS(NAME, text, a, b, c, d, e, f, g, h, i) \
  [PT_EV_##NAME] = {a, b, c, d, e, f, g, h, i},
    PT_EVENT_KINDS(EV_SLOTS)
#undef EV_SLOTS
};

/* ---- definitions ------------------------------------------------------- */

static const char *const def_names[PT_DEF__COUNT] = {
    [PT_DEF_INVALID] = NULL,
#define DEF_NAME(NAME, text, ...) [PT_DEF_##NAME] = text,
    PT_DEF_KINDS(DEF_NAME)
#undef DEF_NAME
};

static const char *const def_slots[PT_DEF__COUNT][PT_DSLOT__COUNT] = {
#define DEF_SLOTS(NAME, text, a, b, c, d, e, f, g, h, i, j, k, l, m, n) \
  [PT_DEF_##NAME] = {a, b, c, d, e, f, g, h, i, j, k, l, m, n},
    PT_DEF_KINDS(DEF_SLOTS)
#undef DEF_SLOTS
};

static const char *const type_names[PT_TYPE__COUNT] = {
#define TYPE_NAME(NAME, text) [PT_TYPE_##NAME] = text,
    PT_TYPES(TYPE_NAME)
#undef TYPE_NAME
};

static const char *const coll_names[PT_COLL__COUNT] = {
#define COLL_NAME(NAME, text) [PT_COLL_##NAME] = text,
    PT_COLL_OPS(COLL_NAME)
#undef COLL_NAME
};

static const char *const io_mode_names[PT_IO__COUNT] = {
#define IO_MODE_NAME(NAME, text) [PT_IO_##NAME] = text,
    PT_IO_MODES(IO_MODE_NAME)
#undef IO_MODE_NAME
};

/* Slot masks, computed once from the name tables (tables are constant, so a
 * benign race at first use computes the same values). */
static uint32_t ev_masks[PT_EV__COUNT];
static uint32_t def_masks[PT_DEF__COUNT];
static int masks_ready;

static void masks_init(void) {
  for (unsigned k = 1; k < PT_EV__COUNT; k++) {
    uint32_t m = 0;
    for (unsigned s = 0; s < PT_ESLOT__COUNT; s++)
      if (ev_slots[k][s]) m |= 1u << s;
    ev_masks[k] = m;
  }
  for (unsigned k = 1; k < PT_DEF__COUNT; k++) {
    uint32_t m = 0;
    for (unsigned s = 0; s < PT_DSLOT__COUNT; s++)
      if (def_slots[k][s]) m |= 1u << s;
    def_masks[k] = m;
  }
  __atomic_store_n(&masks_ready, 1, __ATOMIC_RELEASE);
}

static void masks_ensure(void) {
  if (!__atomic_load_n(&masks_ready, __ATOMIC_ACQUIRE)) masks_init();
}

const char *pt_event_kind_name(uint32_t kind) {
  return kind < PT_EV__COUNT ? ev_names[kind] : NULL;
}

const char *pt_def_kind_name(uint32_t kind) {
  return kind < PT_DEF__COUNT ? def_names[kind] : NULL;
}

const char *pt_type_name(uint32_t type) {
  return type < PT_TYPE__COUNT ? type_names[type] : NULL;
}

const char *pt_coll_op_name(uint32_t op) {
  return op < PT_COLL__COUNT ? coll_names[op] : NULL;
}

const char *pt_io_mode_name(uint32_t mode) {
  return mode < PT_IO__COUNT ? io_mode_names[mode] : NULL;
}

static int lookup(const char *const *names, unsigned n, const char *name) {
  if (!name) return -1;
  for (unsigned i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], name) == 0) return (int)i;
  return -1;
}

uint32_t pt_event_kind_from_name(const char *name) {
  int k = lookup(ev_names, PT_EV__COUNT, name);
  return k < 0 ? PT_EV_INVALID : (uint32_t)k;
}

uint32_t pt_def_kind_from_name(const char *name) {
  int k = lookup(def_names, PT_DEF__COUNT, name);
  return k < 0 ? PT_DEF_INVALID : (uint32_t)k;
}

int pt_type_from_name(const char *name) {
  return lookup(type_names, PT_TYPE__COUNT, name);
}

int pt_coll_op_from_name(const char *name) {
  return lookup(coll_names, PT_COLL__COUNT, name);
}

const char *pt_event_slot_name(uint32_t kind, unsigned slot) {
  if (kind >= PT_EV__COUNT || slot >= PT_ESLOT__COUNT) return NULL;
  return ev_slots[kind][slot];
}

const char *pt_def_slot_name(uint32_t kind, unsigned slot) {
  if (kind >= PT_DEF__COUNT || slot >= PT_DSLOT__COUNT) return NULL;
  return def_slots[kind][slot];
}

uint32_t pt_event_slot_mask(uint32_t kind) {
  if (kind == 0 || kind >= PT_EV__COUNT) return 0;
  masks_ensure();
  return ev_masks[kind];
}

uint32_t pt_def_slot_mask(uint32_t kind) {
  if (kind == 0 || kind >= PT_DEF__COUNT) return 0;
  masks_ensure();
  return def_masks[kind];
}

void pt_event_init(pt_event *ev, uint32_t kind, uint64_t time,
                   uint64_t location) {
  /* a copy of a zero event, not a memset: gcc makes the memset of this
   * size a slow `rep stos`, and readers call this for every event */
  static const pt_event zero;
  *ev = zero;
  ev->kind = kind;
  ev->time = time;
  ev->location = location;
}

void pt_def_init(pt_def *def, uint32_t kind, uint64_t id) {
  memset(def, 0, sizeof *def);
  def->kind = kind;
  def->id = id;
}

static int str_eq(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

static int value_eq(const pt_value *a, const pt_value *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case PT_TYPE_NONE:
      return 1;
    case PT_TYPE_INT:
      return a->v.i == b->v.i;
    case PT_TYPE_UINT:
      return a->v.u == b->v.u;
    case PT_TYPE_DOUBLE:
      return memcmp(&a->v.d, &b->v.d, sizeof(double)) == 0;
    case PT_TYPE_STRING:
      return str_eq(a->v.s, b->v.s);
    case PT_TYPE_INTS:
      if (a->count != b->count) return 0;
      return a->count == 0 ||
             memcmp(a->v.ints, b->v.ints, a->count * sizeof(int64_t)) == 0;
  }
  return 0;
}

int pt_event_equal(const pt_event *a, const pt_event *b) {
  if (a->time != b->time || a->location != b->location || a->kind != b->kind ||
      a->ref != b->ref || a->peer != b->peer || a->comm != b->comm ||
      a->tag != b->tag || a->size != b->size || a->size2 != b->size2 ||
      a->request != b->request || !value_eq(&a->value, &b->value) ||
      !str_eq(a->text, b->text) || a->nattrs != b->nattrs)
    return 0;
  for (uint32_t i = 0; i < a->nattrs; i++)
    if (a->attrs[i].key != b->attrs[i].key ||
        !value_eq(&a->attrs[i].val, &b->attrs[i].val))
      return 0;
  return 1;
}

int pt_def_equal(const pt_def *a, const pt_def *b) {
  if (a->kind != b->kind || a->scope != b->scope || a->id != b->id ||
      a->parent != b->parent || a->ref != b->ref || a->ref2 != b->ref2 ||
      a->i0 != b->i0 || a->i1 != b->i1 || a->i2 != b->i2 || a->i3 != b->i3 ||
      memcmp(&a->d0, &b->d0, sizeof(double)) != 0 || !str_eq(a->name, b->name) ||
      !str_eq(a->s1, b->s1) || !str_eq(a->s2, b->s2) || !str_eq(a->s3, b->s3) ||
      a->nmembers != b->nmembers)
    return 0;
  return a->nmembers == 0 ||
         memcmp(a->members, b->members, a->nmembers * sizeof(uint64_t)) == 0;
}
