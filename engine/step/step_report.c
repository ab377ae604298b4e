/* step_report.c — what a step did, as text the CLI prints and a job writes
 * byte for byte: the summary lines, and diff's table, JSON and CSV
 * (posekit.h, "steps"). */
#include "common/number.h"
#include "common/utf8.h"
#include "step/step_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

static void diff_summary(const pk_step *s, const pk_diff *d, bool motion_in, pk_buf *f)
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
    else if (pk_step_given(s, "frame") || motion_in) /* a motion is compared at a frame */
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
        pk_buf_printf(f, ", %zu of %zu camera/light/shadow/IK channels differ", d->scene_differ,
                      d->nscene);
    if (d->only_a || d->only_b)
        pk_buf_printf(f, "; only in A: %zu, only in B: %zu", d->only_a, d->only_b);
    if (motion_in && !d->range && !pk_step_given(s, "frame")) /* the same words in a job */
        pk_buf_printf(f, " (a motion at frame 0 only: frames all compares every frame)");
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
                              "camera, light, shadow, IK");
            else
                pk_buf_printf(f, "%9s  %s\n", "delta", "camera, light, shadow, IK");
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
    diff_summary(s, d, res->motion_in, f);
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
    pk_buf_puts(f, groups ? ",group_bones,group_differ,group_max_bone\n" : "\n");
    const char *tail = groups ? ",,," : ""; /* the group columns of other rows */
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
            pk_buf_printf(f, ",%.6f,%.6f,%u,,,,,,,,,,%d,%zu,%zu,", group_deg(g), g->max_pos,
                          g->top ? g->top->angle_frame : 0, g->bones_differ > 0, g->bones,
                          g->bones_differ);
        else
            pk_buf_printf(f, ",%.6f,%.6f,,,,,,,,,,,%d,%zu,%zu,", group_deg(g), g->max_pos,
                          g->bones_differ > 0, g->bones, g->bones_differ);
        if (g->top) /* the bone the table shows in brackets, JSON's max_bone */
            csv_name(f, g->top->name);
        pk_buf_putc(f, '\n');
    }
}

/* ---- JSON, compact, byte for byte what jansson prints with 9 digits ---- */

/* A JSON string's body; a byte that is not UTF-8 becomes the text \xNN. */
static void j_body(pk_buf *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        size_t n = pk_utf8_seq(p);
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

static void j_key(pk_buf *f, bool *first, const char *k)
{
    if (!*first)
        pk_buf_putc(f, ',');
    *first = false;
    j_str(f, k);
    pk_buf_putc(f, ':');
}

/* A member holding a number rounded to 6 decimals, or a frame. */
static void j_num(pk_buf *f, bool *first, const char *k, double v)
{
    j_key(f, first, k);
    pk_num_json(f, round6(v));
}

static void j_frame(pk_buf *f, bool *first, const char *k, uint32_t frame)
{
    j_key(f, first, k);
    pk_buf_printf(f, "%u", frame);
}

/* The end of a diff row (bone, morph, scene channel): where it is found
 * when on one side only, whether it differs, and the closing brace. */
static void j_row_end(pk_buf *f, bool *first, int only_in, bool differs)
{
    if (only_in) {
        j_key(f, first, "only_in");
        j_str(f, only_text(only_in));
    }
    j_key(f, first, "differs");
    pk_buf_puts(f, differs ? "true}" : "false}");
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
    pk_num_json(f, s->o.threshold);
    pk_buf_puts(f, ",\"pos\":");
    pk_num_json(f, s->o.pos_threshold);
    pk_buf_puts(f, ",\"morph\":");
    pk_num_json(f, 0.0001);
    pk_buf_putc(f, '}');
    j_key(f, &first, "bones");
    pk_buf_putc(f, '[');
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        bool k = true;
        pk_buf_puts(f, i ? ",{" : "{");
        j_key(f, &k, "name");
        j_str(f, r->name);
        j_num(f, &k, "angle_deg", r->angle_deg);
        j_num(f, &k, "pos_delta", r->pos_delta);
        if (d->range) {
            j_frame(f, &k, "angle_frame", r->angle_frame);
            j_num(f, &k, "angle_mean", r->angle_mean);
            j_frame(f, &k, "pos_frame", r->pos_frame);
            j_num(f, &k, "pos_mean", r->pos_mean);
        }
        j_row_end(f, &k, r->only_in, r->differs);
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
        j_num(f, &k, "weight_a", r->weight_a);
        j_num(f, &k, "weight_b", r->weight_b);
        j_num(f, &k, "delta", r->delta);
        if (d->range) {
            j_frame(f, &k, "frame", r->frame);
            j_num(f, &k, "mean", r->mean);
        }
        j_row_end(f, &k, r->only_in, r->differs);
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
            j_num(f, &k, "delta", r->delta);
            if (d->range) {
                j_frame(f, &k, "frame", r->frame);
                j_num(f, &k, "mean", r->mean);
            }
            j_row_end(f, &k, r->only_in, r->differs);
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
            j_num(f, &k, "max_angle_deg", group_deg(g));
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
            j_num(f, &k, "max_pos_delta", g->max_pos);
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
    pk_num_json(f, round6(max));
    pk_buf_printf(f, ",\"differ\":%s}}\n", pk_diff_any(d) ? "true" : "false");
}

/* ------------------------------------------------------ reduce and bake */


static void keys_summary(const pk_step *s, const pk_reduce_stats *st, pk_buf *f)
{
    pk_buf_printf(f,
                  "bone keys %zu -> %zu, morph keys %zu -> %zu (%zu bone and %zu morph tracks "
                  "rewritten)",
                  st->keys_before[PK_SEC_BONE], st->keys_after[PK_SEC_BONE],
                  st->keys_before[PK_SEC_MORPH], st->keys_after[PK_SEC_MORPH], st->bone_tracks,
                  st->morph_tracks);
    if (s->o.camera)
        pk_buf_printf(f, ", camera keys %zu -> %zu", st->keys_before[PK_SEC_CAMERA],
                      st->keys_after[PK_SEC_CAMERA]);
    if (s->op == PK_STEP_REDUCE) {
        pk_buf_printf(f, "; worst error %.4g deg, %.4g units, %.4g weight", st->worst_deg,
                      st->worst_pos, st->worst_morph);
        if (s->o.camera)
            pk_buf_printf(f, ", camera %.4g deg, %.4g units", st->worst_cam_deg,
                          st->worst_cam_pos);
        pk_buf_printf(f, "; %zu jump%s kept", st->discontinuities, plural(st->discontinuities));
    }
}

/* One line: keys before and after per section, tracks, and (reduce) the
 * worst error met. */
static void keys_json(const pk_step *s, const pk_reduce_stats *st, pk_buf *f)
{
    pk_buf_printf(f, "{\"command\": \"%s\", \"sections\": {", pk_step_op_name(s->op));
    for (int i = 0; i < PK_SEC_COUNT; i++)
        pk_buf_printf(f, "%s\"%s\": {\"before\": %zu, \"after\": %zu}", i ? ", " : "",
                      pk_section_word((pk_section)i), st->keys_before[i], st->keys_after[i]);
    pk_buf_printf(f, "}, \"bone_tracks\": %zu, \"morph_tracks\": %zu", st->bone_tracks,
                  st->morph_tracks);
    if (s->o.camera)
        pk_buf_printf(f, ", \"camera_tracks\": %zu", st->camera_tracks);
    if (s->op == PK_STEP_REDUCE) {
        pk_buf_printf(f,
                      ", \"discontinuities\": %zu, \"refitted\": %zu, \"worst\": {\"deg\": %.6g, "
                      "\"pos\": %.6g, \"morph\": %.6g",
                      st->discontinuities, st->refitted, st->worst_deg, st->worst_pos,
                      st->worst_morph);
        if (s->o.camera)
            pk_buf_printf(f, ", \"camera_deg\": %.6g, \"camera_pos\": %.6g", st->worst_cam_deg,
                          st->worst_cam_pos);
        pk_buf_puts(f, "}");
    }
    pk_buf_puts(f, "}\n");
}

/* ---------------------------------------------------------------- check */

static const char *status_word(pk_check_status st)
{
    return st == PK_CHECK_FOUND ? "found" : st == PK_CHECK_CUT ? "cut" : "missing";
}

/* The model's name for an item: found or cut, the match; missing, the
 * near miss; NULL when none. */
static const char *model_name(const pk_model *m, const pk_check_item *it)
{
    if (it->index < 0)
        return NULL;
    return it->morph ? m->morphs[it->index].name : m->bones[it->index].name;
}

/* The k-th model name a cut name matches (pk_check_item.matches). */
static const char *match_name(const pk_model *m, const pk_check_item *it, size_t k)
{
    long i = it->matches[k];
    return it->morph ? m->morphs[i].name : m->bones[i].name;
}

/* Whether the model's bone is one the motion could key but never does. */
static bool unkeyed(const pk_model *m, const pk_check_report *r, const pk_model_frame_item *x)
{
    return x->kind == 0 && !r->keyed[x->index] && (m->bones[x->index].flags & PK_BONE_OPERABLE);
}

static void check_counts(const pk_check_report *r, size_t *nb, size_t *nm, size_t *mb, size_t *mm)
{
    *nb = *nm = *mb = *mm = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        *(it->morph ? nm : nb) += 1;
        if (it->status == PK_CHECK_MISSING)
            *(it->morph ? mm : mb) += 1;
    }
}

static void check_summary(const pk_step_result *res, pk_buf *f)
{
    const pk_check_report *r = res->check;
    size_t nb, nm, mb, mm;
    check_counts(r, &nb, &nm, &mb, &mm);
    pk_buf_printf(f, "bones keyed: %zu, missing on the model: %zu; morphs keyed: %zu, missing on "
                     "the model: %zu",
                  nb, mb, nm, mm);
    if (r->near)
        pk_buf_printf(f, "; %zu near miss%s", r->near, r->near == 1 ? "" : "es");
    if (r->cut)
        pk_buf_printf(f, "; %zu found through MMD's %zu-byte cut", r->cut, res->check_field);
    if (r->unusable)
        pk_buf_printf(f, "; %zu with keys the model cannot use", r->unusable);
}

static void check_text(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const pk_check_report *r = res->check;
    const pk_model *m = res->check_model;
    size_t nb, nm, mb, mm;
    check_counts(r, &nb, &nm, &mb, &mm);
    pk_buf_printf(f, "%s on %s (%s)\n", s->inputs[0], s->o.model, m->name);
    pk_buf_printf(f, "  bones keyed: %zu, missing on the model: %zu\n", nb, mb);
    pk_buf_printf(f, "  morphs keyed: %zu, missing on the model: %zu\n", nm, mm);
    if (r->missing) {
        pk_buf_puts(f, "missing (MMD ignores their keys):\n");
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->status != PK_CHECK_MISSING)
                continue;
            pk_buf_printf(f, "  %-5s %s (%zu keys)", it->morph ? "morph" : "bone", it->name,
                          it->keys);
            if (it->index >= 0)
                pk_buf_printf(f, "  near miss: %s (%s)", model_name(m, it), it->why);
            pk_buf_putc(f, '\n');
        }
    }
    if (r->cut) {
        pk_buf_printf(f, "found through MMD's %zu-byte cut of the model's name:\n",
                      res->check_field);
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->status != PK_CHECK_CUT)
                continue;
            pk_buf_printf(f, "  %-5s %s (%zu keys) = %s", it->morph ? "morph" : "bone",
                          it->name, it->keys, model_name(m, it));
            /* several model names cut to the same bytes: the file cannot
             * say which was meant (posekit's evaluation gives the keys to
             * all of them, README "check") */
            for (size_t k = 1; k < it->nmatches; k++)
                pk_buf_printf(f, ", %s", match_name(m, it, k));
            if (it->nmatches > 1)
                pk_buf_printf(f, " (ambiguous: %zu model %s cut to this name; the file "
                                 "cannot say which it keys)",
                              it->nmatches, it->morph ? "morphs" : "bones");
            pk_buf_putc(f, '\n');
        }
    }
    if (r->unusable) {
        pk_buf_puts(f, "keys the model cannot use:\n");
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->move_unusable)
                pk_buf_printf(f, "  bone  %s: %zu keys translate it; the model does not let it "
                                 "move\n",
                              it->name, it->move_unusable);
            if (it->rotate_unusable)
                pk_buf_printf(f, "  bone  %s: %zu keys rotate it; the model does not let it "
                                 "rotate\n",
                              it->name, it->rotate_unusable);
        }
    }
    /* informative: operable bones never keyed, by display frame */
    bool header = false;
    for (size_t fr = 0; fr < m->nframes; fr++) {
        const pk_model_frame *d = &m->frames[fr];
        bool any = false;
        for (size_t k = 0; k < d->nitems; k++) {
            if (!unkeyed(m, r, &d->items[k]))
                continue;
            if (!header)
                pk_buf_puts(f, "model bones the motion never keys (by display frame):\n");
            header = true;
            if (!any)
                pk_buf_printf(f, "  %s:", d->name);
            any = true;
            pk_buf_printf(f, " %s", m->bones[d->items[k].index].name);
        }
        if (any)
            pk_buf_putc(f, '\n');
    }
}

/* Indented JSON, byte for byte what jansson prints with JSON_INDENT(2)
 * (empty containers as {} and [], ", " nowhere, ": " after keys). */
typedef struct jout {
    pk_buf *f;
    int depth;
    size_t count[8];
} jout;

static void jo_item(jout *j)
{
    if (j->depth == 0)
        return;
    if (j->count[j->depth]++)
        pk_buf_putc(j->f, ',');
    pk_buf_putc(j->f, '\n');
    for (int i = 0; i < j->depth * 2; i++)
        pk_buf_putc(j->f, ' ');
}

static void jo_open(jout *j, char c)
{
    pk_buf_putc(j->f, (uint8_t)c);
    j->depth++;
    j->count[j->depth] = 0;
}

static void jo_close(jout *j, char c)
{
    bool any = j->count[j->depth] > 0;
    j->depth--;
    if (any) {
        pk_buf_putc(j->f, '\n');
        for (int i = 0; i < j->depth * 2; i++)
            pk_buf_putc(j->f, ' ');
    }
    pk_buf_putc(j->f, (uint8_t)c);
}

static void jo_key(jout *j, const char *k)
{
    jo_item(j);
    j_str(j->f, k);
    pk_buf_puts(j->f, ": ");
}

static void jo_str(jout *j, const char *k, const char *v)
{
    jo_key(j, k);
    j_str(j->f, v);
}

static void jo_int(jout *j, const char *k, size_t v)
{
    jo_key(j, k);
    pk_buf_printf(j->f, "%zu", v);
}

static void check_json(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const pk_check_report *r = res->check;
    const pk_model *m = res->check_model;
    jout j = {f, 0, {0}};
    jo_open(&j, '{');
    jo_str(&j, "file", s->inputs[0]);
    jo_str(&j, "model_file", s->o.model);
    jo_str(&j, "model", m->name);
    jo_int(&j, "missing", r->missing);
    jo_int(&j, "cut", r->cut);
    for (int morphs = 0; morphs < 2; morphs++) {
        jo_key(&j, morphs ? "morphs" : "bones");
        jo_open(&j, '[');
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->morph != (morphs == 1))
                continue;
            jo_item(&j);
            jo_open(&j, '{');
            jo_str(&j, "name", it->name);
            jo_int(&j, "keys", it->keys);
            jo_str(&j, "status", status_word(it->status));
            const char *mn = model_name(m, it);
            if (it->status != PK_CHECK_MISSING) {
                jo_str(&j, "model_name", mn);
                if (it->status == PK_CHECK_CUT) { /* every name cut to it, model_name first */
                    jo_key(&j, "model_names");
                    jo_open(&j, '[');
                    for (size_t k = 0; k < it->nmatches; k++) {
                        jo_item(&j);
                        j_str(f, match_name(m, it, k));
                    }
                    jo_close(&j, ']');
                }
            } else if (mn) {
                jo_key(&j, "near_miss");
                jo_open(&j, '{');
                jo_str(&j, "name", mn);
                jo_str(&j, "why", it->why);
                jo_close(&j, '}');
            } else {
                jo_key(&j, "near_miss");
                pk_buf_puts(f, "null");
            }
            if (!it->morph) {
                jo_int(&j, "move_unusable", it->move_unusable);
                jo_int(&j, "rotate_unusable", it->rotate_unusable);
            }
            jo_close(&j, '}');
        }
        jo_close(&j, ']');
    }
    jo_key(&j, "unkeyed");
    jo_open(&j, '[');
    for (size_t fr = 0; fr < m->nframes; fr++) {
        const pk_model_frame *d = &m->frames[fr];
        size_t n = 0;
        for (size_t k = 0; k < d->nitems; k++)
            n += unkeyed(m, r, &d->items[k]);
        if (!n)
            continue;
        jo_item(&j);
        jo_open(&j, '{');
        jo_str(&j, "frame", d->name);
        jo_key(&j, "bones");
        jo_open(&j, '[');
        for (size_t k = 0; k < d->nitems; k++)
            if (unkeyed(m, r, &d->items[k])) {
                jo_item(&j);
                j_str(f, m->bones[d->items[k].index].name);
            }
        jo_close(&j, ']');
        jo_close(&j, '}');
    }
    jo_close(&j, ']');
    jo_close(&j, '}');
    pk_buf_putc(f, '\n');
}

static void yaml_quoted(pk_buf *b, const char *s)
{
    pk_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            pk_buf_putc(b, '\\');
        pk_buf_putc(b, (uint8_t)*s);
    }
    pk_buf_putc(b, '"');
}

/* The rules file (rules/README.md): for each missing name with a near
 * miss, a rename to the model's name (cut to the field on a character
 * boundary when the model's name is longer, which MMD then matches by its
 * cut), one comment per rule saying why. */
static void check_rules(const pk_step *s, const pk_step_result *res, pk_buf *b)
{
    const pk_check_report *r = res->check;
    const pk_model *m = res->check_model;
    const char *path = s->inputs[0];
    pk_buf_printf(b,
                  "# Suggested by `posekit check %s --model %s`:\n"
                  "# each missing name renamed to the model's closest name.\n"
                  "# Apply with: posekit rename %s --rules THIS_FILE -o OUT\n",
                  path, s->o.model, path);
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->morph != (pass == 1) || it->status != PK_CHECK_MISSING)
                continue;
            if (!any)
                pk_buf_puts(b, pass ? "morphs:\n" : "rename:\n");
            any = true;
            if (it->index < 0) {
                pk_buf_printf(b, "  # %s (%zu keys): no near miss on the model; left as is\n",
                              it->name, it->keys);
                continue;
            }
            pk_name_id id = it->morph ? m->morphs[it->index].cp932 : m->bones[it->index].cp932;
            const char *target = model_name(m, it);
            /* a target another keyed name already has, or a second source
             * for one target, would make the rename fail */
            bool clash = false;
            for (size_t k = 0; k < r->nitems; k++) {
                const pk_check_item *o = &r->items[k];
                if (k == i || o->morph != it->morph || o->index != it->index)
                    continue;
                if (o->status != PK_CHECK_MISSING || k < i)
                    clash = true;
            }
            if (clash || id == PK_NO_NAME) {
                pk_buf_printf(b, "  # %s -> %s not suggested: %s\n", it->name, target,
                              clash ? "the motion already keys that name (or an earlier rule "
                                      "maps to it)"
                                    : "CP932 cannot hold the model's name");
                continue;
            }
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, id, &len);
            char *cut = NULL;
            if (len > res->check_field) {
                cut = pk_cp932_to_utf8(raw, pk_cp932_boundary(raw, res->check_field), NULL);
                if (!cut) {
                    b->oom = true;
                    return;
                }
            }
            pk_buf_printf(b, "  # %s (%zu keys) -> %s: %s%s\n", it->name, it->keys, target,
                          it->why, cut ? "; cut to the field, which MMD matches" : "");
            pk_buf_puts(b, "  ");
            yaml_quoted(b, it->name);
            pk_buf_puts(b, ": ");
            yaml_quoted(b, cut ? cut : target);
            pk_buf_putc(b, '\n');
            free(cut);
        }
    }
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
        } else if (!f->ntwisted) {
            pk_buf_printf(out, "\nfold: nothing to fold (the target has every bone the input "
                               "keys, or none of them)");
        }
        if (f->ntwisted) {
            pk_buf_printf(out, "\nfold: %zu bone%s turned only about the fixed axis the source "
                               "model gives %s: ",
                          f->ntwisted, plural(f->ntwisted), f->ntwisted == 1 ? "it" : "them");
            for (size_t i = 0; i < f->ntwisted; i++)
                pk_buf_printf(out, "%s%s", i ? ", " : "", f->twisted[i]);
            pk_buf_printf(out, " (keys cut to that twist: the target has no such axis");
            if (!f->nfolded)
                pk_buf_printf(out, "; %zu track%s rewritten, %zu key%s removed, %zu added",
                              f->tracks, plural(f->tracks), f->keys_removed,
                              plural(f->keys_removed), f->keys_added);
            pk_buf_printf(out, ")");
        }
        if (f->nkept) {
            /* hair and cloth bones of a rich model can be a hundred names:
             * the first few unless asked */
            size_t shown = s->o.verbose || f->nkept <= 8 ? f->nkept : 6;
            pk_buf_printf(out, "\nfold: %zu bone%s only the source model has left alone (nothing "
                               "below them on the target): ",
                          f->nkept, plural(f->nkept));
            for (size_t i = 0; i < shown; i++)
                pk_buf_printf(out, "%s%s", i ? ", " : "", f->kept[i]);
            if (shown < f->nkept)
                pk_buf_printf(out, " and %zu more (%sverbose lists them)", f->nkept - shown,
                              s->prefix);
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
        double v[6]; /* no "-0.000" */
        for (int k = 0; k < 6; k++)
            v[k] = fabs(c->ik_shift[k / 3][k % 3]) < 0.0005 ? 0.0 : c->ik_shift[k / 3][k % 3];
        pk_buf_printf(out,
                      "\nscale: XZ %.4f (leg %.3f -> %.3f), Y %.4f (height %.3f -> %.3f); "
                      "feet moved by (%.3f, %.3f, %.3f) left, (%.3f, %.3f, %.3f) right",
                      c->xz, c->len_a, c->len_b, c->y, c->height_a, c->height_b, v[0], v[1], v[2],
                      v[3], v[4], v[5]);
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
            diff_summary(s, r->diff, r->motion_in, out);
        break;
    case PK_STEP_MIRROR:
        pk_buf_printf(out, "%zu of %zu bones swapped left/right", e->bones_renamed, e->bones);
        if (e->ik_renamed)
            pk_buf_printf(out, ", %zu IK names swapped", e->ik_renamed);
        if (e->morphs_renamed)
            pk_buf_printf(out, ", %zu of %zu morphs swapped", e->morphs_renamed, e->morphs);
        pk_buf_printf(out, ", %zu keys mirrored", e->keys_changed);
        for (size_t i = 0; s->o.verbose && i < e->nunmatched; i++)
            pk_buf_printf(out, "\nno partner for '%s' (mirrored in place)", e->unmatched[i]);
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
        for (size_t i = 0; s->o.verbose && i < e->nunmatched; i++)
            pk_buf_printf(out, "\nno rule for '%s'", e->unmatched[i]);
        break;
    case PK_STEP_OVERLAY:
        pk_buf_printf(out, "%zu bone%s changed, %zu morph%s changed", o->bones, plural(o->bones),
                      o->morphs, plural(o->morphs));
        if (r->motion_in)
            pk_buf_printf(out,
                          ", %zu key%s removed, %zu added; crossed segments: %zu split (%zu of "
                          "them linear or still), %zu fitted (%zu inner key%s), %zu baked into "
                          "%zu keys",
                          o->keys_removed, plural(o->keys_removed), o->keys_added, o->split,
                          o->split_exact, o->fitted, o->fitted_keys, plural(o->fitted_keys),
                          o->baked, o->baked_keys);
        break;
    case PK_STEP_REDUCE:
    case PK_STEP_BAKE:
        keys_summary(s, &r->reduce, out);
        break;
    case PK_STEP_CHECK:
        if (r->check)
            check_summary(r, out);
        break;
    case PK_STEP_DRAW:
        if (r->drawing) {
            size_t n = pk_drawing_figures(r->drawing);
            pk_buf_printf(out, "%zu figure%s drawn", n, plural(n));
            if (pk_step_given(s, "vs")) /* the JSON lists both of each pair */
                pk_buf_printf(out, ", the two poses overlaid in each");
        }
        break;
    case PK_STEP_MERGE: {
        const pk_merge_report *m = &r->merge;
        static const char *const POL[] = {"last", "first", "error"};
        pk_buf_printf(out,
                      "%zu conflict%s (%sprefer %s), %zu identical key%s kept once, %zu key%s "
                      "below frame 0 dropped",
                      m->count, plural(m->count), s->prefix, POL[s->o.prefer % 3], m->identical,
                      plural(m->identical), m->below_zero, plural(m->below_zero));
        if (m->past_end)
            pk_buf_printf(out, ", %zu past frame 4294967295", m->past_end);
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

bool pk_step_report_has(pk_step_op op, pk_report_format f)
{
    switch (f) {
    case PK_REPORT_TEXT:
        return (unsigned)op < PK_STEP_COUNT;
    case PK_REPORT_JSON:
        return op == PK_STEP_DIFF || op == PK_STEP_CHECK || op == PK_STEP_REDUCE ||
               op == PK_STEP_BAKE || op == PK_STEP_DRAW || op == PK_STEP_OVERLAY;
    case PK_REPORT_SVG:
        return op == PK_STEP_DRAW;
    case PK_REPORT_CSV:
        return op == PK_STEP_DIFF;
    case PK_REPORT_RULES:
        return op == PK_STEP_CHECK;
    }
    return false;
}

int pk_step_report(const pk_step *s, const pk_step_result *r, pk_report_format fmt, pk_buf *out)
{
    if (!pk_step_report_has(s->op, fmt))
        return -1;
    if (s->op == PK_STEP_CHECK && r->check && r->check_model) {
        if (fmt == PK_REPORT_JSON)
            check_json(s, r, out);
        else if (fmt == PK_REPORT_RULES)
            check_rules(s, r, out);
        else
            check_text(s, r, out);
        return out->oom ? -1 : 0;
    }
    if (s->op == PK_STEP_DRAW && r->drawing && fmt != PK_REPORT_TEXT)
        return fmt == PK_REPORT_SVG ? pk_draw_svg(r->drawing, out)
                                    : pk_draw_json(r->drawing, out);
    if ((s->op == PK_STEP_REDUCE || s->op == PK_STEP_BAKE) && fmt == PK_REPORT_JSON) {
        keys_json(s, &r->reduce, out);
        return out->oom ? -1 : 0;
    }
    if (s->op == PK_STEP_OVERLAY && fmt == PK_REPORT_JSON) {
        const pk_overlay_stats *o = &r->overlay;
        pk_buf_printf(out,
                      "{\"command\": \"overlay\", \"bones\": %zu, \"morphs\": %zu, \"missing\": %zu, "
                      "\"morphs_missing\": %zu, \"keys_removed\": %zu, \"keys_added\": %zu, "
                      "\"crossed\": {\"split\": %zu, \"split_exact\": %zu, \"fitted\": %zu, "
                      "\"fitted_keys\": %zu, \"baked\": %zu, \"baked_keys\": %zu}}\n",
                      o->bones, o->morphs, o->missing, o->morphs_missing, o->keys_removed,
                      o->keys_added, o->split, o->split_exact, o->fitted, o->fitted_keys, o->baked,
                      o->baked_keys);
        return out->oom ? -1 : 0;
    }
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
