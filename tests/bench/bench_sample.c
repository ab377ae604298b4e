/*
 * bench_sample.c — how fast pk_cursor steps through a motion: every bone
 * track sampled at every frame, in order, as an exporter or a diff over
 * a frame range does.  Not a test: run it by hand on a release build and
 * read the figure (doc/performance.md "Sampling").
 *
 * usage: bench_sample [--reps N] [--only corpus|dance|worst|preset]
 *   1. the largest VMD of $PK_CORPUS (skipped when unset);
 *   2. "dance-like": a generated motion of 100 bones x 10,000 frames, a
 *      key every 1-15 frames (~1,250 keys per bone, 125,000 in all),
 *      records shuffled as in MMD's files, every rotation random (about
 *      half the segments have a negative dot, so the short-path flip is
 *      exercised) with its own random non-linear curve on every key; 7
 *      bones (standing for the parent, centre, groove and the four leg/toe
 *      IK bones) also translate, each axis with its own random non-linear
 *      curve; the other 93 keep a zero translation (their X/Y/Z curves
 *      are random too, but cannot change the result).  This is what real
 *      dances look like: most bones only rotate;
 *   3. "worst case": the same, but every bone translates and every
 *      channel (X, Y, Z, R) of every key has its own random non-linear
 *      curve: four cubic solves per bone-frame;
 *   4. "preset curves": every bone translates and every key uses one curve
 *      for all four channels, taken from eight non-linear presets (the
 *      way MMD users mostly edit curves).
 * Each case runs N times (default 5); the fastest run is reported.  The
 * sampled values are summed into a checksum so the work cannot be
 * optimised away.
 */
#include "bench_util.h"
#include "posekit.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void accumulate(double acc[7], const float pos[3], const float rot[4])
{
    for (int j = 0; j < 3; j++)
        acc[j] += pos[j];
    for (int j = 0; j < 4; j++)
        acc[3 + j] += rot[j];
}

/* One pass: every bone track at every integer frame first..last.
 * Frame-major walks a motion as a player or a per-frame diff does (one
 * pose after another, every cursor touched each frame); track-major as
 * baking or converting one track at a time does (one cursor stays hot). */
static double sample_all(const pk_motion *m, const pk_tracks *t, uint32_t first, uint32_t last,
                         pk_cursor *cur, bool track_major, double *checksum)
{
    /* One accumulator per channel: independent additions, not one long
     * chain of dependent ones timed with the sampling. */
    double t0 = now(), acc[7] = {0};
    float pos[3], rot[4];
    for (size_t b = 0; b < t->nbones; b++)
        pk_cursor_init(&cur[b], m, &t->bones[b]);
    if (track_major) {
        for (size_t b = 0; b < t->nbones; b++)
            for (uint32_t f = first; f <= last; f++) {
                pk_cursor_bone(&cur[b], f, pos, rot);
                accumulate(acc, pos, rot);
            }
    } else {
        for (uint32_t f = first; f <= last; f++)
            for (size_t b = 0; b < t->nbones; b++) {
                pk_cursor_bone(&cur[b], f, pos, rot);
                accumulate(acc, pos, rot);
            }
    }
    double t1 = now();
    *checksum = acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6];
    return t1 - t0;
}

static void run(const char *label, const pk_motion *m, int reps)
{
    pk_log log;
    pk_log_init(&log);
    double tb = now();
    pk_tracks *t = pk_tracks_build(m, &log);
    tb = now() - tb;
    if (!t) {
        fprintf(stderr, "%s: pk_tracks_build failed\n", label);
        exit(1);
    }
    uint32_t first = 0, last = 0;
    pk_motion_frame_range(m, &first, &last);
    first = 0;
    pk_cursor *cur = calloc(t->nbones ? t->nbones : 1, sizeof *cur);
    double bf = (double)t->nbones * ((double)last - first + 1);
    for (int order = 0; order < 2; order++) {
        double best = 1e30, sum = 0.0;
        for (int r = 0; r < reps; r++) {
            double s = sample_all(m, t, first, last, cur, order == 1, &sum);
            if (s < best)
                best = s;
        }
        printf("%-28s %5zu bones x %6u frames = %9.0f bone-frames (%zu keys): tracks %.2f ms, "
               "%s %.1f ms = %.1f M bone-frames/s (checksum %.3f)\n",
               label, t->nbones, last - first + 1, bf, m->nbones, tb * 1e3,
               order ? "track-major" : "frame-major", best * 1e3, bf / best / 1e6, sum);
    }
    free(cur);
    pk_tracks_free(t);
    pk_log_free(&log);
}

/* The largest .vmd in $PK_CORPUS, or NULL. */
static char *largest_corpus_vmd(void)
{
    const char *dir = getenv("PK_CORPUS");
    if (!dir || !*dir)
        return NULL;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *best = NULL;
    long long best_size = -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 4, ".vmd") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && (long long)st.st_size > best_size) {
            best_size = (long long)st.st_size;
            free(best);
            best = strdup(path);
        }
    }
    closedir(d);
    return best;
}

int main(int argc, char **argv)
{
    int reps = 5;
    const char *only = NULL; /* one case, e.g. for callgrind */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_sample [--reps N] [--only corpus|dance|worst|preset]\n");
            return 2;
        }
    }
#define WANT(name) (!only || strcmp(only, name) == 0)
    if (reps < 1)
        reps = 1;
    char *path = WANT("corpus") ? largest_corpus_vmd() : NULL;
    if (path) {
        pk_log log;
        pk_log_init(&log);
        pk_doc doc;
        if (pk_doc_load(path, &doc, &log) != 0 || !doc.motion) {
            fprintf(stderr, "%s: cannot load\n", path);
            return 1;
        }
        const char *base = strrchr(path, '/');
        run(base ? base + 1 : path, doc.motion, reps);
        pk_doc_free(&doc);
        pk_log_free(&log);
        free(path);
    } else if (WANT("corpus")) {
        printf("PK_CORPUS not set: corpus case skipped\n");
    }
    static const struct {
        const char *name, *label;
        bench_dance_kind kind;
    } gen[] = {{"dance", "generated, dance-like", BENCH_DANCE},
               {"worst", "generated, worst case", BENCH_WORST},
               {"preset", "generated, preset curves", BENCH_PRESET}};
    for (size_t g = 0; g < sizeof gen / sizeof gen[0]; g++) {
        uint32_t rng = 12345u; /* each motion the same whichever cases run */
        if (!WANT(gen[g].name))
            continue;
        pk_motion *m = bench_dance(100, 10000, gen[g].kind, &rng);
        run(gen[g].label, m, reps);
        pk_motion_free(m);
    }
    return 0;
}
