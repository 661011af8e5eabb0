/* Internal interface every format implements to plug into the registry
 * (src/formats/registry.c).  The generic layer (pt_source_* / pt_sink_*)
 * does format detection, filtering of events by location/time/kind,
 * temporary output names and the final rename; a format only reads or
 * writes its own bytes. */
#ifndef PT_FORMATS_REGISTRY_H
#define PT_FORMATS_REGISTRY_H

#include "core/util.h"
#include "paratrace/format.h"

typedef struct pt__format {
  pt_format_info info;
  /* Content probe: `head` holds the first n bytes of the file (n may be 0
   * for a directory; is_dir tells).  Return a score 0..100 (0 = not this
   * format).  May be NULL (detection by extension only). */
  int (*probe)(const char *path, int is_dir, const uint8_t *head, size_t n);

  /* Source side (NULL if the format cannot be read).  open returns a
   * state in *st; next fills item (borrowed until the next call) and
   * returns PT_OK / PT_END / error; errmsg gives the detail of the last
   * error (file, position, reason). */
  int (*src_open)(void **st, const char *path, const pt_source_opts *o,
                  pt_error *err);
  int (*src_next)(void *st, pt_item *item);
  /* Optional: the next items without a copy (pt_source_next_batch):
   * PT_OK with *n >= 1 items at (*items)[0 .. *n), borrowed until the next
   * call of src_next or src_next_batch; exactly what *n calls of src_next
   * would give.  Events in a batch have kinds < PT_EV__COUNT (the generic
   * layer filters nothing inside a batch). */
  int (*src_next_batch)(void *st, const pt_item **items, size_t *n);
  const char *(*src_errmsg)(void *st);
  void (*src_close)(void *st);
  /* Optional: from the next batch on, hand out runs (as
   * pt_source_opts.runs); pt_pipe asks for them when the sink writes
   * every location apart. */
  void (*src_runs)(void *st);
  /* Optional: the native reader behind the source (ptf only). */
  pt_reader *(*src_reader)(void *st);

  /* Sink side (NULL if the format cannot be written).  `path` is already a
   * temporary name (or "-" for stdout when allowed); sink_close finishes
   * the output there and frees the state, sink_abort frees it (the
   * generic layer removes the temporary). */
  int stdout_ok; /* 1 if the sink can write to "-" */
  /* 1 if the sink writes several files next to `path` (DUMPI: .meta plus
   * one .bin per rank; OTF: master file plus streams).  The generic layer
   * then hands it `TMPDIR/<basename of the target>` inside a fresh
   * temporary directory, and on commit moves every file of that directory
   * next to the target (refusing, before moving any, if one exists and
   * overwrite is off). */
  int multi_file;
  int (*sink_open)(void **st, const char *path, const pt_sink_opts *o,
                   pt_error *err);
  int (*sink_write)(void *st, const pt_item *item);
  /* Optional: 1 if the sink, given the items written so far (pt_pipe asks
   * at the first event), writes every location apart and needs only each
   * location's events in time order (pt_source_opts.runs). */
  int (*sink_per_location)(void *st);
  const char *(*sink_errmsg)(void *st);
  int (*sink_close)(void *st, pt_error *err);
  void (*sink_abort)(void *st);
} pt__format;

/* Every format module defines one `const pt__format pt__format_<name>`;
 * the list of them is PT__FORMATS in registry.c. */
extern const pt__format pt__format_ptf;
extern const pt__format pt__format_text;
extern const pt__format pt__format_picl;
extern const pt__format pt__format_dumpi;
extern const pt__format pt__format_otf;
extern const pt__format pt__format_perfetto;
extern const pt__format pt__format_dumpi_ascii;
extern const pt__format pt__format_otf2;

#endif
