/* test_sample_corpus.c — sampling every corpus motion against an
 * independent implementation written here (plain sorting, linear search,
 * bisection on the Bezier in long double, slerp in double), at every
 * integer frame and at fractional frames, within 1e-5.  Needs PK_CORPUS;
 * skipped without it. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_key {
    uint32_t name, frame, index;
} ref_key;

static int cmp_ref(const void *a, const void *b)
{
    const ref_key *x = a, *y = b;
    if (x->name != y->name)
        return x->name < y->name ? -1 : 1;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorted records with (name, frame) duplicates removed, keeping the one
 * that comes last in the file. */
static size_t ref_sort(ref_key *k, size_t n)
{
    qsort(k, n, sizeof *k, cmp_ref);
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && k[i + 1].name == k[i].name && k[i + 1].frame == k[i].frame)
            continue;
        k[out++] = k[i];
    }
    return out;
}

static long double bern(long double p1, long double p2, long double t)
{
    long double u = 1.0L - t;
    return 3.0L * u * u * t * p1 + 3.0L * u * t * t * p2 + t * t * t;
}

static double ref_curve(int x1, int y1, int x2, int y2, double s)
{
    long double lo = 0.0L, hi = 1.0L;
    for (int i = 0; i < 70; i++) {
        long double mid = 0.5L * (lo + hi);
        if (bern(x1 / 127.0L, x2 / 127.0L, mid) < (long double)s)
            lo = mid;
        else
            hi = mid;
    }
    return (double)bern(y1 / 127.0L, y2 / 127.0L, 0.5L * (lo + hi));
}

static void ref_slerp(const float a[4], const float b[4], double u, double out[4])
{
    double qa[4], qb[4], na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) {
        na += (double)a[i] * a[i];
        nb += (double)b[i] * b[i];
    }
    na = sqrt(na);
    nb = sqrt(nb);
    for (int i = 0; i < 4; i++) {
        qa[i] = a[i] / na;
        qb[i] = b[i] / nb;
        d += qa[i] * qb[i];
    }
    if (d < 0) {
        d = -d;
        for (int i = 0; i < 4; i++)
            qb[i] = -qb[i];
    }
    double wa = 1 - u, wb = u;
    if (d < 1.0 - 1e-9) {
        double th = acos(d);
        wa = sin((1 - u) * th) / sin(th);
        wb = sin(u * th) / sin(th);
    }
    double n = 0;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * qa[i] + wb * qb[i];
        n += out[i] * out[i];
    }
    for (int i = 0; i < 4; i++)
        out[i] /= sqrt(n);
}

/* Reference value of the track k[0..n) (one name, sorted) at frame f. */
static void ref_bone(const pk_motion *m, const ref_key *k, size_t n, double f, double pos[3],
                     double rot[4])
{
    size_t i = 0;
    while (i < n && (double)k[i].frame <= f)
        i++;
    const pk_bone_key *a, *b;
    if (i == 0 || i == n) {
        a = b = &m->bones[k[i == 0 ? 0 : n - 1].index];
        for (int j = 0; j < 3; j++)
            pos[j] = a->pos[j];
        ref_slerp(a->rot, a->rot, 0, rot);
        return;
    }
    a = &m->bones[k[i - 1].index];
    b = &m->bones[k[i].index];
    double s = (f - a->frame) / ((double)b->frame - a->frame);
    double y[4];
    for (int ax = 0; ax < 4; ax++) /* bytes 0, 4, 8, 12 of row ax of the later key */
        y[ax] = ref_curve(b->interp[16 * ax], b->interp[16 * ax + 4], b->interp[16 * ax + 8],
                          b->interp[16 * ax + 12], s);
    for (int j = 0; j < 3; j++)
        pos[j] = a->pos[j] + ((double)b->pos[j] - a->pos[j]) * y[j];
    ref_slerp(a->rot, b->rot, y[3], rot);
}

static double worst_pos, worst_rot;

static void check(const char *path, const char *what, double f, const float pos[3],
                  const float rot[4], const double wp[3], const double wr[4])
{
    double dp = 0, d1 = 0, d2 = 0;
    for (int j = 0; j < 3; j++)
        dp = fmax(dp, fabs(pos[j] - wp[j]));
    for (int j = 0; j < 4; j++) {
        d1 = fmax(d1, fabs(rot[j] - wr[j]));
        d2 = fmax(d2, fabs(rot[j] + wr[j]));
    }
    double dr = fmin(d1, d2);
    worst_pos = fmax(worst_pos, dp);
    worst_rot = fmax(worst_rot, dr);
    if (dp > 1e-5 || dr > 1e-5)
        fail_msg("%s: %s at frame %g: pos (%.7f %.7f %.7f) want (%.7f %.7f %.7f), rot (%.7f %.7f "
                 "%.7f %.7f) want (%.7f %.7f %.7f %.7f)",
                 path, what, f, pos[0], pos[1], pos[2], wp[0], wp[1], wp[2], rot[0], rot[1], rot[2],
                 rot[3], wr[0], wr[1], wr[2], wr[3]);
}

static void bones_agree(const char *path, const pk_motion *m, const pk_tracks *t)
{
    ref_key *k = malloc((m->nbones ? m->nbones : 1) * sizeof *k);
    assert_non_null(k);
    for (size_t i = 0; i < m->nbones; i++)
        k[i] = (ref_key){m->bones[i].name, m->bones[i].frame, (uint32_t)i};
    size_t n = ref_sort(k, m->nbones);
    size_t ntracks = 0;
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        while (hi < n && k[hi].name == k[lo].name)
            hi++;
        ntracks++;
        const pk_track *tr = pk_tracks_bone(t, k[lo].name);
        assert_non_null(tr);
        assert_int_equal(tr->count, hi - lo);
        const char *name = pk_names_utf8(m->names, k[lo].name);
        uint32_t last = k[hi - 1].frame;
        uint32_t step = last > 20000 ? last / 20000 + 1 : 1;
        pk_cursor c;
        pk_cursor_init(&c, m, tr);
        float pos[3], rot[4];
        double wp[3], wr[4];
        for (uint32_t f = 0; f <= last + 2; f += step) {
            ref_bone(m, k + lo, hi - lo, f, wp, wr);
            pk_sample_bone(m, tr, f, pos, rot);
            check(path, name, f, pos, rot, wp, wr);
            pk_cursor_bone(&c, f, pos, rot);
            check(path, name, f, pos, rot, wp, wr);
            if (f % 7 == 3) { /* fractional frames, through the cursor too */
                double ff = f + 0.37;
                ref_bone(m, k + lo, hi - lo, ff, wp, wr);
                pk_cursor_bone(&c, ff, pos, rot);
                check(path, name, ff, pos, rot, wp, wr);
            }
        }
        lo = hi;
    }
    assert_int_equal(ntracks, t->nbones);
    free(k);
}

static void morphs_agree(const char *path, const pk_motion *m, const pk_tracks *t)
{
    ref_key *k = malloc((m->nmorphs ? m->nmorphs : 1) * sizeof *k);
    assert_non_null(k);
    for (size_t i = 0; i < m->nmorphs; i++)
        k[i] = (ref_key){m->morphs[i].name, m->morphs[i].frame, (uint32_t)i};
    size_t n = ref_sort(k, m->nmorphs);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        while (hi < n && k[hi].name == k[lo].name)
            hi++;
        const pk_track *tr = pk_tracks_morph(t, k[lo].name);
        assert_non_null(tr);
        pk_cursor c;
        pk_cursor_init(&c, m, tr);
        for (uint32_t f = 0; f <= k[hi - 1].frame + 1; f++) {
            size_t i = lo;
            while (i < hi && k[i].frame <= f)
                i++;
            double want;
            if (i == lo || i == hi) {
                want = m->morphs[k[i == lo ? lo : hi - 1].index].weight;
            } else {
                const pk_morph_key *a = &m->morphs[k[i - 1].index], *b = &m->morphs[k[i].index];
                want = a->weight + ((double)b->weight - a->weight) * (f - a->frame) /
                                       ((double)b->frame - a->frame);
            }
            float got = pk_sample_morph(m, tr, f), got2 = pk_cursor_morph(&c, f);
            if (fabs(got - want) > 1e-5 || fabs(got2 - want) > 1e-5)
                fail_msg("%s: morph %s at %u: %g / %g, want %g", path,
                         pk_names_utf8(m->names, k[lo].name), f, got, got2, want);
        }
        lo = hi;
    }
    free(k);
}

/* Camera reference: per-channel curves in (x1, x2, y1, y2) order, Euler
 * angles lerped, keys one frame apart are a cut. */
static void cameras_agree(const char *path, const pk_motion *m, const pk_tracks *t)
{
    if (!m->ncameras)
        return;
    ref_key *k = malloc(m->ncameras * sizeof *k);
    assert_non_null(k);
    for (size_t i = 0; i < m->ncameras; i++)
        k[i] = (ref_key){0, m->cameras[i].frame, (uint32_t)i};
    size_t n = ref_sort(k, m->ncameras);
    for (double f = 0; f <= k[n - 1].frame + 1; f += 0.5) {
        size_t i = 0;
        while (i < n && k[i].frame <= f)
            i++;
        pk_camera_key want, got;
        if (i == 0 || i == n) {
            want = m->cameras[k[i == 0 ? 0 : n - 1].index];
        } else {
            const pk_camera_key *a = &m->cameras[k[i - 1].index], *b = &m->cameras[k[i].index];
            want = *a;
            if (b->frame - a->frame > 1) {
                double s = (f - a->frame) / ((double)b->frame - a->frame), y[6];
                for (int g = 0; g < 6; g++)
                    y[g] = ref_curve(b->interp[4 * g], b->interp[4 * g + 2], b->interp[4 * g + 1],
                                     b->interp[4 * g + 3], s);
                for (int j = 0; j < 3; j++) {
                    want.pos[j] = (float)(a->pos[j] + ((double)b->pos[j] - a->pos[j]) * y[j]);
                    want.rot[j] = (float)(a->rot[j] + ((double)b->rot[j] - a->rot[j]) * y[3]);
                }
                want.distance = (float)(a->distance + ((double)b->distance - a->distance) * y[4]);
            }
        }
        assert_true(pk_sample_camera(m, t, f, &got));
        double e = fabs(got.distance - want.distance);
        for (int j = 0; j < 3; j++)
            e = fmax(e, fmax(fabs(got.pos[j] - want.pos[j]), fabs(got.rot[j] - want.rot[j])));
        if (e > 1e-4)
            fail_msg("%s: camera at %g differs by %g", path, f, e);
    }
    free(k);
}

static void every_corpus_motion(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t motions = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(data, len, &log);
        if (!m) { /* files the reader rejects are the reader's tests' business */
            print_message("  (%s not readable, skipped)\n", paths[i]);
            pk_log_free(&log);
            free(data);
            continue;
        }
        pk_tracks *t = pk_tracks_build(m, &log);
        assert_non_null(t);
        bones_agree(paths[i], m, t);
        morphs_agree(paths[i], m, t);
        cameras_agree(paths[i], m, t);
        motions++;
        pk_tracks_free(t);
        pk_motion_free(m);
        pk_log_free(&log);
        free(data);
    }
    print_message("  %zu motions; worst difference: translation %.3g, rotation %.3g\n", motions,
                  worst_pos, worst_rot);
    assert_true(motions >= 10);
    tu_free_list(paths, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_corpus_motion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
