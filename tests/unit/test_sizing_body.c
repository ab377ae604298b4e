/* test_sizing_body.c — retarget's body steps (engine/ops/retarget/
 * sizing_body.c) on small figures built in memory with IK legs, where the
 * answer is known:
 *   - a bow of 30 degrees on a figure whose neck rests straight above the
 *     hips, on one whose neck rests 1 forward of 4 up (14.04 degrees): B's
 *     上半身 bows by 30 - 14.04 degrees about X, its head and arms keep the
 *     world rotations they had;
 *   - the same with B's shoulders sloping down by 0.5 over 1: B's 肩 takes
 *     A's slope (26.57 degrees) and its arm keeps its world rotation;
 *   - a bow of 60 degrees on figures whose necks rest straight up and 2
 *     forward of 4 up puts B's centre of gravity
 *     off its feet (A's mass fractions computed here, independently): the
 *     centre step puts it back within 0.5% of the leg, moving only
 *     センター across the floor;
 *   - 下半身 tipped by 20 degrees lifts the feet from the floor on a figure
 *     whose hips hang 2 below the pivot more than on one where they hang 1
 *     (the legs cannot reach): B's ankles come down to A's lift times the
 *     scale (the hips lowered);
 *   - a leg of A stretched towards a 足ＩＫ it cannot reach, its ankle still
 *     while the 足ＩＫ moves on, on a figure whose knee straightens and
 *     reaches further: B's ankle stands where A's does, still;
 *   - a stretch where A kicks beyond its leg (off its 足ＩＫ) in a bow:
 *     B's センター there and beside it is where it is on the frames
 *     around, not aimed at A's offset over feet A does not stand on;
 *   - a crouch with a leg stretched back beyond its reach, the ankle
 *     barely down: that foot does not hold センター back from putting the
 *     centre of gravity within 2% of the leg;
 *   - a side split, the planted foot at the edge of its leg's reach and
 *     the centre step's move pulled back along the leg: センター moves
 *     across the pull, and hips below that foot come up to its height;
 *   - heels raised with the toes kept on the floor (つま先ＩＫ down) on a
 *     figure with a longer foot: B's toes touch where A's do;
 *     and where B has no つま先ＩＫ, by B's 足首 key; B is not played again
 *     for them;
 *   - --feet-apart moves each 足ＩＫ outward along the hips' X, turned
 *     with the body; while A turns on planted feet, B's stay where they
 *     stood (held: they move as A's do);
 *   - with one XZ scale shared by dancers, センター stays where the scale
 *     puts it across the floor, even for a planted foot out of B's reach;
 *   - where the motion turns the leg IK off, 足ＩＫ and the hips' height
 *     are left as they are, and センター too where it turns both off;
 *   - every step is left out by its --no-X, and a key at rest stays at
 *     rest but for 上半身, 首, 肩 and 腕 (which take A's rest directions)
 *     and センター (B's balance under that upper body). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define PI 3.14159265358979323846
#define NO_ARMS .no_contacts = true, .no_avoid = true, .no_twist = true
#define NO_BODY .no_centre = true, .no_upper = true, .no_shoulders = true, .no_toes = true

/* ---- figures ---- */

typedef struct shape {
    double neck_z;     /* 首 at (0, 14, neck_z) */
    double arm_y;      /* 腕 at (+-1.5, arm_y, 0); 肩 at (+-0.5, 13.5, 0) */
    double hip_y;      /* 足 at (+-1, hip_y, 0); 下半身's pivot at (0, 10, 0) */
    double toe_z;      /* つま先 at (+-1, 0, toe_z) */
    bool no_toe_ik;    /* without つま先ＩＫ */
    double knee_z;     /* ひざ at (+-1, (hip_y + 1) / 2, -0.2 + knee_z) */
    double straighten; /* degrees the knee may open past its rest bend (0: MMD's
                          knee rule, only further bent) */
} shape;

#define NB 32
typedef struct body {
    pk_model m;
    pk_model_bone b[NB];
    pk_model_ik_link l[2][3];
} body;

static int bone(body *h, const char *name, int parent, double x, double y, double z)
{
    int i = (int)h->m.nbones++;
    assert_true(i < NB);
    pk_model_bone *b = &h->b[i];
    tu_model_bone(&h->m, b, name, parent, x, y, z);
    return i;
}

static const char *const SIDE_NAMES[2][9] = {
    {"左足", "左ひざ", "左足首", "左つま先", "左足ＩＫ", "左つま先ＩＫ", "左肩", "左腕", "左ひじ"},
    {"右足", "右ひざ", "右足首", "右つま先", "右足ＩＫ", "右つま先ＩＫ", "右肩", "右腕", "右ひじ"}};
static const char *const WRISTS[2] = {"左手首", "右手首"};

static void build(body *h, const shape *s)
{
    memset(h, 0, sizeof *h);
    h->m.bones = h->b;
    h->m.format = PK_FMT_PMX;
    h->m.name = "body";
    h->m.names = pk_names_new();
    assert_non_null(h->m.names);
    int centre = bone(h, "センター", -1, 0, 8, 0);
    int upper = bone(h, "上半身", centre, 0, 10, 0);
    int neck = bone(h, "首", upper, 0, 14, s->neck_z);
    bone(h, "頭", neck, 0, 15, s->neck_z);
    int lower = bone(h, "下半身", centre, 0, 10, 0);
    for (int d = 0; d < 2; d++) {
        const char *const *n = SIDE_NAMES[d];
        double x = d ? -1 : 1;
        int hip = bone(h, n[0], lower, x, s->hip_y, 0);
        /* the knee a little forward: the legs bend forward */
        int knee = bone(h, n[1], hip, x, (s->hip_y + 1) / 2, -0.2 + s->knee_z);
        int ankle = bone(h, n[2], knee, x, 1, 0);
        int toe = bone(h, n[3], ankle, x, 0, s->toe_z);
        int ik = bone(h, n[4], -1, x, 1, 0);
        int tik = s->no_toe_ik ? -1 : bone(h, n[5], ik, x, 0, s->toe_z);
        h->b[ik].flags |= PK_BONE_IK;
        h->b[ik].ik_target = ankle;
        h->b[ik].ik_loops = 40;
        h->b[ik].ik_limit = 2.0f;
        h->l[d][0].bone = knee;
        if (s->straighten > 0) {
            h->l[d][0].limited = true;
            h->l[d][0].min[0] = (float)(-PI);
            h->l[d][0].max[0] = (float)(s->straighten * PI / 180);
        }
        h->l[d][1].bone = hip;
        h->b[ik].ik_links = h->l[d];
        h->b[ik].nik_links = 2;
        if (tik >= 0) {
            h->b[tik].flags |= PK_BONE_IK;
            h->b[tik].ik_target = toe;
            h->b[tik].ik_loops = 3;
            h->b[tik].ik_limit = 4.0f;
            h->l[d][2].bone = ankle;
            h->b[tik].ik_links = &h->l[d][2];
            h->b[tik].nik_links = 1;
        }
        int sh = bone(h, n[6], upper, x * 0.5, 13.5, 0);
        int arm = bone(h, n[7], sh, x * 1.5, s->arm_y, 0);
        int el = bone(h, n[8], arm, x * 4, s->arm_y, 0);
        bone(h, WRISTS[d], el, x * 6.5, s->arm_y, 0);
    }
}

static void unbuild(body *h)
{
    pk_names_free(h->m.names);
}

static const shape PLAIN = {0, 13.5, 9, -2, false, 0, 0};

/* ---- motions ---- */

static void qx(double deg, float q[4])
{
    double a = deg * PI / 360.0;
    q[0] = (float)sin(a);
    q[1] = q[2] = 0;
    q[3] = (float)cos(a);
}

/* `name` turned about X from 0 at frame 0 to deg at frame 10 (held to 20). */
static void turn(pk_motion *mo, const char *name, double deg)
{
    tu_bone_key(mo, name, 0);
    qx(deg, tu_bone_key(mo, name, 10)->rot);
    qx(deg, tu_bone_key(mo, name, 20)->rot);
}

static pk_motion *retarget(const pk_motion *in, const pk_retarget_options *o,
                           pk_retarget_report *rep)
{
    pk_motion *m = pk_motion_clone(in);
    assert_non_null(m);
    pk_log log;
    pk_log_init(&log);
    if (pk_motion_retarget_models(m, NULL, o, NULL, rep, &log) != 0) {
        for (size_t i = 0; i < log.count; i++)
            fprintf(stderr, "%s\n", log.items[i].msg);
        fail();
    }
    pk_log_free(&log);
    return m;
}

/* The world transforms of mo at frame f on model m. */
typedef struct played {
    pk_rig *rig;
    pk_bone_local *loc;
    bool *on;
    pk_bone_world *w;
    const pk_model *m;
} played;

static void play(played *p, const pk_model *m, const pk_motion *mo, double f)
{
    if (!p->rig) {
        p->m = m;
        p->rig = pk_rig_new(m, NULL);
        p->loc = calloc(m->nbones + 1, sizeof *p->loc);
        p->on = calloc(m->nbones + 1, sizeof *p->on);
        p->w = calloc(m->nbones + 1, sizeof *p->w);
        assert_true(p->rig && p->loc && p->on && p->w);
    }
    pk_tracks *t = pk_tracks_build(mo, NULL);
    assert_non_null(t);
    pk_rig_motion_local(p->rig, mo, t, f, p->loc, p->on);
    pk_rig_eval(p->rig, p->loc, p->on, 0, p->w);
    pk_tracks_free(t);
}

static void played_free(played *p)
{
    pk_rig_free(p->rig);
    free(p->loc);
    free(p->on);
    free(p->w);
}

static const pk_bone_world *at(const played *p, const char *name)
{
    for (size_t i = 0; i < p->m->nbones; i++)
        if (strcmp(p->m->bones[i].name, name) == 0)
            return &p->w[i];
    fail_msg("no bone %s", name);
    return NULL;
}

/* A test's bodies and motions: A and B, the input, its retarget with the
 * steps under test (out, rep) and with o0 (out0, rep0: none of the body
 * steps), and the three played frame by frame (pa: the input on A, pb:
 * out on B, p0: out0 on B). */
typedef struct trial {
    body a, b;
    pk_motion *in, *out, *out0;
    pk_retarget_report rep, rep0;
    played pa, pb, p0;
} trial;

/* A of shape sa, B of shape sb and an input without keys. */
static void trial_new(trial *r, const shape *sa, const shape *sb)
{
    memset(r, 0, sizeof *r);
    build(&r->a, sa);
    build(&r->b, sb);
    r->in = pk_motion_new();
    assert_non_null(r->in);
}

static void trial_retarget(trial *r, const pk_retarget_options *o, const pk_retarget_options *o0)
{
    r->out = retarget(r->in, o, &r->rep);
    r->out0 = retarget(r->in, o0, &r->rep0);
}

static void trial_play(trial *r, double f)
{
    play(&r->pa, &r->a.m, r->in, f);
    play(&r->pb, &r->b.m, r->out, f);
    play(&r->p0, &r->b.m, r->out0, f);
}

static void trial_free(trial *r)
{
    played_free(&r->pa);
    played_free(&r->pb);
    played_free(&r->p0);
    pk_retarget_report_free(&r->rep);
    pk_retarget_report_free(&r->rep0);
    pk_motion_free(r->in);
    pk_motion_free(r->out);
    pk_motion_free(r->out0);
    unbuild(&r->a);
    unbuild(&r->b);
}

static double angle_deg(const double a[4], const double b[4])
{
    double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    return 2 * acos(d > 1 ? 1 : d) * 180 / PI;
}

static double dir_deg(const double a0[3], const double a1[3], const double b0[3],
                      const double b1[3])
{
    double u[3], v[3], uu = 0, vv = 0, uv = 0;
    for (int k = 0; k < 3; k++) {
        u[k] = a1[k] - a0[k];
        v[k] = b1[k] - b0[k];
        uu += u[k] * u[k];
        vv += v[k] * v[k];
        uv += u[k] * v[k];
    }
    double c = uv / sqrt(uu * vv);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180 / PI;
}

/* The sampled key rotation of `name` at frame f (the identity: none). */
static void key_rot(const pk_motion *mo, const char *name, double f, double q[4])
{
    pk_tracks *t = pk_tracks_build(mo, NULL);
    assert_non_null(t);
    float p[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1};
    pk_name_id id = PK_NO_NAME;
    for (size_t i = 0; i < mo->nbones && id == PK_NO_NAME; i++)
        if (strcmp(pk_names_utf8(mo->names, mo->bones[i].name), name) == 0)
            id = mo->bones[i].name;
    const pk_track *tr = id == PK_NO_NAME ? NULL : pk_tracks_bone(t, id);
    if (tr) {
        pk_cursor c;
        pk_cursor_init(&c, mo, tr);
        pk_cursor_bone(&c, f, p, r);
    }
    double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    for (int k = 0; k < 4; k++)
        q[k] = r[k] / n;
    pk_tracks_free(t);
}

/* ---- upper body and shoulders ---- */

static void lean_of_the_upper_body(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.neck_z = -1; /* 1 forward of 4 up: atan(1/4) = 14.036 degrees */
    trial r;
    trial_new(&r, &PLAIN, &sb);
    turn(r.in, "上半身", -30); /* a bow: the neck to -Z */
    pk_retarget_options o = {NO_ARMS,           .from = &r.a.m,       .to = &r.b.m,
                             .no_centre = true, .no_shoulders = true, .no_toes = true,
                             .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.body.upper_done);
    assert_true(r.rep.body.upper_frames > 0);
    double lean = atan2(1.0, 4.0) * 180 / PI;
    /* B's 上半身 key: about X by (A's bow) + lean backwards, the bow less
     * B's forward lean, at every frame */
    for (uint32_t f = 0; f <= 20; f += 5) {
        double bow = f >= 10 ? -30 : -3.0 * f;
        double want[4], got[4];
        float w[4];
        qx(bow + lean, w);
        for (int k = 0; k < 4; k++)
            want[k] = w[k];
        key_rot(r.out, "上半身", f, got);
        assert_true(angle_deg(want, got) < 0.11);
    }
    /* the neck's direction from the hips as A's; the head's and arms'
     * world rotations as before the step */
    for (uint32_t f = 0; f <= 20; f += 2) {
        trial_play(&r, f);
        assert_true(dir_deg(at(&r.pa, "上半身")->pos, at(&r.pa, "首")->pos,
                            at(&r.pb, "上半身")->pos, at(&r.pb, "首")->pos) < 0.11);
        assert_true(angle_deg(at(&r.pb, "首")->rot, at(&r.p0, "首")->rot) < 0.2);
        assert_true(angle_deg(at(&r.pb, "左腕")->rot, at(&r.p0, "左腕")->rot) < 0.2);
        assert_true(angle_deg(at(&r.pb, "右腕")->rot, at(&r.p0, "右腕")->rot) < 0.2);
    }
    /* the measures: 14 degrees before, within the fit's after */
    assert_non_null(r.rep.measure);
    assert_true(r.rep.measure->body.done);
    assert_true(fabs(r.rep.measure->body.head_max_before - lean) < 0.01);
    assert_true(r.rep.measure->body.head_max < 0.11);
    trial_free(&r);
}

static void slope_of_the_shoulders(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.arm_y = 13.0; /* 0.5 down over 1 */
    trial r;
    trial_new(&r, &PLAIN, &sb);
    turn(r.in, "左肩", 10);
    turn(r.in, "左腕", 20);
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,  .to = &r.b.m,   .no_centre = true,
                             .no_upper = true, .no_toes = true, .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.body.shoulders_done);
    assert_true(fabs(r.rep.body.shoulder_deg - atan2(0.5, 1.0) * 180 / PI) < 0.01);
    for (uint32_t f = 0; f <= 20; f += 2) {
        trial_play(&r, f);
        for (int d = 0; d < 2; d++) {
            const char *sh = SIDE_NAMES[d][6], *arm = SIDE_NAMES[d][7], *el = SIDE_NAMES[d][8];
            assert_true(dir_deg(at(&r.pa, sh)->pos, at(&r.pa, arm)->pos, at(&r.pb, sh)->pos,
                                at(&r.pb, arm)->pos) < 0.11);
            /* the arm keeps its world rotation and so its direction */
            assert_true(angle_deg(at(&r.pb, arm)->rot, at(&r.p0, arm)->rot) < 0.2);
            assert_true(dir_deg(at(&r.pb, arm)->pos, at(&r.pb, el)->pos, at(&r.p0, arm)->pos,
                                at(&r.p0, el)->pos) < 0.2);
        }
    }
    assert_true(r.rep.measure->body.shoulder_max_before > 26.5);
    assert_true(r.rep.measure->body.shoulder_max < 0.11);
    trial_free(&r);
}

/* ---- the centre of gravity ---- */

static void mid(const played *p, const char *x, const char *y, double w, double acc[4])
{
    const double *a = at(p, x)->pos, *b = y ? at(p, y)->pos : a;
    for (int k = 0; k < 3; k++)
        acc[k] += w * (a[k] + b[k]) / 2;
    acc[3] += w;
}

/* Winter's mass fractions on the figure (the head's centre one neck
 * length above 頭 along 頭's frame), and the feet's point: the ground
 * offset of the centre of gravity from the ankles' mean. */
static void cog_offset(const played *p, const body *h, double o[2])
{
    double acc[4] = {0, 0, 0, 0};
    const pk_bone_world *head = at(p, "頭");
    double up[3], v[3];
    for (int k = 0; k < 3; k++)
        up[k] = h->b[3].pos[k] - h->b[2].pos[k]; /* 首 -> 頭 */
    double q[4];
    memcpy(q, head->rot, sizeof q);
    /* v = q up q^-1 */
    double t[3] = {q[1] * up[2] - q[2] * up[1] + q[3] * up[0],
                   q[2] * up[0] - q[0] * up[2] + q[3] * up[1],
                   q[0] * up[1] - q[1] * up[0] + q[3] * up[2]};
    v[0] = up[0] + 2 * (q[1] * t[2] - q[2] * t[1]);
    v[1] = up[1] + 2 * (q[2] * t[0] - q[0] * t[2]);
    v[2] = up[2] + 2 * (q[0] * t[1] - q[1] * t[0]);
    for (int k = 0; k < 3; k++)
        acc[k] += 0.081 * (head->pos[k] + v[k]);
    acc[3] += 0.081;
    mid(p, "上半身", "首", 0.355, acc);
    double pel[3];
    for (int k = 0; k < 3; k++)
        pel[k] =
            (at(p, "下半身")->pos[k] + (at(p, "左足")->pos[k] + at(p, "右足")->pos[k]) / 2) / 2;
    for (int k = 0; k < 3; k++)
        acc[k] += 0.142 * pel[k];
    acc[3] += 0.142;
    for (int d = 0; d < 2; d++) {
        const char *const *n = SIDE_NAMES[d];
        mid(p, n[7], n[8], 0.028, acc);
        mid(p, n[8], WRISTS[d], 0.016, acc);
        mid(p, WRISTS[d], NULL, 0.006, acc);
        mid(p, n[0], n[1], 0.100, acc);
        mid(p, n[1], n[2], 0.0465, acc);
        mid(p, n[2], n[3], 0.0145, acc);
    }
    const double *l = at(p, "左足首")->pos, *r = at(p, "右足首")->pos;
    o[0] = acc[0] / acc[3] - (l[0] + r[0]) / 2;
    o[1] = acc[2] / acc[3] - (l[2] + r[2]) / 2;
}

/* The centre of gravity's ground offsets of A and B at rest (oa0, ob0):
 * the scale is 1, so A's offsets from them are B's goal. */
static void rest_offsets(const trial *r, double oa0[2], double ob0[2])
{
    played ra = {0}, rb = {0};
    pk_motion *rest = pk_motion_new();
    assert_non_null(rest);
    tu_bone_key(rest, "センター", 0);
    play(&ra, &r->a.m, rest, 0);
    play(&rb, &r->b.m, rest, 0);
    cog_offset(&ra, &r->a, oa0);
    cog_offset(&rb, &r->b, ob0);
    played_free(&ra);
    played_free(&rb);
    pk_motion_free(rest);
}

/* A trial whose B has its neck 2 forward of A's, the upper body bowed 60
 * degrees. */
static void bowing_trial(trial *r)
{
    shape sb = PLAIN;
    sb.neck_z = -2;
    trial_new(r, &PLAIN, &sb);
    turn(r->in, "上半身", -60);
}

static void centre_of_gravity_over_the_feet(void **state)
{
    (void)state;
    trial r;
    bowing_trial(&r);
    /* the upper body left leaning: the centre of gravity goes forward */
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.body.centre_done && r.rep.body.centre_frames > 0);
    /* the scale is 1: A's offsets from rest are B's goal */
    double oa0[2], ob0[2];
    rest_offsets(&r, oa0, ob0);
    double leg = 8.0, worst0 = 0;
    for (uint32_t f = 0; f <= 20; f++) {
        trial_play(&r, f);
        double oa[2], ob[2], o0b[2];
        cog_offset(&r.pa, &r.a, oa);
        cog_offset(&r.pb, &r.b, ob);
        cog_offset(&r.p0, &r.b, o0b);
        double e = hypot(ob[0] - ob0[0] - (oa[0] - oa0[0]), ob[1] - ob0[1] - (oa[1] - oa0[1]));
        double e0 = hypot(o0b[0] - ob0[0] - (oa[0] - oa0[0]), o0b[1] - ob0[1] - (oa[1] - oa0[1]));
        worst0 = fmax(worst0, e0);
        assert_true(e < 0.006 * leg);
        /* the feet stay where they were */
        for (int d = 0; d < 2; d++) {
            const double *x = at(&r.pb, SIDE_NAMES[d][2])->pos,
                         *y = at(&r.p0, SIDE_NAMES[d][2])->pos;
            assert_true(hypot(x[0] - y[0], hypot(x[1] - y[1], x[2] - y[2])) < 0.01);
        }
    }
    /* before: off by more than 2% of the leg (the goal) at the deepest bow */
    assert_true(worst0 > 0.02 * leg);
    assert_true(r.rep.measure->body.cog_max_before > 0.02);
    assert_true(r.rep.measure->body.cog_max < 0.006);
    trial_free(&r);
}

/* Without the measures B is first played for the upper step alone (its
 * legs unsolved) and in full once after it (sizing.c, upper_first);
 * with them, in full before the step and again after it: the same keys
 * out, every step on (the upper step's, the centre's, the arms'). */
static void upper_step_played_first_the_same_keys(void **state)
{
    (void)state;
    trial r;
    bowing_trial(&r);
    turn(r.in, "左腕", 40);
    pk_retarget_options o = {.from = &r.a.m, .to = &r.b.m, .measure = true};
    pk_retarget_options o1 = {.from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o1);
    assert_true(r.rep.body.upper_done && r.rep.body.upper_frames > 0);
    assert_true(r.rep.body.centre_done && r.rep.body.centre_frames > 0);
    assert_true(r.rep0.body.upper_done && r.rep0.body.centre_done);
    assert_int_equal(r.out->nbones, r.out0->nbones);
    for (size_t i = 0; i < r.out->nbones; i++) {
        const pk_bone_key *x = &r.out->bones[i], *y = &r.out0->bones[i];
        assert_int_equal(x->name, y->name);
        assert_int_equal(x->frame, y->frame);
        assert_memory_equal(x->pos, y->pos, sizeof x->pos);
        assert_memory_equal(x->rot, y->rot, sizeof x->rot);
        assert_memory_equal(x->interp, y->interp, sizeof x->interp);
    }
    trial_free(&r);
}

/* ---- feet on the floor ---- */

static void feet_reach_the_floor(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.hip_y = 8; /* the hips 2 below 下半身's pivot: tipping lifts them twice as much */
    trial r;
    trial_new(&r, &PLAIN, &sb);
    turn(r.in, "下半身", 20);
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.scale_done);
    double sy = r.rep.scale.y;
    assert_true(fabs(sy - 7.0 / 8.0) < 1e-6);
    assert_true(r.rep.body.floor_frames > 0);
    double worst0 = 0;
    for (uint32_t f = 0; f <= 20; f++) {
        trial_play(&r, f);
        for (int d = 0; d < 2; d++) {
            const char *ankle = SIDE_NAMES[d][2];
            double want = 1 + sy * (at(&r.pa, ankle)->pos[1] - 1);
            worst0 = fmax(worst0, fabs(at(&r.p0, ankle)->pos[1] - want));
            assert_true(fabs(at(&r.pb, ankle)->pos[1] - want) < 0.02);
        }
    }
    assert_true(worst0 > 0.05);
    assert_true(r.rep.measure->floor_p95 < 0.0025 && r.rep.measure->floor_p95_before > 0.006);
    trial_free(&r);
}

/* A's left leg stretched towards a 足ＩＫ it cannot reach, down and
 * forward along the line from its hip through its ankle: A's ankle stands
 * still while the 足ＩＫ goes 0.8 further along that line.  B's knee rests
 * further forward (the same hip to ankle length, the scale 1) and may
 * straighten: B reaches further and, left alone, its ankle follows the
 * 足ＩＫ forward.  The foot
 * planted on A stays planted on B, where A's is. */
static void feet_planted_where_a_leg_cannot_reach(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.knee_z = -1.3;     /* 足->ひざ->足首 8.54 long, against A's 8.01 */
    sb.straighten = 41.0; /* ... and it straightens (A's knee only bends) */
    trial r;
    trial_new(&r, &PLAIN, &sb);
    /* the hips 0.4 down, the leg 20 degrees forward of straight down */
    double th = 20 * PI / 180, hip_y = 9 - 0.4;
    for (uint32_t f = 0; f <= 20; f += 10) {
        tu_bone_key(r.in, "センター", f)->pos[1] = -0.4f;
        double len = f ? 9.0 : 8.2;
        float *p = tu_bone_key(r.in, "左足ＩＫ", f)->pos;
        p[1] = (float)(hip_y - len * cos(th) - 1);
        p[2] = (float)(-len * sin(th));
    }
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.scale_done && fabs(r.rep.scale.xz - 1) < 1e-6);
    double a_prev[3], b_prev[3], b0_prev[3], leg = 8.0, worst0 = 0, worst = 0;
    for (uint32_t f = 0; f <= 20; f++) {
        trial_play(&r, f);
        const double *x = at(&r.pa, "左足首")->pos, *y = at(&r.pb, "左足首")->pos,
                     *y0 = at(&r.p0, "左足首")->pos;
        /* A's foot is planted: low, and still */
        assert_true(x[1] - 1 < 0.03 * leg);
        /* B's stands where A's does */
        assert_true(hypot(y[0] - x[0], y[2] - x[2]) < 0.002 * leg);
        assert_true(fabs(y[1] - x[1]) < 0.002 * leg);
        if (f) {
            double da = hypot(x[0] - a_prev[0], x[2] - a_prev[2]);
            assert_true(da < 0.001 * leg);
            worst = fmax(worst, hypot(y[0] - b_prev[0], y[2] - b_prev[2]) - da);
            worst0 = fmax(worst0, hypot(y0[0] - b0_prev[0], y0[2] - b0_prev[2]) - da);
        }
        memcpy(a_prev, x, sizeof a_prev);
        memcpy(b_prev, y, sizeof b_prev);
        memcpy(b0_prev, y0, sizeof b0_prev);
    }
    /* left alone, B's foot slid: more than 0.05% of the leg a frame (the
     * goal); held, it slides as A's */
    assert_true(worst0 > 0.001 * leg);
    assert_true(worst < 0.0005 * leg);
    assert_true(r.rep.measure->slide_excess_max_before > 0.001);
    assert_true(r.rep.measure->slide_excess_max < 0.0005);
    /* A's leg (8.01 at most) ends more than 5% of it (0.4) short of its
     * 足ＩＫ (8.2 + 0.08 f from the hip) from frame 3 on: the centre of
     * gravity is measured apart on frames 0-2 */
    assert_int_equal(r.rep.measure->body.cog_off_ik, 18);
    assert_true(r.rep.measure->body.cog_on_ik_max <= r.rep.measure->body.cog_max);
    trial_free(&r);
}

/* The centre of gravity is also measured apart from the frames where A
 * does not stand where the dance puts its feet (a leg, its IK on, more
 * than 5% of it from its 足ＩＫ); a leg whose IK is off is not counted. */
static void cog_measured_where_a_stands_on_its_ik(void **state)
{
    (void)state;
    trial r;
    trial_new(&r, &PLAIN, &PLAIN);
    /* the left 足ＩＫ 3 units below its rest (beyond the straight leg) */
    for (uint32_t f = 0; f <= 20; f += 20)
        tu_bone_key(r.in, "左足ＩＫ", f)->pos[1] = -3.0f;
    /* its IK off from frame 12 on */
    pk_ik_key *ik = pk_motion_push_ik(r.in, 1);
    assert_non_null(ik);
    ik->frame = 12;
    ik->show = 1;
    pk_log log;
    pk_log_init(&log);
    ik->ik[0].name = pk_names_intern_utf8(r.in->names, "左足ＩＫ", strlen("左足ＩＫ"), "ik", &log);
    ik->ik[0].enabled = 0;
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    pk_retarget_options o = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m, .measure = true};
    r.out = retarget(r.in, &o, &r.rep);
    assert_non_null(r.rep.measure);
    assert_true(r.rep.measure->body.done);
    assert_int_equal(r.rep.measure->body.cog_off_ik, 12); /* frames 0-11 */
    trial_free(&r);
}

/* Sizes r->in from A to B with the body's centre step alone (the legs
 * scaled, no arm, upper-body, shoulder or toe step), measured; the step
 * must have moved a frame. */
static void centre_only(trial *r)
{
    pk_retarget_options o = {NO_ARMS,          .from = &r->a.m,      .to = &r->b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .measure = true};
    r->out = retarget(r->in, &o, &r->rep);
    assert_true(r->rep.body.centre_done && r->rep.body.centre_frames > 0);
}

/* A bows by 30 degrees throughout; on frames 15-25 it bows by 60 and
 * kicks its left 足ＩＫ 12 forward and 4 up, beyond its leg (more than 5%
 * of the leg off its 足ＩＫ).  B's neck rests 2 forward: under the bow its
 * centre of gravity stands elsewhere over its feet than A's, and センター
 * moves by the same on every frame of the 30-degree bow, up to the
 * stretch's edges: the stretch's moves, smoothed apart, do not reach the
 * frames around it. */
static void centre_held_where_a_is_off_its_ik(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.neck_z = -2;
    trial r;
    trial_new(&r, &PLAIN, &sb);
    static const uint32_t keys[] = {0, 14, 15, 25, 26, 40};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        bool kick = keys[i] >= 15 && keys[i] <= 25;
        qx(kick ? -60 : -30, tu_bone_key(r.in, "上半身", keys[i])->rot);
        float *p = tu_bone_key(r.in, "左足ＩＫ", keys[i])->pos;
        p[1] = kick ? 4.0f : 0.0f;
        p[2] = kick ? -12.0f : 0.0f;
    }
    centre_only(&r);
    double leg = 8.0, c5[3];
    play(&r.pb, &r.b.m, r.out, 5);
    memcpy(c5, at(&r.pb, "センター")->pos, sizeof c5);
    /* the step moved it, by more than 1% of the leg */
    assert_true(hypot(c5[0], c5[2]) > 0.01 * leg);
    /* where A stands, the same correction up to the stretch's edges: the
     * stretch's own moves do not spill onto them */
    for (uint32_t f = 0; f <= 40; f++) {
        if (f >= 15 && f <= 25)
            continue;
        play(&r.pb, &r.b.m, r.out, f);
        const double *c = at(&r.pb, "センター")->pos;
        assert_true(hypot(c[0] - c5[0], c[2] - c5[2]) < 0.0002 * leg);
    }
    /* B's centre of gravity where A stands on its 足ＩＫ: within the
     * step's goal, the stretch measured apart */
    assert_int_equal(r.rep.measure->body.cog_off_ik, 11); /* frames 15-25 */
    assert_true(r.rep.measure->body.cog_on_ik_max < 0.006);
    trial_free(&r);
}

/* A crouches (センター 6.5 down) and bows by 60 degrees; its left leg
 * stretches back towards a 足ＩＫ 20 behind it, beyond its reach, the
 * ankle 0.7 above its rest height (8.75% of the leg: barely down, eased
 * almost out).  B's neck rests 2 forward: its centre of gravity stands
 * elsewhere over its feet and センター moves.  The left foot's goal is
 * mostly where B's ankle was before the move: it does not hold センター
 * back (B's straight leg cannot reach that point once the hips move). */
static void centre_not_held_by_a_foot_barely_down(void **state)
{
    (void)state;
    shape sb = PLAIN;
    sb.neck_z = -2;
    trial r;
    trial_new(&r, &PLAIN, &sb);
    double hip_y = 9 - 6.5, lift = 0.7, len = 8.01, leg = 8.0;
    double drop = hip_y - (1 + lift), run = sqrt(len * len - drop * drop);
    for (uint32_t f = 0; f <= 20; f += 20) {
        qx(-60, tu_bone_key(r.in, "上半身", f)->rot);
        tu_bone_key(r.in, "センター", f)->pos[1] = -6.5f;
        float *p = tu_bone_key(r.in, "左足ＩＫ", f)->pos;
        /* along the line from the hip through the stretched ankle */
        p[1] = (float)(hip_y - drop * 20 / run - 1);
        p[2] = 20.0f;
    }
    centre_only(&r);
    play(&r.pa, &r.a.m, r.in, 10);
    /* A's ankle is barely down: between 3% and 10% of the leg up */
    double lift_a = at(&r.pa, "左足首")->pos[1] - 1;
    assert_true(lift_a > 0.03 * leg && lift_a < 0.1 * leg);
    /* every frame within the goal, 2% of the leg (3.2% before the step;
     * held back by that foot, the step left it so) */
    assert_true(r.rep.measure->body.cog_max_before > 0.03);
    assert_true(r.rep.measure->body.cog_max < 0.02);
    trial_free(&r);
}

/* A sits in a side split: the hips `low` below their rest (7.5: 0.5
 * above the ankles' rest height; 8.1: 0.1 below it), the left leg
 * stretched across the floor at 45 degrees between +X and +Z, its 足ＩＫ a
 * little beyond its reach (A's ankle down, within 5% of the leg of it),
 * the right foot raised, the upper body bowed by 60 degrees.  B's neck
 * rests 2 forward: its centre of gravity stands elsewhere over its feet,
 * and the centre step moves センター away from the planted left foot, to
 * the edge of its leg's reach, which pulls the hips back along the leg
 * after the rounds.  センター also moves across that pull (along the edge
 * of the reach), so the error's part across the leg goes (0.33% of the
 * leg is left across it without that move); hips below the foot come up
 * to its height. */
static void centre_across_a_foot_at_full_reach(double low)
{
    shape sb = PLAIN;
    sb.neck_z = -2;
    trial r;
    trial_new(&r, &PLAIN, &sb);
    double leg = 8.0, c = sqrt(0.5);
    for (uint32_t f = 0; f <= 20; f += 20) {
        tu_bone_key(r.in, "センター", f)->pos[1] = (float)-low;
        qx(-60, tu_bone_key(r.in, "上半身", f)->rot);
        float *p = tu_bone_key(r.in, "左足ＩＫ", f)->pos;
        p[0] = (float)(8.1 * c);
        p[2] = (float)(8.1 * c);
        p = tu_bone_key(r.in, "右足ＩＫ", f)->pos;
        p[0] = -4.0f;
        p[1] = 2.5f;
    }
    centre_only(&r);
    play(&r.pa, &r.a.m, r.in, 10);
    play(&r.pb, &r.b.m, r.out, 10);
    const double *a = at(&r.pa, "左足首")->pos, *ik = at(&r.pa, "左足ＩＫ")->pos,
                 *hip = at(&r.pb, "左足")->pos, *b = at(&r.pb, "左足首")->pos;
    /* A's left foot down, a little short of its 足ＩＫ; its right up */
    assert_true(fabs(a[1] - 1) < 0.01 * leg);
    double gap = hypot(a[0] - ik[0], hypot(a[1] - ik[1], a[2] - ik[2]));
    assert_true(gap > 0.001 * leg && gap < 0.05 * leg);
    assert_true(at(&r.pa, "右足首")->pos[1] - 1 > 0.1 * leg);
    /* B's stays where A's is, its leg stretched, the hips not below it */
    assert_true(hypot(b[0] - a[0], hypot(b[1] - a[1], b[2] - a[2])) < 0.002 * leg);
    assert_true(hypot(hip[0] - b[0], hypot(hip[1] - b[1], hip[2] - b[2])) > 0.98 * leg);
    assert_true(hip[1] > b[1] - 0.002 * leg);
    /* the centre of gravity's error across the leg gone: what is left
     * lies along it (B's hips cannot go further from that foot) */
    double oa[2], ob[2], oa0[2], ob0[2];
    rest_offsets(&r, oa0, ob0);
    cog_offset(&r.pa, &r.a, oa);
    cog_offset(&r.pb, &r.b, ob);
    double e[2] = {ob[0] - ob0[0] - (oa[0] - oa0[0]), ob[1] - ob0[1] - (oa[1] - oa0[1])};
    double u[2] = {b[0] - hip[0], b[2] - hip[2]}, ul = hypot(u[0], u[1]);
    double across = fabs(e[0] * u[1] - e[1] * u[0]) / ul;
    assert_true(across < 0.0015 * leg);
    trial_free(&r);
}

static void centre_across_a_foot_below_the_hips(void **state)
{
    (void)state;
    centre_across_a_foot_at_full_reach(7.5);
}

static void centre_across_a_foot_above_the_hips(void **state)
{
    (void)state;
    centre_across_a_foot_at_full_reach(8.1);
}

/* ---- toes ---- */

static void toes(bool toe_ik)
{
    shape sb = PLAIN;
    sb.toe_z = -3; /* a longer foot */
    sb.no_toe_ik = !toe_ik;
    trial r;
    trial_new(&r, &PLAIN, &sb);
    /* heels up by 0.5, the toe IK down by as much: A's toes stay low */
    for (int d = 0; d < 2; d++) {
        tu_bone_key(r.in, SIDE_NAMES[d][4], 0);
        tu_bone_key(r.in, SIDE_NAMES[d][5], 0);
        for (uint32_t f = 10; f <= 20; f += 10) {
            tu_bone_key(r.in, SIDE_NAMES[d][4], f)->pos[1] = 0.5f;
            tu_bone_key(r.in, SIDE_NAMES[d][5], f)->pos[1] = -0.5f;
        }
    }
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_centre = true,
                             .measure = true};
    pk_retarget_options o0 = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m};
    trial_retarget(&r, &o, &o0);
    assert_true(r.rep.body.toes_done && r.rep.body.toe_frames > 0);
    assert_true(r.rep.body.no_toe_ik == !toe_ik);
    /* B is not played again for its toes (no step after them reads them):
     * the toes, checked below, are the measure's play's and the output's */
    assert_int_equal(r.rep.body.rows_played, 0);
    assert_true(r.rep.measure && r.rep.measure->body.done);
    double worst0 = 0;
    for (uint32_t f = 0; f <= 20; f++) {
        trial_play(&r, f);
        for (int d = 0; d < 2; d++) {
            const char *toe = SIDE_NAMES[d][3], *ankle = SIDE_NAMES[d][2];
            double want = at(&r.pa, toe)->pos[1]; /* the scale is 1, both toes rest at 0 */
            worst0 = fmax(worst0, fabs(at(&r.p0, toe)->pos[1] - want));
            assert_true(fabs(at(&r.pb, toe)->pos[1] - want) < 0.02);
            /* the heel (the ankle) stays */
            assert_true(fabs(at(&r.pb, ankle)->pos[1] - at(&r.p0, ankle)->pos[1]) < 0.01);
        }
    }
    assert_true(worst0 > 0.05);
    trial_free(&r);
}

static void toes_on_the_floor(void **state)
{
    (void)state;
    toes(true);
}

/* without つま先ＩＫ on B: 足首 turns by its key */
static void toes_by_the_ankle(void **state)
{
    (void)state;
    toes(false);
}

/* ---- feet apart ---- */

static void feet_apart(void **state)
{
    (void)state;
    trial r;
    trial_new(&r, &PLAIN, &PLAIN);
    /* the body turned a quarter about Y: outward is then along Z */
    tu_bone_key(r.in, "センター", 0);
    float *q = tu_bone_key(r.in, "センター", 10)->rot;
    q[1] = (float)sin(PI / 4), q[3] = (float)cos(PI / 4);
    pk_retarget_options o = {NO_ARMS, NO_BODY, .from = &r.a.m, .to = &r.b.m, .feet_apart = 0.5};
    r.out = retarget(r.in, &o, &r.rep);
    assert_true(r.rep.body.apart == 0.5);
    play(&r.pb, &r.b.m, r.out, 0);
    assert_true(fabs(at(&r.pb, "左足首")->pos[0] - 1.5) < 0.01);
    assert_true(fabs(at(&r.pb, "右足首")->pos[0] + 1.5) < 0.01);
    play(&r.pb, &r.b.m, r.out, 10);
    /* +X turned a quarter about Y is -Z */
    assert_true(fabs(at(&r.pb, "左足首")->pos[2] + 0.5) < 0.01);
    assert_true(fabs(at(&r.pb, "右足首")->pos[2] - 0.5) < 0.01);
    trial_free(&r);
}

/* --feet-apart moves each 足ＩＫ outward along the hips' X, which turns
 * with the body: while A turns 40 degrees on its planted feet, B's feet
 * (0.2 further apart) would turn with it, sliding.  Held, they stay where
 * they stood. */
static void feet_held_while_the_body_turns(void **state)
{
    (void)state;
    trial r;
    trial_new(&r, &PLAIN, &PLAIN);
    for (uint32_t f = 0; f <= 20; f += 10) {
        pk_bone_key *k = tu_bone_key(r.in, "センター", f);
        k->pos[1] = -0.3f; /* the knees a little bent: the turn stays in reach */
        double t = (f ? 40 : 0) * PI / 360;
        k->rot[1] = (float)sin(t), k->rot[3] = (float)cos(t);
    }
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .feet_apart = 0.2};
    pk_retarget_options o0 = o;
    o0.no_centre = true;
    trial_retarget(&r, &o, &o0);
    double leg = 8.0, worst0 = 0;
    for (int d = 0; d < 2; d++) {
        const char *ankle = SIDE_NAMES[d][2];
        double a_first[3], b_first[3], b_prev[3], b0_prev[3];
        for (uint32_t f = 0; f <= 20; f++) {
            trial_play(&r, f);
            const double *x = at(&r.pa, ankle)->pos, *y = at(&r.pb, ankle)->pos,
                         *y0 = at(&r.p0, ankle)->pos;
            if (!f) {
                memcpy(a_first, x, sizeof a_first);
                memcpy(b_first, y, sizeof b_first);
                /* 0.2 outward at first */
                assert_true(fabs(fabs(y[0]) - 1.2) < 0.01);
            } else {
                worst0 = fmax(worst0, hypot(y0[0] - b0_prev[0], y0[2] - b0_prev[2]));
                /* A's foot still; B's as still, where it stood */
                assert_true(hypot(x[0] - a_first[0], x[2] - a_first[2]) < 0.001);
                assert_true(hypot(y[0] - b_prev[0], y[2] - b_prev[2]) < 0.0005 * leg);
                assert_true(hypot(y[0] - b_first[0], y[2] - b_first[2]) < 0.002 * leg);
            }
            memcpy(b_prev, y, sizeof b_prev);
            memcpy(b0_prev, y0, sizeof b0_prev);
        }
    }
    /* left alone, B's feet slid with the turn */
    assert_true(worst0 > 0.001 * leg);
    trial_free(&r);
}

/* Dancers sized together share one XZ scale for their translations (so
 * their spacing holds): the body steps never move センター across the
 * floor then, not even for a planted foot B's leg cannot reach.  A
 * crouches (the hips 4 down) with its left foot 5 to the side; with the
 * scale 2, B's 足ＩＫ stands 10 to the side, beyond its leg. */
static void shared_scale_keeps_the_centre(void **state)
{
    (void)state;
    trial r;
    trial_new(&r, &PLAIN, &PLAIN);
    for (uint32_t f = 0; f <= 20; f += 10) {
        tu_bone_key(r.in, "センター", f)->pos[1] = -4.0f;
        tu_bone_key(r.in, "左足ＩＫ", f)->pos[0] = f ? 5.0f : 0.0f;
    }
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true,
                             .scale_xz = 2.0};
    r.out = retarget(r.in, &o, &r.rep);
    assert_true(r.rep.body.centre_done);
    for (uint32_t f = 0; f <= 20; f++) {
        play(&r.pa, &r.a.m, r.in, f);
        play(&r.pb, &r.b.m, r.out, f);
        const double *x = at(&r.pa, "センター")->pos, *y = at(&r.pb, "センター")->pos;
        assert_true(fabs(y[0] - 2 * x[0]) < 1e-4 && fabs(y[2] - 2 * x[2]) < 1e-4);
    }
    trial_free(&r);
}

/* Where the motion turns the leg IK off (its IK section), the legs are
 * its keys' own: the feet step leaves 足ＩＫ and the hips alone there,
 * while the centre step moves センター under a bow where one leg still
 * stands on its IK, and leaves it alone where neither does (the feet go
 * with the hips: it went 0.6 of the leg across the floor for nothing). */
static void leg_ik_off(bool both)
{
    shape sb = PLAIN;
    sb.neck_z = -2;
    trial r;
    trial_new(&r, &PLAIN, &sb);
    turn(r.in, "上半身", -60);
    int n = both ? 2 : 1;
    pk_ik_key *ik = pk_motion_push_ik(r.in, (uint32_t)n);
    assert_non_null(ik);
    ik->frame = 0;
    ik->show = 1;
    pk_log log;
    pk_log_init(&log);
    for (int d = 0; d < n; d++) {
        ik->ik[d].name = pk_names_intern_utf8(r.in->names, SIDE_NAMES[d][4], 20, "ik", &log);
        ik->ik[d].enabled = 0;
    }
    pk_log_free(&log);
    pk_retarget_options o = {NO_ARMS,          .from = &r.a.m,       .to = &r.b.m,
                             .no_upper = true, .no_shoulders = true, .no_toes = true};
    r.out = retarget(r.in, &o, &r.rep);
    /* one leg on its IK: the step moves センター; none: the feet go with
     * the hips, and moving them would not bring the centre of gravity
     * over the feet */
    if (both)
        assert_int_equal(r.rep.body.centre_frames, 0);
    else
        assert_true(r.rep.body.centre_frames > 0);
    for (size_t i = 0; i < r.out->nbones; i++) {
        const pk_bone_key *k = &r.out->bones[i];
        const char *nm = pk_names_utf8(r.out->names, k->name);
        if (strstr(nm, "足ＩＫ") != NULL && (both || strcmp(nm, SIDE_NAMES[0][4]) == 0))
            assert_true(k->pos[0] == 0 && k->pos[1] == 0 && k->pos[2] == 0);
        /* センター: left where neither leg stands on its IK */
        if (both && strcmp(nm, "センター") == 0)
            assert_true(k->pos[0] == 0 && k->pos[1] == 0 && k->pos[2] == 0);
    }
    trial_free(&r);
}

static void feet_left_where_the_leg_ik_is_off(void **state)
{
    (void)state;
    leg_ik_off(false);
    leg_ik_off(true);
}

/* ---- off and at rest ---- */

static void off_and_at_rest(void **state)
{
    (void)state;
    body a, b;
    build(&a, &PLAIN);
    shape sb = {-1, 13.0, 8, -3, false, 0, 0};
    build(&b, &sb);
    /* every bone keyed at rest */
    pk_motion *in = pk_motion_new();
    assert_non_null(in);
    for (size_t i = 0; i < a.m.nbones; i++) {
        tu_bone_key(in, a.b[i].name, 0);
        tu_bone_key(in, a.b[i].name, 10);
    }
    pk_retarget_report rep;
    pk_retarget_options off = {NO_ARMS, NO_BODY, .from = &a.m, .to = &b.m, .measure = true};
    pk_motion *out = retarget(in, &off, &rep);
    assert_false(rep.body.centre_done || rep.body.upper_done || rep.body.shoulders_done ||
                 rep.body.toes_done);
    assert_int_equal(rep.body.keys, 0);
    /* measured all the same: the lean and the slope, before = after */
    assert_true(rep.measure->body.head_max > 14 && rep.measure->body.shoulder_max > 26);
    assert_true(rep.measure->body.head_max == rep.measure->body.head_max_before);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_retarget_options on = {NO_ARMS, .from = &a.m, .to = &b.m};
    out = retarget(in, &on, &rep);
    for (size_t i = 0; i < out->nbones; i++) {
        const pk_bone_key *k = &out->bones[i];
        const char *n = pk_names_utf8(out->names, k->name);
        bool turned = strcmp(n, "上半身") == 0 || strcmp(n, "首") == 0 || strstr(n, "肩") != NULL ||
                      strstr(n, "腕") != NULL;
        /* センター moves to keep B's balance under the upper body as A's
         * (it leans back, and down for the legs to reach the feet); a
         * 足ＩＫ holds its foot at its rest height (within 0.1% of the leg) */
        if (strstr(n, "足ＩＫ") != NULL)
            assert_true(fabs(k->pos[0]) + fabs(k->pos[1]) + fabs(k->pos[2]) < 0.007);
        else if (strcmp(n, "センター") != 0)
            assert_true(k->pos[0] == 0 && k->pos[1] == 0 && k->pos[2] == 0);
        else
            assert_true(k->pos[2] < -0.1);
        if (!turned)
            assert_true(k->rot[0] == 0 && k->rot[1] == 0 && k->rot[2] == 0);
    }
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    unbuild(&a);
    unbuild(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lean_of_the_upper_body),
        cmocka_unit_test(slope_of_the_shoulders),
        cmocka_unit_test(centre_of_gravity_over_the_feet),
        cmocka_unit_test(upper_step_played_first_the_same_keys),
        cmocka_unit_test(feet_reach_the_floor),
        cmocka_unit_test(feet_planted_where_a_leg_cannot_reach),
        cmocka_unit_test(cog_measured_where_a_stands_on_its_ik),
        cmocka_unit_test(centre_held_where_a_is_off_its_ik),
        cmocka_unit_test(centre_not_held_by_a_foot_barely_down),
        cmocka_unit_test(centre_across_a_foot_below_the_hips),
        cmocka_unit_test(centre_across_a_foot_above_the_hips),
        cmocka_unit_test(toes_on_the_floor),
        cmocka_unit_test(toes_by_the_ankle),
        cmocka_unit_test(feet_apart),
        cmocka_unit_test(feet_held_while_the_body_turns),
        cmocka_unit_test(shared_scale_keeps_the_centre),
        cmocka_unit_test(feet_left_where_the_leg_ik_is_off),
        cmocka_unit_test(off_and_at_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
