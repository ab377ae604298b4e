/* test_troupe.c — dancers sized together (engine/ops/retarget/troupe.c,
 * pk_motions_retarget_together) on small figures built in memory
 * (tests/unit/pmxgen.h), where the answers are known exactly:
 *   - a formation (one dance, the second dancer 10 units to the side) onto
 *     a tall and a short figure: with the shared scale (the mean of the
 *     leg ratios, 1.1 and 0.5: 0.8) the distance between the centres on
 *     the B's is 0.8 times A's at every frame; each with its own scale it
 *     is not; a scale the user gives is used as given;
 *   - two dancers holding hands (dancer 1's right middle fingertip on
 *     dancer 2's left one, frames 10-20, arms in a T) onto figures whose
 *     arms and heights differ: sized alone the hands miss each other by
 *     1.35 units; together they meet, within 2% of the arm, at every held
 *     frame, and the contact is reported with its frames;
 *   - when one of the holding hands cannot bend to meet (its elbow bent
 *     backwards on A), the other goes the whole way;
 *   - a hand on a partner's shoulder (dancer 2's chest, a rigid body)
 *     lands on the smaller partner's shoulder, within 2% of the arm;
 *   - a dancer that cannot be sized (a model without legs) fails the
 *     group with a message naming it, and no motion changes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmxgen.h"
#include "testutil.h"

/* ---- figures ---- */

typedef struct bone_def {
    char name[32];
    double x, y, z;
    int parent;
} bone_def;

static int add(bone_def *b, int *n, const char *name, double x, double y, double z, int parent)
{
    snprintf(b[*n].name, sizeof b[*n].name, "%s", name);
    b[*n].x = x;
    b[*n].y = y;
    b[*n].z = z;
    b[*n].parent = parent;
    return (*n)++;
}

/* A figure in a T pose, its body (height, legs, shoulders) f times the
 * unit figure's and its arms (腕->ひじ 3, ひじ->手首 3, 手首->中指先 1)
 * g times, its centre (センター) cz in front of its hips (-Z); legs: none
 * when !legs; chest: a sphere of that radius times f on 上半身2 at the
 * shoulders' height (0: none). */
static pk_model *figure_at(double f, double g, double cz, bool legs, double chest)
{
    bone_def b[32];
    int n = 0;
    int centre = add(b, &n, "センター", 0, 8 * f, -cz, -1);
    int upper = add(b, &n, "上半身", 0, 10 * f, 0, centre);
    int upper2 = add(b, &n, "上半身2", 0, 12 * f, 0, upper);
    int neck = add(b, &n, "首", 0, 14 * f, 0, upper2);
    add(b, &n, "頭", 0, 15 * f, 0, neck);
    int lower = add(b, &n, "下半身", 0, 10 * f, 0, centre);
    for (int s = 0; s < 2 && legs; s++) {
        double sx = s ? -f : f;
        int p = add(b, &n, s ? "右足" : "左足", sx, 9 * f, 0, lower);
        p = add(b, &n, s ? "右ひざ" : "左ひざ", sx, 5 * f, 0, p);
        add(b, &n, s ? "右足首" : "左足首", sx, 1 * f, 0, p);
    }
    for (int s = 0; s < 2; s++) {
        double sx = s ? -1 : 1, y = 13.5 * f, x = 1.5 * f;
        int p = add(b, &n, s ? "右肩" : "左肩", sx * 0.5 * f, y, 0, upper2);
        p = add(b, &n, s ? "右腕" : "左腕", sx * x, y, 0, p);
        x += 3 * g;
        p = add(b, &n, s ? "右ひじ" : "左ひじ", sx * x, y, 0, p);
        x += 3 * g;
        p = add(b, &n, s ? "右手首" : "左手首", sx * x, y, 0, p);
        x += 1 * g;
        add(b, &n, s ? "右中指先" : "左中指先", sx * x, y, 0, p);
    }
    const int sizes[6] = {1, 1, 1, 2, 1, 1};
    pg g2;
    pg_header(&g2, 2.0f, 1, 0, sizes);
    for (int k = 0; k < 4; k++) /* vertices, faces, textures, materials */
        pg_i32(&g2, 0);
    pg_i32(&g2, n);
    for (int i = 0; i < n; i++) {
        pg_text(&g2, b[i].name);
        pg_text(&g2, "");
        pg_f3(&g2, (float)b[i].x, (float)b[i].y, (float)b[i].z);
        pg_idx(&g2, PG_BONE, b[i].parent);
        pg_i32(&g2, 0);
        pg_u16(&g2, 0x001E);
        pg_f3(&g2, 0, 0.5f, 0); /* tail offset */
    }
    pg_i32(&g2, 0); /* morphs */
    pg_i32(&g2, 0); /* display frames */
    pg_i32(&g2, chest > 0 ? 1 : 0);
    if (chest > 0) {
        pg_rigid_def r = {"上半身2",
                          "",
                          upper2,
                          1,
                          0xFFFF,
                          PK_RIGID_SPHERE,
                          {(float)(chest * f), 0, 0},
                          {0, (float)(13.5 * f), 0},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g2, &r);
    }
    pg_i32(&g2, 0); /* joints */
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g2.b.data, g2.b.len, &log);
    assert_non_null(m);
    pk_log_free(&log);
    pk_buf_free(&g2.b);
    return m;
}

static pk_model *figure(double f, double g, bool legs)
{
    return figure_at(f, g, 0, legs, 0);
}

/* ---- motions ---- */

/* A linear key of センター's translation. */
static void centre(pk_motion *m, uint32_t frame, double x, double z)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, "センター");
    k->frame = frame;
    k->pos[0] = (float)x;
    k->pos[2] = (float)z;
    k->rot[3] = 1;
    const uint8_t lin[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(k->interp, lin, false);
}

/* ---- playing ---- */

/* World positions of every bone of m playing mo at a frame (malloc'd). */
static pk_bone_world *play(const pk_model *m, const pk_motion *mo, uint32_t frame)
{
    pk_log log;
    pk_log_init(&log);
    pk_rig *rig = pk_rig_new(m, &log);
    pk_tracks *t = pk_tracks_build(mo, &log);
    assert_non_null(rig);
    assert_non_null(t);
    pk_bone_local *loc = calloc(m->nbones, sizeof *loc);
    pk_bone_world *w = calloc(m->nbones, sizeof *w);
    bool *on = calloc(m->nbones, sizeof *on);
    pk_rig_motion_local(rig, mo, t, frame, loc, on);
    pk_rig_eval(rig, loc, on, 0, w);
    free(on);
    free(loc);
    pk_tracks_free(t);
    pk_rig_free(rig);
    pk_log_free(&log);
    return w;
}

static long bone(const pk_model *m, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    long i = pk_model_find_bone(m, raw, len);
    free(raw);
    assert_true(i >= 0);
    return i;
}

static const double *at(const pk_bone_world *w, const pk_model *m, const char *name)
{
    return w[bone(m, name)].pos;
}

static double ground(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double dist(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* Two dancers from a to b[0], b[1]; 0 or -1, the log kept in *log. */
static int together(pk_motion *m[2], const pk_model *a, pk_model *const b[2],
                    const pk_troupe_options *o, pk_troupe_report *rep, pk_log *log)
{
    pk_dancer d[2];
    memset(d, 0, sizeof d);
    for (int i = 0; i < 2; i++) {
        d[i].motion = m[i];
        d[i].o.from = a;
        d[i].o.to = b[i];
    }
    return pk_motions_retarget_together(d, 2, o, rep, log);
}

/* Two dancers from one A: the models, the dances (in), what is sized
 * (out), the group's report and log. */
typedef struct duo {
    pk_model *a, *b[2];
    pk_motion *in[2], *out[2];
    pk_troupe_report rep;
    pk_log log;
} duo;

static void duo_open(duo *d, pk_model *a, pk_model *b0, pk_model *b1, void (*dance)(pk_motion *[2]))
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->b[0] = b0;
    d->b[1] = b1;
    dance(d->in);
    pk_log_init(&d->log);
}

/* Sizes fresh copies of the dances together (o NULL: the mean scale). */
static int duo_run(duo *d, const pk_troupe_options *o)
{
    pk_troupe_report_free(&d->rep);
    for (int i = 0; i < 2; i++) {
        pk_motion_free(d->out[i]);
        d->out[i] = pk_motion_clone(d->in[i]);
        assert_non_null(d->out[i]);
    }
    return together(d->out, d->a, d->b, o, &d->rep, &d->log);
}

static void duo_close(duo *d)
{
    pk_troupe_report_free(&d->rep);
    pk_log_free(&d->log);
    for (int i = 0; i < 2; i++) {
        pk_motion_free(d->in[i]);
        pk_motion_free(d->out[i]);
        pk_model_free(d->b[i]);
    }
    pk_model_free(d->a);
}

/* ---- a formation ---- */

/* The same dance, the second dancer 10 units to its right (-X) and 2
 * behind. */
static void formation(pk_motion *m[2])
{
    const double xs[4] = {1.0, 3.0, -2.0, 0.5}, zs[4] = {0.0, -1.5, 2.0, 0.0};
    for (int i = 0; i < 2; i++) {
        m[i] = pk_motion_new();
        assert_non_null(m[i]);
        for (int k = 0; k < 4; k++)
            centre(m[i], (uint32_t)(10 * k), xs[k] - 10.0 * i, zs[k] + 2.0 * i);
    }
}

/* The distance between the dancers' centres on the floor at a frame. */
static double spacing(pk_motion *m[2], const pk_model *md[2], uint32_t f)
{
    pk_bone_world *w0 = play(md[0], m[0], f), *w1 = play(md[1], m[1], f);
    double d = ground(at(w0, md[0], "センター"), at(w1, md[1], "センター"));
    free(w0);
    free(w1);
    return d;
}

static void formation_spacing(void **state)
{
    (void)state;
    /* the short one's centre stands 0.3 in front of its hips: the group
     * moves it back so its centre stands where the source's does */
    duo g;
    duo_open(&g, figure(1, 1, true), figure(1.1, 1.1, true), figure_at(0.5, 0.5, 0.3, true, 0),
             formation);
    const pk_model *aa[2] = {g.a, g.a}, *bb[2] = {g.b[0], g.b[1]};
    double want[31];
    for (uint32_t f = 0; f <= 30; f++)
        want[f] = spacing(g.in, aa, f);
    /* shared: the mean of 1.1 and 0.5 */
    assert_int_equal(duo_run(&g, NULL), 0);
    assert_true(fabs(g.rep.scale - 0.8) < 1e-6);
    assert_false(g.rep.scale_given);
    assert_true(fabs(g.rep.ratio_min - 0.5) < 1e-6 && fabs(g.rep.ratio_max - 1.1) < 1e-6);
    assert_int_equal(g.rep.pairs, 1);
    assert_true(g.rep.spacing_max < 1e-5);
    for (uint32_t f = 0; f <= 30; f++)
        assert_true(fabs(spacing(g.out, bb, f) - 0.8 * want[f]) < 1e-4);
    assert_int_equal(g.rep.ncontacts, 0);
    /* each with its own scale: the formation does not keep its spacing */
    pk_troupe_options own = {.own = true};
    assert_int_equal(duo_run(&g, &own), 0);
    assert_true(g.rep.own);
    assert_true(g.rep.spacing_max > 0.1);
    /* a scale given */
    pk_troupe_options given = {.scale = 1.25};
    assert_int_equal(duo_run(&g, &given), 0);
    assert_true(g.rep.scale_given);
    assert_true(g.rep.spacing_max < 1e-5);
    for (uint32_t f = 0; f <= 30; f += 5)
        assert_true(fabs(spacing(g.out, bb, f) - 1.25 * want[f]) < 1e-4);
    assert_int_equal(g.log.errors, 0);
    duo_close(&g);
}

/* ---- holding hands ---- */

/* Dancer 1 at x = +c, dancer 2 at -c, arms in a T: the right hand of the
 * first and the left of the second point at each other, their middle
 * fingertips meeting at x = 0 when c is 8.5 (frames 10-20). */
static void holding(pk_motion *m[2])
{
    const double cs[4] = {11.0, 8.5, 8.5, 11.0};
    for (int i = 0; i < 2; i++) {
        m[i] = pk_motion_new();
        assert_non_null(m[i]);
        for (int k = 0; k < 4; k++)
            centre(m[i], (uint32_t)(10 * k), i ? -cs[k] : cs[k], 0);
    }
}

static void held_hands(void **state)
{
    (void)state;
    /* B1 a little taller, B2 a little shorter with longer arms: with the
     * shared scale 1.0, B1's fingertip reaches x -0.075 at height 14.175,
     * B2's x 0.625 at 12.825 */
    duo g;
    duo_open(&g, figure(1, 1, true), figure(1.05, 1.0, true), figure(0.95, 1.1, true), holding);
    const pk_model *bb[2] = {g.b[0], g.b[1]};
    /* sized alone (the same scale), the hands miss each other */
    assert_int_equal(duo_run(&g, NULL), 0);
    const pk_troupe_report *rep = &g.rep;
    assert_true(fabs(rep->scale - 1.0) < 1e-6);
    assert_int_equal(rep->ncontacts, 1);
    const pk_troupe_contact *c = &rep->contacts[0];
    assert_int_equal(c->dancer, 0);
    assert_int_equal(c->partner, 1);
    assert_int_equal(c->side, 1);
    assert_string_equal(c->with, "left hand");
    assert_true(c->first >= 8 && c->first <= 10);
    assert_true(c->last >= 20 && c->last <= 22);
    assert_true(c->gap_a < 1e-6);
    /* before: 1.35 units apart, of B1's arm (6) */
    assert_true(fabs(c->before_max - 1.35 / 6.0) < 0.01);
    assert_true(rep->gap_before_mean > 0.1);
    assert_true(rep->gap_after_mean <= 0.02);
    assert_true(rep->gap_after_p95 <= 0.05);
    assert_int_equal(rep->refused, 0);
    assert_int_equal(rep->out_of_reach, 0);
    /* every contact frame within both arms' reach: measured as all */
    assert_int_equal(rep->reach_frames, rep->contact_frames);
    assert_true(fabs(rep->reach_after_mean - rep->gap_after_mean) < 1e-12);
    assert_true(rep->reach_short_max == 0);
    assert_true(rep->moved_frames > 2 * 11);
    assert_true(rep->spacing_max < 1e-5);
    for (uint32_t f = 10; f <= 20; f++) {
        pk_bone_world *w0 = play(bb[0], g.out[0], f), *w1 = play(bb[1], g.out[1], f);
        double d = dist(at(w0, bb[0], "右中指先"), at(w1, bb[1], "左中指先"));
        assert_true(d < 0.02 * 6.0);
        /* the hands keep their rotation: level, along X */
        const double *t0 = at(w0, bb[0], "右中指先"), *h0 = at(w0, bb[0], "右手首");
        assert_true(fabs(t0[1] - h0[1]) < 1e-3);
        free(w0);
        free(w1);
    }
    /* far from the contact nothing moved */
    pk_bone_world *w = play(bb[0], g.out[0], 0), *w2 = play(bb[0], g.in[0], 0);
    assert_true(dist(at(w, bb[0], "右手首"), at(w2, bb[0], "右手首")) < 1e-4);
    free(w);
    free(w2);
    assert_int_equal(g.log.errors, 0);
    /* the contacts step off on both: nothing held */
    pk_troupe_report_free(&g.rep);
    pk_dancer d[2];
    memset(d, 0, sizeof d);
    for (int i = 0; i < 2; i++) {
        pk_motion_free(g.out[i]);
        g.out[i] = pk_motion_clone(g.in[i]);
        d[i].motion = g.out[i];
        d[i].o.from = g.a;
        d[i].o.to = g.b[i];
        d[i].o.no_contacts = true;
    }
    assert_int_equal(pk_motions_retarget_together(d, 2, NULL, &g.rep, &g.log), 0);
    assert_int_equal(g.rep.ncontacts, 1);
    assert_int_equal(g.rep.moved_frames, 0);
    assert_true(fabs(g.rep.gap_after_mean - g.rep.gap_before_mean) < 1e-9);
    duo_close(&g);
}

/* Two B's whose arms are too short for the hands A holds at the shared
 * spacing: every contact frame beyond reach, and by how much. */
static void held_hands_beyond_reach(void **state)
{
    (void)state;
    /* B's arms 0.8 of A's, legs the same (scale 1): at rest each
     * fingertip 1.4 units short of the meeting point (x 0) while the
     * dancers stand 17 apart (frames 10-20) */
    duo g;
    duo_open(&g, figure(1, 1, true), figure(1.0, 0.8, true), figure(1.0, 0.8, true), holding);
    assert_int_equal(duo_run(&g, NULL), 0);
    assert_true(fabs(g.rep.scale - 1.0) < 1e-6);
    assert_int_equal(g.rep.ncontacts, 1);
    assert_true(g.rep.contact_frames >= 11);
    assert_int_equal(g.rep.reach_frames, 0);
    /* the arm (腕 to 手首) is 4.8 long: a wrist's target is at least the
     * 1.4 units beyond it where the dancers stand still */
    assert_true(g.rep.reach_short_max * 4.8 > 1.3);
    assert_true(g.rep.reach_short_max < 1.0);
    assert_true(g.rep.gap_after_mean > 0.1);
    assert_int_equal(g.log.errors, 0);
    duo_close(&g);
}

/* A key turning `name` by deg degrees about Y, linear. */
static void turn_y(pk_motion *m, const char *name, uint32_t frame, double deg)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, name);
    k->frame = frame;
    double h = deg * 3.14159265358979323846 / 360.0;
    k->rot[1] = (float)sin(h);
    k->rot[3] = (float)cos(h);
    const uint8_t lin[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(k->interp, lin, false);
}

/* The held hands with dancer 2's left elbow bent 5 degrees backwards on A
 * (its forearm turned to +Z): bending it further to meet halfway is
 * refused, so dancer 1's hand goes the whole way to it, and no held frame
 * ends further apart than sized alone. */
static void held_hand_refused(void **state)
{
    (void)state;
    duo g;
    duo_open(&g, figure(1, 1, true), figure(1.05, 1.0, true), figure(0.95, 1.1, true), holding);
    turn_y(g.in[1], "左ひじ", 0, -5);
    turn_y(g.in[1], "左ひじ", 30, -5);
    assert_int_equal(duo_run(&g, NULL), 0);
    assert_int_equal(g.rep.ncontacts, 1);
    assert_true(g.rep.refused > 0);
    assert_true(g.rep.settled > 0);
    assert_true(g.rep.gap_after_mean <= 0.02 && g.rep.gap_after_p95 <= 0.05);
    assert_true(g.rep.contacts[0].after_max <= g.rep.contacts[0].before_max);
    duo_close(&g);
}

/* ---- a hand on a partner's shoulder ---- */

/* A key turning `name` by deg degrees about Z, linear. */
static void turn_z(pk_motion *m, const char *name, uint32_t frame, double deg)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, name);
    k->frame = frame;
    double h = deg * 3.14159265358979323846 / 360.0;
    k->rot[2] = (float)sin(h);
    k->rot[3] = (float)cos(h);
    const uint8_t lin[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(k->interp, lin, false);
}

/* Dancer 2 stands at x = -5, arms down; dancer 1 walks up from x = 8 to 5
 * (frames 0-10), its right arm in a T: its middle fingertip rests on the
 * top of dancer 2's left shoulder, the surface of its chest sphere
 * (radius 1.5 at the shoulders' height), frames 10-20. */
static void shoulder(pk_motion *m[2])
{
    for (int i = 0; i < 2; i++) {
        m[i] = pk_motion_new();
        assert_non_null(m[i]);
    }
    const double cs[4] = {8.0, 5.0, 5.0, 8.0};
    for (int k = 0; k < 4; k++)
        centre(m[0], (uint32_t)(10 * k), cs[k], 0);
    centre(m[1], 0, -5, 0);
    centre(m[1], 30, -5, 0);
    for (uint32_t f = 0; f <= 30; f += 30) {
        turn_z(m[1], "左腕", f, -80);
        turn_z(m[1], "右腕", f, 80);
    }
}

static void hand_on_shoulder(void **state)
{
    (void)state;
    /* B1 a little taller with longer arms, B2 smaller: B1's hand reaches
     * down to B2's shoulder */
    duo g;
    duo_open(&g, figure_at(1, 1, 0, true, 1.5), figure_at(1.05, 1.1, 0, true, 1.5),
             figure_at(0.9, 1.1, 0, true, 1.5), shoulder);
    assert_int_equal(duo_run(&g, NULL), 0);
    assert_int_equal(g.rep.ncontacts, 1);
    const pk_troupe_contact *c = &g.rep.contacts[0];
    assert_int_equal(c->dancer, 0);
    assert_int_equal(c->partner, 1);
    assert_int_equal(c->side, 1);
    assert_string_equal(c->with, "chest");
    assert_true(c->first <= 10 && c->last >= 20);
    assert_true(c->before_mean > 0.03);
    assert_true(g.rep.gap_after_mean <= 0.02 && g.rep.gap_after_p95 <= 0.05);
    /* on B the fingertip rests on B2's sphere (radius 1.35 about its
     * shoulders' centre), within 2% of B1's arm */
    for (uint32_t f = 12; f <= 18; f++) {
        pk_bone_world *w0 = play(g.b[0], g.out[0], f), *w1 = play(g.b[1], g.out[1], f);
        const double *tip = at(w0, g.b[0], "右中指先"), *ch = at(w1, g.b[1], "上半身2");
        double o[3] = {ch[0], ch[1] + 1.5 * 0.9, ch[2]};
        assert_true(fabs(dist(tip, o) - 1.35) < 0.02 * 6.6);
        free(w0);
        free(w1);
    }
    assert_int_equal(g.log.errors, 0);
    duo_close(&g);
}

/* ---- a dancer that cannot be sized ---- */

static void one_fails_none_changes(void **state)
{
    (void)state;
    duo g;
    duo_open(&g, figure(1, 1, true), figure(1.1, 1.1, true), figure(0.5, 0.5, false), formation);
    assert_int_equal(duo_run(&g, NULL), -1);
    assert_true(g.log.errors > 0);
    bool named = false;
    for (size_t i = 0; i < g.log.count; i++)
        named |= strncmp(g.log.items[i].msg, "dancer 2: ", 10) == 0;
    assert_true(named);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(g.out[i]->nbones, g.in[i]->nbones);
        assert_memory_equal(g.out[i]->bones, g.in[i]->bones,
                            g.in[i]->nbones * sizeof *g.in[i]->bones);
    }
    duo_close(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formation_spacing),       cmocka_unit_test(held_hands),
        cmocka_unit_test(held_hands_beyond_reach), cmocka_unit_test(held_hand_refused),
        cmocka_unit_test(hand_on_shoulder),        cmocka_unit_test(one_fails_none_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
