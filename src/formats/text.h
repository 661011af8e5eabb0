/* The `text` format: the lossless, line-oriented text form of the data
 * model (doc/text-format.md).  The format itself is reached through
 * pt__format_text (registry.h); this header adds internal entry points for
 * tests and fuzz targets.  Not public API. */
#ifndef PT_FORMATS_TEXT_H
#define PT_FORMATS_TEXT_H

#include "formats/registry.h"

/* Version written in the header line "# paratrace text 1". */
#define PT_TEXT_VERSION 1
/* Default and largest accepted line length (bytes, without the newline). */
#define PT_TEXT_MAX_LINE ((size_t)64 << 20)
#define PT_TEXT_MAX_LINE_LIMIT ((size_t)1 << 30)

/* Open a text source over the `n` bytes at `data` instead of a file.
 * `name` (may be NULL: "<memory>") names the input in error messages.
 * `data` is borrowed and must stay valid and unchanged until the source is
 * closed with pt__format_text.src_close; items come from
 * pt__format_text.src_next as for a file.  `max_line` 0 = the default.
 * Returns PT_OK or PT_ENOMEM (detail in err, may be NULL). */
int pt__text_open_mem(void **st, const void *data, size_t n, const char *name,
                      size_t max_line, pt_error *err);

#endif
