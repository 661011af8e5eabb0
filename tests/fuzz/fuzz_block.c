/* libFuzzer target: arbitrary bytes as a sequence of PTF blocks (header,
 * payload, items of the block's type); bytes that are not a block are also
 * decoded directly as a raw event and definition payload. */
#include <stdint.h>
#include <stdlib.h>

#include "store/block.h"

static ZSTD_DCtx *dctx;

static void decode_items(uint8_t type, const uint8_t *raw, size_t n,
                         uint64_t first_ts, uint64_t count) {
  static pt__arena scratch;
  pt__dec d;
  const char *why;
  /* events blocks carry time-delta planes; if these bytes do not, decode
   * them as the row form (snapshots embed events that way) */
  if (type != PT__BLK_EVENTS ||
      pt__dec_init_events(&d, raw, n, first_ts, count, &scratch, &why))
    pt__dec_init(&d, raw, n, first_ts, &scratch);
  for (uint64_t i = 0; i < count && d.p < d.end; i++) {
    int rc;
    if (type == PT__BLK_EVENTS) {
      pt_event ev;
      rc = pt__event_get(&d, &ev, &why);
      if (!rc) { /* touch what the decoder handed out */
        volatile size_t sink = 0;
        for (uint32_t a = 0; a < ev.nattrs; a++) {
          const pt_value *v = &ev.attrs[a].val;
          if (v->type == PT_TYPE_STRING && v->v.s) sink += strlen(v->v.s);
          if (v->type == PT_TYPE_INTS && v->count) sink += (size_t)v->v.ints[v->count - 1];
        }
        if (ev.text) sink += strlen(ev.text);
        (void)sink;
      }
    } else if (type == PT__BLK_DEFS) {
      pt_def df;
      rc = pt__def_get(&d, &df, &why);
      if (!rc && df.nmembers) {
        volatile uint64_t x = df.members[df.nmembers - 1];
        (void)x;
      }
    } else if (type == PT__BLK_SUMS) {
      pt_summary s;
      rc = pt__summary_get(&d, &s, &why);
    } else {
      pt_snapshot s;
      rc = pt__snapshot_get(&d, &s, &why);
    }
    if (rc) break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dctx) dctx = ZSTD_createDCtx();
  static pt__buf out;
  size_t off = 0;
  int blocks = 0;
  while (size - off >= PT__BLK_HDR) {
    pt__blkhdr h;
    const char *why;
    if (pt__blkhdr_parse(data + off, &h, &why) != PT_OK) break;
    if (size - off - PT__BLK_HDR < h.stored) break;
    const uint8_t *raw;
    if (pt__blk_payload(&h, data + off + PT__BLK_HDR, dctx, &out, &raw,
                        &why) == PT_OK)
      decode_items(h.type, raw, h.raw, h.first_ts, h.count);
    off += PT__BLK_HDR + h.stored;
    blocks++;
  }
  if (!blocks && size) {
    decode_items(PT__BLK_EVENTS, data + 1, size - 1, data[0], UINT64_MAX);
    decode_items(1 + data[0] % 4, data + 1, size - 1, 0, UINT64_MAX);
  }
  return 0;
}
