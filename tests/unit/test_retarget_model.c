/* test_retarget_model.c — retarget between two corpus models.
 *
 * Forward kinematics written here, independently of the engine: every
 * bone's world rotation is its parent's times its own key, its head sits
 * at the parent's head plus the parent's world rotation applied to (rest
 * offset + translation).  Append and IK are left out (the arm chains do
 * not need them).  Checked, on corpus dances and models, both directions:
 *   - stance: the world direction of every arm segment (腕→ひじ, ひじ→手首)
 *     on B playing OUT equals A playing IN at every 5th frame (0.5° worst,
 *     0.1° mean), and without the stance step it does not (several °);
 *   - fold: onto the classic skeleton (no 全ての親/グルーブ/上半身2) every
 *     bone B has keeps its world rotation (0.01°) at every integer frame;
 *   - scale: factors worked by hand from the bone positions;
 *   - A→B→A gives the input back (0.001°, 1e-4 units) where nothing was
 *     folded. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* The laws here are the stance's, the fold's and the scale's: the sizing
 * steps (contacts, avoid, twist; test_sizing.c) are off. */
#define NO_SIZING                                                                                  \
    .no_contacts = true, .no_avoid = true, .no_twist = true, .no_centre = true, .no_upper = true,    \
    .no_shoulders = true, .no_toes = true

#define NEAR(a, b, e)                                                                              \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (e)))                                                               \
            fail_msg("%s = %.7f, want %.7f within %g", #a, a_, b_, (double)(e));                   \
    } while (0)

/* ---- independent quaternion math (Hamilton, x,y,z,w; v' = q v q*) ---- */

static void qmul(const double a[4], const double b[4], double o[4])
{
    double r[4] = {
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    };
    memcpy(o, r, sizeof r);
}

/* The angle of a·b⁻¹ from its vector and scalar parts (atan2: exact for
 * tiny angles and for quaternions a float's rounding left off unit). */
static double qangle(const double a[4], const double b[4])
{
    double c[4] = {-b[0], -b[1], -b[2], b[3]}, d[4];
    qmul(a, c, d);
    double v = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return 2 * atan2(v, fabs(d[3])) * 180 / PI;
}

static double vangle(const double a[3], const double b[3])
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    double c = d / (na * nb);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180 / PI;
}

/* ---- models and motions ---- */

static pk_model *model(const char *name)
{
    const char *p = tu_corpus_path(name);
    if (!p)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(p, &log);
    pk_log_free(&log);
    assert_non_null(m);
    return m;
}

static pk_motion *motion(const char *name)
{
    const char *p = tu_corpus_path(name);
    if (!p)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_doc d;
    assert_int_equal(pk_doc_load(p, &d, &log), 0);
    pk_log_free(&log);
    assert_non_null(d.motion);
    return d.motion;
}

static long bone(const pk_model *m, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    long i = pk_model_find_bone(m, raw, len);
    free(raw);
    return i;
}

/* A motion's pose on a model, evaluated as MMD shows it without IK
 * (pk_rig_eval with PK_EVAL_NO_IK: parent chain from the rest positions,
 * append/inherit, fixed axes; test_eval checks that evaluation against an
 * independent forward-kinematics computation).  IK is left out: the legs'
 * IK goals are placed for each model's own legs, so the leg bones' world
 * rotations are not what a retarget keeps. */
typedef struct player {
    const pk_model *mdl;
    const pk_motion *m;
    pk_tracks *t;
    pk_rig *rig;
    pk_bone_local *loc;
    pk_bone_world *w;
    double (*rot)[4], (*pos)[3];
} player;

static void player_init(player *p, const pk_model *mdl, const pk_motion *m)
{
    p->mdl = mdl;
    p->m = m;
    p->t = pk_tracks_build(m, NULL);
    assert_non_null(p->t);
    p->rig = pk_rig_new(mdl, NULL);
    assert_non_null(p->rig);
    p->loc = calloc(mdl->nbones + 1, sizeof *p->loc);
    p->w = calloc(mdl->nbones + 1, sizeof *p->w);
    p->rot = calloc(mdl->nbones + 1, sizeof *p->rot);
    p->pos = calloc(mdl->nbones + 1, sizeof *p->pos);
    assert_true(p->loc && p->w && p->rot && p->pos);
}

static void player_free(player *p)
{
    pk_tracks_free(p->t);
    pk_rig_free(p->rig);
    free(p->loc);
    free(p->w);
    free(p->rot);
    free(p->pos);
}

static void fk(player *p, double frame)
{
    pk_rig_motion_local(p->rig, p->m, p->t, frame, p->loc, NULL);
    pk_rig_eval(p->rig, p->loc, NULL, PK_EVAL_NO_IK, p->w);
    for (size_t i = 0; i < p->mdl->nbones; i++) {
        memcpy(p->rot[i], p->w[i].rot, sizeof p->rot[i]);
        memcpy(p->pos[i], p->w[i].pos, sizeof p->pos[i]);
    }
}

/* ---- running the step ---- */

/* The fold's tolerances for retarget() (0: the defaults). */
static double fold_deg, fold_pos;

static pk_motion *retarget(const pk_motion *in, const pk_model *a, const pk_model *b, bool stance,
                           bool scale, bool fold, pk_retarget_report *rep)
{
    pk_motion *m = pk_motion_clone(in);
    assert_non_null(m);
    pk_retarget_options o = {NO_SIZING,
                             .from = a,
                             .to = b,
                             .no_stance = !stance,
                             .no_scale = !scale,
                             .no_fold = !fold,
                             .max_deg = fold_deg,
                             .max_pos = fold_pos};
    pk_log log;
    pk_log_init(&log);
    pk_retarget_report own;
    int rc = pk_motion_retarget_models(m, NULL, &o, NULL, rep ? rep : &own, &log);
    if (rc != 0)
        for (size_t i = 0; i < log.count; i++)
            fprintf(stderr, "%s\n", log.items[i].msg);
    assert_int_equal(rc, 0);
    if (!rep)
        pk_retarget_report_free(&own);
    pk_log_free(&log);
    return m;
}

static const char *const SEGS[4][2] = {
    {"左腕", "左ひじ"}, {"左ひじ", "左手首"}, {"右腕", "右ひじ"}, {"右ひじ", "右手首"}};

/* Arm segment directions of A playing `in` against B playing `out` at
 * every 5th frame: worst and mean angle (degrees). */
static void arm_measure(const pk_model *a, const pk_motion *in, const pk_model *b,
                        const pk_motion *out, double *worst, double *mean)
{
    player pa, pb;
    player_init(&pa, a, in);
    player_init(&pb, b, out);
    uint32_t f0, f1;
    assert_true(pk_motion_frame_range(in, &f0, &f1));
    long ia[4][2], ib[4][2];
    for (int s = 0; s < 4; s++)
        for (int e = 0; e < 2; e++) {
            ia[s][e] = bone(a, SEGS[s][e]);
            ib[s][e] = bone(b, SEGS[s][e]);
            assert_true(ia[s][e] >= 0 && ib[s][e] >= 0);
        }
    double sum = 0;
    size_t n = 0;
    *worst = 0;
    for (uint32_t f = 0; f <= f1; f += 5) {
        fk(&pa, f);
        fk(&pb, f);
        for (int s = 0; s < 4; s++) {
            double da[3], db[3];
            for (int k = 0; k < 3; k++) {
                da[k] = pa.pos[ia[s][1]][k] - pa.pos[ia[s][0]][k];
                db[k] = pb.pos[ib[s][1]][k] - pb.pos[ib[s][0]][k];
            }
            double d = vangle(da, db);
            *worst = fmax(*worst, d);
            sum += d;
            n++;
        }
    }
    *mean = sum / (double)n;
    player_free(&pa);
    player_free(&pb);
}

static const char *const MODELS[3] = {"pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx",
                                      "pmx_mmt_test_model.pmx"};
static const char *const DANCES[3] = {"vmd_wavefile_v2.vmd", "vmd_mmdtools_test.vmd",
                                      "vmd_mmdagent_stand.vmd"};

/* Stance: every ordered pair of corpus models, every dance. */
static void test_stance_pairs(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *mdl[3];
    for (int i = 0; i < 3; i++)
        mdl[i] = model(MODELS[i]);
    /* Each dance with the models it was made for as the source: the
     * classic dance with all three, the others with their own skeleton
     * (they key bones the other models lack, 肩P or 腕捩連, which the
     * source model would not show). */
    static const int SOURCES[3][3] = {{0, 1, 2}, {2, -1, -1}, {0, -1, -1}};
    for (int d = 0; d < 3; d++) {
        pk_motion *in = motion(DANCES[d]);
        for (int ai = 0; ai < 3; ai++)
            for (int b = 0; b < 3; b++) {
                int a = SOURCES[d][ai];
                if (a < 0 || a == b)
                    continue;
                double w1, m1, w0, m0;
                pk_motion *out = retarget(in, mdl[a], mdl[b], true, true, true, NULL);
                arm_measure(mdl[a], in, mdl[b], out, &w1, &m1);
                pk_motion_free(out);
                out = retarget(in, mdl[a], mdl[b], false, true, true, NULL);
                arm_measure(mdl[a], in, mdl[b], out, &w0, &m0);
                pk_motion_free(out);
                printf("# stance %-22s %-26s -> %-26s with: worst %.6f mean %.6f; without: "
                       "worst %.3f mean %.3f\n",
                       DANCES[d], MODELS[a], MODELS[b], w1, m1, w0, m0);
                assert_true(w1 <= 0.5);
                assert_true(m1 <= 0.1);
                assert_true(w0 >= 2.0); /* the step is what makes the difference */
                assert_true(m0 >= 1.0);
            }
        pk_motion_free(in);
    }
    for (int i = 0; i < 3; i++)
        pk_model_free(mdl[i]);
}

/* Fold: onto the classic skeleton, every bone it has keeps its world
 * rotation at every integer frame: within `within` degrees, each rewritten
 * track within the fold's tolerances (fold_deg, fold_pos). */
static void fold_check(const char *dance, const char *from, const char *to, size_t want_folded,
                       double within)
{
    pk_model *a = model(from), *b = model(to);
    pk_motion *in = motion(dance);
    pk_retarget_report rep;
    pk_motion *out = retarget(in, a, b, false, false, true, &rep);
    assert_true(rep.fold_done);
    assert_true(rep.fold.nfolded >= want_folded);
    player pa, pb;
    player_init(&pa, a, in);
    player_init(&pb, b, out);
    uint32_t f0, f1;
    assert_true(pk_motion_frame_range(in, &f0, &f1));
    double worst = 0;
    for (uint32_t f = 0; f <= f1; f++) {
        fk(&pa, f);
        fk(&pb, f);
        for (size_t i = 0; i < b->nbones; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(b->names, b->bones[i].cp932, &len);
            long ai = raw ? pk_model_find_bone(a, raw, len) : -1;
            if (ai < 0)
                continue;
            double e = qangle(pa.rot[ai], pb.rot[i]);
            worst = fmax(worst, e);
        }
    }
    printf("# fold %s %s -> %s within %g deg, %g units: %zu folded, %zu tracks, %zu keys in, "
           "%zu out, worst world rotation %.6f deg (fit %.6f deg, %.6f units)\n",
           dance, from, to, fold_deg, fold_pos, rep.fold.nfolded, rep.fold.tracks,
           rep.fold.keys_removed, rep.fold.keys_added, worst, rep.fold.worst_deg,
           rep.fold.worst_pos);
    assert_true(worst <= within);
    assert_true(rep.fold.worst_deg <= (fold_deg > 0 ? fold_deg : PK_REDUCE_DEG));
    assert_true(rep.fold.worst_pos <= (fold_pos > 0 ? fold_pos : PK_REDUCE_POS));
    player_free(&pa);
    player_free(&pb);
    pk_retarget_report_free(&rep);
    pk_motion_free(in);
    pk_motion_free(out);
    pk_model_free(a);
    pk_model_free(b);
}

/* The same for a pose (pk_pose_fold): frames of the mmt test motion as
 * VPD poses, folded onto the classic skeleton, shown as MMD shows them
 * (appends: 肩P and its cancelling 肩C, 腰 and 腰キャンセル; fixed-axis
 * twist bones), every bone the classic model has within 0.001°. */
static void test_fold_pose_appends(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_mmt_test_model.pmx"), *b = model("pmx_nanoem_miku_bones.pmx");
    pk_motion *m = motion("vmd_mmdtools_test.vmd");
    pk_tracks *t = pk_tracks_build(m, NULL);
    pk_rig *ra = pk_rig_new(a, NULL), *rb = pk_rig_new(b, NULL);
    pk_bone_local *la = calloc(a->nbones, sizeof *la), *lb = calloc(b->nbones, sizeof *lb);
    pk_bone_world *wa = calloc(a->nbones, sizeof *wa), *wb = calloc(b->nbones, sizeof *wb);
    assert_true(t && ra && rb && la && lb && wa && wb);
    double worst = 0;
    size_t twisted = 0;
    for (int f = 0; f <= 24; f += 4) {
        pk_pose *p = pk_motion_sample(m, t, f, NULL);
        assert_non_null(p);
        pk_pose *q = pk_pose_clone(p);
        assert_non_null(q);
        pk_retarget_options o = {NO_SIZING, .from = a, .to = b, .no_stance = true,
                                 .no_scale = true}; /* fold only */
        pk_retarget_report rep;
        assert_int_equal(pk_pose_retarget_models(q, NULL, &o, NULL, &rep, NULL), 0);
        if (rep.fold.ntwisted > twisted)
            twisted = rep.fold.ntwisted;
        pk_rig_pose_local(ra, p, la);
        pk_rig_pose_local(rb, q, lb);
        pk_rig_eval(ra, la, NULL, PK_EVAL_NO_IK, wa);
        pk_rig_eval(rb, lb, NULL, PK_EVAL_NO_IK, wb);
        for (size_t i = 0; i < b->nbones; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(b->names, b->bones[i].cp932, &len);
            long ai = raw ? pk_model_find_bone(a, raw, len) : -1;
            if (ai >= 0)
                worst = fmax(worst, qangle(wa[ai].rot, wb[i].rot));
        }
        pk_retarget_report_free(&rep);
        pk_pose_free(p);
        pk_pose_free(q);
    }
    printf("# fold poses mmt -> classic: worst world rotation %.7f deg, up to %zu twist bones\n",
           worst, twisted);
    assert_true(worst <= 0.001);
    assert_true(twisted > 0 && twisted <= 4); /* 腕捩 and 手捩, both sides, where keyed off axis */
    free(la);
    free(lb);
    free(wa);
    free(wb);
    pk_rig_free(ra);
    pk_rig_free(rb);
    pk_tracks_free(t);
    pk_motion_free(m);
    pk_model_free(a);
    pk_model_free(b);
}

/* The same skeleton as PMD and as PMX: nothing to fold, stance segments
 * under 1e-9 degrees and a scale of exactly 1 leave every key's bytes as
 * they were (before, the stance rounded 50 keys of the sample dance). */
static void test_same_skeleton_untouched(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmd_gene.pmd"), *b = model("pmx_gene.pmx");
    pk_motion *in = motion("vmd_wavefile_v2.vmd");
    pk_retarget_report rep;
    pk_motion *out = retarget(in, a, b, true, true, true, &rep);
    pk_buf x, y;
    pk_buf_init(&x);
    pk_buf_init(&y);
    assert_int_equal(pk_vmd_write(in, &x, NULL), 0);
    assert_int_equal(pk_vmd_write(out, &y, NULL), 0);
    assert_int_equal(x.len, y.len);
    assert_memory_equal(x.data, y.data, x.len);
    pk_buf_free(&x);
    pk_buf_free(&y);
    pk_retarget_report_free(&rep);
    pk_motion_free(in);
    pk_motion_free(out);
    pk_model_free(a);
    pk_model_free(b);
}

static void test_fold_classic(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    /* 全ての親, グルーブ, 腰, 上半身2, 肩P, 親指０, 足IK親: with tight
     * tolerances the fold is exact; with the reducer's (0.1 deg per
     * rewritten track) the errors of the tracks along a chain add up
     * (センター, 上半身, 肩 and 腕 are each rewritten on mmt) */
    fold_deg = 0.002;
    fold_pos = 0.0005;
    fold_check("vmd_mmdtools_test.vmd", "pmx_mmt_test_model.pmx", "pmx_nanoem_miku_bones.pmx", 7,
               0.01);
    fold_check("vmd_mmdagent_stand.vmd", "pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", 3, 0.01);
    fold_deg = fold_pos = 0;
    fold_check("vmd_mmdtools_test.vmd", "pmx_mmt_test_model.pmx", "pmx_nanoem_miku_bones.pmx", 7,
               4 * PK_REDUCE_DEG);
    fold_check("vmd_mmdagent_stand.vmd", "pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", 3,
               4 * PK_REDUCE_DEG);
}

/* Scale factors by hand from the bone positions (pmx dump):
 *   Gene    左足 (0.881216, 10.483547, -0.373168)  左足首 (0.881216, 1.329297, 0.161933)
 *           → distance √(9.154250² + 0.535101²) = 9.169877, height 9.154250
 *           (右 the same to 1e-6: x differs by 0.0003)
 *   nanoem  左足 (0.796811, 10.752734, -0.072743)  左足首 (0.875424, 1.34, 0)
 *           → √(0.078613² + 9.412734² + 0.072743²) = 9.413344, height 9.412734
 *   mmt     左足 (1.12055, 14.312964, -0.475875)   左足首 (1.266258, 1.661360, 0.761826)
 *           → √(0.145708² + 12.651604² + 1.237701²) = 12.712842, height 12.651604
 * Gene→nanoem: XZ 9.413344 / 9.169877 = 1.026551, Y 9.412734 / 9.154250 = 1.028237;
 * the left foot moves by (足_B − IK_B) + s⊙(IK_A − 足_A) =
 *   (−0.078613 + 0, 9.412734 − 1.028237·9.154230, −0.072743 + 1.026551·0.535642)
 *   = (−0.078613, 0.000039, 0.477121). */
static void test_scale_by_hand(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *g = model("pmx_gene.pmx"), *n = model("pmx_nanoem_miku_bones.pmx"),
             *t = model("pmx_mmt_test_model.pmx");
    pk_log log;
    pk_log_init(&log);
    pk_leg_scale s;
    assert_int_equal(pk_retarget_scale(g, n, &s, &log), 0);
    NEAR(s.len_a, 9.169877, 2e-5);
    NEAR(s.height_a, 9.154250, 2e-5);
    NEAR(s.len_b, 9.413344, 2e-5);
    NEAR(s.height_b, 9.412734, 2e-5);
    NEAR(s.xz, 1.026551, 2e-6);
    NEAR(s.y, 1.028237, 2e-6);
    NEAR(s.ik_shift[0][0], -0.078613, 2e-5);
    NEAR(s.ik_shift[0][1], 0.000039, 3e-5);
    NEAR(s.ik_shift[0][2], 0.477121, 2e-5);
    assert_int_equal(pk_retarget_scale(t, g, &s, &log), 0);
    NEAR(s.len_a, 12.712842, 5e-5);
    NEAR(s.height_a, 12.651604, 2e-5);
    NEAR(s.xz, 9.169877 / 12.712842, 5e-6);
    NEAR(s.y, 9.154250 / 12.651604, 5e-6);
    pk_log_free(&log);
    pk_model_free(g);
    pk_model_free(n);
    pk_model_free(t);
}

/* A→B→A: every track back within 0.001° and 1e-4 units at every frame
 * (the pairs where nothing is folded: the classic dance on any model). */
static void test_round_trip(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *mdl[3];
    for (int i = 0; i < 3; i++)
        mdl[i] = model(MODELS[i]);
    pk_motion *in = motion("vmd_wavefile_v2.vmd");
    double worst_deg = 0, worst_pos = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            if (a == b)
                continue;
            pk_retarget_report r1, r2;
            pk_motion *mid = retarget(in, mdl[a], mdl[b], true, true, true, &r1);
            pk_motion *back = retarget(mid, mdl[b], mdl[a], true, true, true, &r2);
            assert_int_equal(r1.fold.nfolded + r2.fold.nfolded, 0);
            /* The dance is the classic model's: it moves 左袖/右袖, which
             * Gene and mmt lack.  On the way from them to the classic
             * skeleton those keys are left out (there they do nothing);
             * so classic -> Gene -> classic loses them on the way back. */
            assert_int_equal(r1.ndropped, a != 1 && b == 1 ? 2 : 0);
            assert_int_equal(r2.ndropped, a == 1 && b != 1 ? 2 : 0);
            assert_int_equal(back->nbones, in->nbones - r1.dropped_keys - r2.dropped_keys);
            pk_tracks *ti = pk_tracks_build(in, NULL), *tb = pk_tracks_build(back, NULL);
            uint32_t f0, f1;
            pk_motion_frame_range(in, &f0, &f1);
            double wd = 0, wp = 0;
            for (size_t k = 0; k < ti->nbones; k++) {
                const pk_track *x = &ti->bones[k], *y = pk_tracks_bone(tb, x->name);
                bool gone = false;
                const char *xn = pk_names_utf8(in->names, x->name);
                for (size_t d = 0; d < r1.ndropped; d++)
                    gone |= strcmp(r1.dropped[d], xn) == 0;
                for (size_t d = 0; d < r2.ndropped; d++)
                    gone |= strcmp(r2.dropped[d], xn) == 0;
                if (gone) {
                    assert_null(y);
                    continue;
                }
                assert_non_null(y);
                pk_cursor cx, cy;
                pk_cursor_init(&cx, in, x);
                pk_cursor_init(&cy, back, y);
                for (uint32_t f = f0; f <= f1; f++) {
                    float p0[3], r0[4], p1[3], r1q[4];
                    pk_cursor_bone(&cx, f, p0, r0);
                    pk_cursor_bone(&cy, f, p1, r1q);
                    wd = fmax(wd, pk_quat_angle_deg(r0, r1q));
                    for (int c = 0; c < 3; c++) {
                        if (fabs((double)p0[c] - p1[c]) > wp && fabs((double)p0[c] - p1[c]) > 1e-4)
                            printf("#   %s at %u: %g\n", pk_names_utf8(in->names, x->name), f,
                                   fabs((double)p0[c] - p1[c]));
                        wp = fmax(wp, fabs((double)p0[c] - p1[c]));
                    }
                }
            }
            printf("# round trip %s -> %s -> back: %.7f deg, %.7f units\n", MODELS[a], MODELS[b],
                   wd, wp);
            worst_deg = fmax(worst_deg, wd);
            worst_pos = fmax(worst_pos, wp);
            pk_tracks_free(ti);
            pk_tracks_free(tb);
            pk_retarget_report_free(&r1);
            pk_retarget_report_free(&r2);
            pk_motion_free(mid);
            pk_motion_free(back);
        }
    assert_true(worst_deg <= 0.001);
    assert_true(worst_pos <= 1e-4);
    pk_motion_free(in);
    for (int i = 0; i < 3; i++)
        pk_model_free(mdl[i]);
}

/* Records the steps do not touch stay byte-identical and in order. */
static void test_untouched(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_mmt_test_model.pmx"), *b = model("pmx_nanoem_miku_bones.pmx");
    pk_motion *in = motion("vmd_mmdtools_test.vmd");
    pk_motion *out = retarget(in, a, b, true, true, true, NULL);
    assert_int_equal(out->nmorphs, in->nmorphs);
    assert_int_equal(out->ncameras, in->ncameras);
    assert_int_equal(out->nlights, in->nlights);
    assert_int_equal(out->nshadows, in->nshadows);
    assert_int_equal(out->niks, in->niks);
    for (size_t i = 0; i < in->ncameras; i++)
        assert_memory_equal(&in->cameras[i], &out->cameras[i], sizeof in->cameras[i]);
    /* a bone no step touches (頭: not folded into, not in an arm chain,
     * not scaled) keeps its records as they were */
    size_t len;
    uint8_t *raw;
    assert_int_equal(pk_utf8_to_cp932("頭", &raw, &len), 0);
    pk_name_id hi = pk_names_find(in->names, raw, len), ho = pk_names_find(out->names, raw, len);
    free(raw);
    size_t ni = 0, no = 0;
    for (size_t i = 0; i < in->nbones; i++)
        ni += in->bones[i].name == hi;
    for (size_t i = 0; i < out->nbones; i++)
        if (out->bones[i].name == ho) {
            const pk_bone_key *k = &out->bones[i];
            size_t j = 0, seen = 0;
            for (; j < in->nbones; j++)
                if (in->bones[j].name == hi && seen++ == no)
                    break;
            assert_true(j < in->nbones);
            assert_memory_equal(k->pos, in->bones[j].pos, sizeof k->pos);
            assert_memory_equal(k->rot, in->bones[j].rot, sizeof k->rot);
            assert_memory_equal(k->interp, in->bones[j].interp, sizeof k->interp);
            no++;
        }
    assert_true(ni > 0);
    assert_int_equal(ni, no);
    pk_motion_free(in);
    pk_motion_free(out);
    pk_model_free(a);
    pk_model_free(b);
}

/* A stance bone the motion lacks gets a key only when a bone below it
 * moves: keys at rest show in MMD as no key (the rules' stance has the
 * same law, test_retarget).  Before, a resting 左ひじ (or the resting
 * Japanese finger tips of a motion renamed to English) gave 左腕 a key. */
static void test_stance_key_needs_motion_below(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_gene.pmx"), *b = model("pmx_nanoem_miku_bones.pmx");
    pk_motion *in = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(in);
    k->name = tu_intern(in->names, "左ひじ");
    k->rot[3] = 1;
    pk_retarget_report rep;
    pk_motion *out = retarget(in, a, b, true, false, false, &rep);
    assert_int_equal(rep.stance_added, 0);
    assert_int_equal(out->nbones, 1);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    /* bent: 左腕 must turn from rest, it gets its key */
    in->bones[0].rot[1] = 0.6f;
    in->bones[0].rot[3] = 0.8f;
    out = retarget(in, a, b, true, false, false, &rep);
    assert_int_equal(rep.stance_added, 1);
    assert_int_equal(out->nbones, 2);
    assert_string_equal(pk_names_utf8(out->names, out->bones[1].name), "左腕");
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* Keys of a bone the source model lacks and the target has do nothing on
 * the source; copied, they would act on the target (the sample dance's
 * 親指０ keys would turn mmt's thumbs 16.9° from what the classic model
 * shows).  Such a bone's keys are left out with a warning
 * naming it; a resting track of such a bone and keys of bones neither
 * model has stay, in order. */
static void test_absent_on_source_left_out(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_nanoem_miku_bones.pmx"), *b = model("pmx_mmt_test_model.pmx");
    assert_true(bone(a, "右親指０") < 0 && bone(b, "右親指０") >= 0);
    assert_true(bone(a, "右肩C") < 0 && bone(b, "右肩C") >= 0);
    static const struct {
        const char *name;
        float rot_x;
    } KEYS[] = {
        {"右親指０", 0.3f}, {"右親指１", 0.3f}, {"右親指０", 0.0f}, {"右肩C", 0.0f}, {"zzz", 0.3f}};
    pk_motion *in = pk_motion_new();
    pk_pose *pose = pk_pose_new();
    for (size_t i = 0; i < 5; i++) {
        pk_bone_key *k = pk_motion_push_bone(in);
        k->name = tu_intern(in->names, KEYS[i].name);
        k->frame = (uint32_t)i;
        k->rot[0] = KEYS[i].rot_x;
        k->rot[3] = sqrtf(1 - KEYS[i].rot_x * KEYS[i].rot_x);
        if (i == 2)
            continue; /* a pose holds a bone once */
        pk_pose_bone *pb = pk_pose_push_bone(pose);
        pb->name = tu_intern(pose->names, KEYS[i].name);
        memcpy(pb->rot, k->rot, sizeof pb->rot);
    }
    pk_retarget_options o = {NO_SIZING,
                             .from = a,
                             .to = b,
                             .no_stance = true,
                             .no_scale = true,
                             .no_fold = true,
                             .from_name = "classic.pmx",
                             .to_name = "mmt.pmx"};
    pk_retarget_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_models(in, NULL, &o, NULL, &rep, &log), 0);
    assert_int_equal(rep.ndropped, 1);
    assert_string_equal(rep.dropped[0], "右親指０");
    assert_int_equal(rep.dropped_keys, 2);
    assert_int_equal(rep.bones_keyed, 4);
    assert_int_equal(rep.bones_on_target, 3);
    assert_int_equal(in->nbones, 3);
    static const char *const LEFT[3] = {"右親指１", "右肩C", "zzz"};
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(pk_names_utf8(in->names, in->bones[i].name), LEFT[i]);
    assert_int_equal(log.warnings, 1);
    tu_assert_log_has(&log, "1 bone the source model (classic.pmx) lacks and the target "
                            "(mmt.pmx) has is keyed: 右親指０; their 2 keys are left out");
    pk_retarget_report_free(&rep);
    /* a pose alike */
    assert_int_equal(pk_pose_retarget_models(pose, NULL, &o, NULL, &rep, &log), 0);
    assert_int_equal(rep.ndropped, 1);
    assert_int_equal(rep.dropped_keys, 1);
    assert_int_equal(pose->nbones, 3);
    assert_int_equal(log.warnings, 2);
    tu_assert_log_has(&log, "its 1 key is left out");
    tu_assert_log_has(&log, "--keep-absent keeps them");
    pk_retarget_report_free(&rep);
    /* kept on request (a stand-in source model): named, not warned */
    pk_motion *again = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(again);
    k->name = tu_intern(again->names, "右親指０");
    k->rot[0] = 0.3f;
    k->rot[3] = sqrtf(1 - 0.09f);
    o.keep_absent = true;
    size_t warned = log.warnings;
    assert_int_equal(pk_motion_retarget_models(again, NULL, &o, NULL, &rep, &log), 0);
    assert_true(rep.absent_kept);
    assert_int_equal(rep.ndropped, 1);
    assert_int_equal(rep.dropped_keys, 1);
    assert_int_equal(again->nbones, 1);
    assert_int_equal(log.warnings, warned);
    pk_retarget_report_free(&rep);
    pk_motion_free(again);
    pk_log_free(&log);
    pk_pose_free(pose);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* ---- the law: a key at rest on A is at rest on B ---- */

static const char *const ALL_MODELS[8] = {"pmd_gene.pmd",
                                          "pmd_mei.pmd",
                                          "pmd_sd_mei.pmd",
                                          "pmx_babylon_bone_flag_test.pmx",
                                          "pmx_babylon_bone_hierarchy_test.pmx",
                                          "pmx_gene.pmx",
                                          "pmx_mmt_test_model.pmx",
                                          "pmx_nanoem_miku_bones.pmx"};

/* Does either side of both models have the segment x→y (the stance
 * step's condition), or a leg 足 above 足首 (the scale step's)? */
static bool both_have(const pk_model *a, const pk_model *b, const char *x, const char *y)
{
    static const char *const SIDE[2] = {"左", "右"};
    for (int s = 0; s < 2; s++) {
        char bx[32], by[32];
        snprintf(bx, sizeof bx, "%s%s", SIDE[s], x);
        snprintf(by, sizeof by, "%s%s", SIDE[s], y);
        long ax = bone(a, bx), ay = bone(a, by), cx = bone(b, bx), cy = bone(b, by);
        if (ax >= 0 && ay >= 0 && cx >= 0 && cy >= 0)
            return true;
    }
    return false;
}

static bool leg(const pk_model *m)
{
    for (int s = 0; s < 2; s++) {
        long h = bone(m, s ? "右足" : "左足"), k = bone(m, s ? "右足首" : "左足首");
        if (h >= 0 && k >= 0 && m->bones[h].pos[1] > m->bones[k].pos[1])
            return true;
    }
    return false;
}

static bool name_is(const pk_names *names, pk_name_id id, const char *u)
{
    const char *n = pk_names_utf8(names, id);
    return n && strcmp(n, u) == 0;
}

static const uint8_t LINEAR[4][4] = {
    {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};

/* A key's rotation is the identity (within float rounding of r·q·r⁻¹). */
static bool rot_rest(const float r[4])
{
    return fabsf(r[0]) <= 1e-6f && fabsf(r[1]) <= 1e-6f && fabsf(r[2]) <= 1e-6f &&
           fabsf(r[3] - 1.0f) <= 1e-6f;
}

/* Is bone `id` of the output a stance bone the step turned? */
static bool stance_bone(const pk_retarget_report *rep, const pk_names *names, pk_name_id id)
{
    for (size_t i = 0; rep->stance_done && i < rep->stance.n; i++)
        if (rep->stance.seg[i].deg >= 1e-9 && name_is(names, id, rep->stance.seg[i].bone))
            return true;
    return false;
}

/* Every bone of A and of B keyed at rest (a pose, and a motion at frames 0
 * and 30), retargeted between every ordered pair of corpus models with
 * every step the two models allow: every translation stays 0 and every
 * rotation the identity, but for the stance bones (their rest direction
 * is A's, the stance step's promise); B's ankles, IK solved, stay at B's
 * rest.  Before, 足ＩＫ moved by the difference in where the two models'
 * feet rest (classic → Mei: 0.52 units forward, knees bent). */
static void test_rest_stays_rest(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *mdl[8];
    for (int i = 0; i < 8; i++)
        mdl[i] = model(ALL_MODELS[i]);
    size_t pairs = 0, stance_pairs = 0, scale_pairs = 0;
    for (int ai = 0; ai < 8; ai++)
        for (int bi = 0; bi < 8; bi++) {
            if (ai == bi)
                continue;
            const pk_model *a = mdl[ai], *b = mdl[bi];
            pk_motion *m = pk_motion_new();
            pk_pose *p = pk_pose_new();
            assert_true(m && p);
            const pk_model *both[2] = {a, b};
            for (int w = 0; w < 2; w++)
                for (size_t i = 0; i < both[w]->nbones; i++) {
                    size_t len;
                    const uint8_t *raw =
                        pk_names_raw(both[w]->names, both[w]->bones[i].cp932, &len);
                    if (!raw || len > PK_VMD_NAME_BYTES)
                        continue;
                    pk_name_id id = pk_names_intern(p->names, raw, len);
                    if (pk_pose_find_bone(p, id) >= 0)
                        continue;
                    pk_pose_bone *pb = pk_pose_push_bone(p);
                    pb->name = id;
                    pb->rot[3] = 1;
                    for (uint32_t f = 0; f <= 30; f += 30) {
                        pk_bone_key *k = pk_motion_push_bone(m);
                        k->name = pk_names_intern(m->names, raw, len);
                        k->frame = f;
                        k->rot[3] = 1;
                        pk_interp_set(k->interp, LINEAR, false);
                    }
                }
            bool stance = both_have(a, b, "腕", "ひじ") || both_have(a, b, "ひじ", "手首");
            bool scale = leg(a) && leg(b);
            pk_retarget_options o = {NO_SIZING, .from = a, .to = b, .no_stance = !stance,
                                     .no_scale = !scale};
            o.no_fold = !stance && !scale; /* one step at least */
            pk_retarget_report rep;
            pk_log log;
            pk_log_init(&log);
            assert_int_equal(pk_motion_retarget_models(m, NULL, &o, NULL, &rep, &log), 0);
            for (size_t i = 0; i < m->nbones; i++) {
                const pk_bone_key *k = &m->bones[i];
                if (k->pos[0] != 0 || k->pos[1] != 0 || k->pos[2] != 0 ||
                    (!rot_rest(k->rot) && !stance_bone(&rep, m->names, k->name)))
                    fail_msg("%s -> %s: %s at frame %u moved: (%g, %g, %g) (%g, %g, %g, %g)",
                             ALL_MODELS[ai], ALL_MODELS[bi], pk_names_utf8(m->names, k->name),
                             k->frame, k->pos[0], k->pos[1], k->pos[2], k->rot[0], k->rot[1],
                             k->rot[2], k->rot[3]);
            }
            pk_retarget_report_free(&rep);
            assert_int_equal(pk_pose_retarget_models(p, NULL, &o, NULL, &rep, &log), 0);
            for (size_t i = 0; i < p->nbones; i++) {
                const pk_pose_bone *k = &p->bones[i];
                if (k->pos[0] != 0 || k->pos[1] != 0 || k->pos[2] != 0 ||
                    (!rot_rest(k->rot) && !stance_bone(&rep, p->names, k->name)))
                    fail_msg("%s -> %s: pose bone %s moved", ALL_MODELS[ai], ALL_MODELS[bi],
                             pk_names_utf8(p->names, k->name));
            }
            /* B's ankles with IK solved: where B shows them with no key */
            pk_rig *rig = pk_rig_new(b, NULL);
            pk_bone_local *loc = calloc(b->nbones + 1, sizeof *loc);
            pk_bone_world *wd = calloc(b->nbones + 1, sizeof *wd);
            pk_bone_world *w0 = calloc(b->nbones + 1, sizeof *w0);
            assert_true(rig && loc && wd && w0);
            pk_rig_pose_local(rig, p, loc);
            pk_rig_eval(rig, loc, NULL, 0, wd);
            pk_rig_eval(rig, NULL, NULL, 0, w0);
            for (int sd = 0; sd < 2; sd++) {
                long k = bone(b, sd ? "右足首" : "左足首");
                for (int c = 0; k >= 0 && c < 3; c++)
                    NEAR(wd[k].pos[c], w0[k].pos[c], 1e-5);
            }
            free(loc);
            free(wd);
            free(w0);
            pk_rig_free(rig);
            pk_retarget_report_free(&rep);
            pk_log_free(&log);
            pk_motion_free(m);
            pk_pose_free(p);
            pairs++;
            stance_pairs += stance;
            scale_pairs += scale;
        }
    printf("# rest stays rest: %zu ordered pairs (%zu with the stance step, %zu with the scale "
           "step)\n",
           pairs, stance_pairs, scale_pairs);
    assert_int_equal(pairs, 56);
    assert_true(scale_pairs >= 30); /* the six models with legs */
    /* the option says what it does: the feet stand from the hips as on A */
    pk_model *a = mdl[7], *b = mdl[1]; /* classic -> Mei (ankles behind the hips) */
    pk_pose *p = pk_pose_new();
    pk_pose_bone *pb = pk_pose_push_bone(p);
    pb->name = tu_intern(p->names, "左足ＩＫ");
    pb->rot[3] = 1;
    pk_retarget_options o = {NO_SIZING, .from = a, .to = b, .no_stance = true,
                             .feet_from_source = true};
    pk_retarget_report rep;
    assert_int_equal(pk_pose_retarget_models(p, NULL, &o, NULL, &rep, NULL), 0);
    for (int c = 0; c < 3; c++)
        NEAR(p->bones[0].pos[c], rep.scale.ik_shift[0][c], 1e-6);
    assert_true(p->bones[0].pos[2] < -0.5); /* forward: Mei's ankles rest 0.6 behind */
    pk_retarget_report_free(&rep);
    pk_pose_free(p);
    for (int i = 0; i < 8; i++)
        pk_model_free(mdl[i]);
}

/* The fold of a long dance does not bake what it rewrites: the classic
 * dance with its 上半身 keyed as 上半身2 (2,810 frames; 352 keys), from
 * Gene to the classic skeleton, folds 上半身2 into 首, 左肩 and 右肩
 * (743 keys of their own).  Within the reducer's tolerances (the default)
 * the three tracks take fewer keys than twice the 1,095 they are made of
 * (before, fitted within 0.002 degrees: 4,740, more than half the frames);
 * the errors stay within the tolerances, measured by the sampler at every
 * frame; a tighter tolerance takes more keys. */
static void test_fold_keys_reduced(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_gene.pmx"), *b = model("pmx_nanoem_miku_bones.pmx");
    pk_motion *in = motion("vmd_wavefile_v2.vmd");
    pk_rules *r = NULL;
    pk_log log;
    pk_log_init(&log);
    static const char YAML[] = "rename: {上半身: 上半身2}\n";
    r = pk_rules_parse(YAML, sizeof YAML - 1, "u2.yaml", &log);
    assert_non_null(r);
    assert_int_equal(pk_motion_rename(in, r, false, NULL, &log), 0);
    pk_rules_free(r);
    pk_log_free(&log);
    pk_retarget_report rep;
    fold_deg = fold_pos = 0;
    pk_motion *out = retarget(in, a, b, false, false, true, &rep);
    printf("# fold keys: %zu tracks, %zu keys in, %zu out (%zu union frames), worst %.4f deg "
           "%.5f units\n",
           rep.fold.tracks, rep.fold.keys_removed, rep.fold.keys_added, rep.fold.union_keys,
           rep.fold.worst_deg, rep.fold.worst_pos);
    assert_int_equal(rep.fold.tracks, 3);
    assert_int_equal(rep.fold.keys_removed, 1095);
    assert_true(rep.fold.keys_added < 2 * rep.fold.keys_removed);
    assert_true(rep.fold.worst_deg <= PK_REDUCE_DEG);
    assert_true(rep.fold.worst_pos <= PK_REDUCE_POS);
    size_t loose = rep.fold.keys_added;
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    fold_deg = 0.01;
    out = retarget(in, a, b, false, false, true, &rep);
    assert_true(rep.fold.keys_added > loose);
    assert_true(rep.fold.worst_deg <= 0.01);
    fold_deg = 0;
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* One count of the keys: in and out are the records of the input and the
 * output (every section), out = in - removed + added, and a rewritten
 * track's keys at frames it had count as changed.  Before, the summary
 * said "227 keys changed, 0 added" and the fold "58 removed, 50 added". */
static void test_keys_add_up(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    pk_model *a = model("pmx_gene.pmx"), *b = model("pmx_nanoem_miku_bones.pmx");
    pk_motion *in = motion("vmd_mmdtools_test.vmd");
    pk_model *mmt = model("pmx_mmt_test_model.pmx");
    const pk_model *from[2] = {mmt, a};
    pk_motion *dances[2] = {in, motion("vmd_mmdagent_stand.vmd")};
    for (int d = 0; d < 2; d++) {
        pk_motion *m = pk_motion_clone(dances[d]);
        size_t n_in = 0, n_out = 0;
        for (int sec = 0; sec < PK_SEC_COUNT; sec++)
            n_in += pk_motion_count(m, (pk_section)sec);
        pk_retarget_options o = {NO_SIZING, .from = from[d], .to = b};
        pk_edit_stats st = {0};
        pk_retarget_report rep;
        assert_int_equal(pk_motion_retarget_models(m, NULL, &o, &st, &rep, NULL), 0);
        for (int sec = 0; sec < PK_SEC_COUNT; sec++)
            n_out += pk_motion_count(m, (pk_section)sec);
        printf("# keys: %zu in, %zu out: %zu changed, %zu added, %zu removed\n", st.keys_in,
               st.keys_out, st.keys_changed, st.keys_added, st.keys_removed);
        assert_int_equal(st.keys_in, n_in);
        assert_int_equal(st.keys_out, n_out);
        assert_int_equal(st.keys_out, st.keys_in - st.keys_removed + st.keys_added);
        assert_true(st.keys_changed > 0);
        assert_true(rep.fold.tracks > 0);
        assert_true(st.keys_removed >= rep.fold.keys_removed - rep.fold.keys_added);
        pk_retarget_report_free(&rep);
        pk_edit_stats_free(&st);
        pk_motion_free(m);
        pk_motion_free(dances[d]);
    }
    pk_model_free(a);
    pk_model_free(b);
    pk_model_free(mmt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_by_hand),
        cmocka_unit_test(test_stance_pairs),
        cmocka_unit_test(test_fold_classic),
        cmocka_unit_test(test_fold_pose_appends),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_same_skeleton_untouched),
        cmocka_unit_test(test_untouched),
        cmocka_unit_test(test_stance_key_needs_motion_below),
        cmocka_unit_test(test_absent_on_source_left_out),
        cmocka_unit_test(test_rest_stays_rest),
        cmocka_unit_test(test_fold_keys_reduced),
        cmocka_unit_test(test_keys_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
