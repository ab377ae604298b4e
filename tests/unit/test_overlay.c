/* test_overlay.c — the overlay's promises checked at EVERY integer frame.
 *
 * For every corpus motion, three of its busiest bones get a pose and the
 * overlay is run in many configurations (replace/add, with and without
 * fade, ranges through curved segments, a single frame, ranges before the
 * first key and after the last, the whole motion).  The checks use values
 * computed here, independently of overlay.c:
 *   - outside [A-F, B+F]: the result samples as the base (1e-4 deg, 1e-5);
 *   - inside [A, B]: replace = the pose; add = base x pose, base + pose
 *     (quaternion product and slerp in double, written here);
 *   - fades: slerp/lerp from the base at A-F to the overlay at A (and back)
 *     with the documented ease curve (Bezier solved here by bisection);
 *   - records of other bones and every other section: byte-identical.
 * Plus hand-made cases with known answers. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL_DEG 1e-4
#define TOL_POS 1e-5
#define TOL_W 1e-5 /* morph weight */

/* ---- independent reference math ---- */

static long double bern(long double p1, long double p2, long double t)
{
    long double u = 1.0L - t;
    return 3.0L * u * u * t * p1 + 3.0L * u * t * t * p2 + t * t * t;
}

static double ref_ease(double s)
{
    /* PK_FADE_CURVE = (53, 0, 74, 127) */
    long double lo = 0.0L, hi = 1.0L;
    for (int i = 0; i < 80; i++) {
        long double mid = 0.5L * (lo + hi);
        if (bern(53 / 127.0L, 74 / 127.0L, mid) < (long double)s)
            lo = mid;
        else
            hi = mid;
    }
    return (double)bern(0.0L, 1.0L, 0.5L * (lo + hi));
}

static void dnorm(const float q[4], double out[4])
{
    double n =
        sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        out[i] = q[i] / n;
}

static void dmul(const double a[4], const double b[4], double o[4])
{
    o[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    o[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    o[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    o[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

static void dslerp(const double a[4], const double b0[4], double u, double o[4])
{
    double b[4], d = 0;
    for (int i = 0; i < 4; i++)
        d += a[i] * b0[i];
    for (int i = 0; i < 4; i++)
        b[i] = d < 0 ? -b0[i] : b0[i];
    d = fabs(d);
    double wa = 1 - u, wb = u;
    if (d < 0.9999999) {
        double th = acos(d);
        wa = sin((1 - u) * th) / sin(th);
        wb = sin(u * th) / sin(th);
    }
    double n = 0;
    for (int i = 0; i < 4; i++) {
        o[i] = wa * a[i] + wb * b[i];
        n += o[i] * o[i];
    }
    for (int i = 0; i < 4; i++)
        o[i] /= sqrt(n);
}

/* Rotation angle between two quaternions in degrees (q = -q), by chord. */
static double dangle(const double a[4], const double b[4])
{
    double d = 0, c2 = 0;
    for (int i = 0; i < 4; i++)
        d += a[i] * b[i];
    for (int i = 0; i < 4; i++) {
        double e = a[i] - (d < 0 ? -b[i] : b[i]);
        c2 += e * e;
    }
    double h = sqrt(c2) / 2;
    return 4.0 * asin(h > 1 ? 1 : h) * 180.0 / 3.14159265358979323846;
}

typedef struct dval {
    double pos[3], rot[4];
} dval;

static void sample(const pk_motion *m, const pk_tracks *t, pk_name_id id, double f, dval *v)
{
    float p[3], r[4];
    pk_sample_bone(m, id == PK_NO_NAME ? NULL : pk_tracks_bone(t, id), f, p, r);
    for (int i = 0; i < 3; i++)
        v->pos[i] = p[i];
    dnorm(r, v->rot);
}

static double dist_pos(const dval *a, const dval *b)
{
    double w = 0;
    for (int i = 0; i < 3; i++)
        w = fmax(w, fabs(a->pos[i] - b->pos[i]));
    return w;
}

/* ---- configurations ---- */

typedef struct cfg {
    pk_overlay_mode mode;
    bool all;
    uint32_t a, b, f;
    const char *what;
} cfg;

typedef struct totals {
    size_t runs, frames, split, split_exact, baked, baked_keys, fitted, fitted_keys;
    size_t keys_exact, keys_fitted; /* bone records out, both modes */
} totals;

static totals g_tot;
static size_t g_morph_motions;

/* The overlay value over a base value. */
static void over(const cfg *c, const dval *base, const dval *pose, dval *o)
{
    if (c->mode == PK_OVERLAY_REPLACE) {
        *o = *pose;
        return;
    }
    dmul(base->rot, pose->rot, o->rot);
    for (int i = 0; i < 3; i++)
        o->pos[i] = base->pos[i] + pose->pos[i];
}

static void fail_at(const char *file, const char *bone, const cfg *c, uint32_t f, const char *what,
                    double deg, double pos)
{
    print_error("%s: bone %s, %s (A=%u B=%u F=%u %s): frame %u %s: %.3g deg, %.3g units\n", file,
                bone, c->what, c->a, c->b, c->f, c->mode == PK_OVERLAY_ADD ? "add" : "replace", f,
                what, deg, pos);
    fail();
}

static void expect_close(const char *file, const char *bone, const cfg *c, uint32_t f,
                         const char *what, const dval *got, const dval *want, double tol_deg,
                         double tol_pos)
{
    double deg = dangle(got->rot, want->rot), pos = dist_pos(got, want);
    if (deg > tol_deg || pos > tol_pos)
        fail_at(file, bone, c, f, what, deg, pos);
}

/* Compares the non-bone sections and the records of unselected bones. */
static void check_untouched(const char *file, const pk_motion *base, const pk_motion *out,
                            const bool *selected, const bool *msel)
{
    size_t j = 0;
    for (size_t i = 0; i < base->nbones; i++) {
        const pk_bone_key *k = &base->bones[i];
        if (selected[k->name])
            continue;
        while (j < out->nbones && out->bones[j].name < pk_names_count(base->names) &&
               selected[out->bones[j].name])
            j++;
        if (j >= out->nbones || memcmp(k, &out->bones[j], sizeof *k) != 0) {
            print_error("%s: record %zu of an unselected bone changed or moved\n", file, i);
            fail();
        }
        j++;
    }
    /* Records of unselected morphs: the same, in the same order. */
    j = 0;
    size_t nb = pk_names_count(base->names);
    for (size_t i = 0; i < base->nmorphs; i++) {
        const pk_morph_key *k = &base->morphs[i];
        if (msel[k->name])
            continue;
        while (j < out->nmorphs && out->morphs[j].name < nb && msel[out->morphs[j].name])
            j++;
        if (j >= out->nmorphs || memcmp(k, &out->morphs[j], sizeof *k) != 0) {
            print_error("%s: record %zu of an unselected morph changed or moved\n", file, i);
            fail();
        }
        j++;
    }
    /* Everything after the morph section, byte for byte. */
    pk_log log;
    pk_log_init(&log);
    pk_buf a, b;
    pk_buf_init(&a);
    pk_buf_init(&b);
    assert_int_equal(pk_vmd_write(base, &a, &log), 0);
    assert_int_equal(pk_vmd_write(out, &b, &log), 0);
    size_t head = base->version == 1 ? 40 : 50;
    size_t ta = head + 4 + base->nbones * 111, tb = head + 4 + out->nbones * 111;
    if (base->sections >= 2) {
        ta += 4 + base->nmorphs * 23;
        tb += 4 + out->nmorphs * 23;
    }
    assert_true(a.len >= ta && b.len >= tb);
    if (a.len - ta != b.len - tb || memcmp(a.data + ta, b.data + tb, a.len - ta) != 0) {
        print_error("%s: sections after the bones are not byte-identical\n", file);
        fail();
    }
    assert_memory_equal(a.data, b.data, head); /* header and model name */
    pk_buf_free(&a);
    pk_buf_free(&b);
    pk_log_free(&log);
}

static double msample(const pk_motion *m, const pk_tracks *t, pk_name_id id, double f)
{
    return pk_sample_morph(m, id == PK_NO_NAME ? NULL : pk_tracks_morph(t, id), f);
}

/* The morph laws at every frame: outside = the base; inside = the pose's
 * weight (replace) or base + pose (add); fades = linear ramps from the
 * base at A-F to the overlay at A and from the overlay at B to the base at
 * B+F (morph keys have no curve in MMD). */
static void check_morph(const char *file, const char *morph, const cfg *c, const pk_motion *base,
                        const pk_tracks *tb, pk_name_id ib, const pk_motion *out,
                        const pk_tracks *to, pk_name_id io, float pose_w, uint32_t end)
{
    uint32_t gap = c->f ? c->f : 1;
    uint32_t e0 = c->a >= gap ? c->a - gap : 0, e1 = c->b + gap;
    bool has_left = c->a > 0;
    double add = c->mode == PK_OVERLAY_ADD;
    double o_a = add ? msample(base, tb, ib, c->a) + pose_w : pose_w;
    double o_b = add ? msample(base, tb, ib, c->b) + pose_w : pose_w;
    double s_e0 = msample(base, tb, ib, e0), s_e1 = msample(base, tb, ib, e1);
    for (uint32_t f = 0; f <= end; f++) {
        double got = msample(out, to, io, f), bv = msample(base, tb, ib, f), want;
        const char *what;
        g_tot.frames++;
        if (c->all) {
            want = add ? bv + pose_w : pose_w;
            what = "whole motion";
        } else if ((has_left && f <= e0) || f >= e1) {
            want = bv;
            what = "outside";
        } else if (f >= c->a && f <= c->b) {
            want = add ? bv + pose_w : pose_w;
            what = "inside";
        } else if (f < c->a) {
            want = s_e0 + (o_a - s_e0) * (double)(f - e0) / (double)(c->a - e0);
            what = "fade in";
        } else {
            want = o_b + (s_e1 - o_b) * (double)(f - c->b) / (double)(e1 - c->b);
            what = "fade out";
        }
        if (fabs(got - want) > TOL_W) {
            print_error("%s: morph %s, %s (A=%u B=%u F=%u %s): frame %u %s: weight %.7g, want "
                        "%.7g\n",
                        file, morph, c->what, c->a, c->b, c->f,
                        c->mode == PK_OVERLAY_ADD ? "add" : "replace", f, what, got, want);
            fail();
        }
    }
}

/* Runs one overlay and checks every frame of every selected bone: exact
 * (pieces split within PK_OVERLAY_TOL_* or baked) against TOL_DEG/TOL_POS,
 * fitting (the default) against PK_OVERLAY_FIT_DEG/POS.  Returns the
 * output's bone records. */
static size_t run_one(const char *file, const pk_motion *base, const pk_pose *pose,
                      const pk_selection *sel, const cfg *c, bool exact)
{
    pk_overlay_options o = {c->mode, c->all, c->a, c->b, c->f, exact};
    const double tol_deg = exact ? TOL_DEG : PK_OVERLAY_FIT_DEG;
    const double tol_pos = exact ? TOL_POS : PK_OVERLAY_FIT_POS;
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(base, pose, sel, &o, &st, &log);
    if (!out) {
        for (size_t i = 0; i < log.count; i++)
            print_error("%s\n", log.items[i].msg);
        fail();
    }
    pk_log_free(&log);
    g_tot.runs++;
    g_tot.split += st.split;
    g_tot.split_exact += st.split_exact;
    g_tot.baked += st.baked;
    g_tot.baked_keys += st.baked_keys;
    g_tot.fitted += st.fitted;
    g_tot.fitted_keys += st.fitted_keys;
    if (exact)
        assert_int_equal(st.fitted, 0);
    else
        assert_int_equal(st.baked, 0); /* a one-frame segment always holds */

    pk_log_init(&log);
    pk_tracks *tb = pk_tracks_build(base, &log), *to = pk_tracks_build(out, &log);
    assert_non_null(tb);
    assert_non_null(to);
    uint32_t first = 0, last = 0;
    pk_motion_frame_range(base, &first, &last);
    uint32_t gap = c->f ? c->f : 1;
    uint32_t e0 = c->a >= gap ? c->a - gap : 0, e1 = c->b + gap;
    uint32_t end = (last > e1 ? last : e1) + 3;
    bool has_left = c->a > 0;

    size_t nn = pk_names_count(out->names);
    bool *selected = calloc(nn + 1, sizeof *selected);
    assert_non_null(selected);
    for (size_t i = 0; i < pose->nbones; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pose->bones[i].name, &len);
        const char *bone = pk_names_utf8(pose->names, pose->bones[i].name);
        pk_name_id ib = pk_names_find(base->names, raw, len);
        pk_name_id io = pk_names_find(out->names, raw, len);
        assert_int_not_equal(io, PK_NO_NAME);
        if (ib != PK_NO_NAME)
            selected[ib] = true;
        dval pv;
        for (int k = 0; k < 3; k++)
            pv.pos[k] = pose->bones[i].pos[k];
        dnorm(pose->bones[i].rot, pv.rot);
        dval s_e0, s_e1, o_a, o_b, tmp;
        sample(base, tb, ib, e0, &s_e0);
        sample(base, tb, ib, e1, &s_e1);
        sample(base, tb, ib, c->a, &tmp);
        over(c, &tmp, &pv, &o_a);
        sample(base, tb, ib, c->b, &tmp);
        over(c, &tmp, &pv, &o_b);
        for (uint32_t f = 0; f <= end; f++) {
            dval got, bv, want;
            sample(out, to, io, f, &got);
            sample(base, tb, ib, f, &bv);
            g_tot.frames++;
            if (c->all) {
                over(c, &bv, &pv, &want);
                expect_close(file, bone, c, f, "whole motion", &got, &want, TOL_DEG, TOL_POS);
            } else if ((has_left && f <= e0) || f >= e1) {
                expect_close(file, bone, c, f, "outside", &got, &bv, tol_deg, tol_pos);
            } else if (f >= c->a && f <= c->b) {
                over(c, &bv, &pv, &want);
                expect_close(file, bone, c, f, "inside", &got, &want, tol_deg, tol_pos);
            } else if (f < c->a) { /* fade in: one eased segment E0 -> A */
                double w = ref_ease((double)(f - e0) / (double)(c->a - e0));
                dslerp(s_e0.rot, o_a.rot, w, want.rot);
                for (int k = 0; k < 3; k++)
                    want.pos[k] = s_e0.pos[k] + (o_a.pos[k] - s_e0.pos[k]) * w;
                expect_close(file, bone, c, f, "fade in", &got, &want, 1e-3, 1e-4);
            } else { /* fade out: B -> E1 */
                double w = ref_ease((double)(f - c->b) / (double)(e1 - c->b));
                dslerp(o_b.rot, s_e1.rot, w, want.rot);
                for (int k = 0; k < 3; k++)
                    want.pos[k] = o_b.pos[k] + (s_e1.pos[k] - o_b.pos[k]) * w;
                expect_close(file, bone, c, f, "fade out", &got, &want, 1e-3, 1e-4);
            }
        }
    }
    bool *msel = calloc(nn + 1, sizeof *msel);
    assert_non_null(msel);
    for (size_t i = 0; i < pose->nmorphs; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pose->morphs[i].name, &len);
        const char *morph = pk_names_utf8(pose->names, pose->morphs[i].name);
        pk_name_id ib = pk_names_find(base->names, raw, len);
        pk_name_id io = pk_names_find(out->names, raw, len);
        assert_int_not_equal(io, PK_NO_NAME);
        if (ib != PK_NO_NAME)
            msel[ib] = true;
        check_morph(file, morph, c, base, tb, ib, out, to, io, pose->morphs[i].weight, end);
    }
    check_untouched(file, base, out, selected, msel);
    free(msel);
    free(selected);
    pk_tracks_free(tb);
    pk_tracks_free(to);
    pk_log_free(&log);
    size_t keys = out->nbones;
    pk_motion_free(out);
    return keys;
}

/* Both modes; fitting never gives more keys than baking. */
static void run_cfg(const char *file, const pk_motion *base, const pk_pose *pose,
                    const pk_selection *sel, const cfg *c)
{
    size_t exact = run_one(file, base, pose, sel, c, true);
    size_t fitted = run_one(file, base, pose, sel, c, false);
    if (fitted > exact) {
        print_error("%s: %s: %zu bone keys fitted, %zu baked\n", file, c->what, fitted, exact);
        fail();
    }
    g_tot.keys_exact += exact;
    g_tot.keys_fitted += fitted;
}

/* ---- corpus ---- */

static int cmp_count_desc(const void *a, const void *b)
{
    const pk_track *x = *(const pk_track *const *)a, *y = *(const pk_track *const *)b;
    return (x->count < y->count) - (x->count > y->count);
}

static bool usable_name(const pk_motion *m, pk_name_id id)
{
    if (!pk_names_clean(m->names, id))
        return false;
    const char *u = pk_names_utf8(m->names, id);
    return *u && !strpbrk(u, ",*@ \t");
}

/* A pose for up to three of the busiest bones of m, and its selection. */
static pk_pose *make_pose(const pk_motion *m, const pk_tracks *t, char *spec, size_t cap,
                          const pk_track **busiest)
{
    const pk_track **v = malloc((t->nbones + 1) * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < t->nbones; i++)
        v[i] = &t->bones[i];
    qsort(v, t->nbones, sizeof *v, cmp_count_desc);
    pk_pose *p = pk_pose_new();
    assert_non_null(p);
    spec[0] = '\0';
    size_t used = 0;
    *busiest = NULL;
    for (size_t i = 0; i < t->nbones && used < 3; i++) {
        if (!usable_name(m, v[i]->name) || v[i]->count < 2)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, v[i]->name, &len);
        pk_pose_bone *b = pk_pose_push_bone(p);
        assert_non_null(b);
        b->name = pk_names_intern(p->names, raw, len);
        /* 40 degrees about (1, 2, 3)/|.| times (used + 1), a small shift */
        double ang = 0.6981317 * (double)(used + 1), n = sqrt(14.0);
        b->rot[0] = (float)(sin(ang / 2) / n);
        b->rot[1] = (float)(2 * sin(ang / 2) / n);
        b->rot[2] = (float)(3 * sin(ang / 2) / n);
        b->rot[3] = (float)cos(ang / 2);
        b->pos[0] = 0.5f;
        b->pos[1] = -0.25f * (float)used;
        b->pos[2] = 1.0f;
        if (used)
            strncat(spec, ",", cap - strlen(spec) - 1);
        strncat(spec, pk_names_utf8(m->names, v[i]->name), cap - strlen(spec) - 1);
        if (!*busiest)
            *busiest = v[i];
        used++;
    }
    free(v);
    /* Up to three of the busiest morphs, with weights 0.8, 0.3, -0.2. */
    const pk_track **mv = malloc((t->nmorphs + 1) * sizeof *mv);
    assert_non_null(mv);
    for (size_t i = 0; i < t->nmorphs; i++)
        mv[i] = &t->morphs[i];
    qsort(mv, t->nmorphs, sizeof *mv, cmp_count_desc);
    static const float W[3] = {0.8f, 0.3f, -0.2f};
    size_t mused = 0;
    for (size_t i = 0; i < t->nmorphs && mused < 3; i++) {
        if (!usable_name(m, mv[i]->name) || mv[i]->count < 2)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, mv[i]->name, &len);
        pk_pose_morph *pm = pk_pose_push_morph(p);
        assert_non_null(pm);
        pm->name = pk_names_intern(p->names, raw, len);
        pm->weight = W[mused];
        if (used || mused)
            strncat(spec, ",", cap - strlen(spec) - 1);
        strncat(spec, pk_names_utf8(m->names, mv[i]->name), cap - strlen(spec) - 1);
        mused++;
    }
    free(mv);
    if (!used && !mused) {
        pk_pose_free(p);
        return NULL;
    }
    return p;
}

/* The longest segment with a non-linear rotation curve of track t. */
static bool curved_segment(const pk_motion *m, const pk_track *t, uint32_t *f0, uint32_t *f1)
{
    uint32_t best = 0;
    for (size_t i = 1; i < t->count; i++) {
        const pk_bone_key *k = &m->bones[t->keys[i]];
        uint8_t cp[4];
        pk_interp_curve(k->interp, 3, cp);
        uint32_t a = m->bones[t->keys[i - 1]].frame, len = k->frame - a;
        if (cp[0] != cp[1] || cp[2] != cp[3]) {
            if (len > best) {
                best = len;
                *f0 = a;
                *f1 = k->frame;
            }
        }
    }
    return best >= 6;
}

static void run_all_cfgs(const char *file, const pk_motion *m, const pk_pose *pose,
                         const pk_selection *sel, const pk_track *busy)
{
    uint32_t first = 0, last = 0;
    pk_motion_frame_range(m, &first, &last);
    uint32_t a = last / 3, b = 2 * last / 3 > a ? 2 * last / 3 : a;
    for (int mode = 0; mode < 2; mode++) {
        pk_overlay_mode md = (pk_overlay_mode)mode;
        cfg cs[] = {
            {md, false, a, b, 0, "middle third"},
            {md, false, a, b, 5, "middle third, fade 5"},
            {md, false, last / 2, last / 2, 3, "single frame, fade 3"},
            {md, false, last + 10, last + 20, 4, "after the last key"},
            {md, false, 0, a, 2, "from frame 0"},
            {md, false, 3, 5, 7, "fade longer than the start"},
            {md, true, 0, 0, 0, "whole motion"},
        };
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
            run_cfg(file, m, pose, sel, &cs[i]);
        uint32_t s0, s1;
        if (busy && curved_segment(m, busy, &s0, &s1)) {
            uint32_t len = s1 - s0;
            cfg cut[] = {
                {md, false, s0 + len / 3, s0 + 2 * len / 3, 0, "inside one curved segment"},
                {md, false, s0 + len / 3, s0 + 2 * len / 3, len / 6, "curved segment, fade"},
                {md, false, s0 + 1, s1 + 3, 1, "across a curved segment's ends"},
            };
            for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++)
                run_cfg(file, m, pose, sel, &cut[i]);
        }
    }
}

static void test_corpus_every_frame(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t tested = 0;
    for (size_t i = 0; i < n; i++) {
        pk_log log;
        pk_log_init(&log);
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_motion *m = pk_vmd_read(data, len, &log);
        free(data);
        if (!m) {
            pk_log_free(&log);
            continue;
        }
        pk_tracks *t = pk_tracks_build(m, &log);
        assert_non_null(t);
        char spec[512];
        const pk_track *busy;
        pk_pose *pose = make_pose(m, t, spec, sizeof spec, &busy);
        if (pose) {
            g_morph_motions += pose->nmorphs > 0;
            pk_selection *sel = pk_selection_parse(NULL, spec, &log);
            assert_non_null(sel);
            const char *file = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
            run_all_cfgs(file, m, pose, sel, busy);
            /* Before the first key: the same motion 60 frames later. */
            pk_merge_input in = {m, NULL, 60, 0, false, NULL};
            pk_motion *late = pk_merge(&in, 1, PK_MERGE_LAST, NULL, &log);
            assert_non_null(late);
            cfg before[] = {
                {PK_OVERLAY_REPLACE, false, 10, 30, 5, "before the first key"},
                {PK_OVERLAY_ADD, false, 10, 30, 5, "before the first key"},
                {PK_OVERLAY_REPLACE, false, 50, 70, 0, "across the first key"},
                {PK_OVERLAY_ADD, false, 50, 70, 4, "across the first key"},
            };
            for (size_t k = 0; k < sizeof before / sizeof before[0]; k++)
                run_cfg(file, late, pose, sel, &before[k]);
            pk_motion_free(late);
            pk_selection_free(sel);
            pk_pose_free(pose);
            tested++;
        }
        pk_tracks_free(t);
        pk_motion_free(m);
        pk_log_free(&log);
    }
    tu_free_list(paths, n);
    assert_true(tested >= 5);
    printf("overlay corpus: %zu motions (%zu with morphs), %zu overlays, %zu frames checked "
           "(bones and morphs); crossed pieces: "
           "%zu split (%zu trivially: linear or still), %zu fitted (%zu inner keys), %zu baked "
           "into %zu keys (exact mode); bone records: %zu exact, %zu fitted\n",
           tested, g_morph_motions, g_tot.runs, g_tot.frames, g_tot.split, g_tot.split_exact,
           g_tot.fitted, g_tot.fitted_keys, g_tot.baked, g_tot.baked_keys, g_tot.keys_exact,
           g_tot.keys_fitted);
    /* Fitting is what removes the baked runs: with it the corpus overlays
     * need fewer keys (it fails when fitting is off). */
    assert_true(g_tot.baked > 0 && g_tot.fitted > 0);
    assert_true(g_tot.keys_fitted < g_tot.keys_exact);
}

/* ---- hand-made cases ---- */

static pk_name_id intern(pk_names *t, const char *utf8)
{
    pk_log log;
    pk_log_init(&log);
    pk_name_id id = pk_names_intern_utf8(t, utf8, 15, "bone", &log);
    pk_log_free(&log);
    assert_int_not_equal(id, PK_NO_NAME);
    return id;
}

static pk_bone_key *key(pk_motion *m, const char *name, uint32_t frame, float angle_z_deg, float x)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = intern(m->names, name);
    k->frame = frame;
    k->pos[0] = x;
    double h = angle_z_deg * 3.14159265358979323846 / 360.0;
    k->rot[2] = (float)sin(h);
    k->rot[3] = (float)cos(h);
    pk_interp_linear(k->interp);
    return k;
}

static pk_pose *one_bone_pose(const char *name, float angle_z_deg)
{
    pk_pose *p = pk_pose_new();
    assert_non_null(p);
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = intern(p->names, name);
    double h = angle_z_deg * 3.14159265358979323846 / 360.0;
    b->rot[2] = (float)sin(h);
    b->rot[3] = (float)cos(h);
    return p;
}

static pk_selection *sel_of(const char *spec)
{
    pk_log log;
    pk_log_init(&log);
    pk_selection *s = pk_selection_parse(NULL, spec, &log);
    pk_log_free(&log);
    assert_non_null(s);
    return s;
}

/* A linear segment 0 -> 100 (0 to 100 degrees) cut at 30-60: the cut
 * pieces of a linear curve are linear, so nothing is baked; outside the
 * window the angle is still f degrees. */
static void test_linear_split_exact(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右人指１", 0, 0, 0);
    key(m, "右人指１", 100, 100, 0);
    key(m, "センター", 0, 0, 1); /* untouched */
    pk_pose *p = one_bone_pose("右人指１", 90);
    pk_selection *s = sel_of("右人指１");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 30, 60, 5, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(st.baked, 0);
    assert_int_equal(st.split, 2); /* the pieces before 25 and after 65 */
    assert_int_equal(st.bones, 1);
    pk_tracks *t = pk_tracks_build(out, &log);
    const pk_track *tr = pk_tracks_bone(t, m->bones[0].name);
    assert_non_null(tr);
    /* keys: 0, 25, 30, 60, 65, 100 */
    assert_int_equal(tr->count, 6);
    for (uint32_t f = 0; f <= 100; f++) {
        float pos[3], rot[4];
        pk_sample_bone(out, tr, f, pos, rot);
        double deg = 2.0 * atan2(rot[2], rot[3]) * 180.0 / 3.14159265358979323846;
        if (f <= 25 || f >= 65)
            assert_true(fabs(deg - (double)f) < 1e-3);
        else if (f >= 30 && f <= 60)
            assert_true(fabs(deg - 90.0) < 1e-3);
    }
    /* The finger's keys at 0 and 100 stay original (a linear curve cut
     * stays the same linear curve) and in place, so do the centre's; the
     * new keys 25, 30, 60, 65 come after them. */
    for (size_t i = 0; i < 3; i++)
        assert_memory_equal(&out->bones[i], &m->bones[i], sizeof m->bones[0]);
    assert_int_equal(out->nbones, 7);
    assert_int_equal(out->bones[3].frame, 25);
    assert_int_equal(out->bones[6].frame, 65);
    size_t centre = 0;
    for (size_t i = 0; i < out->nbones; i++)
        if (out->bones[i].name == m->bones[2].name)
            centre++;
    assert_int_equal(centre, 1);
    pk_tracks_free(t);
    pk_motion_free(out);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A strongly eased 90-degree segment cut in the middle cannot be re-curved
 * on the 0..127 grid within 1e-4 degrees.  Exact mode bakes it, one key
 * per frame carrying the exact base values; by default each piece is
 * fitted within PK_OVERLAY_FIT_DEG by a few keys. */
static void test_curved_segment_fitted(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右手首", 0, 0, 0);
    pk_bone_key *k = key(m, "右手首", 60, 90, 0);
    uint8_t cp[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {90, 10, 30, 120}};
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
    pk_pose *p = one_bone_pose("右手首", -30);
    pk_selection *s = sel_of("右手首");
    size_t keys[2];
    for (int exact = 1; exact >= 0; exact--) {
        pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 20, 40, 0, exact};
        pk_overlay_stats st;
        pk_log log;
        pk_log_init(&log);
        pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
        assert_non_null(out);
        keys[exact] = out->nbones;
        if (exact) {
            assert_int_equal(st.split + st.baked, 2);
            assert_true(st.baked >= 1);
            assert_int_equal(st.fitted, 0);
        } else {
            assert_int_equal(st.split + st.fitted, 2);
            assert_true(st.fitted >= 1);
            assert_int_equal(st.baked, 0);
            assert_int_equal(st.baked_keys, 0);
        }
        double tol = exact ? TOL_DEG : PK_OVERLAY_FIT_DEG;
        pk_tracks *tb = pk_tracks_build(m, &log), *to = pk_tracks_build(out, &log);
        pk_name_id id = m->bones[0].name;
        for (uint32_t f = 0; f <= 70; f++) {
            float p0[3], r0[4], p1[3], r1[4];
            pk_sample_bone(m, pk_tracks_bone(tb, id), f, p0, r0);
            pk_sample_bone(out, pk_tracks_bone(to, id), f, p1, r1);
            if (f < 20 || f > 40)
                assert_true(pk_quat_angle_deg(r0, r1) <= tol);
            else
                assert_true(
                    fabs(2.0 * atan2(r1[2], r1[3]) * 180.0 / 3.14159265358979323846 + 30.0) < 1e-3);
        }
        pk_tracks_free(tb);
        pk_tracks_free(to);
        pk_motion_free(out);
        pk_log_free(&log);
    }
    /* 0, 19, 20, 40, 41, 60 and 18 + 18 baked keys; fitted: a few */
    assert_true(keys[1] >= 40);
    assert_true(keys[0] <= 10);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
}

/* Add mode keeps the base's keys inside the range, multiplied. */
static void test_add_keeps_inner_keys(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 100; f += 10)
        key(m, "左中指１", f, (float)((f * 7) % 50), 0.1f * (float)f);
    pk_pose *p = one_bone_pose("左中指１", 20);
    p->bones[0].pos[1] = 2.0f;
    pk_selection *s = sel_of("左中指１");
    pk_overlay_options o = {PK_OVERLAY_ADD, false, 30, 70, 0, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    /* Keys at 30, 40, ..., 70 are base keys multiplied; 29 and 71 are the
     * edge keys; the linear pieces split exactly. */
    size_t inner = 0;
    for (size_t i = 0; i < out->nbones; i++) {
        const pk_bone_key *k = &out->bones[i];
        if (k->frame >= 30 && k->frame <= 70) {
            inner++;
            assert_true(fabs(k->pos[1] - 2.0f) < 1e-6);
            double base_deg = (double)((k->frame * 7) % 50);
            double deg = 2.0 * atan2(k->rot[2], k->rot[3]) * 180.0 / 3.14159265358979323846;
            assert_true(fabs(deg - (base_deg + 20.0)) < 1e-3);
        }
    }
    assert_int_equal(inner, 5);
    assert_int_equal(st.baked, 0);
    pk_motion_free(out);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Two overlays in a row: the second lies on top of the first. */
static void test_overlays_compose(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右人指１", 0, 0, 0);
    key(m, "右人指１", 200, 40, 0);
    pk_pose *fist = one_bone_pose("右人指１", 80), *open = one_bone_pose("右人指１", -5);
    pk_selection *s = sel_of("右人指１");
    pk_overlay_options o1 = {PK_OVERLAY_REPLACE, false, 30, 60, 4, false};
    pk_overlay_options o2 = {PK_OVERLAY_REPLACE, false, 90, 120, 4, false};
    pk_log log;
    pk_log_init(&log);
    pk_motion *a = pk_overlay_motion(m, fist, s, &o1, NULL, &log);
    assert_non_null(a);
    pk_motion *b = pk_overlay_motion(a, open, s, &o2, NULL, &log);
    assert_non_null(b);
    pk_tracks *ta = pk_tracks_build(a, &log), *tb = pk_tracks_build(b, &log);
    pk_name_id id = a->bones[0].name;
    for (uint32_t f = 0; f <= 210; f++) {
        float p0[3], r0[4], p1[3], r1[4];
        pk_sample_bone(a, pk_tracks_bone(ta, id), f, p0, r0);
        pk_sample_bone(b, pk_tracks_bone(tb, id), f, p1, r1);
        double deg = 2.0 * atan2(r1[2], r1[3]) * 180.0 / 3.14159265358979323846;
        if (f >= 30 && f <= 60)
            assert_true(fabs(deg - 80.0) < 1e-3); /* the first overlay survives */
        if (f >= 90 && f <= 120)
            assert_true(fabs(deg + 5.0) < 1e-3);
        if (f <= 86 || f >= 124)
            assert_true(pk_quat_angle_deg(r0, r1) <= TOL_DEG);
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_motion_free(a);
    pk_motion_free(b);
    pk_selection_free(s);
    pk_pose_free(fist);
    pk_pose_free(open);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Selected bones that the pose lacks are warned about and left alone; a
 * bone only in the pose gets a new track. */
static void test_missing_and_new_bones(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右小指１", 0, 10, 0);
    key(m, "右小指１", 50, 20, 0);
    pk_pose *p = one_bone_pose("右薬指１", 60);
    pk_selection *s = sel_of("右小指１,右薬指１");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 10, 20, 0, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(st.missing, 1);
    assert_int_equal(log.warnings, 1);
    /* The lacking bone's two records are untouched and first. */
    assert_memory_equal(&out->bones[0], &m->bones[0], sizeof m->bones[0]);
    assert_memory_equal(&out->bones[1], &m->bones[1], sizeof m->bones[1]);
    /* The new track: rest outside, 60 degrees inside. */
    pk_tracks *t = pk_tracks_build(out, &log);
    const pk_track *tr = pk_tracks_bone(t, out->bones[out->nbones - 1].name);
    float pos[3], rot[4];
    pk_sample_bone(out, tr, 5, pos, rot);
    assert_true(fabs(rot[3] - 1.0f) < 1e-6);
    pk_sample_bone(out, tr, 15, pos, rot);
    assert_true(fabs(2.0 * atan2(rot[2], rot[3]) * 180.0 / 3.14159265358979323846 - 60.0) < 1e-3);
    pk_sample_bone(out, tr, 25, pos, rot);
    assert_true(fabs(rot[3] - 1.0f) < 1e-6);
    pk_tracks_free(t);
    pk_motion_free(out);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* VPD base: replace and add on selected bones, others untouched. */
static void test_pose_base(void **state)
{
    (void)state;
    pk_pose *base = one_bone_pose("右手首", 10);
    pk_pose_bone *c = pk_pose_push_bone(base);
    c->name = intern(base->names, "左手首");
    c->rot[3] = 1.0f;
    pk_pose *p = one_bone_pose("右手首", 30);
    pk_selection *s = sel_of("右手首,左手首");
    pk_log log;
    pk_log_init(&log);
    pk_overlay_stats st;
    pk_pose *r = pk_overlay_pose(base, p, s, PK_OVERLAY_REPLACE, &st, &log);
    assert_non_null(r);
    assert_int_equal(st.missing, 1); /* 左手首 selected but not in the pose */
    assert_true(
        fabs(2.0 * atan2(r->bones[0].rot[2], r->bones[0].rot[3]) * 180.0 / 3.14159265358979323846 -
             30.0) < 1e-3);
    assert_memory_equal(&r->bones[1], &base->bones[1], sizeof base->bones[1]);
    pk_pose *a = pk_overlay_pose(base, p, s, PK_OVERLAY_ADD, NULL, &log);
    assert_non_null(a);
    assert_true(
        fabs(2.0 * atan2(a->bones[0].rot[2], a->bones[0].rot[3]) * 180.0 / 3.14159265358979323846 -
             40.0) < 1e-3);
    pk_pose_free(r);
    pk_pose_free(a);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_pose_free(base);
    pk_log_free(&log);
}

/* A crossed segment millions of frames long is refused with an error
 * instead of being baked into millions of keys. */
static void test_huge_segment_refused(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "頭", 0, 0, 0);
    pk_bone_key *k = key(m, "頭", 3000000, 90, 0);
    uint8_t cp[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {90, 10, 30, 120}};
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
    pk_pose *p = one_bone_pose("頭", 10);
    pk_selection *s = sel_of("頭");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 10, 20, 0, false};
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_overlay_motion(m, p, s, &o, NULL, &log));
    tu_assert_log_has(&log, "longer than");
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

static void mkey_(pk_motion *m, const char *name, uint32_t frame, float w)
{
    pk_morph_key *k = pk_motion_push_morph(m);
    assert_non_null(k);
    k->name = intern(m->names, name);
    k->frame = frame;
    k->weight = w;
}

/* Morphs follow the same laws with linear keys, selected by a morph group:
 * a blink going 0 -> 1 over 100 frames gets 0.5 over 30-60 with a fade of
 * 10 (linear ramps), exact outside 20-70; an unselected morph and the
 * bones stay byte-identical. */
static void test_morph_overlay(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "頭", 0, 10, 0);
    mkey_(m, "まばたき", 0, 0.0f);
    mkey_(m, "あ", 40, 0.25f);
    mkey_(m, "まばたき", 100, 1.0f);
    pk_pose *p = pk_pose_new();
    pk_pose_morph *pm = pk_pose_push_morph(p);
    pm->name = intern(p->names, "まばたき");
    pm->weight = 0.5f;
    pk_selection *s = sel_of("@eyes");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 30, 60, 10, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(st.bones, 0);
    assert_int_equal(st.morphs, 1);
    assert_int_equal(log.warnings, 0);
    pk_tracks *t = pk_tracks_build(out, &log);
    const pk_track *tr = pk_tracks_morph(t, m->morphs[0].name);
    assert_non_null(tr);
    for (uint32_t f = 0; f <= 110; f++) {
        double w = pk_sample_morph(out, tr, f), want;
        if (f <= 20 || f >= 70)
            want = f >= 100 ? 1.0 : f / 100.0;
        else if (f >= 30 && f <= 60)
            want = 0.5;
        else if (f < 30)
            want = 0.2 + 0.3 * (f - 20) / 10.0;
        else
            want = 0.5 + 0.2 * (f - 60) / 10.0;
        if (fabs(w - want) > 1e-6)
            print_error("frame %u: %g, want %g\n", f, w, want);
        assert_true(fabs(w - want) <= 1e-6);
    }
    /* あ and the bone: untouched and first; the blink's key at 0 and 100
     * stay in place (originals). */
    assert_memory_equal(&out->bones[0], &m->bones[0], sizeof m->bones[0]);
    assert_memory_equal(&out->morphs[0], &m->morphs[0], sizeof m->morphs[0]);
    assert_memory_equal(&out->morphs[1], &m->morphs[1], sizeof m->morphs[1]);
    assert_memory_equal(&out->morphs[2], &m->morphs[2], sizeof m->morphs[2]);
    assert_int_equal(out->nmorphs, 3 + 4); /* 20, 30, 60, 70 */
    pk_tracks_free(t);
    pk_motion_free(out);

    /* add: base + pose inside. */
    o.mode = PK_OVERLAY_ADD;
    out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    t = pk_tracks_build(out, &log);
    tr = pk_tracks_morph(t, m->morphs[0].name);
    for (uint32_t f = 30; f <= 60; f++)
        assert_true(fabs(pk_sample_morph(out, tr, f) - (f / 100.0 + 0.5)) <= 1e-6);
    pk_tracks_free(t);
    pk_motion_free(out);

    /* A VPD base takes the weight too. */
    pk_pose *pb = pk_pose_new();
    pk_pose_morph *bm = pk_pose_push_morph(pb);
    bm->name = intern(pb->names, "まばたき");
    bm->weight = 0.25f;
    pk_pose *r = pk_overlay_pose(pb, p, s, PK_OVERLAY_ADD, &st, &log);
    assert_non_null(r);
    assert_int_equal(st.morphs, 1);
    assert_true(fabs(r->morphs[0].weight - 0.75f) < 1e-7);
    pk_pose_free(r);
    pk_pose_free(pb);
    assert_int_equal(log.warnings, 0);

    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A selected track the pose holds at the values it already has is left as
 * it was: not counted as changed, its records not rewritten, no track
 * made for a bone that would only hold the rest pose. */
static void test_unchanged_tracks(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右人指１", 0, 0, 0);
    key(m, "右人指１", 50, 20, 0); /* moves: changed */
    key(m, "右中指１", 0, 0, 0);   /* at rest throughout */
    key(m, "右薬指１", 0, 10, 0);
    key(m, "右薬指１", 100, 10, 0); /* held at 10 degrees */
    mkey_(m, "まばたき", 0, 0.5f);
    pk_pose *p = one_bone_pose("右人指１", 60);
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = intern(p->names, "右中指１");
    b->rot[3] = 1.0f;
    b = pk_pose_push_bone(p);
    b->name = intern(p->names, "右薬指１");
    b->rot[2] = m->bones[3].rot[2];
    b->rot[3] = m->bones[3].rot[3];
    b = pk_pose_push_bone(p);
    b->name = intern(p->names, "右小指１"); /* not in the base, at rest */
    b->rot[3] = 1.0f;
    pk_pose_morph *pm = pk_pose_push_morph(p);
    pm->name = intern(p->names, "まばたき");
    pm->weight = 0.5f;
    pk_selection *s = sel_of("右*,まばたき");
    pk_log log;
    pk_log_init(&log);
    pk_overlay_stats st;
    for (int all = 0; all < 2; all++) {
        pk_overlay_options o = {PK_OVERLAY_REPLACE, all, 10, 20, 3, false};
        pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
        assert_non_null(out);
        assert_int_equal(st.bones, 1);
        assert_int_equal(st.bones_same, 3);
        assert_int_equal(st.morphs, 0);
        assert_int_equal(st.morphs_same, 1);
        /* the unchanged records kept as they were, in order; only
         * 右人指１'keys are rewritten, no 右小指１ track */
        size_t at = 0;
        for (size_t i = 2; i < 5; i++) {
            while (at < out->nbones && memcmp(&out->bones[at], &m->bones[i], sizeof m->bones[i]))
                at++;
            assert_true(at < out->nbones);
        }
        assert_int_equal(out->nmorphs, 1);
        assert_memory_equal(&out->morphs[0], &m->morphs[0], sizeof m->morphs[0]);
        for (size_t i = 0; i < out->nbones; i++)
            assert_string_not_equal(pk_names_utf8(out->names, out->bones[i].name), "右小指１");
        pk_motion_free(out);
    }
    /* a pose base: the same count, the same values kept */
    pk_pose *base = pk_motion_sample(m, NULL, 0, &log);
    assert_non_null(base);
    pk_pose *r = pk_overlay_pose(base, p, s, PK_OVERLAY_REPLACE, &st, &log);
    assert_non_null(r);
    assert_int_equal(st.bones, 1);
    assert_int_equal(st.bones_same, 3);
    assert_int_equal(st.morphs_same, 1);
    assert_int_equal(r->nbones, base->nbones); /* no rest bone appended */
    pk_pose_free(r);
    pk_pose_free(base);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Whether any diagnostic of the log holds needle. */
static bool log_holds(const pk_log *log, const char *needle)
{
    for (size_t i = 0; i < log->count; i++)
        if (strstr(log->items[i].msg, needle))
            return true;
    return false;
}

/* A hand pose from a model whose thumb is 親指１/２ over a motion for one
 * with 親指０/１/２: the warning names the thumb mismatch and the rules
 * that shift it; tip bones at rest are not listed as lacking. */
static void test_thumb_and_tips(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "右親指先", 0, 0, 0); /* a tip keyed at rest, as exporters do */
    key(m, "右親指０", 0, 0, 0);
    key(m, "右親指０", 40, 30, 0);
    key(m, "右親指１", 0, 0, 0);
    key(m, "右親指２", 0, 0, 0);
    pk_pose *p = one_bone_pose("右親指１", 20);
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = intern(p->names, "右親指２");
    b->rot[2] = 0.2f;
    b->rot[3] = 0.98f;
    pk_selection *s = sel_of("右親指*");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 10, 20, 0, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(st.missing, 1); /* 右親指０; not the resting tip */
    tu_assert_log_has(&log, "selected bone '右親指０' is not in the pose");
    assert_false(log_holds(&log, "右親指先"));
    tu_assert_log_has(&log, "the pose has 右親指１ but no 右親指０, which the base has");
    tu_assert_log_has(&log, "thumb-shift.yaml");
    pk_motion_free(out);
    /* the same over a pose base */
    pk_log_free(&log);
    pk_log_init(&log);
    pk_pose *base = pk_motion_sample(m, NULL, 40, &log);
    pk_pose *r = pk_overlay_pose(base, p, s, PK_OVERLAY_REPLACE, &st, &log);
    assert_non_null(r);
    assert_int_equal(st.missing, 1);
    assert_false(log_holds(&log, "右親指先"));
    tu_assert_log_has(&log, "the pose has 右親指１ but no 右親指０");
    pk_pose_free(r);
    /* a moving tip is listed; a pose with 親指０ gives no thumb warning */
    key(m, "右親指先", 30, 15, 0);
    b = pk_pose_push_bone(p);
    b->name = intern(p->names, "右親指０");
    b->rot[3] = 1.0f;
    pk_log_free(&log);
    pk_log_init(&log);
    out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    tu_assert_log_has(&log, "selected bone '右親指先' is not in the pose");
    assert_false(log_holds(&log, "but no 右親指０"));
    pk_motion_free(out);
    pk_pose_free(base);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* An overlay that changes nothing says so; a fade that would start before
 * frame 0 says it was cut short. */
static void test_overlay_warnings(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    key(m, "頭", 0, 10, 0);
    key(m, "頭", 50, 20, 0);
    pk_pose *p = pk_pose_new();
    pk_pose_morph *pm = pk_pose_push_morph(p);
    pm->name = intern(p->names, "笑い");
    pm->weight = 1.0f;
    pk_selection *s = sel_of("@mouth");
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, 3, 10, 6, false};
    pk_overlay_stats st;
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_overlay_motion(m, p, s, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(st.bones + st.morphs, 0);
    tu_assert_log_has(&log, "nothing overlaid");
    tu_assert_log_has(&log, "fade 6 cut short at frame 0: the fade-in runs over 3 frames");
    assert_int_equal(log.warnings, 2);
    pk_motion_free(out);
    pk_pose *r = pk_overlay_pose(p, p, s, PK_OVERLAY_REPLACE, &st, &log);
    assert_non_null(r);
    assert_int_equal(log.warnings, 3); /* nothing overlaid on a VPD base either */
    pk_pose_free(r);
    pk_selection_free(s);
    pk_pose_free(p);
    pk_motion_free(m);
    pk_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_split_exact),    cmocka_unit_test(test_curved_segment_fitted),
        cmocka_unit_test(test_add_keeps_inner_keys),  cmocka_unit_test(test_overlays_compose),
        cmocka_unit_test(test_missing_and_new_bones), cmocka_unit_test(test_pose_base),
        cmocka_unit_test(test_huge_segment_refused),  cmocka_unit_test(test_morph_overlay),
        cmocka_unit_test(test_unchanged_tracks),      cmocka_unit_test(test_overlay_warnings),
        cmocka_unit_test(test_thumb_and_tips),        cmocka_unit_test(test_corpus_every_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
