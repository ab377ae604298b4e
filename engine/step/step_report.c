/* step_report.c — what a step did, as text the CLI prints and a job writes
 * byte for byte: the summary lines, and diff's table, JSON and CSV
 * (posekit.h, "steps"). */
#include "step/step_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* ---------------------------------------------------------------- diff */

static const char *only_text(int only_in)
{
    return only_in == PK_DIFF_ONLY_A ? "a" : only_in == PK_DIFF_ONLY_B ? "b" : "";
}

static double round6(double x)
{
    return round(x * 1e6) / 1e6;
}

static double group_deg(const pk_diff_group *g)
{
    return g->top ? g->top->angle_deg : 0.0;
}

static void diff_summary(const pk_step *s, const pk_diff *d, pk_buf *f)
{
    const pk_diff_bone *top = NULL, *far = NULL;
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *b = &d->bones[i];
        if (!b->differs)
            continue;
        if (!top)
            top = b;
        if (!far || b->pos_delta > far->pos_delta)
            far = b;
    }
    if (d->range)
        pk_buf_printf(f, "frames %u-%u: ", d->first, d->last);
    else if (pk_step_given(s, "frame"))
        pk_buf_printf(f, "frame %u: ", s->o.frame);
    pk_buf_printf(f, "%zu of %zu bones differ", d->bones_differ, d->nbones);
    if (top && top->angle_deg > s->o.threshold) {
        pk_buf_printf(f, " (largest %.3f deg: %s", top->angle_deg, top->name);
        if (d->range)
            pk_buf_printf(f, " at frame %u", top->angle_frame);
        pk_buf_putc(f, ')');
    } else if (far) {
        /* no rotation differs: the largest translation says what does */
        pk_buf_printf(f, " (largest %.4f units: %s", far->pos_delta, far->name);
        if (d->range)
            pk_buf_printf(f, " at frame %u", far->pos_frame);
        pk_buf_putc(f, ')');
    }
    if (!s->o.no_morphs)
        pk_buf_printf(f, ", %zu of %zu morphs differ", d->morphs_differ, d->nmorphs);
    if (d->nscene)
        pk_buf_printf(f, ", %zu of %zu camera/light/shadow channels differ", d->scene_differ,
                      d->nscene);
    if (d->only_a || d->only_b)
        pk_buf_printf(f, "; only in A: %zu, only in B: %zu", d->only_a, d->only_b);
}

static void diff_groups_table(const pk_step *s, const pk_step_result *r, pk_buf *f)
{
    const pk_diff *d = r->diff;
    bool head = false;
    for (size_t i = 0; i < r->ngroups; i++) {
        const pk_diff_group *g = &r->groups[i];
        if (!s->o.all && !g->bones_differ)
            continue;
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %10s %13s  %s\n", "max_deg", "frame", "max_pos",
                              "bones_differ", "group (largest)");
            else
                pk_buf_printf(f, "%9s %10s %13s  %s\n", "max_deg", "max_pos", "bones_differ",
                              "group (largest)");
            head = true;
        }
        char count[48];
        snprintf(count, sizeof count, "%zu/%zu", g->bones_differ, g->bones);
        if (d->range)
            pk_buf_printf(f, "%9.3f %6u %10.4f %13s  @%s", group_deg(g),
                          g->top ? g->top->angle_frame : 0, g->max_pos, count, g->name);
        else
            pk_buf_printf(f, "%9.3f %10.4f %13s  @%s", group_deg(g), g->max_pos, count, g->name);
        if (g->top)
            pk_buf_printf(f, " (%s)", g->top->name);
        pk_buf_putc(f, '\n');
    }
}

static void diff_table(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const pk_diff *d = res->diff;
    bool head = false;
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        if (!s->o.all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s %10s %6s %10s  %s\n", "max_deg", "frame", "mean_deg",
                              "max_pos", "frame", "mean_pos", "bone");
            else
                pk_buf_printf(f, "%9s %10s  %s\n", "angle_deg", "pos_delta", "bone");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%9.3f %6u %9.3f %10.4f %6u %10.4f  %s", r->angle_deg, r->angle_frame,
                          r->angle_mean, r->pos_delta, r->pos_frame, r->pos_mean, r->name);
        else
            pk_buf_printf(f, "%9.3f %10.4f  %s", r->angle_deg, r->pos_delta, r->name);
        if (r->only_in)
            pk_buf_printf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        pk_buf_putc(f, '\n');
    }
    head = false;
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        if (!s->o.all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s %17s  %s\n", "delta", "frame", "mean", "A -> B",
                              "morph");
            else
                pk_buf_printf(f, "%9s %17s  %s\n", "delta", "A -> B", "morph");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%+9.4f %6u %9.4f %7.4f -> %6.4f  %s", r->delta, r->frame, r->mean,
                          r->weight_a, r->weight_b, r->name);
        else
            pk_buf_printf(f, "%+9.4f %7.4f -> %6.4f  %s", r->delta, r->weight_a, r->weight_b,
                          r->name);
        if (r->only_in)
            pk_buf_printf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        pk_buf_putc(f, '\n');
    }
    head = false;
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        if (!s->o.all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s  %s\n", "max", "frame", "mean",
                              "camera, light, shadow");
            else
                pk_buf_printf(f, "%9s  %s\n", "delta", "camera, light, shadow");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%9.4f %6u %9.4f  %s", r->delta, r->frame, r->mean, r->name);
        else
            pk_buf_printf(f, "%9.4f  %s", r->delta, r->name);
        if (*r->unit)
            pk_buf_printf(f, " (%s)", r->unit);
        if (r->only_in)
            pk_buf_printf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        pk_buf_putc(f, '\n');
    }
    diff_groups_table(s, res, f);
    diff_summary(s, d, f);
    pk_buf_putc(f, '\n');
}

/* CSV: one line per row, bones, morphs, camera/light/shadow channels, then
 * groups; names quoted when needed.  Morph rows carry their frame and mean
 * in their own columns; scene rows in angle_frame and angle_mean. */
static void csv_name(pk_buf *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        pk_buf_puts(f, s);
        return;
    }
    pk_buf_putc(f, '"');
    for (; *s; s++) {
        if (*s == '"')
            pk_buf_putc(f, '"');
        pk_buf_putc(f, (uint8_t)*s);
    }
    pk_buf_putc(f, '"');
}

static void diff_csv(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const pk_diff *d = res->diff;
    bool groups = s->o.groups;
    pk_buf_puts(f, "kind,name,angle_deg,pos_delta,angle_frame,angle_mean,pos_frame,pos_mean,"
                   "weight_a,weight_b,delta,morph_frame,morph_mean,only_in,differs");
    pk_buf_puts(f, groups ? ",group_bones,group_differ\n" : "\n");
    const char *tail = groups ? ",," : ""; /* the group columns of other rows */
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        pk_buf_puts(f, "bone,");
        csv_name(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",%.6f,%.6f,%u,%.6f,%u,%.6f,,,,,,%s,%d%s\n", r->angle_deg,
                          r->pos_delta, r->angle_frame, r->angle_mean, r->pos_frame, r->pos_mean,
                          only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",%.6f,%.6f,,,,,,,,,,%s,%d%s\n", r->angle_deg, r->pos_delta,
                          only_text(r->only_in), r->differs, tail);
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        pk_buf_puts(f, "morph,");
        csv_name(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",,,,,,,%.6f,%.6f,%.6f,%u,%.6f,%s,%d%s\n", r->weight_a, r->weight_b,
                          r->delta, r->frame, r->mean, only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",,,,,,,%.6f,%.6f,%.6f,,,%s,%d%s\n", r->weight_a, r->weight_b,
                          r->delta, only_text(r->only_in), r->differs, tail);
    }
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        pk_buf_puts(f, "scene,");
        csv_name(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",,,%u,%.6f,,,,,%.6f,,,%s,%d%s\n", r->frame, r->mean, r->delta,
                          only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",,,,,,,,,%.6f,,,%s,%d%s\n", r->delta, only_text(r->only_in),
                          r->differs, tail);
    }
    for (size_t i = 0; groups && i < res->ngroups; i++) {
        const pk_diff_group *g = &res->groups[i];
        pk_buf_puts(f, "group,@");
        csv_name(f, g->name);
        if (d->range)
            pk_buf_printf(f, ",%.6f,%.6f,%u,,,,,,,,,,%d,%zu,%zu\n", group_deg(g), g->max_pos,
                          g->top ? g->top->angle_frame : 0, g->bones_differ > 0, g->bones,
                          g->bones_differ);
        else
            pk_buf_printf(f, ",%.6f,%.6f,,,,,,,,,,,%d,%zu,%zu\n", group_deg(g), g->max_pos,
                          g->bones_differ > 0, g->bones, g->bones_differ);
    }
}

/* ---- JSON, compact, byte for byte what jansson prints with 9 digits ---- */

static size_t utf8_seq(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned min, cp;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* A JSON string's body; a byte that is not UTF-8 becomes the text \xNN. */
static void j_body(pk_buf *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        size_t n = utf8_seq(p);
        if (n == 0) {
            pk_buf_printf(f, "\\\\x%02X", c);
            p++;
            continue;
        }
        if (c == '"' || c == '\\')
            pk_buf_printf(f, "\\%c", c);
        else if (c == '\b')
            pk_buf_puts(f, "\\b");
        else if (c == '\f')
            pk_buf_puts(f, "\\f");
        else if (c == '\n')
            pk_buf_puts(f, "\\n");
        else if (c == '\r')
            pk_buf_puts(f, "\\r");
        else if (c == '\t')
            pk_buf_puts(f, "\\t");
        else if (c < 0x20)
            pk_buf_printf(f, "\\u%04X", c);
        else
            pk_buf_append(f, p, n);
        p += n;
    }
}

static void j_str(pk_buf *f, const char *s)
{
    pk_buf_putc(f, '"');
    j_body(f, s);
    pk_buf_putc(f, '"');
}

/* %.9g with '.' whatever the locale, ".0" on integral values, and the
 * exponent without '+' or leading zeros; null for NaN and infinities. */
static void j_real(pk_buf *f, double v)
{
    if (!isfinite(v)) {
        pk_buf_puts(f, "null");
        return;
    }
    char raw[64], out[64];
    snprintf(raw, sizeof raw, "%.9g", v);
    size_t o = 0;
    bool point = false;
    for (const char *p = raw; *p && o < sizeof out - 3; p++) {
        bool plain = (*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == 'e';
        if (plain)
            out[o++] = *p;
        else if (!point || out[o - 1] != '.')
            out[o++] = '.', point = true; /* the locale's decimal point */
    }
    out[o] = '\0';
    char *e = strchr(out, 'e');
    if (!point && !e) {
        strcat(out, ".0");
    } else if (e) {
        char *q = e + 1, *r = e + 1;
        if (*r == '+')
            r++;
        else if (*r == '-')
            q++, r++;
        while (*r == '0' && r[1])
            r++;
        memmove(q, r, strlen(r) + 1);
    }
    pk_buf_puts(f, out);
}

static void j_key(pk_buf *f, bool *first, const char *k)
{
    if (!*first)
        pk_buf_putc(f, ',');
    *first = false;
    j_str(f, k);
    pk_buf_putc(f, ':');
}

static void diff_json(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const pk_diff *d = res->diff;
    bool first = true;
    pk_buf_putc(f, '{');
    j_key(f, &first, "a");
    j_str(f, s->inputs[0]);
    j_key(f, &first, "b");
    j_str(f, s->inputs[1]);
    if (d->range) {
        j_key(f, &first, "frames");
        pk_buf_printf(f, "[%u,%u]", d->first, d->last);
    } else {
        j_key(f, &first, "frame");
        pk_buf_printf(f, "%u", s->o.frame);
    }
    j_key(f, &first, "thresholds");
    pk_buf_puts(f, "{\"deg\":");
    j_real(f, s->o.threshold);
    pk_buf_puts(f, ",\"pos\":");
    j_real(f, s->o.pos_threshold);
    pk_buf_puts(f, ",\"morph\":");
    j_real(f, 0.0001);
    pk_buf_putc(f, '}');
    j_key(f, &first, "bones");
    pk_buf_putc(f, '[');
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        bool k = true;
        pk_buf_puts(f, i ? ",{" : "{");
        j_key(f, &k, "name");
        j_str(f, r->name);
        j_key(f, &k, "angle_deg");
        j_real(f, round6(r->angle_deg));
        j_key(f, &k, "pos_delta");
        j_real(f, round6(r->pos_delta));
        if (d->range) {
            j_key(f, &k, "angle_frame");
            pk_buf_printf(f, "%u", r->angle_frame);
            j_key(f, &k, "angle_mean");
            j_real(f, round6(r->angle_mean));
            j_key(f, &k, "pos_frame");
            pk_buf_printf(f, "%u", r->pos_frame);
            j_key(f, &k, "pos_mean");
            j_real(f, round6(r->pos_mean));
        }
        if (r->only_in) {
            j_key(f, &k, "only_in");
            j_str(f, only_text(r->only_in));
        }
        j_key(f, &k, "differs");
        pk_buf_puts(f, r->differs ? "true}" : "false}");
    }
    pk_buf_putc(f, ']');
    j_key(f, &first, "morphs");
    pk_buf_putc(f, '[');
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        bool k = true;
        pk_buf_puts(f, i ? ",{" : "{");
        j_key(f, &k, "name");
        j_str(f, r->name);
        j_key(f, &k, "weight_a");
        j_real(f, round6(r->weight_a));
        j_key(f, &k, "weight_b");
        j_real(f, round6(r->weight_b));
        j_key(f, &k, "delta");
        j_real(f, round6(r->delta));
        if (d->range) {
            j_key(f, &k, "frame");
            pk_buf_printf(f, "%u", r->frame);
            j_key(f, &k, "mean");
            j_real(f, round6(r->mean));
        }
        if (r->only_in) {
            j_key(f, &k, "only_in");
            j_str(f, only_text(r->only_in));
        }
        j_key(f, &k, "differs");
        pk_buf_puts(f, r->differs ? "true}" : "false}");
    }
    pk_buf_putc(f, ']');
    if (d->nscene) { /* only when A or B keys a camera, light or shadow */
        j_key(f, &first, "scene");
        pk_buf_putc(f, '[');
        for (size_t i = 0; i < d->nscene; i++) {
            const pk_diff_scene *r = &d->scene[i];
            bool k = true;
            pk_buf_puts(f, i ? ",{" : "{");
            j_key(f, &k, "name");
            j_str(f, r->name);
            j_key(f, &k, "unit");
            j_str(f, r->unit);
            j_key(f, &k, "delta");
            j_real(f, round6(r->delta));
            if (d->range) {
                j_key(f, &k, "frame");
                pk_buf_printf(f, "%u", r->frame);
                j_key(f, &k, "mean");
                j_real(f, round6(r->mean));
            }
            if (r->only_in) {
                j_key(f, &k, "only_in");
                j_str(f, only_text(r->only_in));
            }
            j_key(f, &k, "differs");
            pk_buf_puts(f, r->differs ? "true}" : "false}");
        }
        pk_buf_putc(f, ']');
    }
    if (s->o.groups) {
        j_key(f, &first, "groups");
        pk_buf_putc(f, '[');
        for (size_t i = 0; i < res->ngroups; i++) {
            const pk_diff_group *g = &res->groups[i];
            bool k = true;
            pk_buf_puts(f, i ? ",{" : "{");
            j_key(f, &k, "name");
            pk_buf_puts(f, "\"@");
            j_body(f, g->name);
            pk_buf_putc(f, '"');
            j_key(f, &k, "bones");
            pk_buf_printf(f, "%zu", g->bones);
            j_key(f, &k, "bones_differ");
            pk_buf_printf(f, "%zu", g->bones_differ);
            j_key(f, &k, "max_angle_deg");
            j_real(f, round6(group_deg(g)));
            j_key(f, &k, "max_bone");
            if (g->top)
                j_str(f, g->top->name);
            else
                pk_buf_puts(f, "null");
            if (d->range) {
                j_key(f, &k, "max_frame");
                if (g->top)
                    pk_buf_printf(f, "%u", g->top->angle_frame);
                else
                    pk_buf_puts(f, "null");
            }
            j_key(f, &k, "max_pos_delta");
            j_real(f, round6(g->max_pos));
            j_key(f, &k, "differs");
            pk_buf_puts(f, g->bones_differ > 0 ? "true}" : "false}");
        }
        pk_buf_putc(f, ']');
    }
    double max = 0.0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].angle_deg > max)
            max = d->bones[i].angle_deg;
    j_key(f, &first, "summary");
    pk_buf_printf(f,
                  "{\"bones\":%zu,\"bones_differ\":%zu,\"morphs\":%zu,\"morphs_differ\":%zu,"
                  "\"only_in_a\":%zu,\"only_in_b\":%zu,",
                  d->nbones, d->bones_differ, d->nmorphs, d->morphs_differ, d->only_a, d->only_b);
    if (d->nscene)
        pk_buf_printf(f, "\"scene\":%zu,\"scene_differ\":%zu,", d->nscene, d->scene_differ);
    pk_buf_puts(f, "\"max_angle_deg\":");
    j_real(f, round6(max));
    pk_buf_printf(f, ",\"differ\":%s}}\n", pk_diff_any(d) ? "true" : "false");
}

/* ------------------------------------------------------------ summaries */

/* retarget with models: one line per step that ran (fold, stance, scale),
 * after the rename line. */
static void retarget_summary(const pk_step *s, const pk_retarget_report *t, pk_buf *out)
{
    const pk_fold_report *f = &t->fold;
    if (t->fold_done) {
        if (f->nfolded) {
            pk_buf_printf(out, "\nfold: ");
            for (size_t i = 0; i < f->nfolded; i++)
                pk_buf_printf(out, "%s%s", i ? "; " : "", f->folded[i]);
            pk_buf_printf(out, " (%zu track%s rewritten, %zu key%s removed, %zu added",
                          f->tracks, plural(f->tracks), f->keys_removed, plural(f->keys_removed),
                          f->keys_added);
            if (s->o.verbose)
                pk_buf_printf(out, "; %zu piece%s cut in two, fitted within %.4f deg / %.5f",
                              f->splits, plural(f->splits), f->worst_deg, f->worst_pos);
            pk_buf_printf(out, ")");
        } else {
            pk_buf_printf(out, "\nfold: nothing to fold (the target has every bone the input "
                               "keys, or none of them)");
        }
        if (f->nkept) {
            pk_buf_printf(out, "\nfold: left alone (only the source model has them, nothing "
                               "below them on the target): ");
            for (size_t i = 0; i < f->nkept; i++)
                pk_buf_printf(out, "%s%s", i ? ", " : "", f->kept[i]);
        }
    }
    if (t->stance_done) {
        const pk_stance *st = &t->stance;
        pk_buf_printf(out, "\nstance:");
        size_t fingers = 0;
        double fmax = 0;
        for (size_t i = 0; i < st->n; i++) {
            const pk_stance_segment *g = &st->seg[i];
            bool arm = strstr(g->bone, "腕") || strstr(g->bone, "ひじ");
            if (!arm && !s->o.verbose) {
                fingers++;
                if (g->deg > fmax)
                    fmax = g->deg;
                continue;
            }
            pk_buf_printf(out, "%s %s->%s %.2f deg%s", i ? "," : "", g->bone, g->child, g->deg,
                          g->by_rules ? " (rules win)" : "");
        }
        if (fingers)
            pk_buf_printf(out, ", hand and fingers: %zu segment%s, up to %.2f deg", fingers,
                          plural(fingers), fmax);
    }
    if (t->scale_done) {
        const pk_leg_scale *c = &t->scale;
        pk_buf_printf(out,
                      "\nscale: XZ %.4f (leg %.3f -> %.3f), Y %.4f (height %.3f -> %.3f); "
                      "feet moved by (%.3f, %.3f, %.3f) left, (%.3f, %.3f, %.3f) right",
                      c->xz, c->len_a, c->len_b, c->y, c->height_a, c->height_b,
                      c->ik_shift[0][0], c->ik_shift[0][1], c->ik_shift[0][2], c->ik_shift[1][0],
                      c->ik_shift[1][1], c->ik_shift[1][2]);
    }
}

int pk_step_summary(const pk_step *s, const pk_step_result *r, pk_buf *out)
{
    const pk_edit_stats *e = &r->edit;
    const pk_overlay_stats *o = &r->overlay;
    switch (s->op) {
    case PK_STEP_CONVERT:
        break;
    case PK_STEP_DIFF:
        if (r->diff)
            diff_summary(s, r->diff, out);
        break;
    case PK_STEP_MIRROR:
        pk_buf_printf(out, "%zu of %zu bones swapped left/right", e->bones_renamed, e->bones);
        if (e->ik_renamed)
            pk_buf_printf(out, ", %zu IK names swapped", e->ik_renamed);
        if (e->morphs_renamed)
            pk_buf_printf(out, ", %zu of %zu morphs swapped", e->morphs_renamed, e->morphs);
        pk_buf_printf(out, ", %zu keys mirrored", e->keys_changed);
        break;
    case PK_STEP_RENAME:
    case PK_STEP_RETARGET:
        pk_buf_printf(out, "%zu of %zu bones renamed, %zu of %zu morphs renamed", e->bones_renamed,
                      e->bones, e->morphs_renamed, e->morphs);
        if (e->ik_renamed)
            pk_buf_printf(out, ", %zu IK names renamed", e->ik_renamed);
        if (s->op == PK_STEP_RETARGET)
            pk_buf_printf(out, "; %zu keys changed, %zu added", e->keys_changed, e->keys_added);
        if (s->op == PK_STEP_RETARGET && r->retarget_models)
            retarget_summary(s, &r->retarget, out);
        break;
    case PK_STEP_OVERLAY:
        pk_buf_printf(out, "%zu bone%s changed, %zu morph%s changed", o->bones, plural(o->bones),
                      o->morphs, plural(o->morphs));
        if (r->motion_in)
            pk_buf_printf(out,
                          ", %zu key%s removed, %zu added; crossed segments: %zu split (%zu of "
                          "them linear or still), %zu baked into %zu keys",
                          o->keys_removed, plural(o->keys_removed), o->keys_added, o->split,
                          o->split_exact, o->baked, o->baked_keys);
        break;
    case PK_STEP_MERGE: {
        const pk_merge_report *m = &r->merge;
        static const char *const POL[] = {"last", "first", "error"};
        pk_buf_printf(out,
                      "%zu conflict%s (%sprefer %s), %zu identical key%s kept once, %zu key%s "
                      "below frame 0 dropped",
                      m->count, plural(m->count), s->prefix, POL[s->o.prefer % 3], m->identical,
                      plural(m->identical), m->below_zero, plural(m->below_zero));
        pk_buf_printf(out, "; %zu overlapping track%s", m->noverlaps, plural(m->noverlaps));
        if (m->cut_keys)
            pk_buf_printf(out, ", %zu key%s kept at a cut", m->cut_keys, plural(m->cut_keys));
        if (m->within_tracks)
            pk_buf_printf(out, ", %zu track%s laid within (%zu crossed piece%s baked)",
                          m->within_tracks, plural(m->within_tracks), m->within_baked,
                          plural(m->within_baked));
        break;
    }
    default:
        break;
    }
    return out->oom ? -1 : 0;
}

int pk_step_report(const pk_step *s, const pk_step_result *r, pk_report_format fmt, pk_buf *out)
{
    if (s->op == PK_STEP_DIFF && r->diff) {
        if (fmt == PK_REPORT_JSON)
            diff_json(s, r, out);
        else if (fmt == PK_REPORT_CSV)
            diff_csv(s, r, out);
        else
            diff_table(s, r, out);
        return out->oom ? -1 : 0;
    }
    size_t before = out->len;
    if (pk_step_summary(s, r, out) != 0)
        return -1;
    if (out->len > before)
        pk_buf_putc(out, '\n');
    return out->oom ? -1 : 0;
}
