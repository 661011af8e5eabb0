/* A small pool of worker threads running tasks in FIFO order, for the
 * archive writer (compressing blocks) and reader (decompressing the next
 * block of each stream ahead).  Not public API.
 *
 * A task is owned by its submitter, which must not touch it between
 * pt__pool_submit and pt__pool_wait.  Each worker has a context of its own
 * (a zstd context, say) made by `ctx_new` and freed by `ctx_free`. */
#ifndef PT_CORE_POOL_H
#define PT_CORE_POOL_H

#include <pthread.h>

typedef struct pt__task pt__task;
struct pt__task {
  void (*run)(pt__task *t, void *ctx); /* set by the submitter */
  pt__task *next;                      /* queue link (pool's) */
  int queued;                          /* queued or running (pool's) */
};

typedef struct pt__pool {
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  pt__task *head, *tail;
  int stop, on;
  int n;            /* threads running */
  pthread_t *th;
  void **ctx;       /* one per thread */
  int cap;
  void (*ctx_free)(void *);
} pt__pool;

/* Start n threads (1..64) with a context each from ctx_new() (NULL from it
 * is a failure).  Returns 0, or -1 with nothing left running.  *p must be
 * zeroed before. */
int pt__pool_start(pt__pool *p, int n, void *(*ctx_new)(void),
                   void (*ctx_free)(void *));
/* Queue t (t->run set). */
void pt__pool_submit(pt__pool *p, pt__task *t);
/* Wait until t has run (returns at once if it is not queued). */
void pt__pool_wait(pt__pool *p, pt__task *t);
/* Run what is queued, join the threads, free the contexts.  A zeroed or
 * stopped pool is fine. */
void pt__pool_stop(pt__pool *p);

#endif
