/* test_cursor_paths.c — every path of the cursor's frame-by-frame sampler
 * (engine/ops/sample/sample.c) against an independent reference written here: the
 * Bezier solved by bisection in long double, slerp by its textbook
 * formula in long double.  The cursor skips channels that do not change,
 * shares one solve between channels with the same x bytes, predicts t from
 * the previous frame, takes a slow path when its error bound fails, and
 * keeps the end key of one segment for the next; each test builds tracks
 * that drive one of these, and walks them forwards by whole frames (the
 * predicted path), by fractions, backwards and by random jumps.
 *
 * Tolerances: translation within 1e-6 + 2e-7 |value| (half a float ulp
 * plus the solver's 5e-11 in t), rotation within 3e-7 per component. */
#include "testutil.h"
#include "ops/sample/cursor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 2463534242u;
static uint32_t rnd(void) /* xorshift32 */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static double urand(void)
{
    return (double)rnd() / 4294967296.0;
}

/* ---- reference ---- */

static long double bern(long double p1, long double p2, long double t)
{
    long double u = 1.0L - t;
    return 3.0L * u * u * t * p1 + 3.0L * u * t * t * p2 + t * t * t;
}

/* MMD's curve (doc/formats.md §5): identity when x1 == y1 and x2 == y2 (raw
 * bytes), else bytes clamped to 127, x solved by bisection. */
static long double ref_curve(int x1, int y1, int x2, int y2, long double s)
{
    if (s <= 0.0L)
        return 0.0L;
    if (s >= 1.0L)
        return 1.0L;
    if (x1 == y1 && x2 == y2)
        return s;
    long double px1 = (x1 > 127 ? 127 : x1) / 127.0L, px2 = (x2 > 127 ? 127 : x2) / 127.0L;
    long double py1 = (y1 > 127 ? 127 : y1) / 127.0L, py2 = (y2 > 127 ? 127 : y2) / 127.0L;
    if (px1 == 1.0L && px2 == 0.0L) {
        /* x(t) = 3t - 6t^2 + 4t^3 = 4 (t - 1/2)^3 + 1/2: a triple root at
         * s = 1/2, where bisection on x is only good to ~3e-7 even in long
         * double; its inverse in closed form. */
        return bern(py1, py2, 0.5L + cbrtl((s - 0.5L) / 4.0L));
    }
    long double lo = 0.0L, hi = 1.0L;
    for (int i = 0; i < 80; i++) {
        long double mid = 0.5L * (lo + hi);
        if (bern(px1, px2, mid) < s)
            lo = mid;
        else
            hi = mid;
    }
    return bern(py1, py2, 0.5L * (lo + hi));
}

static void ref_unit(const float q[4], long double out[4])
{
    long double n = 0.0L;
    for (int i = 0; i < 4; i++)
        n += (long double)q[i] * q[i];
    n = sqrtl(n);
    if (!(n > 1e-30L)) {
        out[0] = out[1] = out[2] = 0.0L;
        out[3] = 1.0L;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = q[i] / n;
}

static void ref_slerp(const float qa[4], const float qb[4], long double u, long double out[4])
{
    long double a[4], b[4], d = 0.0L;
    ref_unit(qa, a);
    ref_unit(qb, b);
    for (int i = 0; i < 4; i++)
        d += a[i] * b[i];
    if (d < 0.0L) {
        d = -d;
        for (int i = 0; i < 4; i++)
            b[i] = -b[i];
    }
    long double wa = 1.0L - u, wb = u;
    if (d < 1.0L - 1e-15L) {
        long double th = acosl(d > 1.0L ? 1.0L : d);
        wa = sinl((1.0L - u) * th) / sinl(th);
        wb = sinl(u * th) / sinl(th);
    }
    long double n = 0.0L;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * a[i] + wb * b[i];
        n += out[i] * out[i];
    }
    for (int i = 0; i < 4; i++)
        out[i] /= sqrtl(n);
}

/* Value of keys k[0..n) (sorted by frame, one track) at frame f. */
static void ref_bone(const pk_bone_key *k, size_t n, double f, long double pos[3],
                     long double rot[4])
{
    size_t i = 0;
    while (i < n && (double)k[i].frame <= f)
        i++;
    if (i == 0 || i == n) {
        const pk_bone_key *h = &k[i == 0 ? 0 : n - 1];
        for (int j = 0; j < 3; j++)
            pos[j] = h->pos[j];
        ref_slerp(h->rot, h->rot, 0.0L, rot);
        return;
    }
    const pk_bone_key *a = &k[i - 1], *b = &k[i];
    long double s = ((long double)f - a->frame) / ((long double)b->frame - a->frame);
    long double y[4];
    for (int ch = 0; ch < 4; ch++) {
        const uint8_t *row = b->interp + 16 * ch;
        y[ch] = ref_curve(row[0], row[4], row[8], row[12], s);
    }
    for (int j = 0; j < 3; j++)
        pos[j] = a->pos[j] + ((long double)b->pos[j] - a->pos[j]) * y[j];
    ref_slerp(a->rot, b->rot, y[3], rot);
}

/* ---- building tracks ---- */

typedef struct curve_mix {
    int linear_pct;   /* share of linear curves */
    int shared_pct;   /* share of keys whose channels share x bytes */
    int const_pos;    /* translation axes that never change (0-3) */
    int const_rot;    /* share of keys repeating the previous rotation */
    int wild_bytes;   /* also bytes above 127 */
    int degenerate;   /* share of x1 = 127, x2 = 0 and flat-end curves */
    uint32_t max_gap; /* frames between keys: 1..max_gap */
} curve_mix;

static void random_rot(float q[4])
{
    for (int i = 0; i < 4; i++)
        q[i] = (float)(urand() * 2.0 - 1.0);
}

/* A one-track motion of nkeys keys written in shuffled order. */
static pk_motion *build(const curve_mix *mix, size_t nkeys)
{
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    pk_bone_key *keys = calloc(nkeys, sizeof *keys);
    assert_non_null(keys);
    uint32_t frame = (uint32_t)(rnd() % 5);
    float rot[4];
    random_rot(rot);
    for (size_t i = 0; i < nkeys; i++) {
        pk_bone_key *k = &keys[i];
        k->frame = frame;
        frame += 1 + rnd() % mix->max_gap;
        for (int j = 0; j < 3; j++)
            k->pos[j] = j < mix->const_pos ? 1.5f : (float)(urand() * 40.0 - 20.0);
        if ((int)(rnd() % 100) >= mix->const_rot) {
            random_rot(rot);
        } else if (rnd() % 2) { /* the same rotation written as -q */
            for (int j = 0; j < 4; j++)
                rot[j] = -rot[j];
        }
        memcpy(k->rot, rot, sizeof rot);
        uint8_t cp[4][4];
        int span = mix->wild_bytes ? 256 : 128;
        for (int ch = 0; ch < 4; ch++) {
            for (int j = 0; j < 4; j++)
                cp[ch][j] = (uint8_t)(rnd() % (uint32_t)span);
            int r = (int)(rnd() % 100);
            if (r < mix->linear_pct) {
                cp[ch][1] = cp[ch][0];
                cp[ch][3] = cp[ch][2];
            } else if (r < mix->linear_pct + mix->degenerate) {
                static const uint8_t special[3][4] = {
                    {127, 0, 0, 127}, {0, 30, 90, 127}, {40, 90, 127, 20}};
                memcpy(cp[ch], special[rnd() % 3], 4);
            }
        }
        if ((int)(rnd() % 100) < mix->shared_pct) /* same x bytes, own y bytes */
            for (int ch = 1; ch < 4; ch++) {
                cp[ch][0] = cp[0][0];
                cp[ch][2] = cp[0][2];
            }
        pk_interp_set(k->interp, (const uint8_t(*)[4])cp, rnd() % 2 == 0);
        k->interp[2] = (uint8_t)(rnd() % 256); /* physics flag bytes: never curve data */
        k->interp[3] = (uint8_t)(rnd() % 256);
    }
    pk_name_id id = pk_names_intern(m->names, "bone", 4);
    for (size_t i = 0; i < nkeys; i++) { /* file order is not frame order */
        size_t j = i + rnd() % (nkeys - i);
        pk_bone_key tmp = keys[i];
        keys[i] = keys[j];
        keys[j] = tmp;
        pk_bone_key *k = pk_motion_push_bone(m);
        assert_non_null(k);
        *k = keys[i];
        k->name = id;
    }
    free(keys);
    return m;
}

/* ---- checking ---- */

static void check_at(pk_cursor *c, const pk_bone_key *sorted, size_t n, double f)
{
    float pos[3], rot[4];
    pk_cursor_bone(c, f, pos, rot);
    long double wp[3], wr[4];
    ref_bone(sorted, n, f, wp, wr);
    for (int j = 0; j < 3; j++) {
        double tol = 1e-6 + 2e-7 * fabs((double)wp[j]);
        if (!(fabs(pos[j] - (double)wp[j]) <= tol)) {
            size_t i = 0;
            while (i < n && (double)sorted[i].frame <= f)
                i++;
            const uint8_t *row = sorted[i < n ? i : n - 1].interp + 16 * j;
            fail_msg("frame %.3f: pos[%d] = %.9g, want %.9Lg (keys %u..%u, curve %d %d %d %d)", f,
                     j, pos[j], wp[j], sorted[i ? i - 1 : 0].frame, sorted[i < n ? i : n - 1].frame,
                     row[0], row[4], row[8], row[12]);
        }
    }
    for (int j = 0; j < 4; j++)
        if (!(fabs(rot[j] - (double)wr[j]) <= 3e-7))
            fail_msg("frame %.3f: rot[%d] = %.9g, want %.9Lg", f, j, rot[j], wr[j]);
}

static int cmp_frame(const void *a, const void *b)
{
    const pk_bone_key *x = a, *y = b;
    return (x->frame > y->frame) - (x->frame < y->frame);
}

/* pki_cursor_bone_run (a diff's blocks of frames) gives what one call per
 * frame gives, bit for bit, whatever the block sizes: from frame 0 (before
 * or at the first key) to past the last, in blocks of 1 to 130 frames. */
static void check_runs(const pk_motion *m, const pk_track *tr, uint32_t last)
{
    enum { MAXN = 130 };
    float pos[MAXN][3], rot[MAXN][4];
    pk_cursor one, run;
    pk_cursor_init(&one, m, tr);
    pk_cursor_init(&run, m, tr);
    size_t blocks = 0;
    for (uint32_t f = 0; f <= last + 3; blocks++) {
        size_t n = 1 + rnd() % MAXN;
        if (n > last + 4 - f)
            n = last + 4 - f;
        pki_cursor_bone_run(&run, f, n, pos, rot);
        for (size_t j = 0; j < n; j++) {
            float p[3], q[4];
            pk_cursor_bone(&one, (double)(f + j), p, q);
            if (memcmp(p, pos[j], sizeof p) != 0 || memcmp(q, rot[j], sizeof q) != 0)
                fail_msg("frame %u (block of %zu at %u): run gives rot %.9g %.9g %.9g %.9g, "
                         "one by one %.9g %.9g %.9g %.9g",
                         f + (uint32_t)j, n, f, rot[j][0], rot[j][1], rot[j][2], rot[j][3], q[0],
                         q[1], q[2], q[3]);
        }
        f += (uint32_t)n;
    }
    assert_true(blocks > 1);
}

/* pki_cursor_key_value (a key's value, no cursor) is what the cursor gives
 * at that key's frame, bit for bit, however the cursor got there: every
 * key's frame forwards (each segment's start key kept from the one
 * before), backwards (its end key), from between keys and by jumps. */
static void check_key_values(const pk_motion *m, const pk_track *tr, const pk_bone_key *sorted,
                             size_t n)
{
    pk_cursor c;
    pk_cursor_init(&c, m, tr);
    for (int pass = 0; pass < 4; pass++)
        for (size_t i = 0; i < n; i++) {
            size_t k = pass == 1 ? n - 1 - i : pass == 3 ? rnd() % n : i;
            float p[3], q[4], kp[3], kq[4];
            if (pass == 2) /* from a frame between keys before it */
                pk_cursor_bone(&c, (double)sorted[k].frame - 0.5, p, q);
            pk_cursor_bone(&c, (double)sorted[k].frame, p, q);
            pki_cursor_key_value(&sorted[k], kp, kq);
            if (memcmp(p, kp, sizeof p) != 0 || memcmp(q, kq, sizeof q) != 0)
                fail_msg("key at frame %u (pass %d): the cursor gives rot %.9g %.9g %.9g %.9g, "
                         "the key's value %.9g %.9g %.9g %.9g",
                         sorted[k].frame, pass, q[0], q[1], q[2], q[3], kq[0], kq[1], kq[2], kq[3]);
        }
}

/* Walks one generated track in every order against the reference. */
static void walk(const curve_mix *mix, size_t nkeys)
{
    pk_motion *m = build(mix, nkeys);
    pk_tracks *t = pk_tracks_build(m, NULL);
    assert_non_null(t);
    assert_int_equal(t->nbones, 1);
    const pk_track *tr = &t->bones[0];
    pk_bone_key *sorted = malloc(m->nbones * sizeof *sorted);
    assert_non_null(sorted);
    memcpy(sorted, m->bones, m->nbones * sizeof *sorted);
    qsort(sorted, m->nbones, sizeof *sorted, cmp_frame);
    size_t n = m->nbones;
    double first = sorted[0].frame, last = sorted[n - 1].frame;

    pk_cursor c;
    pk_cursor_init(&c, m, tr);
    for (double f = first - 3; f <= last + 3; f += 1.0) /* the predicted path */
        check_at(&c, sorted, n, f);
    pk_cursor_init(&c, m, tr);
    for (double f = first - 1; f <= last + 1; f += 0.37) /* fractions */
        check_at(&c, sorted, n, f);
    for (double f = last + 2; f >= first - 2; f -= 1.0) /* backwards */
        check_at(&c, sorted, n, f);
    for (int i = 0; i < 2000; i++) /* jumps, whole and fractional */
        check_at(&c, sorted, n, first - 2 + urand() * (last - first + 4));
    for (int i = 0; i < 500; i++) { /* back and forth by one frame */
        double f = floor(first + urand() * (last - first));
        check_at(&c, sorted, n, f);
        check_at(&c, sorted, n, f + 1);
        check_at(&c, sorted, n, f);
    }
    check_runs(m, tr, (uint32_t)last);
    check_key_values(m, tr, sorted, n);
    free(sorted);
    pk_tracks_free(t);
    pk_motion_free(m);
}

static void every_channel_its_own_random_curve(void **state)
{
    (void)state;
    curve_mix mix = {0, 0, 0, 0, 0, 0, 15};
    walk(&mix, 400);
}

static void long_segments(void **state)
{
    (void)state;
    curve_mix mix = {10, 20, 0, 0, 0, 0, 90};
    walk(&mix, 100);
}

static void one_frame_segments(void **state)
{
    (void)state;
    curve_mix mix = {0, 0, 0, 0, 0, 0, 2};
    walk(&mix, 400);
}

static void rotation_only_bones_skip_translation(void **state)
{
    (void)state;
    curve_mix mix = {0, 0, 3, 0, 0, 0, 15};
    walk(&mix, 300);
    mix.const_pos = 2; /* one axis moves */
    walk(&mix, 300);
}

static void unchanged_rotations_with_curves(void **state)
{
    (void)state;
    curve_mix mix = {0, 0, 0, 60, 0, 0, 12};
    walk(&mix, 300);
}

static void channels_sharing_x_bytes(void **state)
{
    (void)state;
    curve_mix mix = {20, 80, 0, 0, 0, 0, 15};
    walk(&mix, 300);
}

static void linear_and_non_linear_mixed(void **state)
{
    (void)state;
    curve_mix mix = {50, 20, 1, 10, 0, 0, 20};
    walk(&mix, 300);
}

static void flat_spots_take_the_slow_path(void **state)
{
    (void)state;
    curve_mix mix = {0, 30, 0, 0, 0, 70, 30};
    walk(&mix, 200);
}

static void bytes_above_127_are_clamped(void **state)
{
    (void)state;
    curve_mix mix = {10, 10, 0, 0, 1, 0, 15};
    walk(&mix, 200);
}

/* Zero and tiny-angle rotations: the identity for an all-zero quaternion,
 * and a slerp accurate for angles far below acos's resolution. */
static void zero_and_nearly_equal_rotations(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_name_id id = pk_names_intern(m->names, "b", 1);
    const float rots[5][4] = {{0, 0, 0, 0},
                              {0.2f, 0, 0, 0.98f},
                              {0.2f, 1e-6f, 0, 0.98f},
                              {-0.2f, -1e-6f, 0, -0.98f},
                              {0, 0, 0, 0}};
    uint8_t cp[4][4] = {{100, 10, 30, 120}, {100, 10, 30, 120}, {5, 90, 60, 2}, {127, 0, 0, 127}};
    for (int i = 0; i < 5; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = id;
        k->frame = (uint32_t)(10 * i);
        memcpy(k->rot, rots[i], sizeof k->rot);
        k->pos[0] = (float)i;
        pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
    }
    pk_tracks *t = pk_tracks_build(m, NULL);
    pk_bone_key sorted[5];
    memcpy(sorted, m->bones, sizeof sorted);
    pk_cursor c;
    pk_cursor_init(&c, m, &t->bones[0]);
    for (double f = -2; f <= 44; f += 0.25)
        check_at(&c, sorted, 5, f);
    pk_tracks_free(t);
    pk_motion_free(m);
}

/* One key, no keys: holds and the rest pose, through the inline paths. */
static void holds_and_empty_tracks(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = pk_names_intern(m->names, "b", 1);
    k->frame = 7;
    k->pos[1] = 3.0f;
    k->rot[2] = 2.0f; /* not normalised */
    pk_tracks *t = pk_tracks_build(m, NULL);
    pk_cursor c;
    pk_cursor_init(&c, m, &t->bones[0]);
    for (double f = 0; f < 20; f += 0.5) {
        float pos[3], rot[4];
        pk_cursor_bone(&c, f, pos, rot);
        assert_true(pos[0] == 0.0f && pos[1] == 3.0f && pos[2] == 0.0f);
        assert_true(rot[0] == 0.0f && rot[1] == 0.0f && rot[2] == 1.0f && rot[3] == 0.0f);
    }
    pk_track empty = {0};
    pk_cursor_init(&c, m, &empty);
    float pos[3] = {9, 9, 9}, rot[4] = {9, 9, 9, 9};
    pk_cursor_bone(&c, 3.0, pos, rot);
    assert_true(pos[0] == 0.0f && pos[1] == 0.0f && pos[2] == 0.0f);
    assert_true(rot[0] == 0.0f && rot[1] == 0.0f && rot[2] == 0.0f && rot[3] == 1.0f);
    pk_tracks_free(t);
    pk_motion_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_channel_its_own_random_curve),
        cmocka_unit_test(long_segments),
        cmocka_unit_test(one_frame_segments),
        cmocka_unit_test(rotation_only_bones_skip_translation),
        cmocka_unit_test(unchanged_rotations_with_curves),
        cmocka_unit_test(channels_sharing_x_bytes),
        cmocka_unit_test(linear_and_non_linear_mixed),
        cmocka_unit_test(flat_spots_take_the_slow_path),
        cmocka_unit_test(bytes_above_127_are_clamped),
        cmocka_unit_test(zero_and_nearly_equal_rotations),
        cmocka_unit_test(holds_and_empty_tracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
