/* The timeline writers: a self-contained HTML page (data as JSON + the
 * viewer from timeline.js) and a static SVG of the whole window. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "paratrace/timeline.h"
#include "paratrace/status.h"
#include "timeline_int.h"

extern const char pt__timeline_js[];

/* Index of region `id` in tl->regions (timeline.c's table). */
static uint32_t reg_ix(const pt_timeline *tl, uint64_t id) {
  for (size_t i = 0; i < tl->nregions; i++)
    if (tl->regions[i].id == id) return (uint32_t)i;
  return 0;
}

/* (inside the page's script: < > & escaped too) */
static void json_str(FILE *f, const char *s) { pt__json_str(f, s, 1); }

static void html_str(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    size_t n;
    switch (c) {
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '&': fputs("&amp;", f); break;
      case '"': fputs("&quot;", f); break;
      default:
        if (c < 0x80) fputc(c, f);
        else if ((n = pt__utf8_len((const unsigned char *)s)) != 0)
          fwrite(s, 1, n, f), s += n - 1;
        else { /* U+0000+byte in UTF-8 (a &#x80;..&#x9f; reference
                  * would be read as Windows-1252) */
          fputc(0xC0 | (c >> 6), f);
          fputc(0x80 | (c & 0x3F), f);
        }
    }
  }
}

/* Total drawn time per region index (legend order). */
static int legend_order(const pt_timeline *tl, uint32_t **out, size_t *n) {
  size_t nr = tl->nregions;
  uint64_t *tot = calloc(nr + 1, sizeof *tot);
  uint32_t *ix = malloc((nr + 1) * sizeof *ix);
  if (!tot || !ix) {
    free(tot);
    free(ix);
    return PT_ENOMEM;
  }
  for (size_t i = 0; i < tl->nbars; i++)
    tot[reg_ix(tl, tl->bars[i].region)] += tl->bars[i].t1 - tl->bars[i].t0 + 1;
  if (tl->agg)
    for (size_t r = 0; r < tl->nrows; r++)
      for (uint32_t b = 0; b < tl->o.bins; b++)
        if (tl->rows[r].bin[b].r[0]) tot[tl->rows[r].bin[b].r[0] - 1] += 1;
  size_t k = 0;
  for (size_t i = 0; i < nr; i++)
    if (tot[i]) ix[k++] = (uint32_t)i;
  for (size_t i = 1; i < k; i++) { /* by drawn time, descending */
    uint32_t v = ix[i];
    size_t j = i;
    while (j > 0 && tot[ix[j - 1]] < tot[v]) {
      ix[j] = ix[j - 1];
      j--;
    }
    ix[j] = v;
  }
  free(tot);
  *out = ix;
  *n = k;
  return PT_OK;
}

/* Ticks from the page's time 0 (its origin) to the window's start. */
static uint64_t page_offset(const pt_timeline *tl, const pt_timeline_page *pg) {
  return pg->has_origin && pg->origin < tl->o.from ? tl->o.from - pg->origin
                                                   : 0;
}

int pt_timeline_write_html(const pt_timeline *tl, FILE *f, const pt_timeline_page *pg) {
  uint64_t from = tl->o.from, span = tl->o.to - tl->o.from;
  uint32_t *leg = NULL;
  size_t nleg = 0;
  if (legend_order(tl, &leg, &nleg)) return PT_ENOMEM;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>paratrace timeline: ", f);
  html_str(f, pg->title);
  fputs("</title>\n<style>\n"
        "body{font:13px sans-serif;margin:10px;color:#222}\n"
        "h1{font-size:16px;margin:4px 0} h2{font-size:14px;margin:14px 0 4px}\n"
        "canvas{display:block;border:1px solid #ccc;margin-top:4px}\n"
        "#tip{position:absolute;display:none;background:#ffe;border:1px solid #999;"
        "padding:3px 6px;pointer-events:none;font-size:12px;max-width:480px}\n"
        ".key{display:inline-block;margin:2px 10px 2px 0;cursor:pointer}\n"
        ".key i{display:inline-block;width:12px;height:12px;margin-right:4px;"
        "vertical-align:middle}\n"
        "table{border-collapse:collapse} td,th{padding:2px 8px;text-align:right}\n"
        "td:first-child,th:first-child{text-align:left}\n"
        "#selftest{display:none}\n</style></head><body>\n<h1>", f);
  html_str(f, pg->title);
  fprintf(f, "</h1>\n<div>%zu locations; mouse wheel or +/- to zoom, drag or "
          "arrow keys to pan, 0 to reset, click a region to highlight all its "
          "occurrences (Esc clears); MPI regions in red and orange.</div>\n"
          "<div id=\"range\"></div>\n<canvas id=\"tl\"></canvas>\n"
          "<canvas id=\"util\"></canvas>\n<div id=\"legend\"></div>\n",
          tl->nrows);
  if (pg->nsummary) {
    fputs("<h2>Top regions by exclusive time</h2>\n<table><tr><th>region</th>"
          "<th>visits</th><th>exclusive s</th><th>inclusive s</th></tr>\n", f);
    double tps = pg->ticks_per_second ? (double)pg->ticks_per_second : 1e9;
    for (size_t i = 0; i < pg->nsummary; i++) {
      fputs("<tr><td>", f);
      html_str(f, pg->summary[i].name);
      fprintf(f, "</td><td>%" PRIu64 "</td><td>%.6g</td><td>%.6g</td></tr>\n",
              pg->summary[i].count, (double)pg->summary[i].excl / tps,
              (double)pg->summary[i].incl / tps);
    }
    fputs("</table>\n", f);
  }
  fputs("<div id=\"tip\"></div>\n<pre id=\"selftest\"></pre>\n<script>\n"
        "window.PT_DATA = {\"title\": ", f);
  json_str(f, pg->title);
  fprintf(f, ", \"tps\": %" PRIu64 ", \"span\": %" PRIu64
          ", \"origin\": %" PRIu64
          ", \"agg\": %s, \"sample\": %" PRIu64 ", \"coll_sample\": %" PRIu64
          ", \"truncated\": %s,\n",
          pg->ticks_per_second ? pg->ticks_per_second : 1000000000u, span,
          page_offset(tl, pg), tl->agg ? "true" : "false", tl->sample,
          tl->coll_sample, tl->truncated ? "true" : "false");
  fputs("\"rows\": [", f);
  for (size_t r = 0; r < tl->nrows; r++) {
    if (r) fputc(',', f);
    json_str(f, pt_timeline_row_name(tl, r));
  }
  fputs("],\n\"regions\": [", f);
  for (size_t i = 0; i < tl->nregions; i++) {
    fputs(i ? ",[" : "[", f);
    json_str(f, tl->regions[i].name);
    fprintf(f, ",%d]", tl->regions[i].mpi);
  }
  fputs("],\n\"legend\": [", f);
  for (size_t i = 0; i < nleg && i < 24; i++)
    fprintf(f, "%s%u", i ? "," : "", leg[i]);
  free(leg);
  fputs("],\n\"bars\": [", f);
  for (size_t i = 0; i < tl->nbars; i++) {
    const pt_timeline_bar *b = &tl->bars[i];
    fprintf(f, "%s%u,%u,%u,%" PRIu64 ",%" PRIu64, i ? "," : "", b->row,
            b->depth, reg_ix(tl, b->region), b->t0 - from, b->t1 - from);
    if (i % 16 == 15) fputc('\n', f);
  }
  fprintf(f, "],\n\"bins\": {\"n\": %u, \"rows\": [", tl->agg ? tl->o.bins : 0);
  for (size_t r = 0; tl->agg && r < tl->nrows; r++) {
    fputs(r ? ",\n[" : "[", f);
    for (uint32_t b = 0; b < tl->o.bins; b++)
      fprintf(f, "%s%u", b ? "," : "", tl->rows[r].bin[b].r[0]);
    fputc(']', f);
  }
  fputs("]},\n\"msgs\": [", f);
  for (size_t i = 0; i < tl->nmsgs; i++) {
    const pt_timeline_msg *m = &tl->msgs[i];
    fprintf(f, "%s%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64, i ? "," : "",
            m->from_row, m->to_row, m->t_send - from, m->t_recv - from,
            m->bytes);
    if (i % 16 == 15) fputc('\n', f);
  }
  fputs("],\n\"colls\": [", f);
  for (size_t i = 0; i < tl->ncolls; i++) {
    const pt_timeline_coll *c = &tl->colls[i];
    fprintf(f, "%s%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64, i ? "," : "",
            c->row, c->op, c->t0 - from, c->t1 - from, c->bytes);
  }
  uint32_t U = tl->o.util_bins;
  fprintf(f, "],\n\"util\": {\"n\": %u, \"rows\": [", U);
  for (size_t r = 0; r < tl->nrows; r++) {
    fputs(r ? ",\n[" : "[", f);
    for (uint32_t b = 0; b < U; b++) {
      uint64_t bs = (uint64_t)((long double)b * span / U);
      uint64_t be = (uint64_t)((long double)(b + 1) * span / U);
      uint64_t w = be > bs ? be - bs : 1, u, m;
      pt_timeline_util(tl, r, b, &u, &m);
      fprintf(f, "%s%u,%u", b ? "," : "", (unsigned)(u * 1000 / w),
              (unsigned)(m * 1000 / w));
    }
    fputc(']', f);
  }
  fputs("]}};\n</script>\n<script>\n", f);
  fputs(pt__timeline_js, f);
  fputs("</script>\n</body></html>\n", f);
  return ferror(f) ? PT_EIO : PT_OK;
}

/* ---- SVG ---------------------------------------------------------------- */

static void svg_color(char *buf, size_t n, const char *name, int mpi) {
  uint32_t h = 2166136261u;
  for (const char *p = name; p && *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  if (mpi) snprintf(buf, n, "hsl(%u,85%%,%u%%)", h % 45, 42 + (h >> 8) % 18);
  else snprintf(buf, n, "hsl(%u,55%%,%u%%)", 95 + h % 230, 40 + (h >> 8) % 22);
}

int pt_timeline_write_svg(const pt_timeline *tl, FILE *f, const pt_timeline_page *pg) {
  const double W = 1400, LEFT = 170, ROW = 18, TOP = 40, UROW = 8;
  double span = (double)(tl->o.to - tl->o.from), pw = W - LEFT - 10;
  uint32_t *leg = NULL;
  size_t nleg = 0;
  if (legend_order(tl, &leg, &nleg)) return PT_ENOMEM;
  double uy = TOP + (double)tl->nrows * ROW + 24;
  double ly = uy + (double)tl->nrows * UROW + 24;
  double H = ly + 20.0 * (double)((nleg < 24 ? nleg : 24) / 4 + 1) + 10;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
          "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
          "<text x=\"4\" y=\"14\" font-size=\"14\">", W, H);
  html_str(f, pg->title);
  double tps = pg->ticks_per_second ? (double)pg->ticks_per_second : 1e9;
  fprintf(f, " (%.6g s%s)</text>\n", span / tps,
          tl->agg ? ", aggregated by pixel" : "");
  /* axis: about 10 ticks, at round times from the page's origin (the
   * window's start, or the trace's: a window cut at 2 s reads 2 s) */
  double step = 1, off = (double)page_offset(tl, pg) / tps;
  while (span / tps / step > 10) step *= 10;
  while (span / tps / step < 4) step /= 10;
  if (span / tps / step > 10) step *= 2;
  double first = ceil(off / step - 1e-9) * step;
  for (double t = first; t - off <= span / tps + 1e-12; t += step) {
    double x = LEFT + (t - off) * tps / span * pw;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
            "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.0f\">%.6g s</text>\n", x,
            TOP - 8, x, TOP + (double)tl->nrows * ROW, x + 2, TOP - 10, t);
  }
  for (size_t r = 0; r < tl->nrows; r++) {
    double y = TOP + (double)r * ROW;
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
            "fill=\"%s\"/><text x=\"4\" y=\"%.0f\">", LEFT, y, pw, ROW,
            r % 2 ? "#f6f6f6" : "#fcfcfc", y + 13);
    html_str(f, pt_timeline_row_name(tl, r));
    fputs("</text>\n", f);
  }
  char col[48];
  for (size_t i = 0; i < tl->nbars; i++) { /* bars under 0.3 px are not seen */
    const pt_timeline_bar *b = &tl->bars[i];
    double x0 = LEFT + (double)(b->t0 - tl->o.from) / span * pw;
    double w = (double)(b->t1 - b->t0) / span * pw;
    if (w < 0.3) continue;
    double h = ROW - 2 - 3.0 * b->depth;
    if (h < 4) h = 4;
    const tl_region *rg = &tl->regions[reg_ix(tl, b->region)];
    svg_color(col, sizeof col, rg->name, rg->mpi);
    fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
            "fill=\"%s\"/>\n", x0, TOP + (double)b->row * ROW + 1 +
            (ROW - 2 - h), w, h, col);
  }
  for (size_t r = 0; tl->agg && r < tl->nrows; r++)
    for (uint32_t b = 0; b < tl->o.bins; b++) {
      uint32_t reg = tl->rows[r].bin[b].r[0];
      if (!reg) continue;
      const tl_region *rg = &tl->regions[reg - 1];
      svg_color(col, sizeof col, rg->name, rg->mpi);
      fprintf(f, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" "
              "fill=\"%s\"/>\n", LEFT + (double)b * pw / tl->o.bins,
              TOP + (double)r * ROW + 2, pw / tl->o.bins, ROW - 4, col);
    }
  for (size_t i = 0; i < tl->nmsgs; i++) {
    const pt_timeline_msg *m = &tl->msgs[i];
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
            "stroke=\"#222\" stroke-opacity=\"0.55\"/>\n",
            LEFT + (double)(m->t_send - tl->o.from) / span * pw,
            TOP + m->from_row * ROW + ROW / 2,
            LEFT + (double)(m->t_recv - tl->o.from) / span * pw,
            TOP + m->to_row * ROW + ROW / 2);
  }
  for (size_t i = 0; i < tl->ncolls; i++) {
    const pt_timeline_coll *c = &tl->colls[i];
    double x = LEFT + (double)(c->t1 - tl->o.from) / span * pw;
    double y = TOP + c->row * ROW;
    fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"#333\"/>\n",
            x - 4, y + 1, x + 4, y + 1, x, y + 7);
  }
  fprintf(f, "<text x=\"4\" y=\"%.0f\">utilisation: user code (green), MPI "
          "(red), idle (grey)</text>\n", uy - 6);
  uint32_t U = tl->o.util_bins;
  for (size_t r = 0; r < tl->nrows; r++)
    for (uint32_t b = 0; b < U; b++) {
      uint64_t u, m;
      pt_timeline_util(tl, r, b, &u, &m);
      double bw = span / U, x = LEFT + (double)b * pw / U, w = pw / U;
      double fu = (double)u / bw, fm = (double)m / bw, y = uy + (double)r * UROW;
      fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
              "fill=\"#ddd\"/>", x, y, w, UROW - 1);
      if (fu > 0)
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                "fill=\"#3a3\"/>", x, y + (UROW - 1) * (1 - fu - fm), w,
                (UROW - 1) * fu);
      if (fm > 0)
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                "fill=\"#d33\"/>", x, y + (UROW - 1) * (1 - fm), w,
                (UROW - 1) * fm);
      fputc('\n', f);
    }
  for (size_t i = 0; i < nleg && i < 24; i++) {
    const tl_region *rg = &tl->regions[leg[i]];
    svg_color(col, sizeof col, rg->name, rg->mpi);
    double x = 4 + (double)(i % 4) * 340, y = ly + (double)(i / 4) * 20;
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" "
            "fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">", x, y, col, x + 16,
            y + 10);
    html_str(f, rg->name);
    fputs("</text>\n", f);
  }
  free(leg);
  fputs("</svg>\n", f);
  return ferror(f) ? PT_EIO : PT_OK;
}
