/* test_eval.c — skeleton evaluation (engine/ops/skeleton/eval.c): forward
 * kinematics against an independent matrix computation over the corpus
 * (every pose and sampled frames of every dance on every model), append
 * with ratio (hand-built skeletons and babylon-mmd's bone flag fixture),
 * IK (reach, knees, limits, IK switched off by the VMD, a small per-step
 * limit, the reach law on every frame of every corpus dance), the bits of
 * every world transform of every frame of every corpus dance and pose on
 * every corpus model (tests/data/eval_bits.txt), and hand-worked cases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define PI 3.14159265358979323846

/* ---- an independent forward kinematics: 4x4 matrices down the parent
 * chain from the rest positions (row-major, column vectors) ---- */

typedef struct mat {
    double m[4][4];
} mat;

static mat mat_mul(const mat *a, const mat *b)
{
    mat o;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += a->m[i][k] * b->m[k][j];
            o.m[i][j] = s;
        }
    return o;
}

static mat mat_local(const double t[3], const float qf[4])
{
    double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 1e-30)) {
        x = y = z = 0;
        w = n = 1;
    }
    x /= n, y /= n, z /= n, w /= n;
    mat o = {{{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), t[0]},
              {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), t[1]},
              {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), t[2]},
              {0, 0, 0, 1}}};
    return o;
}

static mat fk(const pk_model *m, const pk_bone_local *loc, size_t i, int depth)
{
    const pk_model_bone *b = &m->bones[i];
    double t[3];
    int32_t p = b->parent;
    for (int a = 0; a < 3; a++)
        t[a] = (double)b->pos[a] - (p >= 0 ? (double)m->bones[p].pos[a] : 0.0) + loc[i].pos[a];
    float q[4] = {loc[i].rot[0], loc[i].rot[1], loc[i].rot[2], loc[i].rot[3]};
    if (b->flags & PK_BONE_FIXED_AXIS) {
        /* a fixed-axis bone keeps the twist about its axis: the key's
         * vector part projected on the axis */
        double ax = b->fixed_axis[0], ay = b->fixed_axis[1], az = b->fixed_axis[2];
        double n = sqrt(ax * ax + ay * ay + az * az);
        if (n > 1e-12) {
            double d = (q[0] * ax + q[1] * ay + q[2] * az) / (n * n);
            q[0] = (float)(ax * d), q[1] = (float)(ay * d), q[2] = (float)(az * d);
        }
    }
    mat l = mat_local(t, q);
    if (p < 0 || depth > 1000)
        return l;
    mat pm = fk(m, loc, (size_t)p, depth + 1);
    return mat_mul(&pm, &l);
}

/* Largest difference between the evaluation and fk (position, and the
 * rotation matrix entries times 10 units, a bone's scale). */
static double fk_error(const pk_model *m, const pk_bone_local *loc, const pk_bone_world *w,
                       size_t i)
{
    mat f = fk(m, loc, i, 0);
    float q[4] = {(float)w[i].rot[0], (float)w[i].rot[1], (float)w[i].rot[2], (float)w[i].rot[3]};
    double zero[3] = {0, 0, 0};
    /* the rotation in double, not via float */
    double x = w[i].rot[0], y = w[i].rot[1], z = w[i].rot[2], ww = w[i].rot[3];
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * ww), 2 * (x * z + y * ww)},
                      {2 * (x * y + z * ww), 1 - 2 * (x * x + z * z), 2 * (y * z - x * ww)},
                      {2 * (x * z - y * ww), 2 * (y * z + x * ww), 1 - 2 * (x * x + y * y)}};
    (void)q;
    (void)zero;
    double e = 0;
    for (int a = 0; a < 3; a++) {
        e = fmax(e, fabs(f.m[a][3] - w[i].pos[a]));
        for (int c = 0; c < 3; c++)
            e = fmax(e, 10.0 * fabs(f.m[a][c] - r[a][c]));
    }
    return e;
}

/* Bones whose world transform append or IK may change: appended bones,
 * IK links, and everything below them. */
static bool *touched_by_solvers(const pk_model *m)
{
    bool *t = calloc(m->nbones + 1, 1);
    assert_non_null(t);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE))
            t[i] = true;
        for (size_t k = 0; k < b->nik_links; k++)
            t[b->ik_links[k].bone] = true;
    }
    for (size_t i = 0; i < m->nbones; i++) {
        bool any = false;
        for (int32_t j = (int32_t)i, d = 0; j >= 0 && d < 1000; j = m->bones[j].parent, d++)
            any = any || t[j];
        if (any)
            t[i] = true; /* parents first or not: recomputed from scratch */
    }
    return t;
}

typedef struct corpus_set {
    char **models, **vpds, **vmds;
    size_t nmodels, nvpds, nvmds;
} corpus_set;

static bool corpus_open(corpus_set *c)
{
    memset(c, 0, sizeof *c);
    if (!tu_corpus_path("x"))
        return false;
    char **pmx, **pmd;
    size_t a = tu_corpus_list(".pmx", &pmx), b = tu_corpus_list(".pmd", &pmd);
    c->models = calloc(a + b + 1, sizeof *c->models);
    for (size_t i = 0; i < a; i++)
        c->models[c->nmodels++] = pmx[i];
    for (size_t i = 0; i < b; i++)
        c->models[c->nmodels++] = pmd[i];
    free(pmx);
    free(pmd);
    c->nvpds = tu_corpus_list(".vpd", &c->vpds);
    c->nvmds = tu_corpus_list(".vmd", &c->vmds);
    return c->nmodels > 0;
}

static void corpus_close(corpus_set *c)
{
    tu_free_list(c->models, c->nmodels);
    tu_free_list(c->vpds, c->nvpds);
    tu_free_list(c->vmds, c->nvmds);
}

/* Calls fn(model, rig, local, ik_on, what) for every corpus pose and 12
 * sampled frames of every corpus motion that keys bones (and the project's
 * own samples/dance.vmd), on every corpus model; returns the count. */
typedef void (*pose_fn)(void *ctx, const pk_model *m, pk_rig *r, const pk_bone_local *loc,
                        const bool *ik_on, const char *what);

static size_t for_each_pose(pose_fn fn, void *ctx)
{
    corpus_set c;
    if (!corpus_open(&c))
        return 0;
    size_t evals = 0;
    char dance[1024];
    const char *src = getenv("PK_SOURCE");
    snprintf(dance, sizeof dance, "%s/samples/dance.vmd", src ? src : ".");
    for (size_t mi = 0; mi < c.nmodels; mi++) {
        pk_log log;
        pk_log_init(&log);
        pk_model *m = pk_model_load(c.models[mi], &log);
        assert_non_null(m);
        pk_rig *r = pk_rig_new(m, &log);
        assert_non_null(r);
        pk_bone_local *loc = calloc(m->nbones + 1, sizeof *loc);
        bool *on = calloc(m->nbones + 1, 1);
        for (size_t v = 0; v < c.nvpds; v++) {
            pk_doc d;
            if (pk_doc_load(c.vpds[v], &d, &log) != 0 || !d.pose) {
                pk_doc_free(&d); /* a VMD saved as .vpd, or a failed read */
                continue;
            }
            pk_rig_pose_local(r, d.pose, loc);
            fn(ctx, m, r, loc, NULL, c.vpds[v]);
            evals++;
            pk_doc_free(&d);
        }
        for (size_t v = 0; v <= c.nvmds; v++) {
            const char *path = v < c.nvmds ? c.vmds[v] : dance;
            pk_doc d;
            if (pk_doc_load(path, &d, &log) != 0 || !d.motion || d.motion->nbones == 0) {
                pk_doc_free(&d); /* pk_doc_load zeroes d first: always safe */
                continue;
            }
            pk_tracks *t = pk_tracks_build(d.motion, &log);
            uint32_t lo, hi;
            pk_motion_frame_range(d.motion, &lo, &hi);
            for (int s = 0; s < 12; s++) {
                double f = lo + (hi - lo) * (s / 11.0);
                if (s % 2)
                    f = floor(f) + 0.5; /* between keys as well */
                if (pk_rig_motion_local(r, d.motion, t, f, loc, on) == 0)
                    break;
                fn(ctx, m, r, loc, on, path);
                evals++;
            }
            pk_tracks_free(t);
            pk_doc_free(&d);
        }
        free(loc);
        free(on);
        pk_rig_free(r);
        pk_model_free(m);
        pk_log_free(&log);
    }
    corpus_close(&c);
    return evals;
}

typedef struct fk_stats {
    double worst, worst_full;
    size_t bones, bones_full;
} fk_stats;

static void fk_check(void *ctx, const pk_model *m, pk_rig *r, const pk_bone_local *loc,
                     const bool *on, const char *what)
{
    fk_stats *st = ctx;
    pk_bone_world *w = calloc(m->nbones + 1, sizeof *w);
    pk_rig_eval(r, loc, on, PK_EVAL_NO_IK | PK_EVAL_NO_APPEND, w);
    for (size_t i = 0; i < m->nbones; i++) {
        double e = fk_error(m, loc, w, i);
        if (e > st->worst)
            st->worst = e;
        if (e > 1e-4)
            fail_msg("%s on %s: bone %zu %s off by %g", what, m->name, i, m->bones[i].name, e);
    }
    st->bones += m->nbones;
    /* with append and IK: the bones neither touches are still plain FK */
    bool *touched = touched_by_solvers(m);
    pk_rig_eval(r, loc, on, 0, w);
    for (size_t i = 0; i < m->nbones; i++) {
        if (touched[i])
            continue;
        double e = fk_error(m, loc, w, i);
        if (e > st->worst_full)
            st->worst_full = e;
        st->bones_full++;
        if (e > 1e-4)
            fail_msg("%s (full) on %s: bone %zu %s off by %g", what, m->name, i, m->bones[i].name,
                     e);
    }
    free(touched);
    free(w);
}

static void fk_corpus(void **state)
{
    (void)state;
    fk_stats st = {0};
    size_t evals = for_each_pose(fk_check, &st);
    if (evals == 0)
        skip();
    printf("fk: %zu evaluations, %zu bone transforms, worst %.3g; with append+IK, %zu untouched "
           "bones, worst %.3g\n",
           evals, st.bones, st.worst, st.bones_full, st.worst_full);
    assert_true(evals >= 100);
    assert_true(st.worst < 1e-4);
}

/* ---- hand-built skeletons ---- */

typedef struct hb {
    pk_model m;
    pk_model_bone b[16];
    pk_model_ik_link l[8];
} hb;

static void hb_init(hb *h)
{
    memset(h, 0, sizeof *h);
    h->m.bones = h->b;
    h->m.format = PK_FMT_PMX;
    h->m.names = pk_names_new();
    assert_non_null(h->m.names);
}

static int hb_bone(hb *h, const char *name, int parent, float x, float y, float z)
{
    int i = (int)h->m.nbones++;
    pk_model_bone *b = &h->b[i];
    tu_model_bone(&h->m, b, name, parent, x, y, z);
    return i;
}

static void hb_free(hb *h)
{
    pk_names_free(h->m.names);
}

static void qaxis(double ax, double ay, double az, double deg, float q[4])
{
    double h = deg * PI / 360.0, n = sqrt(ax * ax + ay * ay + az * az);
    q[0] = (float)(ax / n * sin(h));
    q[1] = (float)(ay / n * sin(h));
    q[2] = (float)(az / n * sin(h));
    q[3] = (float)cos(h);
}

/* Angle (degrees) of a world rotation about a unit axis, signed. */
static double angle_about(const double q[4], double ax, double ay, double az)
{
    double s = q[0] * ax + q[1] * ay + q[2] * az;
    return 2.0 * atan2(s, q[3]) * 180.0 / PI;
}

static pk_rig *rig_of(const pk_model *m)
{
    pk_log log;
    pk_log_init(&log);
    pk_rig *r = pk_rig_new(m, &log);
    assert_non_null(r);
    pk_log_free(&log);
    return r;
}

/* Hand-worked FK: a two-segment arm, shoulder at (0,10,0), elbow 4 units
 * along -X, hand 3 further.  Shoulder turned 90 degrees about Z (the arm
 * points down), elbow 90 about Z again (the forearm points to +X), and the
 * shoulder moved by (0,0,1): elbow at (0,6,1), hand at (3,6,1). */
static void fk_hand_worked(void **state)
{
    (void)state;
    hb h;
    hb_init(&h);
    int s = hb_bone(&h, "肩", -1, 0, 10, 0);
    int e = hb_bone(&h, "ひじ", s, -4, 10, 0);
    int w = hb_bone(&h, "手首", e, -7, 10, 0);
    pk_rig *r = rig_of(&h.m);
    pk_bone_local loc[3];
    pk_bone_world out[3];
    pk_rig_rest(r, loc);
    pk_rig_eval(r, loc, NULL, 0, out);
    assert_true(fabs(out[w].pos[0] + 7) < 1e-12 && fabs(out[w].pos[1] - 10) < 1e-12);
    qaxis(0, 0, 1, 90, loc[s].rot);
    qaxis(0, 0, 1, 90, loc[e].rot);
    loc[s].pos[2] = 1;
    pk_rig_eval(r, loc, NULL, 0, out);
    const double want_e[3] = {0, 6, 1}, want_w[3] = {3, 6, 1};
    for (int a = 0; a < 3; a++) {
        assert_true(fabs(out[e].pos[a] - want_e[a]) < 1e-6);
        assert_true(fabs(out[w].pos[a] - want_w[a]) < 1e-6);
    }
    assert_true(fabs(angle_about(out[w].rot, 0, 0, 1) - 180.0) < 1e-4);
    pk_rig_free(r);
    hb_free(&h);
}

/* Append: B follows ratio x A's rotation (0.5, -1, 1.5), C appends B
 * (a chain: C takes B's appended rotation), D appends A's translation;
 * local append takes A's own rotation even when A is appended. */
static void append_ratio(void **state)
{
    (void)state;
    hb h;
    hb_init(&h);
    int a = hb_bone(&h, "A", -1, 0, 0, 0);
    int b = hb_bone(&h, "B", -1, 1, 0, 0);
    int c = hb_bone(&h, "C", -1, 2, 0, 0);
    int d = hb_bone(&h, "D", -1, 3, 0, 0);
    h.b[b].flags |= PK_BONE_APPEND_ROTATE;
    h.b[b].append_parent = a;
    h.b[c].flags |= PK_BONE_APPEND_ROTATE;
    h.b[c].append_parent = b;
    h.b[c].append_ratio = 1.0f;
    h.b[d].flags |= PK_BONE_APPEND_MOVE;
    h.b[d].append_parent = a;
    h.b[d].append_ratio = 0.25f;
    const float ratios[3] = {0.5f, -1.0f, 1.5f};
    for (int k = 0; k < 3; k++) {
        h.b[b].append_ratio = ratios[k];
        pk_rig *r = rig_of(&h.m);
        pk_bone_local loc[4];
        pk_bone_world out[4];
        pk_rig_rest(r, loc);
        qaxis(0, 1, 0, 40, loc[a].rot);
        loc[a].pos[0] = 2, loc[a].pos[1] = 4;
        pk_rig_eval(r, loc, NULL, 0, out);
        assert_true(fabs(angle_about(out[b].rot, 0, 1, 0) - 40.0 * ratios[k]) < 1e-4);
        assert_true(fabs(angle_about(out[c].rot, 0, 1, 0) - 40.0 * ratios[k]) < 1e-4);
        assert_true(fabs(out[d].pos[0] - 3.5) < 1e-6 && fabs(out[d].pos[1] - 1.0) < 1e-6);
        /* NO_APPEND: plain FK */
        pk_rig_eval(r, loc, NULL, PK_EVAL_NO_APPEND, out);
        assert_true(fabs(angle_about(out[b].rot, 0, 1, 0)) < 1e-9);
        assert_true(fabs(out[d].pos[0] - 3.0) < 1e-9);
        pk_rig_free(r);
    }
    /* local append: C takes B's own key, not B's appended rotation */
    h.b[b].append_ratio = 0.5f;
    h.b[c].flags |= PK_BONE_LOCAL_APPEND;
    pk_rig *r = rig_of(&h.m);
    pk_bone_local loc[4];
    pk_bone_world out[4];
    pk_rig_rest(r, loc);
    qaxis(0, 1, 0, 40, loc[a].rot);
    qaxis(1, 0, 0, 30, loc[b].rot);
    pk_rig_eval(r, loc, NULL, 0, out);
    assert_true(fabs(angle_about(out[c].rot, 1, 0, 0) - 30.0) < 1e-4);
    assert_true(fabs(angle_about(out[c].rot, 0, 1, 0)) < 1e-4);
    pk_rig_free(r);
    hb_free(&h);
}

/* babylon-mmd's bone_flag_test.pmx: two bones carry the append flags
 * (rotate, move, one local) with no append parent (-1): they must
 * evaluate as plain bones, whatever センター does. */
static void append_babylon_fixture(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("pmx_babylon_bone_flag_test.pmx");
    if (!path)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    assert_non_null(m);
    pk_rig *r = rig_of(m);
    pk_bone_local loc[3];
    pk_bone_world out[3];
    pk_rig_rest(r, loc);
    qaxis(0.3, 1, 0.2, 50, loc[0].rot);
    loc[0].pos[0] = 1.5f;
    qaxis(1, 0, 0, 30, loc[2].rot);
    pk_rig_eval(r, loc, NULL, 0, out);
    size_t checked = 0;
    for (size_t i = 1; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_APPEND_ROTATE))
            continue;
        assert_int_equal(b->append_parent, -1);
        double want = i == 2 ? 30.0 : 0.0;
        assert_true(fabs(angle_about(out[i].rot, 1, 0, 0) - want) < 1e-4);
        assert_true(fabs(out[i].pos[0] - b->pos[0]) < 1e-6);
        checked++;
    }
    assert_int_equal(checked, 2);
    pk_rig_free(r);
    pk_model_free(m);
    pk_log_free(&log);
}

/* The corpus's Gene PMX: 左目 and 右目 take 0.15 of 両目; 横クローク5_1
 * -0.5 of its append parent. */
static void append_corpus(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("pmx_gene.pmx");
    if (!path)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    assert_non_null(m);
    pk_rig *r = rig_of(m);
    pk_bone_local *loc = calloc(m->nbones, sizeof *loc);
    pk_bone_world *out = calloc(m->nbones, sizeof *out);
    size_t checked = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        int32_t ap = b->append_parent;
        if (!(b->flags & PK_BONE_APPEND_ROTATE) || ap < 0 ||
            (m->bones[ap].flags & (PK_BONE_APPEND_ROTATE | PK_BONE_IK | PK_BONE_FIXED_AXIS)) ||
            m->bones[ap].parent != b->parent)
            continue;
        /* siblings: the child's rotation relative to the shared parent is
         * ratio x the append parent's */
        pk_rig_rest(r, loc);
        qaxis(0.2, 1, -0.3, 36, loc[ap].rot);
        pk_rig_eval(r, loc, NULL, 0, out);
        double got = angle_about(out[i].rot, 0.2 / sqrt(1.13), 1 / sqrt(1.13), -0.3 / sqrt(1.13));
        if (fabs(got - 36.0 * b->append_ratio) > 1e-4)
            fail_msg("%s: %g degrees, want %g x 36", b->name, got, b->append_ratio);
        checked++;
    }
    printf("append: %zu bones of %s checked\n", checked, m->name);
    assert_true(checked >= 3);
    free(loc);
    free(out);
    pk_rig_free(r);
    pk_model_free(m);
    pk_log_free(&log);
}

/* A leg: 足 at (0,10,0), ひざ at (0,5,0.2) (a little forward, as models
 * are), 足首 at (0,0,0); 足ＩＫ at the ankle, links ひざ (knee rule) and
 * 足.  MMD faces -Z: a knee bends forward (towards -Z) by turning about
 * -X. */
static void hb_leg(hb *h)
{
    hb_init(h);
    int hip = hb_bone(h, "右足", -1, 0, 10, 0);
    int knee = hb_bone(h, "右ひざ", hip, 0, 5, -0.2f);
    int ankle = hb_bone(h, "右足首", knee, 0, 0, 0);
    int ik = hb_bone(h, "右足ＩＫ", -1, 0, 0, 0);
    h->b[ik].flags |= PK_BONE_IK;
    h->b[ik].ik_target = ankle;
    h->b[ik].ik_loops = 40;
    h->b[ik].ik_limit = 2.0f;
    h->l[0].bone = knee;
    h->l[1].bone = hip;
    h->b[ik].ik_links = h->l;
    h->b[ik].nik_links = 2;
}

static double knee_angle(const pk_bone_world *w, int hip, int knee, double *off_axis)
{
    double inv[4] = {-w[hip].rot[0], -w[hip].rot[1], -w[hip].rot[2], w[hip].rot[3]}, l[4];
    const double *b = w[knee].rot;
    l[0] = inv[3] * b[0] + inv[0] * b[3] + inv[1] * b[2] - inv[2] * b[1];
    l[1] = inv[3] * b[1] - inv[0] * b[2] + inv[1] * b[3] + inv[2] * b[0];
    l[2] = inv[3] * b[2] + inv[0] * b[1] - inv[1] * b[0] + inv[2] * b[3];
    l[3] = inv[3] * b[3] - inv[0] * b[0] - inv[1] * b[1] - inv[2] * b[2];
    *off_axis = fmax(fabs(l[1]), fabs(l[2]));
    return angle_about(l, 1, 0, 0);
}

static double gap(const pk_bone_world *w, int a, int b)
{
    double d0 = w[a].pos[0] - w[b].pos[0], d1 = w[a].pos[1] - w[b].pos[1],
           d2 = w[a].pos[2] - w[b].pos[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

static void ik_leg_hand_built(void **state)
{
    (void)state;
    hb h;
    hb_leg(&h);
    pk_rig *r = rig_of(&h.m);
    pk_bone_local loc[4];
    pk_bone_world w[4];
    /* Hand-worked: IK raised to y=2 (hip-to-goal 8): thigh and shin are
     * 5.004 long, so the leg bends 2 acos(4/5.004) = 73.86 degrees from
     * straight; at rest it is already bent 2 atan(0.2/5) = 4.58 degrees,
     * so the knee turns 69.28 degrees (about -X: forward). */
    const float goals[][3] = {{0, 2, 0}, {0, 4, -1}, {1, 1, -2}, {0, 1, -3}, {-1, 3, 1}};
    for (size_t g = 0; g < sizeof goals / sizeof goals[0]; g++) {
        pk_rig_rest(r, loc);
        memcpy(loc[3].pos, goals[g], sizeof goals[g]);
        pk_rig_eval(r, loc, NULL, 0, w);
        double off, a = knee_angle(w, 0, 1, &off);
        double reach = gap(w, 2, 3);
        printf("leg goal (%g,%g,%g): ankle %.5f from the goal, knee %.3f degrees\n", goals[g][0],
               goals[g][1], goals[g][2], reach, a);
        assert_true(reach < 0.01);
        assert_true(a <= -0.5 + 1e-6 && a >= -180.0 - 1e-6); /* never backwards */
        assert_true(off < 1e-9);                             /* about X only */
        if (g == 0)
            assert_true(fabs(a + (2 * acos(4.0 / sqrt(25.04)) - 2 * atan(0.2 / 5)) * 180 / PI) <
                        0.05);
    }
    /* Unreachable (too far): the leg straightens towards the goal, the
     * knee stays within its limit. */
    pk_rig_rest(r, loc);
    loc[3].pos[1] = -5;
    loc[3].pos[2] = -3;
    pk_rig_eval(r, loc, NULL, 0, w);
    double off, a = knee_angle(w, 0, 1, &off);
    assert_true(a <= -0.5 + 1e-6 && off < 1e-9);
    /* IK off (ik_on false): the knee follows its own key */
    pk_rig_rest(r, loc);
    loc[3].pos[1] = 3;
    qaxis(1, 0, 0, 20, loc[1].rot); /* a backwards bend keyed by hand */
    bool on[4] = {true, true, true, false};
    pk_rig_eval(r, loc, on, 0, w);
    a = knee_angle(w, 0, 1, &off);
    assert_true(fabs(a - 20.0) < 1e-4);
    pk_rig_eval(r, loc, NULL, PK_EVAL_NO_IK, w);
    assert_true(fabs(knee_angle(w, 0, 1, &off) - 20.0) < 1e-4);
    pk_rig_free(r);
    hb_free(&h);
}

/* A leg with Mei's proportions (pmd_mei.pmd: thigh 4.62, shin 5.45, the
 * knee a little forward) and Mei's per-step limit (PMD 0.1 x 4 = 0.4
 * radians, 40 loops), under a keyed 下半身: for keyed hips and knees
 * turned every way and goals all round the hip between the fold the
 * knee allows and 95% of the leg's length, the ankle meets the goal.
 * With a small per-step limit the hip needs several passes to aim the
 * leg once the knee has its bend; a solver that stops at the first pass
 * that does not bring the ankle closer leaves the knee straight. */
static void ik_leg_small_step_limit(void **state)
{
    (void)state;
    hb h;
    hb_init(&h);
    int lower = hb_bone(&h, "下半身", -1, 0, 13.4f, -0.41f);
    int hip = hb_bone(&h, "右足", lower, -0.977f, 11.583f, -0.707f);
    int knee = hb_bone(&h, "右ひざ", hip, -0.977f, 6.961f, -0.533f);
    int ankle = hb_bone(&h, "右足首", knee, -0.978f, 1.528f, -0.113f);
    int ik = hb_bone(&h, "右足ＩＫ", -1, -0.978f, 1.528f, -0.113f);
    h.b[ik].flags |= PK_BONE_IK;
    h.b[ik].ik_target = ankle;
    h.b[ik].ik_loops = 40;
    h.b[ik].ik_limit = 0.4f;
    h.l[0].bone = knee;
    h.l[1].bone = hip;
    h.b[ik].ik_links = h.l;
    h.b[ik].nik_links = 2;
    h.m.format = PK_FMT_PMD;
    pk_rig *r = rig_of(&h.m);
    pk_bone_local loc[5];
    pk_bone_world w[5];
    const double thigh = 4.6233, shin = 5.4493, len = thigh + shin;
    size_t goals = 0, missed = 0;
    double worst = 0;
    for (int g = 0; g < 2000; g++) {
        /* a fixed pseudo-random walk: hip and knee keys up to 90 degrees
         * about any axis, the goal anywhere round the hip */
        double u[9];
        for (int k = 0; k < 9; k++)
            u[k] = fmod(sin((g + 1) * (12.9898 + 7.233 * k)) * 43758.5453, 1.0);
        pk_rig_rest(r, loc);
        qaxis(u[0], u[1], u[2], 90 * u[3], loc[hip].rot);
        qaxis(u[2], u[0], u[1], 60 * u[4], loc[knee].rot);
        qaxis(1, 0, 0, 30 * u[5], loc[lower].rot);
        double dir[3] = {u[6], u[7] - 0.5, u[8]}, n = 0;
        for (int a = 0; a < 3; a++)
            n += dir[a] * dir[a];
        n = sqrt(n);
        if (!(n > 1e-3))
            continue;
        pk_rig_eval(r, loc, NULL, PK_EVAL_NO_IK, w);
        double want = (shin - thigh) * 1.05 + fabs(u[3]) * (0.95 * len - (shin - thigh) * 1.05);
        for (int a = 0; a < 3; a++)
            loc[ik].pos[a] = (float)(w[hip].pos[a] + dir[a] / n * want - (double)h.b[ik].pos[a]);
        pk_rig_eval(r, loc, NULL, 0, w);
        double d = gap(w, hip, ik);
        if (d > 0.95 * len || d < (shin - thigh) * 1.05)
            continue;
        double miss = gap(w, ankle, ik);
        goals++;
        missed += miss > 0.01;
        worst = fmax(worst, miss);
    }
    printf("Mei's leg, 0.4 radians a step: %zu goals within reach, %zu missed, worst %.4g\n", goals,
           missed, worst);
    assert_true(goals > 1500);
    assert_int_equal(missed, 0);
    pk_rig_free(r);
    hb_free(&h);
}

/* Per-link limits (not the knee's plane case): a link limited to
 * [-10, 10] degrees about every axis never leaves them. */
static void ik_limits_hold(void **state)
{
    (void)state;
    hb h;
    hb_init(&h);
    int root = hb_bone(&h, "根", -1, 0, 0, 0);
    int mid = hb_bone(&h, "中", root, 0, 4, 0);
    int tip = hb_bone(&h, "先", mid, 0, 8, 0);
    int ik = hb_bone(&h, "ＩＫ", -1, 0, 8, 0);
    h.b[ik].flags |= PK_BONE_IK;
    h.b[ik].ik_target = tip;
    h.b[ik].ik_loops = 20;
    h.b[ik].ik_limit = 0.5f;
    h.l[0].bone = mid;
    h.l[0].limited = true;
    for (int a = 0; a < 3; a++) {
        h.l[0].min[a] = (float)(-10 * PI / 180);
        h.l[0].max[a] = (float)(10 * PI / 180);
    }
    h.l[1].bone = root;
    h.b[ik].ik_links = h.l;
    h.b[ik].nik_links = 2;
    pk_rig *r = rig_of(&h.m);
    pk_bone_local loc[4];
    pk_bone_world w[4];
    pk_rig_rest(r, loc);
    loc[ik].pos[0] = 5, loc[ik].pos[1] = -4, loc[ik].pos[2] = 2;
    pk_rig_eval(r, loc, NULL, 0, w);
    /* mid's local rotation, as X·Y·Z angles */
    double *p = w[root].rot, *c = w[mid].rot;
    double inv[4] = {-p[0], -p[1], -p[2], p[3]}, l[4];
    l[0] = inv[3] * c[0] + inv[0] * c[3] + inv[1] * c[2] - inv[2] * c[1];
    l[1] = inv[3] * c[1] - inv[0] * c[2] + inv[1] * c[3] + inv[2] * c[0];
    l[2] = inv[3] * c[2] + inv[0] * c[1] - inv[1] * c[0] + inv[2] * c[3];
    l[3] = inv[3] * c[3] - inv[0] * c[0] - inv[1] * c[1] - inv[2] * c[2];
    double x = l[0], y = l[1], z = l[2], ww = l[3];
    double ey = asin(fmin(1, fmax(-1, 2 * (x * z + y * ww)))) * 180 / PI;
    double ex = atan2(-2 * (y * z - x * ww), 1 - 2 * (x * x + y * y)) * 180 / PI;
    double ez = atan2(-2 * (x * y - z * ww), 1 - 2 * (y * y + z * z)) * 180 / PI;
    printf("limited link: %.4f %.4f %.4f degrees\n", ex, ey, ez);
    assert_true(fabs(ex) <= 10 + 1e-6 && fabs(ey) <= 10 + 1e-6 && fabs(ez) <= 10 + 1e-6);
    assert_true(fabs(ex) + fabs(ey) + fabs(ez) > 1); /* it did turn */
    pk_rig_free(r);
    hb_free(&h);
}

/* The VMD's IK section: a record at frame 10 turns 右足ＩＫ off; before
 * it the IK bends the knee forward, from it on the knee's own key (a
 * backwards bend) shows. */
static void ik_off_by_motion(void **state)
{
    (void)state;
    hb h;
    hb_leg(&h);
    pk_rig *r = rig_of(&h.m);
    pk_motion *mo = pk_motion_new();
    pk_log log;
    pk_log_init(&log);
    pk_bone_key *k = pk_motion_push_bone(mo);
    k->name = pk_names_intern_utf8(mo->names, "右足ＩＫ", 15, "bone", &log);
    k->pos[1] = 3;
    k->rot[3] = 1;
    pk_interp_linear(k->interp);
    k = pk_motion_push_bone(mo);
    k->name = pk_names_intern_utf8(mo->names, "右ひざ", 15, "bone", &log);
    qaxis(1, 0, 0, 20, k->rot);
    pk_interp_linear(k->interp);
    /* one IK record: frame 10, 右足ＩＫ off */
    pk_ik_key *rec = NULL;
    mo->iks = calloc(1, sizeof *mo->iks);
    mo->cap_iks = 1;
    mo->niks = 1;
    rec = &mo->iks[0];
    rec->frame = 10;
    rec->show = 1;
    rec->count = 1;
    rec->ik = calloc(1, sizeof *rec->ik);
    rec->ik[0].name = pk_names_intern_utf8(mo->names, "右足ＩＫ", 20, "IK", &log);
    rec->ik[0].enabled = 0;
    pk_tracks *t = pk_tracks_build(mo, &log);
    assert_non_null(t);
    pk_bone_local loc[4];
    pk_bone_world w[4];
    bool on[4];
    assert_int_equal(pk_rig_motion_local(r, mo, t, 5, loc, on), 2);
    assert_true(on[3]);
    pk_rig_eval(r, loc, on, 0, w);
    double off;
    assert_true(knee_angle(w, 0, 1, &off) < -0.5 + 1e-6);
    assert_true(gap(w, 2, 3) < 0.01);
    pk_rig_motion_local(r, mo, t, 10, loc, on);
    assert_false(on[3]);
    pk_rig_eval(r, loc, on, 0, w);
    assert_true(fabs(knee_angle(w, 0, 1, &off) - 20.0) < 1e-4);
    pk_tracks_free(t);
    pk_motion_free(mo);
    pk_log_free(&log);
    pk_rig_free(r);
    hb_free(&h);
}

/* Corpus: every leg IK (足ＩＫ) whose goal is comfortably within reach
 * ends with the ankle within 0.01 of it; every knee bends forward only,
 * about X only; every limited link stays within its limits. */
typedef struct ik_stats {
    size_t chains, reached, knees, backwards;
    double worst_reach, worst_knee;
} ik_stats;

static void ik_check(void *ctx, const pk_model *m, pk_rig *r, const pk_bone_local *loc,
                     const bool *on, const char *what)
{
    ik_stats *st = ctx;
    pk_bone_world *w = calloc(m->nbones + 1, sizeof *w);
    pk_rig_eval(r, loc, on, 0, w);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK) || b->nik_links == 0 || (on && !on[i]))
            continue;
        for (size_t k = 0; k < b->nik_links; k++) {
            const pk_model_ik_link *l = &b->ik_links[k];
            int32_t lb = l->bone, p = m->bones[lb].parent;
            if (!strstr(m->bones[lb].name, "ひざ") || p < 0)
                continue;
            /* the model's own limits, else the knee rule */
            double lo = l->limited ? l->min[0] * 180 / PI : -180.0;
            double hi = l->limited ? l->max[0] * 180 / PI : -0.5;
            double off, a = knee_angle(w, p, lb, &off);
            st->knees++;
            st->backwards += a > 0;
            st->worst_knee = st->knees == 1 ? a : fmax(a, st->worst_knee);
            if (a > hi + 1e-4 || a < lo - 1e-4 || off > 1e-6)
                fail_msg("%s on %s: %s bends %g degrees, limits %g..%g (off-axis %g)", what,
                         m->name, m->bones[lb].name, a, lo, hi, off);
        }
        if (!strstr(b->name, "足ＩＫ") || b->nik_links != 2)
            continue;
        /* reachable: hip-to-goal between 0.3 and 0.95 of the leg's length */
        int32_t hip = b->ik_links[b->nik_links - 1].bone, tgt = b->ik_target;
        double len = 0;
        for (int32_t j = tgt; j >= 0 && j != hip; j = m->bones[j].parent) {
            int32_t p = m->bones[j].parent;
            if (p < 0)
                break;
            double d0 = m->bones[j].pos[0] - m->bones[p].pos[0],
                   d1 = m->bones[j].pos[1] - m->bones[p].pos[1],
                   d2 = m->bones[j].pos[2] - m->bones[p].pos[2];
            len += sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        }
        double d = gap(w, hip, (int)i);
        st->chains++;
        if (d < 0.3 * len || d > 0.95 * len)
            continue;
        double miss = gap(w, tgt, (int)i);
        st->reached++;
        if (miss > st->worst_reach)
            st->worst_reach = miss;
        if (miss > 0.01)
            fail_msg("%s on %s: %s ends %g from its goal (hip %g of leg %g)", what, m->name,
                     b->name, miss, d, len);
    }
    free(w);
}

static void ik_corpus(void **state)
{
    (void)state;
    ik_stats st = {0};
    size_t evals = for_each_pose(ik_check, &st);
    if (evals == 0)
        skip();
    printf("ik: %zu evaluations, %zu leg chains, %zu within reach, worst miss %.3g; %zu knees, "
           "largest knee angle %.3f degrees, %zu backwards (only where the model's own limit "
           "allows it)\n",
           evals, st.chains, st.reached, st.worst_reach, st.knees, st.worst_knee, st.backwards);
    assert_true(st.reached >= 50);
    assert_true(st.knees >= 100);
}

/* The law, on every frame of every corpus dance (and every corpus pose)
 * on every corpus model: a foot goal (足ＩＫ with a knee and a hip)
 * within 95% of the leg's length from the hip, and beyond the fold the
 * knee allows (|thigh - shin|, with 5% to spare), is met within 0.01.
 * Prints the goals and misses per model and motion. */
typedef struct law_stats {
    size_t goals, missed;
    double worst;
} law_stats;

static void law_check(const pk_model *m, pk_rig *r, const pk_bone_local *loc, const bool *on,
                      pk_bone_world *w, law_stats *st, const char *what, double frame)
{
    pk_rig_eval(r, loc, on, 0, w);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK) || b->nik_links != 2 || !strstr(b->name, "足ＩＫ") ||
            (on && !on[i]))
            continue;
        int32_t knee = b->ik_links[0].bone, hip = b->ik_links[1].bone, tgt = b->ik_target;
        if (tgt < 0 || m->bones[tgt].parent != knee || m->bones[knee].parent != hip)
            continue;
        double seg[2];
        for (int s = 0; s < 2; s++) {
            const float *a = m->bones[s ? tgt : knee].pos, *p = m->bones[s ? knee : hip].pos;
            double d0 = a[0] - p[0], d1 = a[1] - p[1], d2 = a[2] - p[2];
            seg[s] = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        }
        double d = gap(w, hip, (int)i);
        if (d > 0.95 * (seg[0] + seg[1]) || d < 1.05 * fabs(seg[0] - seg[1]))
            continue;
        double miss = gap(w, tgt, (int)i);
        st->goals++;
        st->worst = fmax(st->worst, miss);
        if (miss > 0.01 && st->missed++ < 5)
            print_message("%s on %s, frame %g: %s ends %.4f from its goal (hip to goal %.3f, "
                          "leg %.3f)\n",
                          what, m->name, frame, b->name, miss, d, seg[0] + seg[1]);
    }
}

static void ik_law_every_frame(void **state)
{
    (void)state;
    corpus_set c;
    if (!corpus_open(&c))
        skip();
    size_t goals = 0, missed = 0, frames = 0;
    for (size_t mi = 0; mi < c.nmodels; mi++) {
        pk_log log;
        pk_log_init(&log);
        pk_model *m = pk_model_load(c.models[mi], &log);
        assert_non_null(m);
        pk_rig *r = pk_rig_new(m, &log);
        assert_non_null(r);
        pk_bone_local *loc = calloc(m->nbones + 1, sizeof *loc);
        pk_bone_world *w = calloc(m->nbones + 1, sizeof *w);
        bool *on = calloc(m->nbones + 1, 1);
        for (size_t v = 0; v < c.nvpds + c.nvmds; v++) {
            const char *path = v < c.nvpds ? c.vpds[v] : c.vmds[v - c.nvpds];
            pk_doc d;
            law_stats st = {0};
            if (pk_doc_load(path, &d, &log) != 0) {
                pk_doc_free(&d);
                continue;
            }
            if (d.pose) {
                pk_rig_pose_local(r, d.pose, loc);
                law_check(m, r, loc, NULL, w, &st, path, 0);
                frames++;
            } else if (d.motion && d.motion->nbones) {
                pk_tracks *t = pk_tracks_build(d.motion, &log);
                assert_non_null(t);
                uint32_t lo, hi;
                pk_motion_frame_range(d.motion, &lo, &hi);
                for (uint64_t f = lo; f <= hi; f++, frames++) {
                    pk_rig_motion_local(r, d.motion, t, (double)f, loc, on);
                    law_check(m, r, loc, on, w, &st, path, (double)f);
                }
                pk_tracks_free(t);
            }
            if (st.goals) {
                const char *mb = strrchr(c.models[mi], '/'), *pb = strrchr(path, '/');
                printf("  %-30s %-32s %6zu goals within reach, %zu missed, worst %.2g\n",
                       mb ? mb + 1 : c.models[mi], pb ? pb + 1 : path, st.goals, st.missed,
                       st.worst);
            }
            goals += st.goals;
            missed += st.missed;
            pk_doc_free(&d);
        }
        free(loc);
        free(w);
        free(on);
        pk_rig_free(r);
        pk_model_free(m);
        pk_log_free(&log);
    }
    corpus_close(&c);
    printf("ik law: %zu evaluations, %zu foot goals within reach, %zu missed\n", frames, goals,
           missed);
    assert_true(goals >= 10000);
    assert_int_equal(missed, 0);
}

/* ---- the bits pinned: FNV-1a of every world transform ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The digest of model m's world transforms (IK and appends on, the VMD's
 * IK states) at every frame of the motion or pose at path, on rig r;
 * false when the file holds neither a pose nor bone keys. */
static bool eval_digest(const pk_model *m, pk_rig *r, const char *path, uint64_t *out)
{
    pk_log log;
    pk_log_init(&log);
    pk_doc d;
    bool any = false;
    uint64_t h = 0xcbf29ce484222325ull;
    pk_bone_local *loc = calloc(m->nbones + 1, sizeof *loc);
    pk_bone_world *w = calloc(m->nbones + 1, sizeof *w);
    bool *on = calloc(m->nbones + 1, 1);
    if (pk_doc_load(path, &d, &log) == 0 && d.pose) {
        pk_rig_pose_local(r, d.pose, loc);
        pk_rig_eval(r, loc, NULL, 0, w);
        h = fnv(h, w, m->nbones * sizeof *w);
        any = true;
    } else if (d.motion && d.motion->nbones) {
        pk_tracks *t = pk_tracks_build(d.motion, &log);
        assert_non_null(t);
        uint32_t lo, hi;
        pk_motion_frame_range(d.motion, &lo, &hi);
        for (uint64_t f = lo; f <= hi; f++) {
            pk_rig_motion_local(r, d.motion, t, (double)f, loc, on);
            pk_rig_eval(r, loc, on, 0, w);
            h = fnv(h, w, m->nbones * sizeof *w);
        }
        pk_tracks_free(t);
        any = true;
    }
    pk_doc_free(&d);
    free(loc);
    free(w);
    free(on);
    pk_log_free(&log);
    *out = h;
    return any;
}

/* Every world transform the evaluator gives (CCD's IK, appends, fixed
 * axes) is the same bits as the digests of tests/data/eval_bits.txt: a
 * faster evaluation must not move one bit (the evaluator matches MMD's
 * playback and every measure was taken on these bits).  Each model's
 * files are evaluated on one rig in turn, poses first, as a play and the
 * CLI do.  PK_WRITE_EVAL_BITS=FILE writes the digests instead (made once
 * by the evaluator they pin). */
static void eval_bits_pinned(void **state)
{
    (void)state;
    corpus_set c;
    if (!corpus_open(&c))
        skip();
    const char *write = getenv("PK_WRITE_EVAL_BITS");
    char want_path[4096];
    const char *src = getenv("PK_SOURCE");
    snprintf(want_path, sizeof want_path, "%s/tests/data/eval_bits.txt", src ? src : ".");
    FILE *f = fopen(write ? write : want_path, write ? "w" : "r");
    assert_non_null(f);
    char mname[256], fname[256];
    unsigned long long want;
    size_t checked = 0;
    if (write) {
        for (size_t mi = 0; mi < c.nmodels; mi++) {
            pk_log log;
            pk_log_init(&log);
            pk_model *m = pk_model_load(c.models[mi], &log);
            assert_non_null(m);
            pk_rig *r = pk_rig_new(m, &log);
            assert_non_null(r);
            for (size_t v = 0; v < c.nvpds + c.nvmds; v++) {
                const char *path = v < c.nvpds ? c.vpds[v] : c.vmds[v - c.nvpds];
                uint64_t h;
                if (eval_digest(m, r, path, &h))
                    fprintf(f, "%s %s %016llx\n", base(c.models[mi]), base(path),
                            (unsigned long long)h);
            }
            pk_rig_free(r);
            pk_model_free(m);
            pk_log_free(&log);
        }
    }
    /* each line: a model and a file, evaluated on one rig per model in the
     * order of the lines */
    pk_model *m = NULL;
    pk_rig *r = NULL;
    char at[256] = "";
    while (!write && fscanf(f, "%255s %255s %llx", mname, fname, &want) == 3) {
        char path[4096];
        if (strcmp(at, mname) != 0) {
            pk_rig_free(r);
            pk_model_free(m);
            pk_log log;
            pk_log_init(&log);
            snprintf(at, sizeof at, "%s", mname);
            m = pk_model_load(tu_corpus_path(mname), &log);
            assert_non_null(m);
            r = pk_rig_new(m, &log);
            assert_non_null(r);
            pk_log_free(&log);
        }
        snprintf(path, sizeof path, "%s", tu_corpus_path(fname));
        uint64_t got;
        assert_true(eval_digest(m, r, path, &got));
        if (got != want)
            fail_msg("%s on %s: digest %016llx, eval_bits.txt says %016llx", fname, mname,
                     (unsigned long long)got, want);
        checked++;
    }
    pk_rig_free(r);
    pk_model_free(m);
    fclose(f);
    corpus_close(&c);
    printf("eval bits: %zu model and file pairs the same bits\n", checked);
    if (!write)
        assert_true(checked >= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fk_hand_worked),
        cmocka_unit_test(fk_corpus),
        cmocka_unit_test(append_ratio),
        cmocka_unit_test(append_babylon_fixture),
        cmocka_unit_test(append_corpus),
        cmocka_unit_test(ik_leg_hand_built),
        cmocka_unit_test(ik_leg_small_step_limit),
        cmocka_unit_test(ik_limits_hold),
        cmocka_unit_test(ik_off_by_motion),
        cmocka_unit_test(ik_corpus),
        cmocka_unit_test(ik_law_every_frame),
        cmocka_unit_test(eval_bits_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
