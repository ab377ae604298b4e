/* svg.c — diff pictures as plain SVG (see svg.h).
 *
 * Hand-written SVG 1.1: a handful of <rect> and <text> elements with
 * absolute coordinates, so the file opens in any browser and stays small.
 * Names are XML-escaped; characters XML forbids (C0 controls) become '?'.
 * Numbers are printed with %d / %.3f, which do not depend on the locale
 * here because the CLI never calls setlocale. */
#include "svg.h"

#include <math.h>
#include <string.h>

enum {
    MAX_ROWS = 200,   /* rows beyond this are summarised in a last line */
    MAX_COLS = 600,   /* heatmap columns */
    ROW_H = 16,       /* pixels per row */
    LABEL_W = 220,    /* name column */
    BAR_W = 540,      /* bar chart: longest bar */
    TOP = 56,         /* space for the title and the axis */
    HEAT_LEVELS = 32, /* heatmap colour steps (equal neighbours merge) */
};

static void put_escaped(pk_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            pk_buf_puts(b, "&amp;");
            break;
        case '<':
            pk_buf_puts(b, "&lt;");
            break;
        case '>':
            pk_buf_puts(b, "&gt;");
            break;
        case '"':
            pk_buf_puts(b, "&quot;");
            break;
        default:
            pk_buf_putc(b, c < 0x20 && c != '\t' ? '?' : c);
        }
    }
}

static void header(pk_buf *b, int w, int h, const char *title)
{
    pk_buf_printf(b,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
                  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                  "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">",
                  w, h, w, h);
    put_escaped(b, title);
    pk_buf_puts(b, "</text>\n");
}

static size_t rows_shown(const pk_diff *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].differs)
            n++;
    return n < MAX_ROWS ? n : MAX_ROWS;
}

static void label(pk_buf *b, int y, const pk_diff_bone *r)
{
    pk_buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 6, y);
    put_escaped(b, r->name);
    if (r->only_in)
        pk_buf_puts(b, r->only_in == PK_DIFF_ONLY_A ? " (only A)" : " (only B)");
    pk_buf_puts(b, "</text>\n");
}

static void footer(pk_buf *b, const pk_diff *d, size_t shown, int y)
{
    size_t differ = d->bones_differ;
    if (shown == 0)
        pk_buf_printf(b, "<text x=\"8\" y=\"%d\">No bone differs beyond the thresholds.</text>\n",
                      y);
    else if (differ > shown)
        pk_buf_printf(b, "<text x=\"8\" y=\"%d\">... and %zu more bones</text>\n", y,
                      differ - shown);
    pk_buf_puts(b, "</svg>\n");
}

static int bars(const pk_diff *d, const char *title, pk_buf *b)
{
    size_t n = rows_shown(d);
    double max = 0.0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].differs && d->bones[i].angle_deg > max)
            max = d->bones[i].angle_deg;
    /* Round the scale up to a readable step so the axis labels are plain. */
    double scale = max <= 1    ? 1
                   : max <= 5  ? 5
                   : max <= 10 ? 10
                   : max <= 45 ? 45
                   : max <= 90 ? 90
                               : 180;
    int w = LABEL_W + BAR_W + 170, h = TOP + (int)n * ROW_H + 40;
    header(b, w, h, title);
    pk_buf_printf(b, "<text x=\"8\" y=\"40\" fill=\"#555\">rotation difference per bone, "
                     "degrees (bar), translation distance (right)</text>\n");
    for (int k = 0; k <= 4; k++) {
        int x = LABEL_W + BAR_W * k / 4;
        pk_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n"
                      "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%.4g</text>\n",
                      x, TOP - 4, x, TOP + (int)n * ROW_H, x, TOP + (int)n * ROW_H + 14,
                      scale * k / 4);
    }
    size_t row = 0;
    for (size_t i = 0; i < d->nbones && row < n; i++) {
        const pk_diff_bone *r = &d->bones[i];
        if (!r->differs)
            continue;
        int y = TOP + (int)row * ROW_H;
        int len = (int)lround(BAR_W * (r->angle_deg / scale));
        label(b, y + 12, r);
        pk_buf_printf(b,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
                      "<text x=\"%d\" y=\"%d\">%.3f&#176;  %.4f</text>\n",
                      LABEL_W, y + 2, len, ROW_H - 4, r->only_in ? "#e69f00" : "#0072b2",
                      LABEL_W + len + 6, y + 12, r->angle_deg, r->pos_delta);
        row++;
    }
    footer(b, d, n, TOP + (int)n * ROW_H + 34);
    return b->oom ? -1 : 0;
}

/* White (0) to dark red (1). */
static void heat_colour(int level, int *r, int *g, int *bl)
{
    double u = (double)level / (HEAT_LEVELS - 1);
    *r = (int)lround(255 - 75 * u);
    *g = (int)lround(255 - 255 * u);
    *bl = (int)lround(255 - 225 * u);
}

static int heatmap(const pk_diff *d, const char *title, pk_buf *b)
{
    size_t n = rows_shown(d);
    size_t nframes = (size_t)d->last - d->first + 1;
    size_t cols = nframes < MAX_COLS ? nframes : MAX_COLS;
    int cw = cols < 150 ? 4 : 1 + (int)(600 / cols); /* pixels per column */
    if (cw < 1)
        cw = 1;
    double max = 0.0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].differs && d->bones[i].angle_deg > max)
            max = d->bones[i].angle_deg;
    if (max <= 0)
        max = 1;
    int grid_w = (int)cols * cw;
    int w = LABEL_W + grid_w + 40, h = TOP + (int)n * ROW_H + 60;
    if (w < 560)
        w = 560;
    header(b, w, h, title);
    pk_buf_printf(b,
                  "<text x=\"8\" y=\"40\" fill=\"#555\">rotation difference per bone and frame "
                  "(frames %u-%u; white 0, dark red %.3f degrees)</text>\n",
                  d->first, d->last, max);
    size_t row = 0;
    for (size_t i = 0; i < d->nbones && row < n; i++) {
        const pk_diff_bone *r = &d->bones[i];
        if (!r->differs || !r->frames)
            continue;
        int y = TOP + (int)row * ROW_H;
        label(b, y + 12, r);
        /* Columns cover frames [c*nframes/cols, (c+1)*nframes/cols); equal
         * neighbouring colours are drawn as one rect. */
        int run_level = -1, run_start = 0;
        for (size_t c = 0; c <= cols; c++) {
            int level = -1;
            if (c < cols) {
                size_t f0 = c * nframes / cols, f1 = (c + 1) * nframes / cols;
                float v = 0.0f;
                for (size_t f = f0; f < f1; f++)
                    v = r->frames[f] > v ? r->frames[f] : v;
                level = (int)lround((HEAT_LEVELS - 1) * (v / max));
                if (level > HEAT_LEVELS - 1)
                    level = HEAT_LEVELS - 1;
            }
            if (level != run_level) {
                if (run_level > 0) {
                    int cr, cg, cb;
                    heat_colour(run_level, &cr, &cg, &cb);
                    pk_buf_printf(b,
                                  "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                                  "fill=\"rgb(%d,%d,%d)\"/>\n",
                                  LABEL_W + run_start * cw, y + 1, ((int)c - run_start) * cw,
                                  ROW_H - 2, cr, cg, cb);
                }
                run_level = level;
                run_start = (int)c;
            }
        }
        pk_buf_printf(b,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                      "stroke=\"#ccc\"/>\n",
                      LABEL_W, y + 1, grid_w, ROW_H - 2);
        row++;
    }
    int ay = TOP + (int)n * ROW_H + 14;
    pk_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" fill=\"#555\">%u</text>\n"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%u</text>\n",
                  LABEL_W, ay, d->first, LABEL_W + grid_w, ay, d->last);
    footer(b, d, n, ay + 22);
    return b->oom ? -1 : 0;
}

int svg_diff(const pk_diff *d, const char *title, pk_buf *out)
{
    return d->range ? heatmap(d, title, out) : bars(d, title, out);
}
