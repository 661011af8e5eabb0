/* The MPI recorder behind libparatrace-mpi.so: internal interface between
 * the generated wrappers (wrappers.c) and the recording logic (mpirec.c).
 *
 * Every wrapper does, for MPI_<name>(args):
 *   if (!pt__mpi_on[id]) return PMPI_<name>(args);   one load, no clock
 *   pt__mpi_call c; pt__mpi_begin(&c, id);
 *   pt__mpi_arg(&c, &arg) for each argument         (before the call:
 *        values kept, MPI_STATUS(ES)_IGNORE replaced by local storage,
 *        request handles that the call will free remembered)
 *   t0 = now; r = PMPI_<name>(args); t1 = now;
 *   pt__mpi_end(&c, t0, t1, r, caller)               (events, arguments)
 * MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Abort also start and
 * stop the recorder (pt__mpi_after_init, pt__mpi_before_finalize...).
 * Not public API. */
#ifndef PT_MPI_MPIREC_H
#define PT_MPI_MPIREC_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mpi_fn.h"
#include "record/open_call.h"


#define PT_MPI_MAXARGS 16

/* PT_MPI_EACH(M, K, (a, b, c)) -> M(K, 0, a) M(K, 1, b) M(K, 2, c);
 * nothing for ().  The wrappers (wrappers.c) take each argument's value
 * with it; mpirec.c generates each function's argument encoder with it. */
#define PT_MPI_EACH(M, K, args) PT_MPI_EACH_(M, K, PT_MPI_UNPAREN args)
#define PT_MPI_UNPAREN(...) __VA_ARGS__
#define PT_MPI_EACH_(M, K, ...) PT_MPI_EACH__(M, K, __VA_ARGS__)
#define PT_MPI_EACH__(M, K, ...) PT_MPI_PICK(__VA_ARGS__ __VA_OPT__(,) PT_E16, \
  PT_E15, PT_E14, PT_E13, PT_E12, PT_E11, PT_E10, PT_E9, PT_E8, PT_E7, PT_E6, \
  PT_E5, PT_E4, PT_E3, PT_E2, PT_E1, PT_E0)(M, K, 0, __VA_ARGS__)
#define PT_MPI_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13,  \
                    _14, _15, _16, X, ...) X
#define PT_E0(M, K, j, ...)
#define PT_E1(M, K, j, a) M(K, j, a)
#define PT_E2(M, K, j, a, ...) M(K, j, a) PT_E1(M, K, j + 1, __VA_ARGS__)
#define PT_E3(M, K, j, a, ...) M(K, j, a) PT_E2(M, K, j + 1, __VA_ARGS__)
#define PT_E4(M, K, j, a, ...) M(K, j, a) PT_E3(M, K, j + 1, __VA_ARGS__)
#define PT_E5(M, K, j, a, ...) M(K, j, a) PT_E4(M, K, j + 1, __VA_ARGS__)
#define PT_E6(M, K, j, a, ...) M(K, j, a) PT_E5(M, K, j + 1, __VA_ARGS__)
#define PT_E7(M, K, j, a, ...) M(K, j, a) PT_E6(M, K, j + 1, __VA_ARGS__)
#define PT_E8(M, K, j, a, ...) M(K, j, a) PT_E7(M, K, j + 1, __VA_ARGS__)
#define PT_E9(M, K, j, a, ...) M(K, j, a) PT_E8(M, K, j + 1, __VA_ARGS__)
#define PT_E10(M, K, j, a, ...) M(K, j, a) PT_E9(M, K, j + 1, __VA_ARGS__)
#define PT_E11(M, K, j, a, ...) M(K, j, a) PT_E10(M, K, j + 1, __VA_ARGS__)
#define PT_E12(M, K, j, a, ...) M(K, j, a) PT_E11(M, K, j + 1, __VA_ARGS__)
#define PT_E13(M, K, j, a, ...) M(K, j, a) PT_E12(M, K, j + 1, __VA_ARGS__)
#define PT_E14(M, K, j, a, ...) M(K, j, a) PT_E13(M, K, j + 1, __VA_ARGS__)
#define PT_E15(M, K, j, a, ...) M(K, j, a) PT_E14(M, K, j + 1, __VA_ARGS__)
#define PT_E16(M, K, j, a, ...) M(K, j, a) PT_E15(M, K, j + 1, __VA_ARGS__)
#define PT_MPI_INLINE 8 /* statuses / requests kept without malloc */

typedef struct pt__mpi_call {
  int id, n, count; /* function, arguments seen, first count ('n') */
  int64_t v[PT_MPI_MAXARGS]; /* argument values before the call */
  void *addr[PT_MPI_MAXARGS]; /* where each argument lives */
  MPI_Status st;              /* replaces MPI_STATUS_IGNORE */
  MPI_Status *sts;            /* replaces MPI_STATUSES_IGNORE */
  MPI_Status sts_inline[PT_MPI_INLINE];
  MPI_Request *reqs; /* request handles before the call */
  MPI_Request reqs_inline[PT_MPI_INLINE];
  int nreqs;
  int owned; /* bit 0: sts malloc'ed; bit 1: reqs malloc'ed */
  int64_t hpre; /* 'f' / 'w' / 'g' / 'o' of a close or free (MPI_File *,
                   MPI_Win *, MPI_Group *, MPI_Op *): the handle before */
  int64_t pdest;   /* for the profile: partner (COMM_WORLD rank) or -1 */
  uint64_t pbytes; /* for the profile: bytes moved */
} pt__mpi_call;

/* Per function: record it?  0 before MPI_Init, after MPI_Finalize, when
 * disabled by PARATRACE_DISABLE, or when recording stopped. */
extern unsigned char pt__mpi_on[PT_MPI_NFUNCS];

/* What a call means (PT_MS_*, mpi_fn.h) and its argument kinds. */
extern unsigned char pt__mpi_sem[PT_MPI_NFUNCS];
extern const char *const pt__mpi_kinds[PT_MPI_NFUNCS];

/* Region id + 1 of each MPI function, 0 until its first use. */
extern uint64_t pt__mpi_region[PT_MPI_NFUNCS];
uint64_t pt__mpi_region_slow(int id);

/* The call starts (t0): kept so that a process killed in it still shows
 * it (the ENTER without its LEAVE); pt__mpi_end clears it. */
static inline __attribute__((always_inline)) void pt__mpi_pending(
    const pt__mpi_call *c, uint64_t t0) {
  uint64_t r = __atomic_load_n(&pt__mpi_region[c->id], __ATOMIC_RELAXED);
  if (!r) r = pt__mpi_region_slow(c->id);
  pt__rec_open_call(r, t0);
}
void pt__mpi_end(pt__mpi_call *c, uint64_t t0, uint64_t t1, int ret,
                 void *caller);
uint64_t pt__mpi_now(void);

/* MPI_THREAD_MULTIPLE was provided: calls that complete or start
 * requests claim them before their PMPI call (pt__mpi_claim, mpirec.c
 * says why). */
extern int pt__mpi_multi;

/* The frame of the Fortran entry point being run (its
 * __builtin_frame_address(0)), NULL outside one: through the mpi_f08
 * module a call's return address is in OpenMPI's libmpi_usempif08, and
 * the application's is found from this frame (mpirec.c app_caller). */
extern __thread __attribute__((tls_model("initial-exec"))) void *pt__f_frame;
void pt__mpi_claim(pt__mpi_call *c);

/* The functions through which the recorder's own fatal-error handlers
 * (which close the trace before aborting) stand in for
 * MPI_ERRORS_ARE_FATAL: X(name, role) with role GET (the program asks for
 * a handler: it is told MPI_ERRORS_ARE_FATAL), SET (the program sets one)
 * or NEW (a window is created: it gets the recorder's handler).  These
 * pass through the recorder even when their events are disabled. */
#define PT_MPI_ERRH_LIST(X)                                                  \
  X(Comm_get_errhandler, GET) X(Errhandler_get, GET)                         \
  X(Win_get_errhandler, GET) X(File_get_errhandler, GET)                     \
  X(Comm_set_errhandler, SET) X(Errhandler_set, SET)                         \
  X(Win_set_errhandler, SET) X(File_set_errhandler, SET)                     \
  X(Win_create, NEW) X(Win_allocate, NEW) X(Win_allocate_shared, NEW)        \
  X(Win_create_dynamic, NEW)
enum { PT_ERRH_NONE = 0, PT_ERRH_GET, PT_ERRH_SET, PT_ERRH_NEW };
/* role by function id (a constant table: folded where the id is) */
static const unsigned char pt__mpi_errh[PT_MPI_NFUNCS] = {
#define PT_ERRH_ROW(name, role) [PT_MPI_ID_##name] = PT_ERRH_##role,
    PT_MPI_ERRH_LIST(PT_ERRH_ROW)
#undef PT_ERRH_ROW
};

/* A PT_ERRH_SET function, before the call (arguments seen):
 * MPI_ERRORS_ARE_FATAL becomes the recorder's handler where it installed
 * one, which closes the trace before aborting (a program restoring a
 * saved handler, or setting MPI_ERRORS_ARE_FATAL itself, keeps its
 * trace). */
void pt__mpi_errhandler_in(pt__mpi_call *c);

/* MPI_Init / MPI_Init_thread returned (provided: the thread level). */
void pt__mpi_after_init(int provided);
/* Before PMPI_Finalize: clock sample, close the archive. */
void pt__mpi_before_finalize(void);
/* Before PMPI_Abort: flush and close as well as possible. */
void pt__mpi_before_abort(void);

static inline __attribute__((always_inline)) void pt__mpi_begin(pt__mpi_call *c, int id) {
  c->id = id;
  c->n = 0;
  c->count = -1;
  c->sts = NULL;
  c->reqs = NULL;
  c->nreqs = 0;
  c->owned = 0;
  c->hpre = 0;
  c->pdest = -1;
  c->pbytes = 0;
}

/* MPI_Comm_free, MPI_Type_free (c->reqs_inline[0] the handle): the
 * handle is looked at (and defined) before the call frees it, in case no
 * recorded call made it (a disabled function, or a Fortran binding that
 * is not wrapped): afterwards it cannot be asked. */
void pt__mpi_before_free(const pt__mpi_call *c);

/* One argument, before the call (inline: one per argument per call). */
static inline __attribute__((always_inline)) void pt__mpi_arg(
    pt__mpi_call *c, char k, int64_t value,
                               void *addr) {
  int j = c->n++;
  if (j >= PT_MPI_MAXARGS) return;
  int sem = pt__mpi_sem[c->id];
  switch (k) {
    case 'n':
      if (c->count < 0) c->count = (int)value;
      break;
    case 's':
      if ((MPI_Status *)(intptr_t)value == MPI_STATUS_IGNORE) {
        *(MPI_Status **)addr = &c->st;
        value = (int64_t)(intptr_t)&c->st;
      }
      break;
    case 'S':
      if ((MPI_Status *)(intptr_t)value == MPI_STATUSES_IGNORE &&
          c->count > 0) {
        c->sts = c->count <= PT_MPI_INLINE
                     ? c->sts_inline
                     : malloc(sizeof(MPI_Status) * (size_t)c->count);
        if (c->sts) {
          if (c->sts != c->sts_inline) c->owned |= 1;
          *(MPI_Status **)addr = c->sts;
          value = (int64_t)(intptr_t)c->sts;
        }
      }
      break;
    case 'R':
      if (c->count > 0 && value) {
        c->reqs = c->count <= PT_MPI_INLINE
                      ? c->reqs_inline
                      : malloc(sizeof(MPI_Request) * (size_t)c->count);
        if (c->reqs) {
          if (c->reqs != c->reqs_inline) c->owned |= 2;
          memcpy(c->reqs, (void *)(intptr_t)value,
                 sizeof(MPI_Request) * (size_t)c->count);
          c->nreqs = c->count;
        }
      }
      break;
    case 'x':
      /* MPI_Mrecv / MPI_Imrecv: the message handle the call consumes */
      if (value && (sem == PT_MS_RECV || sem == PT_MS_IRECV)) {
        memcpy(&c->reqs_inline[0], (void *)(intptr_t)value, sizeof(void *));
        c->nreqs = -1;
      }
      break;
    case 'r':
      /* in/out request: remember the handle the call will free */
      if (value && (sem == PT_MS_WAIT || sem == PT_MS_TEST ||
                    sem == PT_MS_START || sem == PT_MS_REQUEST_FREE ||
                    sem == PT_MS_CANCEL)) {
        c->reqs = c->reqs_inline;
        c->reqs_inline[0] = *(MPI_Request *)(intptr_t)value;
        c->nreqs = 1;
      }
      break;
    case 'f': /* MPI_File_close: the handle it frees */
      if (value && sem == PT_MS_FILE_CLOSE)
        c->hpre = (int64_t)(intptr_t)*(MPI_File *)(intptr_t)value;
      break;
    case 'w': /* MPI_Win_free */
      if (value && c->id == PT_MPI_ID_Win_free)
        c->hpre = (int64_t)(intptr_t)*(MPI_Win *)(intptr_t)value;
      break;
    case 'g': /* MPI_Group_free */
      if (value && c->id == PT_MPI_ID_Group_free)
        c->hpre = (int64_t)(intptr_t)*(MPI_Group *)(intptr_t)value;
      break;
    case 'o': /* MPI_Op_free */
      if (value && c->id == PT_MPI_ID_Op_free)
        c->hpre = (int64_t)(intptr_t)*(MPI_Op *)(intptr_t)value;
      break;
    case 'c':
    case 'd':
      /* Comm_free, Type_free: the handle before the call */
      if (value && (sem == PT_MS_COMM_FREE || sem == PT_MS_TYPE_FREE)) {
        c->reqs = c->reqs_inline;
        memcpy(&c->reqs_inline[0], (void *)(intptr_t)value, sizeof(void *));
        c->nreqs = 0;
        pt__mpi_before_free(c);
      }
      break;
    default:
      break;
  }
  c->v[j] = value;
  c->addr[j] = addr;
}

#endif
