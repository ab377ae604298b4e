/* step_diff_svg.c — diff's pictures as plain SVG (step.h,
 * pki_diff_svg).
 *
 * Hand-written SVG 1.1: <rect>, <line> and <text> elements with absolute
 * coordinates, so the file opens in any browser and stays small.  The body
 * is drawn first into its own buffer while the widest text and the lowest
 * row are tracked, so the canvas is sized to what it holds.  Text widths
 * are estimated as in every posekit picture (pki_text_width); the font
 * list names fonts that cover Japanese.  Names are
 * XML-escaped; characters XML forbids (C0 controls) become '?'.  Numbers
 * are printed with %d / %.3f, which do not depend on the locale here
 * because posekit never calls setlocale. */
#include "step/step.h"
#include "util/text.h"
#include "util/fmath.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
    MAX_ROWS = 200,   /* rows per section beyond this are summed up in a last line */
    ROW_H = 16,       /* pixels per row */
    MARGIN = 10,      /* left and right margin */
    ROT_W = 300,      /* bars: rotation column */
    POS_W = 220,      /* bars: translation column */
    MORPH_W = 300,    /* bars: morph column (-max .. +max) */
    GRID_W = 600,     /* heatmap: at most this many pixels of columns */
    VALUE_W = 96,     /* heatmap: the row's maximum, right of the grid */
    HEAT_LEVELS = 32, /* heatmap colour steps (equal neighbours merge) */
    LEGEND_STEPS = 16,
};

#define FONTS PKI_SVG_FONTS /* the list every posekit picture names */

/* ---- text ---- */

/* Estimated width in pixels of UTF-8 text at a font size (the one
 * estimate every picture uses, util/text.h). */
static double text_w(const char *s, double size)
{
    return pki_text_width(s, size, false);
}

/* The picture being drawn: body text, and how far it reaches. */
typedef struct pic {
    pk_buf *b;
    int w, h;
} pic;

static void reach(pic *p, double x, int y)
{
    int xi = (int)ceil(x);
    if (xi > p->w)
        p->w = xi;
    if (y > p->h)
        p->h = y;
}

/* Text at (x, y); anchor "start", "middle" or "end"; extra attributes
 * (may be ""). */
static void text(pic *p, double x, int y, const char *anchor, const char *attrs, double size,
                 const char *s)
{
    pk_buf_printf(p->b, "<text x=\"%.1f\" y=\"%d\"", x, y);
    if (strcmp(anchor, "start") != 0)
        pk_buf_printf(p->b, " text-anchor=\"%s\"", anchor);
    if (size != 12)
        pk_buf_printf(p->b, " font-size=\"%g\"", size);
    if (*attrs)
        pk_buf_printf(p->b, " %s", attrs);
    pk_buf_putc(p->b, '>');
    pki_buf_puts_xml(p->b, s);
    pk_buf_puts(p->b, "</text>\n");
    double w = text_w(s, size);
    double right = strcmp(anchor, "start") == 0    ? x + w
                   : strcmp(anchor, "middle") == 0 ? x + w / 2
                                                   : x;
    reach(p, right + MARGIN, y + 6);
}

static void rect(pic *p, double x, int y, double w, int h, const char *fill)
{
    pk_buf_printf(p->b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", x,
                  y, w, h, fill);
    reach(p, x + w, y + h);
}

/* The display label of a row: its name and one-side mark. */
static void row_label(char *out, size_t cap, const char *name, int only_in)
{
    snprintf(out, cap, "%s%s", name,
             only_in == PK_DIFF_ONLY_A   ? " (only A)"
             : only_in == PK_DIFF_ONLY_B ? " (only B)"
                                         : "");
}

/* ---- which rows ---- */

typedef enum { SEC_ROT, SEC_POS, SEC_MORPH, SEC_SCENE, SEC_COUNT } section;

/* A bone row of a section: in the rotation section the bones whose angle
 * differs (all: every bone), in the translation section those that moved
 * (all: every bone with a distance above 0). */
static bool shown(const pk_diff *d, section s, size_t i, bool all, const pk_diff_options *th)
{
    switch (s) {
    case SEC_ROT: /* !(v <= t): a NaN shows, as it differs */
        return all || (d->bones[i].differs && !(d->bones[i].angle_deg <= th->threshold_deg));
    case SEC_POS:
        return (all && !(d->bones[i].pos_delta <= 0)) ||
               (d->bones[i].differs && !(d->bones[i].pos_delta <= th->pos_threshold));
    case SEC_MORPH:
        return all || d->morphs[i].differs;
    default:
        return all || d->scene[i].differs;
    }
}

static size_t section_len(const pk_diff *d, section s)
{
    return s == SEC_MORPH ? d->nmorphs : s == SEC_SCENE ? d->nscene : d->nbones;
}

static const char *row_name(const pk_diff *d, section s, size_t i, int *only_in)
{
    if (s == SEC_MORPH) {
        *only_in = d->morphs[i].only_in;
        return d->morphs[i].name;
    }
    if (s == SEC_SCENE) {
        *only_in = d->scene[i].only_in;
        return d->scene[i].name;
    }
    *only_in = d->bones[i].only_in;
    return d->bones[i].name;
}

/* Is a row the picture shows keyed in one input only (so compared with
 * the rest pose)? */
static bool any_one_sided(const pk_diff *d, bool all, const pk_diff_options *th)
{
    for (int sec = 0; sec < SEC_COUNT; sec++)
        for (size_t i = 0; i < section_len(d, (section)sec); i++) {
            int only;
            row_name(d, (section)sec, i, &only);
            if (only && shown(d, (section)sec, i, all, th))
                return true;
        }
    return false;
}

/* The row's value in a section (the maximum for ranges). */
static double row_value(const pk_diff *d, section s, size_t i)
{
    switch (s) {
    case SEC_ROT:
        return d->bones[i].angle_deg;
    case SEC_POS:
        return d->bones[i].pos_delta;
    case SEC_MORPH:
        return fabs(d->morphs[i].delta);
    default:
        return d->scene[i].delta;
    }
}

static const float *row_bins(const pk_diff *d, section s, size_t i)
{
    switch (s) {
    case SEC_ROT:
        return d->bones[i].bin_deg;
    case SEC_POS:
        return d->bones[i].bin_pos;
    case SEC_MORPH:
        return d->morphs[i].bins;
    default:
        return d->scene[i].bins;
    }
}

static const char *section_title(section s)
{
    static const char *const t[SEC_COUNT] = {
        "Bone rotation difference (degrees)",
        "Bone translation distance (units)",
        "Morph weight difference, B \xe2\x88\x92 A",
        "Camera, light, self-shadow, IK",
    };
    return t[s];
}

/* Rows shown per section (at most MAX_ROWS), and the widest label. */
static size_t count_rows(const pk_diff *d, section s, bool all, const pk_diff_options *th,
                         double *label_w)
{
    size_t n = 0;
    char buf[512];
    for (size_t i = 0; i < section_len(d, s); i++) {
        if (!shown(d, s, i, all, th))
            continue;
        n++;
        int only;
        const char *name = row_name(d, s, i, &only);
        row_label(buf, sizeof buf, name, only);
        double w = text_w(buf, 12);
        if (n <= MAX_ROWS && w > *label_w)
            *label_w = w;
    }
    return n;
}

/* A round scale at or above x: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_ceil(double x)
{
    if (!(x > 0))
        return 1.0;
    double p = pki_pow(10.0, floor(pki_log10(x)));
    static const double steps[] = {1.0, 2.0, 2.5, 5.0, 10.0};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (x <= steps[i] * p * (1 + 1e-9))
            return steps[i] * p;
    return 10.0 * p;
}

static void fmt_value(char *out, size_t cap, double v, const char *unit)
{
    if (strcmp(unit, "deg") == 0)
        snprintf(out, cap, "%.3f\xc2\xb0", v);
    else if (*unit)
        snprintf(out, cap, "%.4f %s", v, unit);
    else
        snprintf(out, cap, "%.4f", v);
}

static const char *section_unit(const pk_diff *d, section s, size_t i)
{
    return s == SEC_ROT ? "deg" : s == SEC_POS ? "units" : s == SEC_SCENE ? d->scene[i].unit : "";
}

static void header(pk_buf *out, const pic *p)
{
    pk_buf_printf(out,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"12\" "
                  "shape-rendering=\"crispEdges\">\n"
                  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                  p->w, p->h, p->w, p->h, FONTS);
}

static int finish(pic *p, pk_buf *body, pk_buf *out)
{
    header(out, p);
    pk_buf_append(out, body->data, body->len);
    pk_buf_puts(out, "</svg>\n");
    bool oom = body->oom || out->oom;
    pk_buf_free(body);
    return oom ? -1 : 0;
}

static void more_rows(pic *p, int y, size_t n)
{
    char buf[96];
    snprintf(buf, sizeof buf, "... and %zu more", n - MAX_ROWS);
    text(p, MARGIN, y + 12, "start", "fill=\"#555\"", 12, buf);
}

/* ---- poses: bars ---- */

static void axis_ticks(pic *p, double x0, double w, int y_top, int y_bottom, double lo, double hi)
{
    /* 4 steps for 1 and 2 times a power of ten, 5 for 2.5 and 5 */
    double m = hi / pki_pow(10.0, floor(pki_log10(hi)));
    int steps = (m > 2.2 && m < 2.8) || (m > 4.5 && m < 5.5) ? 5 : 4;
    if (lo < 0)
        steps = 4;
    for (int k = 0; k <= steps; k++) {
        double x = x0 + w * k / steps;
        char buf[32];
        snprintf(buf, sizeof buf, "%.4g", lo + (hi - lo) * k / steps);
        pk_buf_printf(p->b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                      x, y_top, x, y_bottom);
        text(p, x, y_top - 3, "middle", "fill=\"#555\"", 11, buf);
    }
}

static int bars(const pk_diff *d, const pk_diff_options *o, const char *title, bool all,
                pk_buf *out)
{
    pk_buf body;
    pk_buf_init(&body);
    pic p = {&body, 0, 0};
    pk_diff_options th = *o;
    double label_w = 60;
    size_t n[SEC_COUNT];
    for (int s = 0; s < SEC_COUNT; s++)
        n[s] = count_rows(d, (section)s, all, &th, &label_w);
    /* bone rows: a bone shown in either bone section, one row with both bars */
    size_t nb = 0;
    for (size_t i = 0; i < d->nbones; i++)
        nb += shown(d, SEC_ROT, i, all, &th) || shown(d, SEC_POS, i, all, &th);
    double x0 = MARGIN + label_w + 8;
    text(&p, MARGIN, 22, "start", "font-weight=\"bold\"", 15, title);
    int y = 40;
    text(&p, MARGIN, y, "start", "fill=\"#555\"", 12,
         d->range ? "largest difference over the range, per row (@ its first frame); orange: "
                    "on one side only, compared with the rest pose"
                  : "difference per row, A to B; orange: on one side only, compared with the "
                    "rest pose");
    y += 12;
    char buf[600];
    if (nb) {
        double rmax = 0, pmax = 0;
        for (size_t i = 0; i < d->nbones; i++) {
            if (!(shown(d, SEC_ROT, i, all, &th) || shown(d, SEC_POS, i, all, &th)))
                continue;
            rmax = d->bones[i].angle_deg > rmax ? d->bones[i].angle_deg : rmax;
            pmax = d->bones[i].pos_delta > pmax ? d->bones[i].pos_delta : pmax;
        }
        double rs = nice_ceil(rmax), ps = nice_ceil(pmax);
        /* a column only when something in it shows */
        bool rot = rmax > th.threshold_deg || (all && rmax > 0);
        bool pos = pmax > th.pos_threshold || (all && pmax > 0);
        if (!rot && !pos)
            rot = true;
        double xr = x0, xp = rot ? x0 + ROT_W + 110 : x0;
        y += 18;
        if (rot)
            text(&p, xr, y, "start", "font-weight=\"bold\"", 13, "Bone rotation (degrees)");
        if (pos)
            text(&p, xp, y, "start", "font-weight=\"bold\"", 13, "Bone translation (units)");
        y += 20;
        size_t rows = nb < MAX_ROWS ? nb : MAX_ROWS;
        if (rot)
            axis_ticks(&p, xr, ROT_W, y, y + (int)rows * ROW_H, 0, rs);
        if (pos)
            axis_ticks(&p, xp, POS_W, y, y + (int)rows * ROW_H, 0, ps);
        size_t row = 0;
        for (size_t i = 0; i < d->nbones && row < rows; i++) {
            const pk_diff_bone *r = &d->bones[i];
            if (!(shown(d, SEC_ROT, i, all, &th) || shown(d, SEC_POS, i, all, &th)))
                continue;
            int ry = y + (int)row * ROW_H;
            row_label(buf, sizeof buf, r->name, r->only_in);
            text(&p, x0 - 8, ry + 12, "end", "", 12, buf);
            double lr = ROT_W * r->angle_deg / rs, lp = POS_W * r->pos_delta / ps;
            if (rot && lr > 0)
                rect(&p, xr, ry + 2, lr < 1 ? 1 : lr, ROW_H - 4,
                     r->only_in ? "#e69f00" : "#c0392b");
            if (pos && lp > 0)
                rect(&p, xp, ry + 2, lp < 1 ? 1 : lp, ROW_H - 4,
                     r->only_in ? "#e69f00" : "#0072b2");
            if (d->range)
                snprintf(buf, sizeof buf, "%.3f\xc2\xb0 @%u", r->angle_deg, r->angle_frame);
            else
                snprintf(buf, sizeof buf, "%.3f\xc2\xb0", r->angle_deg);
            if (rot)
                text(&p, xr + lr + 4, ry + 12, "start", "fill=\"#333\"", 12, buf);
            if (d->range)
                snprintf(buf, sizeof buf, "%.4f @%u", r->pos_delta, r->pos_frame);
            else
                snprintf(buf, sizeof buf, "%.4f", r->pos_delta);
            if (pos)
                text(&p, xp + lp + 4, ry + 12, "start", "fill=\"#333\"", 12, buf);
            row++;
        }
        y += (int)rows * ROW_H;
        if (nb > rows)
            more_rows(&p, y, nb), y += ROW_H;
        y += 8;
    }
    if (n[SEC_MORPH]) {
        double mmax = 0;
        for (size_t i = 0; i < d->nmorphs; i++)
            if (shown(d, SEC_MORPH, i, all, &th) && fabs(d->morphs[i].delta) > mmax)
                mmax = fabs(d->morphs[i].delta);
        double ms = nice_ceil(mmax);
        y += 18;
        text(&p, x0, y, "start", "font-weight=\"bold\"", 13,
             "Morph weight difference, B \xe2\x88\x92 A (A \xe2\x86\x92 B)");
        y += 20;
        size_t rows = n[SEC_MORPH] < MAX_ROWS ? n[SEC_MORPH] : MAX_ROWS;
        axis_ticks(&p, x0, MORPH_W, y, y + (int)rows * ROW_H, -ms, ms);
        size_t row = 0;
        double xc = x0 + MORPH_W / 2.0;
        for (size_t i = 0; i < d->nmorphs && row < rows; i++) {
            const pk_diff_morph *r = &d->morphs[i];
            if (!shown(d, SEC_MORPH, i, all, &th))
                continue;
            int ry = y + (int)row * ROW_H;
            row_label(buf, sizeof buf, r->name, r->only_in);
            text(&p, x0 - 8, ry + 12, "end", "", 12, buf);
            double len = MORPH_W / 2.0 * fabs(r->delta) / ms;
            if (len > 0)
                rect(&p, r->delta < 0 ? xc - len : xc, ry + 2, len < 1 ? 1 : len, ROW_H - 4,
                     r->only_in ? "#e69f00" : "#009e73");
            if (d->range)
                snprintf(buf, sizeof buf, "%+.4f (%.3f \xe2\x86\x92 %.3f) @%u", r->delta,
                         r->weight_a, r->weight_b, r->frame);
            else
                snprintf(buf, sizeof buf, "%+.4f (%.3f \xe2\x86\x92 %.3f)", r->delta, r->weight_a,
                         r->weight_b);
            text(&p, x0 + MORPH_W + 16, ry + 12, "start", "fill=\"#333\"", 12, buf);
            row++;
        }
        y += (int)rows * ROW_H;
        if (n[SEC_MORPH] > rows)
            more_rows(&p, y, n[SEC_MORPH]), y += ROW_H;
        y += 8;
    }
    if (n[SEC_SCENE]) {
        y += 18;
        text(&p, x0, y, "start", "font-weight=\"bold\"", 13, section_title(SEC_SCENE));
        y += 6;
        size_t row = 0;
        for (size_t i = 0; i < d->nscene; i++) {
            const pk_diff_scene *r = &d->scene[i];
            if (!shown(d, SEC_SCENE, i, all, &th))
                continue;
            int ry = y + (int)row * ROW_H;
            row_label(buf, sizeof buf, r->name, r->only_in);
            text(&p, x0 - 8, ry + 12, "end", "", 12, buf);
            fmt_value(buf, sizeof buf, r->delta, r->unit);
            text(&p, x0, ry + 12, "start", "fill=\"#333\"", 12, buf);
            row++;
        }
        y += (int)row * ROW_H + 8;
    }
    if (!nb && !n[SEC_MORPH] && !n[SEC_SCENE]) {
        y += 22;
        text(&p, MARGIN, y, "start", "", 13, "Nothing differs beyond the thresholds.");
    }
    reach(&p, 0, y + 14);
    return finish(&p, &body, out);
}

/* ---- ranges: heatmaps ---- */

/* White (0) to a dark shade of each section's hue (1). */
static void heat_colour(section s, double u, char out[24])
{
    static const int dark[SEC_COUNT][3] = {
        {165, 0, 38}, /* rotation: dark red */
        {8, 48, 107}, /* translation: dark blue */
        {0, 90, 50},  /* morphs: dark green */
        {127, 39, 4}, /* camera/light: dark orange */
    };
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(255 - (255 - dark[s][k]) * u);
    snprintf(out, 24, "rgb(%d,%d,%d)", c[0], c[1], c[2]);
}

/* The frame step of the axis labels: a round number giving labels at
 * least `min_px` apart and at most about a dozen. */
static uint32_t frame_step(uint64_t nframes, double px_per_frame, double min_px)
{
    static const uint32_t m[] = {1, 2, 5};
    for (uint64_t p = 1; p <= 1000000000ull; p *= 10)
        for (size_t i = 0; i < 3; i++) {
            uint64_t s = m[i] * p;
            if ((double)s * px_per_frame >= min_px && nframes / s <= 12)
                return (uint32_t)s;
        }
    return 1000000000u;
}

typedef struct grid {
    double x0;      /* left edge of the columns */
    double cw;      /* pixels per column */
    size_t cols;    /* d->nbins */
    uint64_t n;     /* frames */
    uint32_t first; /* first frame */
    uint32_t step;  /* axis label step */
} grid;

/* x of the left edge of frame f's column. */
static double frame_x(const grid *g, uint64_t f)
{
    size_t c = (size_t)(((f - g->first + 1) * g->cols - 1) / g->n);
    return g->x0 + (double)c * g->cw;
}

static void frame_axis(pic *p, const grid *g, int y, bool lines_to, int y2)
{
    uint64_t last = g->first + g->n - 1;
    uint64_t f = (g->first + g->step - 1) / g->step * g->step;
    char buf[16];
    for (; f <= last; f += g->step) {
        double x = frame_x(g, f) + g->cw / 2;
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)f);
        text(p, x, y, "middle", "fill=\"#555\"", 11, buf);
        if (lines_to)
            pk_buf_printf(
                p->b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", x,
                y + 4, x, y2);
    }
}

/* The colour scale of a section: a gradient of LEGEND_STEPS cells from 0
 * to max, with both ends labelled. */
static void legend(pic *p, section s, double x, int y, double max, const char *unit)
{
    char buf[48], col[24];
    text(p, x, y + 10, "start", "fill=\"#555\"", 11, "0");
    x += 12;
    for (int k = 0; k < LEGEND_STEPS; k++) {
        heat_colour(s, (k + 0.5) / LEGEND_STEPS, col);
        rect(p, x + k * 8, y, 8, 12, col);
    }
    pk_buf_printf(p->b,
                  "<rect x=\"%.1f\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"none\" "
                  "stroke=\"#999\"/>\n",
                  x, y, LEGEND_STEPS * 8);
    fmt_value(buf, sizeof buf, max, unit);
    text(p, x + LEGEND_STEPS * 8 + 4, y + 10, "start", "fill=\"#555\"", 11, buf);
    /* square-root scale: the middle of the scale is a quarter of the maximum */
    pk_buf_printf(p->b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>\n",
                  x + LEGEND_STEPS * 4, y + 12, x + LEGEND_STEPS * 4, y + 15);
    fmt_value(buf, sizeof buf, max / 4, unit);
    text(p, x + LEGEND_STEPS * 4, y + 24, "middle", "fill=\"#555\"", 9, buf);
}

/* The value at or below which a cell is white: the row's threshold. */
static double cell_threshold(const pk_diff *d, section s, size_t i, const pk_diff_options *th)
{
    switch (s) {
    case SEC_ROT:
        return th->threshold_deg;
    case SEC_POS:
        return th->pos_threshold;
    case SEC_MORPH:
        return th->morph_threshold;
    default:
        return strcmp(d->scene[i].unit, "deg") == 0            ? th->threshold_deg
               : strcmp(d->scene[i].name, "light colour") == 0 ? th->morph_threshold
               : strstr(d->scene[i].name, "mode") || strstr(d->scene[i].name, "perspective")
                   ? 0.5
                   : th->pos_threshold;
    }
}

/* The largest finite value of n bins (0 for none, or no bins). */
static double finite_max(const float *bins, size_t n)
{
    double m = 0;
    for (size_t c = 0; bins && c < n; c++)
        if (isfinite(bins[c]) && bins[c] > m)
            m = bins[c];
    return m;
}

static int heat_section(pic *p, const pk_diff *d, section s, bool all, const pk_diff_options *th,
                        const grid *g, double label_x, size_t nrows, int y)
{
    double max = 0; /* the largest finite value: NaN and infinity have their own cells */
    for (size_t i = 0; i < section_len(d, s); i++) {
        if (!shown(d, s, i, all, th))
            continue;
        double v = row_value(d, s, i);
        if (!isfinite(v)) /* the row's finite cells */
            v = finite_max(row_bins(d, s, i), g->cols);
        if (v > max)
            max = v;
    }
    y += 22;
    /* a column holds a bin's largest |B - A|: the heading says so */
    const char *title =
        s == SEC_MORPH ? "Morph weight difference, |B \xe2\x88\x92 A|" : section_title(s);
    text(p, MARGIN, y, "start", "font-weight=\"bold\"", 13, title);
    if (s != SEC_SCENE) {
        /* right-aligned with the grid, but never over the heading (a
         * short range makes a narrow grid: the picture widens instead) */
        double lw = 16 + LEGEND_STEPS * 8 + 80;
        double lx = g->x0 + g->cw * (double)g->cols - lw;
        double least = MARGIN + 1.1 * text_w(title, 13) + 16;
        legend(p, s, lx > least ? lx : least, y - 10, max, section_unit(d, s, 0));
    } else {
        /* right-aligned with the grid, but never over the title (a range
         * of a few frames makes a narrow grid; the picture widens) */
        static const char caption[] =
            "each row: white 0, darkest its own maximum (square-root scale)";
        double end = g->x0 + g->cw * (double)g->cols,
               least = MARGIN + 1.1 * text_w(section_title(s), 13) + 16 + text_w(caption, 11);
        text(p, end > least ? end : least, y, "end", "fill=\"#555\"", 11, caption);
    }
    y += s != SEC_SCENE ? 30 : 20; /* below the legend's middle label */
    size_t rows = nrows < MAX_ROWS ? nrows : MAX_ROWS;
    frame_axis(p, g, y, false, 0);
    int top = y + 4;
    /* gridlines under the cells */
    uint64_t last = g->first + g->n - 1;
    for (uint64_t f = (g->first + g->step - 1) / g->step * g->step; f <= last; f += g->step) {
        double x = frame_x(g, f) + g->cw / 2;
        pk_buf_printf(p->b,
                      "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", x,
                      top, x, top + (int)rows * ROW_H);
    }
    size_t row = 0;
    char buf[600], col[24];
    double grid_w = g->cw * (double)g->cols;
    for (size_t i = 0; i < section_len(d, s) && row < rows; i++) {
        if (!shown(d, s, i, all, th))
            continue;
        int ry = top + (int)row * ROW_H;
        int only;
        const char *name = row_name(d, s, i, &only);
        row_label(buf, sizeof buf, name, only);
        text(p, label_x, ry + 12, "end", "", 12, buf);
        double rmax = s == SEC_SCENE ? row_value(d, s, i) : max;
        double floor_v = cell_threshold(d, s, i, th);
        const float *bins = row_bins(d, s, i);
        if (!isfinite(rmax)) /* a NaN or infinite row: scaled by its finite cells */
            rmax = finite_max(bins, g->cols);
        int run_level = -1;
        size_t run_start = 0;
        for (size_t c = 0; bins && c <= g->cols; c++) {
            int level = -1;
            if (c < g->cols && isnan(bins[c])) {
                level = HEAT_LEVELS; /* NaN: grey, as the table's "nan" */
            } else if (c < g->cols) {
                double u = rmax > 0 ? sqrt(bins[c] / rmax) : 1; /* square-root scale */
                level = (int)lround((HEAT_LEVELS - 1) * (u > 1 ? 1 : u));
                if (bins[c] <= floor_v)
                    level = 0; /* within the threshold: white */
                else if (level < 3)
                    level = 3; /* any difference beyond it shows */
            }
            if (level != run_level) {
                if (run_level > 0) {
                    if (run_level == HEAT_LEVELS)
                        snprintf(col, sizeof col, "#777777");
                    else
                        heat_colour(s, (double)run_level / (HEAT_LEVELS - 1), col);
                    rect(p, g->x0 + (double)run_start * g->cw, ry + 1,
                         (double)(c - run_start) * g->cw, ROW_H - 2, col);
                }
                run_level = level;
                run_start = c;
            }
        }
        char v[64];
        fmt_value(v, sizeof v, row_value(d, s, i), section_unit(d, s, i));
        if (s == SEC_MORPH)
            snprintf(v, sizeof v, "%+.4f", d->morphs[i].delta);
        text(p, g->x0 + grid_w + 6, ry + 12, "start", "fill=\"#333\"", 12, v);
        row++;
    }
    pk_buf_printf(p->b,
                  "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"none\" "
                  "stroke=\"#bbb\"/>\n",
                  g->x0 - 0.5, top, grid_w + 1, (int)rows * ROW_H);
    y = top + (int)rows * ROW_H;
    if (nrows > rows) {
        more_rows(p, y, nrows);
        y += ROW_H;
    }
    return y;
}

static int heatmap(const pk_diff *d, const pk_diff_options *o, const char *title, bool all,
                   pk_buf *out)
{
    pk_buf body;
    pk_buf_init(&body);
    pic p = {&body, 0, 0};
    pk_diff_options th = *o;
    double label_w = 60;
    size_t n[SEC_COUNT];
    for (int s = 0; s < SEC_COUNT; s++)
        n[s] = count_rows(d, (section)s, all, &th, &label_w);
    grid g;
    g.cols = d->nbins;
    g.n = (uint64_t)d->last - d->first + 1;
    g.first = d->first;
    size_t cw = GRID_W / g.cols > 8 ? 8 : GRID_W / g.cols;
    if (cw < 1)
        cw = 1;
    if (cw * g.cols < 320) /* a short range: columns wider than 8 px */
        cw = (320 + g.cols - 1) / g.cols;
    g.cw = (double)cw;
    g.x0 = MARGIN + label_w + 10;
    double px_per_frame = g.cw * (double)g.cols / (double)g.n;
    char buf[240];
    snprintf(buf, sizeof buf, "%u", d->last);
    g.step = frame_step(g.n, px_per_frame, text_w(buf, 11) + 14);

    text(&p, MARGIN, 22, "start", "font-weight=\"bold\"", 15, title);
    uint64_t per = (g.n + g.cols - 1) / g.cols;
    if (per > 1)
        snprintf(buf, sizeof buf,
                 "frames %u-%u across; a column shows the largest difference of its %llu or "
                 "%llu frames",
                 d->first, d->last, (unsigned long long)(g.n / g.cols), (unsigned long long)per);
    else
        snprintf(buf, sizeof buf, "frames %u-%u across, one column per frame", d->first, d->last);
    if (any_one_sided(d, all, &th))
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
                 "; (only A/B): compared with the rest pose");
    text(&p, MARGIN, 40, "start", "fill=\"#555\"", 12, buf);
    reach(&p, g.x0 + g.cw * (double)g.cols + VALUE_W, 0);
    int y = 44;
    bool any = false;
    for (int s = 0; s < SEC_COUNT; s++) {
        if (!n[s])
            continue;
        y = heat_section(&p, d, (section)s, all, &th, &g, g.x0 - 8, n[s], y) + 6;
        any = true;
    }
    if (!any) {
        y += 22;
        text(&p, MARGIN, y, "start", "", 13, "Nothing differs beyond the thresholds.");
    } else {
        frame_axis(&p, &g, y + 8, false, 0);
        y += 8;
    }
    reach(&p, 0, y + 14);
    return finish(&p, &body, out);
}

int pki_diff_svg(const pk_diff *d, const pk_diff_options *o, const char *title, bool all,
                 pk_buf *out)
{
    return d->range && d->nbins ? heatmap(d, o, title, all, out) : bars(d, o, title, all, out);
}

/* ---- two pictures in one ---- */

/* The root <svg ...> of a document: where it starts (after the XML
 * declaration), its width and height; false when absent. */
static bool root_of(const pk_buf *b, size_t *start, long *w, long *h)
{
    const char *s = (const char *)b->data, *end = s + b->len;
    const char *p = s;
    while (p + 4 < end && memcmp(p, "<svg", 4) != 0)
        p++;
    if (p + 4 >= end)
        return false;
    *start = (size_t)(p - s);
    const char *wp = strstr(p, " width=\""), *hp = strstr(p, " height=\"");
    const char *gt = memchr(p, '>', (size_t)(end - p));
    if (!wp || !hp || !gt || wp > gt || hp > gt)
        return false;
    /* the sizes pki_diff_svg and pk_draw_svg write: whole pixels */
    *w = *h = 0;
    for (const char *d = wp + 8; *d >= '0' && *d <= '9' && *w < 1000000; d++)
        *w = *w * 10 + (*d - '0');
    for (const char *d = hp + 9; *d >= '0' && *d <= '9' && *h < 1000000; d++)
        *h = *h * 10 + (*d - '0');
    return *w > 0 && *h > 0;
}

int pki_svg_stack(const pk_buf *top, const pk_buf *bottom, pk_buf *out)
{
    size_t s1, s2;
    long w1, h1, w2, h2;
    if (!top->data || !bottom->data || !root_of(top, &s1, &w1, &h1) ||
        !root_of(bottom, &s2, &w2, &h2))
        return -1;
    long w = w1 > w2 ? w1 : w2, h = h1 + h2;
    pk_buf_printf(out,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%ld\" height=\"%ld\" "
                  "viewBox=\"0 0 %ld %ld\">\n"
                  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                  w, h, w, h);
    pk_buf_append(out, top->data + s1, top->len - s1);
    /* the second picture below the first: <svg y="H1" ...> */
    pk_buf_printf(out, "<svg y=\"%ld\"", h1);
    pk_buf_append(out, bottom->data + s2 + 4, bottom->len - s2 - 4);
    pk_buf_puts(out, "</svg>\n");
    return out->oom ? -1 : 0;
}
