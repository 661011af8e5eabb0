/* Worker threads: see pool.h. */
#include "core/pool.h"

#include <stdlib.h>

typedef struct worker_arg {
  pt__pool *p;
  void *ctx;
} worker_arg;

static void *worker_main(void *arg) {
  pt__pool *p = ((worker_arg *)arg)->p;
  void *ctx = ((worker_arg *)arg)->ctx;
  free(arg);
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->head && !p->stop) pthread_cond_wait(&p->work, &p->mu);
    pt__task *t = p->head;
    if (!t) break; /* stopping, nothing left */
    p->head = t->next;
    if (!p->head) p->tail = NULL;
    pthread_mutex_unlock(&p->mu);
    t->run(t, ctx);
    pthread_mutex_lock(&p->mu);
    t->queued = 0;
    pthread_cond_broadcast(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int pt__pool_start(pt__pool *p, int n, void *(*ctx_new)(void),
                   void (*ctx_free)(void *)) {
  if (n < 1 || n > 64) return -1;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  p->on = 1;
  p->cap = n;
  p->ctx_free = ctx_free;
  p->th = calloc((size_t)n, sizeof *p->th);
  p->ctx = calloc((size_t)n, sizeof *p->ctx);
  if (!p->th || !p->ctx) goto fail;
  for (int i = 0; i < n; i++) {
    worker_arg *a = malloc(sizeof *a);
    p->ctx[i] = ctx_new();
    if (!a || !p->ctx[i]) {
      free(a);
      goto fail;
    }
    *a = (worker_arg){p, p->ctx[i]};
    if (pthread_create(&p->th[i], NULL, worker_main, a) != 0) {
      free(a);
      goto fail;
    }
    p->n++;
  }
  return 0;
fail:
  pt__pool_stop(p);
  return -1;
}

void pt__pool_submit(pt__pool *p, pt__task *t) {
  pthread_mutex_lock(&p->mu);
  t->queued = 1;
  t->next = NULL;
  if (p->tail)
    p->tail->next = t;
  else
    p->head = t;
  p->tail = t;
  pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void pt__pool_wait(pt__pool *p, pt__task *t) {
  pthread_mutex_lock(&p->mu);
  while (t->queued) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

void pt__pool_stop(pt__pool *p) {
  if (!p->on) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->n; i++) pthread_join(p->th[i], NULL);
  for (int i = 0; p->ctx && i < p->cap; i++)
    if (p->ctx[i] && p->ctx_free) p->ctx_free(p->ctx[i]);
  free(p->th);
  free(p->ctx);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  *p = (pt__pool){0};
}
