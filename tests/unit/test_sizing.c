/* test_sizing.c — retarget's sizing steps (engine/ops/retarget/sizing.c:
 * contacts, avoid, twist, the elbow law, the measures) on small figures
 * built in memory (tests/unit/pmxgen.h), where the contact, the target
 * and the twists are known exactly:
 *   - a T-posed figure claps, the tips of its middle fingers meeting at
 *     the middle; on a figure with arms 20% longer they would pass each
 *     other by 0.6: the contact is found on A's frames, B's tips meet at
 *     their midpoint (the elbows bend), frames away from it keep their
 *     keys;
 *   - a hand hanging beside a thigh (a rigid body) keeps its gap, scaled,
 *     beside a thinner thigh; a hand touching a thigh and a ball at once
 *     holds both where the mean of the two would hold neither; where
 *     they cannot hold together one holds and the other is counted
 *     apart;
 *   - a forearm inside a thicker thigh comes out (and a model without
 *     rigid bodies skips the step, saying so);
 *   - twists on 腕, ひじ and 手首 move into 腕捩 and 手捩, the hand's world
 *     rotation within 0.01 degree; and the inverse, onto a figure without
 *     twist bones;
 *   - a clap whose arms bend backwards on A is not bent further backwards
 *     on a figure whose arms are longer: the corrections are refused;
 *   - a clap whose meeting point lies inside a body of B: the hands move
 *     out of it together; a clap onto arms too short to meet: out of
 *     reach (肩 turned its most), by a known distance (the measure on the
 *     frames B can hold leaves them out); arms a little longer reach
 *     with 肩 turned; a held hand whose straight arm passes
 *     through a body of B: the arm comes out, the hand leaving its
 *     contact;
 *   - a hand on a ball whose spot asks B's wrist nearer the shoulder
 *     than B's folded arm comes (its forearm much shorter than its upper
 *     arm): the spot moves along the ball to where the folded arm
 *     reaches and the hand holds its gap there; with no such spot on the
 *     ball, the contact is counted out of reach;
 *   - an arm wedged between a ball about B's chest and one about its
 *     head (bringing one point out brings another in) comes out of both;
 *   - twists move at the keys of the bones they come from: every output
 *     key on a frame the input keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmxgen.h"
#include "testutil.h"

#define PI 3.14159265358979323846
/* the body steps (sizing_body.c) off: the arm steps' tests */
#define NO_BODY .no_centre = true, .no_upper = true, .no_shoulders = true, .no_toes = true
#define NO_SIZING .no_contacts = true, .no_avoid = true, .no_twist = true, NO_BODY

/* ---- figures ---- */

typedef struct fig {
    double upper, fore, hand; /* 腕->ひじ, ひじ->手首, 手首->中指先 */
    bool twist;               /* 腕捩, 手捩 with fixed axes */
    double thigh_r;           /* a capsule on 足 from 足 to ひざ (0: none) */
    bool rigids;              /* the thigh body at all */
    double ball_r, ball_z;    /* a sphere on 上半身2 at (0, 13.5, ball_z) (0: none) */
} fig;

/* More bodies: a sphere on 上半身2 at (0, chest_y, 0) and one on 頭 at
 * (0, head_y, head_z) (radius 0: none). */
typedef struct more {
    double chest_r, chest_y;
    double head_r, head_y, head_z;
} more;

typedef struct bone_def {
    char name[32];
    double x, y, z;
    int parent;
    bool axis;
} bone_def;

static int add(bone_def *b, int *n, const char *name, double x, double y, double z, int parent,
               bool axis)
{
    snprintf(b[*n].name, sizeof b[*n].name, "%s", name);
    b[*n].x = x;
    b[*n].y = y;
    b[*n].z = z;
    b[*n].parent = parent;
    b[*n].axis = axis;
    return (*n)++;
}

/* A figure standing in a T pose: the shoulders at x = +-1.5, y 13.5, the
 * arms along +-X. */
static pk_model *figure_with(const fig *f, const more *xm)
{
    static const more none = {0, 0, 0, 0, 0};
    const more *mb = xm ? xm : &none;
    bone_def b[40];
    int n = 0;
    int centre = add(b, &n, "センター", 0, 8, 0, -1, false);
    int upper = add(b, &n, "上半身", 0, 10, 0, centre, false);
    int upper2 = add(b, &n, "上半身2", 0, 12, 0, upper, false);
    int neck = add(b, &n, "首", 0, 14, 0, upper2, false);
    int head = add(b, &n, "頭", 0, 15, 0, neck, false);
    int lower = add(b, &n, "下半身", 0, 10, 0, centre, false);
    int thigh[2];
    for (int s = 0; s < 2; s++) {
        const char *side = s ? "右" : "左";
        double sx = s ? -1 : 1;
        char nm[32];
        snprintf(nm, sizeof nm, "%s足", side);
        thigh[s] = add(b, &n, nm, sx, 9, 0, lower, false);
        snprintf(nm, sizeof nm, "%sひざ", side);
        int knee = add(b, &n, nm, sx, 5, 0, thigh[s], false);
        snprintf(nm, sizeof nm, "%s足首", side);
        add(b, &n, nm, sx, 1, 0, knee, false);
    }
    for (int s = 0; s < 2; s++) {
        const char *side = s ? "右" : "左";
        double sx = s ? -1 : 1, x = 1.5;
        char nm[32];
        snprintf(nm, sizeof nm, "%s肩", side);
        int p = add(b, &n, nm, sx * 0.5, 13.5, 0, upper2, false);
        snprintf(nm, sizeof nm, "%s腕", side);
        p = add(b, &n, nm, sx * x, 13.5, 0, p, false);
        if (f->twist) {
            snprintf(nm, sizeof nm, "%s腕捩", side);
            p = add(b, &n, nm, sx * (x + f->upper / 2), 13.5, 0, p, true);
        }
        x += f->upper;
        snprintf(nm, sizeof nm, "%sひじ", side);
        p = add(b, &n, nm, sx * x, 13.5, 0, p, false);
        if (f->twist) {
            snprintf(nm, sizeof nm, "%s手捩", side);
            p = add(b, &n, nm, sx * (x + f->fore / 2), 13.5, 0, p, true);
        }
        x += f->fore;
        snprintf(nm, sizeof nm, "%s手首", side);
        p = add(b, &n, nm, sx * x, 13.5, 0, p, false);
        x += f->hand;
        snprintf(nm, sizeof nm, "%s中指先", side);
        add(b, &n, nm, sx * x, 13.5, 0, p, false);
    }
    const int sizes[6] = {1, 1, 1, 2, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 1, 0, sizes);
    for (int k = 0; k < 4; k++) /* vertices, faces, textures, materials */
        pg_i32(&g, 0);
    pg_i32(&g, n);
    for (int i = 0; i < n; i++) {
        pg_text(&g, b[i].name);
        pg_text(&g, "");
        pg_f3(&g, (float)b[i].x, (float)b[i].y, (float)b[i].z);
        pg_idx(&g, PG_BONE, b[i].parent);
        pg_i32(&g, 0);
        pg_u16(&g, 0x001E | (b[i].axis ? 0x0400 : 0));
        pg_f3(&g, 0, 0.5f, 0); /* tail offset */
        if (b[i].axis)
            pg_f3(&g, b[i].x < 0 ? -1.0f : 1.0f, 0, 0);
    }
    pg_i32(&g, 0); /* morphs */
    pg_i32(&g, 0); /* display frames */
    /* with rigid bodies: a thigh capsule on each 足 and a small sphere on
     * 下半身 (so the hips are no stand-in, which would reach the hands) */
    int nr = f->rigids ? 3 : 0;
    pg_i32(&g, nr + (f->ball_r > 0) + (mb->chest_r > 0) + (mb->head_r > 0));
    if (mb->chest_r > 0) {
        pg_rigid_def r = {"胸",
                          "",
                          upper2,
                          1,
                          0xFFFF,
                          PK_RIGID_SPHERE,
                          {(float)mb->chest_r, 0, 0},
                          {0, (float)mb->chest_y, 0},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g, &r);
    }
    if (mb->head_r > 0) {
        pg_rigid_def r = {"頭",
                          "",
                          head,
                          1,
                          0xFFFF,
                          PK_RIGID_SPHERE,
                          {(float)mb->head_r, 0, 0},
                          {0, (float)mb->head_y, (float)mb->head_z},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g, &r);
    }
    if (f->ball_r > 0) {
        pg_rigid_def r = {"玉",
                          "",
                          upper2,
                          1,
                          0xFFFF,
                          PK_RIGID_SPHERE,
                          {(float)f->ball_r, 0, 0},
                          {0, 13.5f, (float)f->ball_z},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g, &r);
    }
    if (nr) {
        pg_rigid_def r = {"下半身",
                          "",
                          lower,
                          1,
                          0xFFFF,
                          PK_RIGID_SPHERE,
                          {0.3f, 0, 0},
                          {0, 9.5f, 0},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g, &r);
    }
    for (int s = 0; s < nr - 1; s++) {
        double sx = s ? -1 : 1;
        /* a capsule along Y (its own axis) from 足 (y 9) to ひざ (y 5) */
        pg_rigid_def r = {s ? "右もも" : "左もも",
                          "",
                          thigh[s],
                          1,
                          0xFFFF,
                          PK_RIGID_CAPSULE,
                          {(float)f->thigh_r, 4.0f, 0},
                          {(float)sx, 7.0f, 0},
                          {0, 0, 0},
                          1.0f,
                          PK_RIGID_FOLLOW_BONE};
        pg_rigid(&g, &r);
    }
    pg_i32(&g, 0); /* joints */
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g.b.data, g.b.len, &log);
    assert_non_null(m);
    assert_int_equal(m->nbones, (size_t)n);
    pk_log_free(&log);
    pk_buf_free(&g.b);
    return m;
}

static pk_model *figure(const fig *f)
{
    return figure_with(f, NULL);
}

/* ---- motions ---- */

/* A key turning `name` by deg degrees about the axis, linear curves. */
static void key(pk_motion *m, const char *name, uint32_t frame, double ax, double ay, double az,
                double deg)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, name);
    k->frame = frame;
    double n = sqrt(ax * ax + ay * ay + az * az), h = deg * PI / 360.0;
    k->rot[0] = (float)(ax / n * sin(h));
    k->rot[1] = (float)(ay / n * sin(h));
    k->rot[2] = (float)(az / n * sin(h));
    k->rot[3] = (float)cos(h);
    const uint8_t lin[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(k->interp, lin, false);
}

/* ---- playing ---- */

typedef struct played {
    pk_rig *rig;
    pk_tracks *t;
    pk_bone_local *loc;
    pk_bone_world *w;
    const pk_model *m;
    const pk_motion *mo;
} played;

static void play_at(played *p, const pk_model *m, const pk_motion *mo, uint32_t frame)
{
    if (!p->rig) {
        pk_log log;
        pk_log_init(&log);
        p->rig = pk_rig_new(m, &log);
        p->t = pk_tracks_build(mo, &log);
        pk_log_free(&log);
        p->loc = calloc(m->nbones, sizeof *p->loc);
        p->w = calloc(m->nbones, sizeof *p->w);
        p->m = m;
        p->mo = mo;
    }
    bool *on = calloc(m->nbones, sizeof *on);
    pk_rig_motion_local(p->rig, mo, p->t, frame, p->loc, on);
    pk_rig_eval(p->rig, p->loc, on, 0, p->w);
    free(on);
}

static void played_free(played *p)
{
    pk_rig_free(p->rig);
    pk_tracks_free(p->t);
    free(p->loc);
    free(p->w);
    memset(p, 0, sizeof *p);
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

static const double *at(const played *p, const char *name)
{
    return p->w[bone(p->m, name)].pos;
}

static double dist(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

static double rot_deg(const double a[4], const double b[4])
{
    double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    return 2.0 * acos(d > 1 ? 1 : d) * 180.0 / PI;
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

/* ---- the clap ---- */

/* Both arms turned about Y from frame 20 to 30 so that the tips of A
 * (腕->ひじ 2.5, ひじ->tip 3.5, shoulders at x +-1.5) meet at x = 0; with
 * elbow_back, the forearms turned that much backwards (away from the
 * front they bend to), the arms turned in further to meet. */
static pk_motion *clap(double elbow_back)
{
    pk_motion *m = pk_motion_new();
    double lo = 90, hi = 180, eb = elbow_back * PI / 180.0;
    for (int i = 0; i < 60; i++) { /* 2.5 cos th + 3.5 cos(th - e) = -1.5 */
        double th = (lo + hi) / 2 * PI / 180.0;
        if (2.5 * cos(th) + 3.5 * cos(th - eb) > -1.5)
            lo = (lo + hi) / 2;
        else
            hi = (lo + hi) / 2;
    }
    double th = (lo + hi) / 2;
    uint32_t frames[5] = {0, 20, 30, 50, 60};
    for (int i = 0; i < 5; i++) {
        double d = frames[i] == 20 || frames[i] == 30 ? th : 0;
        key(m, "左腕", frames[i], 0, 1, 0, d);
        key(m, "右腕", frames[i], 0, 1, 0, -d);
        if (elbow_back > 0) {
            /* the forearm turned backwards (+Z from the arm along X) */
            double e = d ? elbow_back : 0;
            key(m, "左ひじ", frames[i], 0, 1, 0, -e);
            key(m, "右ひじ", frames[i], 0, 1, 0, e);
        }
    }
    return m;
}

static void clap_contact(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0}, fb = {3.0, 2.4, 1.8, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(0);
    pk_retarget_report rep, rep0;
    pk_retarget_options o = {NO_BODY, .from = a, .to = b, .measure = true};
    pk_retarget_options o0 = {NO_SIZING, .from = a, .to = b};
    pk_motion *out = retarget(in, &o, &rep), *out0 = retarget(in, &o0, &rep0);
    /* one contact, the hands', over the clap and around it */
    assert_true(rep.sizing.contacts_done);
    assert_int_equal(rep.sizing.contacts, 1);
    assert_int_equal(rep.measure->ncontacts, 1);
    const pk_sizing_contact *c = &rep.measure->contacts[0];
    assert_string_equal(c->with, "hand");
    assert_true(c->first <= 20 && c->last >= 30);
    assert_true(c->first > 5 && c->last < 45);
    /* B's tips 0.6 apart before (crossed), meeting at their midpoint after */
    played p = {0}, p0 = {0};
    for (uint32_t f = 20; f <= 30; f++) {
        play_at(&p0, b, out0, f);
        play_at(&p, b, out, f);
        const double *l0 = at(&p0, "左中指先"), *r0 = at(&p0, "右中指先");
        const double *l = at(&p, "左中指先"), *r = at(&p, "右中指先");
        assert_true(fabs(dist(l0, r0) - 0.6) < 1e-3);
        assert_true(dist(l, r) < 0.02);
        double mid[3] = {(l0[0] + r0[0]) / 2, (l0[1] + r0[1]) / 2, (l0[2] + r0[2]) / 2};
        assert_true(dist(l, mid) < 0.02);
    }
    /* away from the contact, the arms as stance left them: at the keys
     * that stayed (1e-4 units: a created track's held value rounded to
     * float), within the fit's 0.1 degree a turn between (at most 0.2
     * degree at the tip, 0.025 units) */
    uint32_t far[4] = {0, 2, 58, 60};
    for (int i = 0; i < 4; i++) {
        play_at(&p0, b, out0, far[i]);
        play_at(&p, b, out, far[i]);
        double tol = far[i] % 60 ? 0.025 : 1e-4;
        assert_true(dist(at(&p, "左中指先"), at(&p0, "左中指先")) < tol);
        assert_true(dist(at(&p, "右手首"), at(&p0, "右手首")) < tol);
    }
    /* the measures say the same */
    assert_int_equal(rep.sizing.refused, 0);
    assert_true(rep.measure->hands_after_mean < 0.005);
    assert_true(rep.measure->hands_after_p95 < 0.01);
    assert_int_equal(rep.measure->elbow_past, 0);
    played_free(&p);
    played_free(&p0);
    pk_retarget_report_free(&rep);
    pk_retarget_report_free(&rep0);
    pk_motion_free(out);
    pk_motion_free(out0);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* The same clap with elbows bent 5 degrees backwards on A, onto arms 20%
 * longer: closing the hands would bend them further back; refused, and
 * counted on the contact, whose refused frames leave the hands' measure
 * on the frames B can hold. */
static void clap_elbows_refused(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0}, fb = {3.0, 2.4, 1.8, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(5.0);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_true(rep.sizing.refused > 0);
    assert_int_equal(rep.measure->elbow_past, 0);
    assert_int_equal(rep.measure->ncontacts, 1);
    const pk_sizing_contact *c = &rep.measure->contacts[0];
    assert_true(c->refused > 0);
    assert_true(c->refused <= c->last - c->first + 1);
    assert_true(c->refused <= rep.sizing.refused);
    assert_int_equal(c->unreachable, 0);
    assert_int_equal(c->apart, 0);
    assert_int_equal(rep.measure->reach_frames,
                     rep.measure->contact_frames - c->refused - c->blocked);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* A's hands clap 5.8 in front of it; B's arms are 20% longer and a
 * sphere (r 1) in front of B's chest holds where B's hands would meet:
 * the two hands move out of it together, still touching. */
static void clap_out_of_body(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0};
    fig fb = {3.0, 2.4, 1.8, false, 0, false, 1.0, -7.5};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(0);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_true(rep.measure->pen_before > 0);
    assert_int_equal(rep.measure->pen_after, 0);
    played p = {0};
    const double ball[3] = {0, 13.5, -7.5};
    for (uint32_t f = 20; f <= 30; f++) {
        play_at(&p, b, out, f);
        const double *l = at(&p, "左中指先"), *r = at(&p, "右中指先");
        assert_true(dist(l, r) < 0.02);
        /* no point of either hand deeper than 0.5% of B's arm (5.4) */
        const char *w[2] = {"左手首", "右手首"}, *t[2] = {"左中指先", "右中指先"};
        for (int h = 0; h < 2; h++)
            for (int i = 0; i <= 8; i++) {
                double q[3];
                for (int k = 0; k < 3; k++)
                    q[k] = at(&p, w[h])[k] + (at(&p, t[h])[k] - at(&p, w[h])[k]) * i / 8.0;
                assert_true(dist(q, ball) > 1.0 - 0.005 * 5.4);
            }
    }
    assert_true(rep.measure->hands_after_p95 < 0.01);
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* Sizing tells its progress through the log's callback, step by step and
 * never backwards (the CLI's line, the page's bar). */
typedef struct heard {
    int n;
    double last;
    bool backwards, contacts, measuring;
} heard;

static void hear(void *ctx, double done, const char *what)
{
    heard *h = ctx;
    if (done < h->last)
        h->backwards = true;
    h->last = done;
    h->n++;
    h->contacts |= strcmp(what, "sizing: contacts") == 0;
    h->measuring |= strcmp(what, "sizing: measuring") == 0;
}

static void sizing_progress(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0};
    fig fb = {3.0, 2.4, 1.8, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(0);
    pk_motion *m = pk_motion_clone(in);
    assert_non_null(m);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_log log;
    pk_log_init(&log);
    heard h = {0, 0.0, false, false, false};
    pk_log_set_progress(&log, hear, &h);
    assert_int_equal(pk_motion_retarget_models(m, NULL, &o, NULL, &rep, &log), 0);
    assert_true(h.n >= 6);
    assert_true(h.contacts);
    assert_true(h.measuring);
    assert_false(h.backwards);
    pk_log_free(&log);
    pk_retarget_report_free(&rep);
    pk_motion_free(m);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* The clap onto arms too short to meet (腕->ひじ 0.6, ひじ->手首 0.5, the
 * hand 0.3, the shoulders 3 apart): the contact is reported out of reach
 * with how far.  Where A's tips meet, B's tips would meet at the middle of
 * where they are, (0, 13.5, -1.4 x 0.968); the wrist's target then lies
 * 1.7796 from the shoulder, 0.6796 beyond its reach of 1.1: 0.6178 of
 * B's arm. */
static void clap_out_of_reach(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0}, fb = {0.6, 0.5, 0.3, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(0);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.measure->ncontacts, 1);
    const pk_sizing_contact *c = &rep.measure->contacts[0];
    assert_true(c->unreachable >= 11);
    /* 0.6178 short from 腕; 肩 (1.0 from 腕) turned its most, 20 degrees,
     * brings 腕 at most 2 sin(10 deg) = 0.347 nearer */
    assert_true(fabs(rep.sizing.shoulder_deg - 20.0) < 1e-6);
    assert_true(c->short_by < 0.6178 - 0.1 && c->short_by > 0.6178 - 0.348);
    /* the hands' measure on the frames B can hold leaves them out */
    assert_int_equal(rep.measure->reach_frames,
                     rep.measure->contact_frames - c->unreachable - c->blocked);
    assert_true(rep.measure->reach_frames < rep.measure->contact_frames);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* ---- a hand nearer the shoulder than the folded arm reaches ---- */

/* The left arm turned 90 degrees forwards (about Y) and the forearm
 * folded back 150 more, from frame 10 to 40: on A (2.5, 2.0, the hand
 * 1.5) the wrist at (0.5, 13.5, -0.768), 1.26 from 腕, the hand running
 * back across the middle, where it lies 0.05 above a ball of radius 1
 * about (0, 12.45, 0.098) (on 頭).  On B (3.0, 1.2, the hand 0.5) the
 * same spot of the same ball asks the wrist 1.32 from 腕, nearer than
 * B's folded arm reaches (3.0 - 1.2 = 1.8): the arm cannot fold so far,
 * so the spot moves along the ball to where the wrist lies 1.8 from 腕
 * (the nearest spot the arm reaches, short of it by 1e-3 of the arm),
 * and the hand holds its gap there (0.05 times k, B's arm over A's). */
static pk_motion *fold_to_shoulder(void)
{
    pk_motion *m = pk_motion_new();
    uint32_t frames[4] = {0, 10, 40, 50};
    for (int i = 0; i < 4; i++) {
        bool on = frames[i] == 10 || frames[i] == 40;
        key(m, "左腕", frames[i], 0, 1, 0, on ? 90 : 0);
        key(m, "左ひじ", frames[i], 0, 1, 0, on ? 150 : 0);
    }
    return m;
}

static void hand_within_the_folded_arm(void **state)
{
    (void)state;
    /* a small ball on B's chest keeps the chest's stand-in (a capsule
     * across the shoulders, where A's hand runs) out of the contacts */
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0}, fb = {3.0, 1.2, 0.5, false, 0, false, 0, 0};
    more ball = {0.1, 10.5, 1.0, 12.45, 0.098};
    pk_model *a = figure_with(&fa, &ball), *b = figure_with(&fb, &ball);
    pk_motion *in = fold_to_shoulder();
    pk_retarget_report rep;
    pk_retarget_options o = {NO_BODY, .no_avoid = true, .from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    const pk_sizing_measure *m = rep.measure;
    assert_int_equal(m->ncontacts, 1);
    const pk_sizing_contact *c = &m->contacts[0];
    assert_string_equal(c->with, "head");
    assert_true(c->first <= 10 && c->last >= 40);
    /* A's hand asks B's wrist to be 1.32 from 腕, nearer than B's folded
     * arm comes (3.0 - 1.2 = 1.8): out of reach on every held frame, by
     * 0.48 of the 4.2 arm less the spare (the spot is not moved over the
     * ball), and none of those frames counted as reachable */
    assert_int_equal(c->unreachable, c->last - c->first + 1);
    assert_true(c->short_by > 0.105 && c->short_by < 0.115);
    assert_int_equal(m->reach_frames, m->contact_frames - c->unreachable);
    /* the summary's count: folded, not stretched */
    assert_true(rep.sizing.folded >= c->last - c->first + 1);
    assert_int_equal(rep.sizing.out_of_reach, 0);
    played p = {0};
    for (uint32_t f = 10; f <= 40; f += 5) {
        play_at(&p, b, out, f); /* the arm folded as far as it goes */
        double d = dist(at(&p, "左手首"), at(&p, "左腕"));
        assert_true(d > 1.8 - 1e-6 && d < 1.8 + 2e-3 * 4.2);
    }
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_model_free(b);

    /* B's folded arm reaching no nearer than 3.5 - 0.5 = 3.0 */
    fig fc = {3.5, 0.5, 0.5, false, 0, false, 0, 0};
    b = figure_with(&fc, &ball);
    o.to = b;
    out = retarget(in, &o, &rep);
    m = rep.measure;
    assert_int_equal(m->ncontacts, 1);
    c = &m->contacts[0];
    assert_int_equal(c->unreachable, c->last - c->first + 1);
    /* the targets 1.32 from 腕, 1.68 short of 3.0: 0.42 of B's 4.0 arm
     * (short_by follows the shortfall, not a fixed flag) */
    assert_true(c->short_by > 0.40 && c->short_by < 0.43);
    assert_int_equal(m->reach_frames, m->contact_frames - c->unreachable);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* ---- a hand beside a thigh ---- */

/* The left arm hanging down (turned -90 degrees about Z) from frame 10 to
 * 40: the hand along x = 1.5, beside a thigh on x = 1. */
static pk_motion *hang(void)
{
    pk_motion *m = pk_motion_new();
    uint32_t frames[4] = {0, 10, 40, 50};
    for (int i = 0; i < 4; i++)
        key(m, "左腕", frames[i], 0, 0, 1, frames[i] == 10 || frames[i] == 40 ? -90 : 0);
    return m;
}

/* A clap onto arms a little too short to meet from 腕 (1.4 + 1.2, the
 * hands 0.5): 肩 (1.0 from 腕) turns, less than PKI_SHOULDER_DEG, and
 * the tips meet; away from the clap 肩 stays as it was. */
static void clap_reach_shoulder(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0, false, 0, 0}, fb = {1.4, 1.2, 0.5, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = clap(0);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.measure->ncontacts, 1);
    assert_int_equal(rep.measure->contacts[0].unreachable, 0);
    assert_int_equal(rep.measure->reach_frames, rep.measure->contact_frames);
    assert_true(rep.sizing.shoulder_frames > 0);
    assert_true(rep.sizing.shoulder_deg > 1.0 && rep.sizing.shoulder_deg <= 20.0 + 1e-6);
    played p = {0};
    for (uint32_t f = 20; f <= 30; f++) {
        play_at(&p, b, out, f);
        assert_true(dist(at(&p, "左中指先"), at(&p, "右中指先")) < 0.02);
    }
    const double rest[4] = {0, 0, 0, 1};
    for (uint32_t f = 0; f <= 60; f += 60) {
        play_at(&p, b, out, f);
        assert_true(rot_deg(p.w[bone(b, "左肩")].rot, rest) < 0.01);
        assert_true(rot_deg(p.w[bone(b, "右肩")].rot, rest) < 0.01);
    }
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

static void hand_beside_thigh(void **state)
{
    (void)state;
    /* A's thigh 0.45 thick: the hand 0.05 off it; B's 0.3 thick */
    fig fa = {2.5, 2.0, 1.5, false, 0.45, true, 0, 0}, fb = {2.5, 2.0, 1.5, false, 0.3, true, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = hang();
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.sizing.contacts, 1);
    assert_string_equal(rep.measure->contacts[0].with, "left thigh");
    assert_true(fabs(rep.measure->contacts[0].gap_a - 0.05 / 4.5) < 1e-3);
    /* B's hand 0.05 off its thinner thigh (k = 1) on the held frames */
    played p = {0};
    for (uint32_t f = 10; f <= 40; f += 5) {
        play_at(&p, b, out, f);
        const double *w = at(&p, "左手首"), *t = at(&p, "左中指先");
        /* the hand's nearest point to the thigh's axis x = 1, y 5..9 */
        double gap = INFINITY;
        for (int i = 0; i <= 8; i++) {
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] = w[k] + (t[k] - w[k]) * i / 8.0;
            double y = q[1] < 5 ? 5 : q[1] > 9 ? 9 : q[1];
            double d = sqrt((q[0] - 1) * (q[0] - 1) + (q[1] - y) * (q[1] - y) + q[2] * q[2]);
            gap = fmin(gap, d - 0.3);
        }
        assert_true(fabs(gap - 0.05) < 0.01);
    }
    assert_true(rep.measure->hands_before_mean > 0.02);
    assert_true(rep.measure->hands_after_p95 < 0.005);
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* One hand in two contacts at once: the left hand hanging beside the
 * thigh (0.05 off it) and its tip 0.05 above a ball of radius 1.53 about
 * (0, 7, 0) (on 頭).  B's thigh is thinner (0.2 against 0.45): the thigh
 * asks the hand 0.25 inwards, the ball asks it to stay.  Half way between
 * (the mean of the two) holds neither (each about 0.12 off); moved in by
 * 0.25 and up by about 0.47, along the ball, the hand holds both. */
static void hand_on_thigh_and_ball(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0.45, true, 0, 0}, fb = {2.5, 2.0, 1.5, false, 0.2, true, 0, 0};
    more ball = {0, 0, 1.53, 7.0, 0};
    pk_model *a = figure_with(&fa, &ball), *b = figure_with(&fb, &ball);
    pk_motion *in = hang();
    pk_retarget_report rep;
    pk_retarget_options o = {NO_BODY, .from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.measure->ncontacts, 2);
    assert_int_equal(rep.measure->reach_frames, rep.measure->contact_frames);
    assert_true(rep.measure->hands_before_mean > 0.02);
    played p = {0};
    for (uint32_t f = 10; f <= 40; f += 5) {
        play_at(&p, b, out, f);
        const double *w = at(&p, "左手首"), *t = at(&p, "左中指先");
        const double c[3] = {0, 7, 0};
        double thigh = INFINITY, to_ball = INFINITY;
        for (int i = 0; i <= 8; i++) {
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] = w[k] + (t[k] - w[k]) * i / 8.0;
            double y = q[1] < 5 ? 5 : q[1] > 9 ? 9 : q[1];
            double d = sqrt((q[0] - 1) * (q[0] - 1) + (q[1] - y) * (q[1] - y) + q[2] * q[2]);
            thigh = fmin(thigh, d - 0.2);
            to_ball = fmin(to_ball, dist(q, c) - 1.53);
        }
        assert_true(fabs(thigh - 0.05) < 0.01);
        assert_true(fabs(to_ball - 0.05) < 0.01);
        assert_true(w[1] > 9.3); /* moved up along the ball */
    }
    assert_true(rep.measure->hands_after_p95 < 0.003);
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* Two contacts of one hand that cannot hold together: the hand hanging
 * 0.1 off the thigh and its tip 0.02 above a ball about (0, 7, 0) on A;
 * on B the ball stands 2.5 further forward.  The hand's two errors sum
 * to at least 0.612 (the thigh's axis lies 2.693 from the ball's centre
 * in XZ, the goals 0.5 and 1.5811 from them): one holds (the thigh), the
 * other is counted apart on every frame with its least gap error (that
 * bound), and the measure on the frames B can hold leaves it out. */
static void hand_on_thigh_and_ball_apart(void **state)
{
    (void)state;
    fig f = {2.5, 2.0, 1.5, false, 0.4, true, 0, 0};
    more ma = {0, 0, 1.5611, 7.0, 0}, mb = {0, 0, 1.5611, 7.0, -2.5};
    pk_model *a = figure_with(&f, &ma), *b = figure_with(&f, &mb);
    pk_motion *in = hang();
    pk_retarget_report rep;
    pk_retarget_options o = {NO_BODY, .from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    const pk_sizing_measure *m = rep.measure;
    assert_int_equal(m->ncontacts, 2);
    const pk_sizing_contact *thigh = NULL, *ball = NULL;
    for (size_t i = 0; i < 2; i++) {
        if (strcmp(m->contacts[i].with, "left thigh") == 0)
            thigh = &m->contacts[i];
        if (strcmp(m->contacts[i].with, "head") == 0)
            ball = &m->contacts[i];
    }
    assert_non_null(thigh);
    assert_non_null(ball);
    assert_int_equal(thigh->apart, 0);
    assert_true(thigh->after_max < 0.005);
    assert_int_equal(ball->apart, ball->last - ball->first + 1);
    /* the tip 1.38 off the ball's surface beyond its goal, of B's arm 4.5 */
    /* the two errors sum to at least the distance in XZ from the thigh's
     * axis to the ball's centre, sqrt(1 + 2.5^2), less both goals (0.5
     * and 1.5811 from them): 0.612 of B's arm 4.5; the thigh holds */
    assert_true(ball->apart_least > 0.612 / 4.5 - 0.001);
    assert_true(ball->apart_least < 0.612 / 4.5 + 0.005);
    assert_int_equal(m->reach_frames, m->contact_frames - ball->apart);
    assert_true(m->reach_after_p95 < 0.005);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* The hand held beside a thigh as on A (0.05 off it), B with a ball of
 * radius 3 about its chest that holds B's elbow there: an elbow swing
 * about a straight arm moves nothing, so the arm turns out of the ball,
 * the hand leaving its contact (a forearm through the body shows more
 * than a gap). */
static void held_forearm_out(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, false, 0.45, true, 0, 0},
        fb = {2.5, 2.0, 1.5, false, 0.3, true, 3.0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = hang();
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.sizing.contacts, 1);
    assert_true(rep.measure->pen_before > 0);
    assert_int_equal(rep.measure->pen_after, 0);
    assert_int_equal(rep.measure->elbow_past, 0);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* ---- keeping out of the body ---- */

/* The left upper arm turned `arm` degrees about Z (-90: hanging) and the
 * forearm `bend` more, folded up in front of the body, from frame 10 to
 * 40. */
static pk_motion *fold(double arm, double bend)
{
    pk_motion *m = pk_motion_new();
    uint32_t frames[4] = {0, 10, 40, 50};
    for (int i = 0; i < 4; i++) {
        bool on = frames[i] == 10 || frames[i] == 40;
        key(m, "左腕", frames[i], 0, 0, 1, on ? arm : 0);
        key(m, "左ひじ", frames[i], 0, 0, 1, on ? bend : 0);
    }
    return m;
}

/* B with a ball about its chest (radius 1.4 at y 12) and a larger one
 * about its head (3.3 at y 17), A without them: the upper arm hanging
 * in front of the chest, the elbow and the forearm's lower part inside
 * the chest's ball, the forearm folded up beside the face.  Turning the
 * arm to bring the elbow out of the chest brings the hand into the head,
 * and back: the arm comes out of both only when every point is taken at
 * once.  Every point of B's forearm and hand ends outside both balls (1%
 * of the arm allowed), the elbow not bent backwards. */
static void arm_between_head_and_chest(void **state)
{
    (void)state;
    fig f = {2.5, 2.0, 1.5, false, 0.1, true, 0, 0};
    more xb = {1.4, 12.0, 3.3, 17.0, 0};
    pk_model *a = figure(&f), *b = figure_with(&f, &xb);
    pk_motion *in = fold(-105, 172);
    pk_retarget_report rep;
    pk_retarget_options o = {NO_BODY, .from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_true(rep.measure->pen_before > 20);
    assert_int_equal(rep.measure->pen_after, 0);
    assert_int_equal(rep.measure->elbow_past, 0);
    played p = {0};
    const double balls[2][4] = {{0, 12.0, 0, 1.4}, {0, 17.0, 0, 3.3}};
    for (uint32_t f0 = 0; f0 <= 50; f0++) {
        play_at(&p, b, out, f0);
        const double *e = at(&p, "左ひじ"), *w = at(&p, "左手首"), *t = at(&p, "左中指先");
        for (int i = 0; i <= 8; i++) {
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] =
                    i < 4 ? e[k] + (w[k] - e[k]) * i / 4.0 : w[k] + (t[k] - w[k]) * (i - 4) / 4.0;
            for (int j = 0; j < 2; j++)
                assert_true(dist(q, balls[j]) - balls[j][3] > -0.01 * 4.5);
        }
    }
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

static void forearm_out_of_thigh(void **state)
{
    (void)state;
    /* A's thigh 0.1 thick (far from the hand: no contact), B's 0.8: B's
     * hand and forearm on x = 1.5 are 0.3 inside it */
    fig fa = {2.5, 2.0, 1.5, false, 0.1, true, 0, 0}, fb = {2.5, 2.0, 1.5, false, 0.8, true, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = hang();
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .measure = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_int_equal(rep.sizing.contacts, 0);
    assert_true(rep.sizing.avoid_done);
    assert_false(rep.sizing.avoid_no_bodies);
    assert_true(rep.sizing.avoid_frames > 0);
    assert_true(rep.sizing.avoid_deepest > 0.25 && rep.sizing.avoid_deepest < 0.35);
    assert_true(rep.measure->pen_before > 20);
    assert_int_equal(rep.measure->pen_after, 0);
    assert_int_equal(rep.measure->elbow_past, 0);
    /* every point of B's forearm and hand outside the thigh (1% of the
     * arm allowed) at every frame */
    played p = {0};
    for (uint32_t f = 0; f <= 50; f++) {
        play_at(&p, b, out, f);
        const double *e = at(&p, "左ひじ"), *w = at(&p, "左手首"), *t = at(&p, "左中指先");
        for (int i = 0; i <= 8; i++) {
            double q[3];
            for (int k = 0; k < 3; k++)
                q[k] =
                    i < 4 ? e[k] + (w[k] - e[k]) * i / 4.0 : w[k] + (t[k] - w[k]) * (i - 4) / 4.0;
            double y = q[1] < 5 ? 5 : q[1] > 9 ? 9 : q[1];
            double d = sqrt((q[0] - 1) * (q[0] - 1) + (q[1] - y) * (q[1] - y) + q[2] * q[2]);
            assert_true(d - 0.8 > -0.01 * 4.5);
        }
    }
    played_free(&p);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);

    /* a target without rigid bodies: the step is skipped, and says so */
    fig fc = {2.5, 2.0, 1.5, false, 0, false, 0, 0};
    pk_model *c = figure(&fc);
    pk_retarget_options oc = {.from = a, .to = c, .no_contacts = true, .no_twist = true};
    out = retarget(in, &oc, &rep);
    assert_true(rep.sizing.avoid_no_bodies);
    assert_int_equal(rep.sizing.avoid_frames, 0);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_model_free(c);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* ---- twist ---- */

/* 腕 twisted 60 degrees about its own axis (X), ひじ bent 40 about Y then
 * twisted 30 about X, 手首 twisted 45, from frame 10 to 20. */
static pk_motion *twisting(const char *twist_bone, double twist_deg)
{
    pk_motion *m = pk_motion_new();
    uint32_t frames[4] = {0, 10, 20, 30};
    for (int i = 0; i < 4; i++) {
        bool on = frames[i] == 10 || frames[i] == 20;
        if (twist_bone) {
            key(m, twist_bone, frames[i], 1, 0, 0, on ? twist_deg : 0);
            key(m, "左ひじ", frames[i], 0, 1, 0, on ? 40 : 0);
            continue;
        }
        key(m, "左腕", frames[i], 1, 0, 0, on ? 60 : 0);
        /* ひじ = R_y(40) R_x(30) */
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = tu_intern(m->names, "左ひじ");
        k->frame = frames[i];
        double y[4] = {0, sin(on ? 20 * PI / 180 : 0), 0, cos(on ? 20 * PI / 180 : 0)};
        double x[4] = {sin(on ? 15 * PI / 180 : 0), 0, 0, cos(on ? 15 * PI / 180 : 0)};
        double q[4] = {y[3] * x[0] + y[0] * x[3] + y[1] * x[2] - y[2] * x[1],
                       y[3] * x[1] - y[0] * x[2] + y[1] * x[3] + y[2] * x[0],
                       y[3] * x[2] + y[0] * x[1] - y[1] * x[0] + y[2] * x[3],
                       y[3] * x[3] - y[0] * x[0] - y[1] * x[1] - y[2] * x[2]};
        for (int c = 0; c < 4; c++)
            k->rot[c] = (float)q[c];
        const uint8_t lin[4][4] = {
            {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
        pk_interp_set(k->interp, lin, false);
        key(m, "左手首", frames[i], 1, 0, 0, on ? 45 : 0);
    }
    return m;
}

/* The local rotation bone `name` shows at a frame (its key, sampled). */
static void local_of(const played *p, const char *name, double q[4])
{
    long i = bone(p->m, name);
    for (int c = 0; c < 4; c++)
        q[c] = p->loc[i].rot[c];
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; c < 4; c++)
        q[c] /= n;
}

static void twist_distribution(void **state)
{
    (void)state;
    fig ft = {2.5, 2.0, 1.5, true, 0, false, 0, 0};
    pk_model *a = figure(&ft), *b = figure(&ft);
    pk_motion *in = twisting(NULL, 0);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .no_contacts = true, .no_avoid = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_true(rep.sizing.twist_done);
    assert_true(rep.sizing.twist_frames > 0);
    played pa = {0}, pb = {0};
    for (uint32_t f = 0; f <= 30; f++) {
        play_at(&pa, a, in, f);
        play_at(&pb, b, out, f);
        /* every hand turned as it was, to 0.01 degree, and where it was
         * within the fit of the arm above it (0.1 degree a bone) */
        long h = bone(a, "左手首");
        assert_true(rot_deg(pa.w[h].rot, pb.w[h].rot) < 0.01);
        assert_true(dist(pa.w[h].pos, pb.w[h].pos) < 0.02);
    }
    /* the twist moves at the keys of the bones it comes from and blends
     * between them by their curves, as far as the bone it leaves stays
     * within 0.003 degree of what its keys give: 腕 only twists from frame
     * 0 to 10 (all of it moves there), ひじ bends and twists at once (its
     * twist moves where it holds, frames 10 to 20) */
    play_at(&pb, b, out, 15);
    double q15[4];
    local_of(&pb, "左腕捩", q15);
    double x60_15[4] = {sin(30 * PI / 180), 0, 0, cos(30 * PI / 180)};
    assert_true(rot_deg(q15, x60_15) < 0.2);
    /* every key of the output sits on a frame the input keys */
    for (size_t i = 0; i < out->nbones; i++) {
        uint32_t f = out->bones[i].frame;
        assert_true(f == 0 || f == 10 || f == 20 || f == 30);
    }
    /* at frame 20 the twists sit in the twist bones */
    play_at(&pb, b, out, 20);
    double q[4];
    const double id[4] = {0, 0, 0, 1};
    double x60[4] = {sin(30 * PI / 180), 0, 0, cos(30 * PI / 180)};
    double x75[4] = {sin(37.5 * PI / 180), 0, 0, cos(37.5 * PI / 180)};
    double y40[4] = {0, sin(20 * PI / 180), 0, cos(20 * PI / 180)};
    local_of(&pb, "左腕", q);
    assert_true(rot_deg(q, id) < 0.2);
    local_of(&pb, "左腕捩", q);
    assert_true(rot_deg(q, x60) < 0.2);
    local_of(&pb, "左ひじ", q);
    assert_true(rot_deg(q, y40) < 0.2);
    local_of(&pb, "左手捩", q);
    assert_true(rot_deg(q, x75) < 0.2);
    local_of(&pb, "左手首", q);
    assert_true(rot_deg(q, id) < 0.2);
    played_free(&pa);
    played_free(&pb);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

/* A keys 腕捩 (50 degrees) and B has no twist bones: the fold carries it
 * down, and B's hand keeps A's world rotation within 0.01 degree. */
static void twist_folded_back(void **state)
{
    (void)state;
    fig fa = {2.5, 2.0, 1.5, true, 0, false, 0, 0}, fb = {2.5, 2.0, 1.5, false, 0, false, 0, 0};
    pk_model *a = figure(&fa), *b = figure(&fb);
    pk_motion *in = twisting("左腕捩", 50);
    pk_retarget_report rep;
    pk_retarget_options o = {.from = a, .to = b, .no_contacts = true, .no_avoid = true};
    pk_motion *out = retarget(in, &o, &rep);
    assert_true(rep.fold_done);
    assert_true(rep.sizing.twist_done);
    played pa = {0}, pb = {0};
    for (uint32_t f = 0; f <= 30; f++) {
        play_at(&pa, a, in, f);
        play_at(&pb, b, out, f);
        double wa[4], wb[4];
        memcpy(wa, pa.w[bone(a, "左手首")].rot, sizeof wa);
        memcpy(wb, pb.w[bone(b, "左手首")].rot, sizeof wb);
        assert_true(rot_deg(wa, wb) < 0.01);
    }
    played_free(&pa);
    played_free(&pb);
    pk_retarget_report_free(&rep);
    pk_motion_free(out);
    pk_motion_free(in);
    pk_model_free(a);
    pk_model_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clap_contact),
        cmocka_unit_test(clap_elbows_refused),
        cmocka_unit_test(clap_out_of_body),
        cmocka_unit_test(clap_out_of_reach),
        cmocka_unit_test(clap_reach_shoulder),
        cmocka_unit_test(hand_within_the_folded_arm),
        cmocka_unit_test(hand_beside_thigh),
        cmocka_unit_test(hand_on_thigh_and_ball),
        cmocka_unit_test(hand_on_thigh_and_ball_apart),
        cmocka_unit_test(held_forearm_out),
        cmocka_unit_test(forearm_out_of_thigh),
        cmocka_unit_test(arm_between_head_and_chest),
        cmocka_unit_test(twist_distribution),
        cmocka_unit_test(twist_folded_back),
        cmocka_unit_test(sizing_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
