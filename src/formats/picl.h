/* The PICL format (Worley's "new" ASCII trace format, as read by
 * ParaGraph): a source and a sink behind pt__format_picl.  The mapping to
 * the model is documented in doc/picl.md and at the top of picl.c. */
#ifndef PT_FORMATS_PICL_H
#define PT_FORMATS_PICL_H

#include "formats/registry.h"

extern const pt__format pt__format_picl;

/* Ticks per second of the clock a PICL source declares (1 tick = 1 ns). */
#define PT_PICL_TICKS_PER_SECOND 1000000000LL

/* Open a PICL source over the `n` bytes at `data` instead of a file (for
 * fuzzing and tests).  `name` (may be NULL: "<memory>") names the input in
 * error messages.  `data` is borrowed and must stay valid and unchanged
 * until the source is closed with pt__format_picl.src_close; items come from
 * pt__format_picl.src_next as for a file.  `opts` may be NULL.  Returns
 * PT_OK or PT_ENOMEM (detail in err, may be NULL). */
int pt__picl_open_mem(void **st, const void *data, size_t n, const char *name,
                      const pt_source_opts *opts, pt_error *err);

/* Parse a PICL timestamp token (decimal seconds, optional sign, fraction
 * and exponent) of `len` bytes into nanoseconds, from its decimal digits
 * (no floating point): every time in [-(2^63-1), 2^63-1] ns
 * (+-9223372036.854775807 s) parses exactly, whatever the number of digits;
 * digits below 1 ns are dropped (truncation toward zero) and make *exact 0.
 * *decimals gets the number of fraction digits written; *exact is 0 if the
 * token cannot be rewritten from (ns, decimals) alone.  Returns 0; -1 if
 * the token is not a number; -2 if it is a number beyond that range.  On
 * error nothing is stored. */
int pt__picl_parse_time(const char *tok, size_t len, int64_t *ns,
                        int *decimals, int *exact);

/* Size of a buffer for pt__picl_format_time: sign, 10 digits of seconds,
 * '.', at most 30 fraction digits, NUL (43) rounded up. */
#define PT_PICL_TIME_BUF 48

/* Format `ns` nanoseconds as seconds with at least `decimals` fraction
 * digits (more if needed to keep every nonzero digit; zeros beyond the
 * 9th decimal are added up to 30 decimals at most) into buf (at least
 * PT_PICL_TIME_BUF bytes).  Returns the length. */
size_t pt__picl_format_time(char *buf, int64_t ns, int decimals);

#endif
