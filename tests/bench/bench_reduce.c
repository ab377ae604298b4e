/*
 * bench_reduce.c — the goals of keyframe reduction (doc/performance.md
 * "Keyframe reduction"):
 *
 *  recovery   every corpus VMD with bone keys ($PK_CORPUS) baked (every
 *             bone and morph, every frame), then reduced with 0.05 deg /
 *             0.001 units / 0.001 weight: reduced keys <= 1.25 x the
 *             original's, every frame within tolerance of the baked input
 *             (checked here again by sampling both motions);
 *  never worse the original reduced with the same tolerances: never more
 *             keys than it had;
 *  dense      a generated capture-like motion (smooth motion + 0.2 deg /
 *             0.002 unit noise, one key per frame, 40 bones x 3000 frames)
 *             reduced with 1 deg / 0.05 units: at most 10% of the keys;
 *  speed      input keys per second over the baked inputs.
 *
 * usage: bench_reduce [FILE.vmd ...]   (default: the corpus VMDs)
 *        bench_reduce --long [--reps N]
 *
 * --long: the corpus's WAVEFILE dance (vmd_wavefile_v2.vmd) repeated to a
 * real dance's length, three times (8,450 frames, 140 bones, 46,317 keys,
 * 4.8 MB) and 33 times (93,059 frames, 509,487 keys, 53 MB):
 *  - reduce of each at the default tolerances: best of N CPU seconds of
 *    pk_motion_reduce, the keys, the worst error at every frame (sampled
 *    again here; goal: under 0.2 s for the 4.8 MB dance);
 *  - bake of the 53 MB one by the posekit binary beside this benchmark
 *    (../../cli/posekit), in a child: its peak resident memory against
 *    the output's size (goal: at most 1.2 times).
 * Timing is CPU time on a shared machine: `valgrind --tool=callgrind`
 * instruction counts are the quiet measure.
 */
#include "bench_util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU seconds of this process: the machine is shared, wall time is not
 * the work done. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t keys_of(const pk_motion *m)
{
    return m->nbones + m->nmorphs;
}

/* Worst difference of b against a at every integer frame of a's tracks. */
static void worst(const pk_motion *a, const pk_motion *b, double *deg, double *pos, double *w)
{
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    *deg = *pos = *w = 0.0;
    for (size_t i = 0; i < ta->nbones; i++) {
        const pk_track *x = &ta->bones[i], *y = pk_tracks_bone(tb, x->name);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        pk_cursor ca, cb;
        pk_cursor_init(&ca, a, x);
        pk_cursor_init(&cb, b, y);
        for (uint32_t f = f0; f <= f1; f++) {
            float p0[3], r0[4], p1[3], r1[4];
            pk_cursor_bone(&ca, f, p0, r0);
            pk_cursor_bone(&cb, f, p1, r1);
            *deg = fmax(*deg, pk_quat_angle_deg(r0, r1));
            /* the distance: --max-pos bounds it, not each axis */
            double dd = 0.0;
            for (int k = 0; k < 3; k++)
                dd += ((double)p0[k] - p1[k]) * ((double)p0[k] - p1[k]);
            *pos = fmax(*pos, sqrt(dd));
        }
    }
    for (size_t i = 0; i < ta->nmorphs; i++) {
        const pk_track *x = &ta->morphs[i], *y = pk_tracks_morph(tb, x->name);
        uint32_t f0 = a->morphs[x->keys[0]].frame, f1 = a->morphs[x->keys[x->count - 1]].frame;
        for (uint32_t f = f0; f <= f1; f++)
            *w = fmax(*w, fabs((double)pk_sample_morph(a, x, f) - pk_sample_morph(b, y, f)));
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
}

static int failures;

static void recovery(const char *path)
{
    pk_log log;
    pk_log_init(&log);
    pk_bytes by;
    if (pk_file_read(path, &by, &log) != 0)
        return;
    pk_motion *m = pk_vmd_read(by.data, by.len, &log);
    pk_bytes_free(&by);
    if (!m || m->nbones + m->nmorphs == 0) {
        pk_motion_free(m);
        pk_log_free(&log);
        return;
    }
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.max_deg = 0.05;
    o.max_pos = 0.001;
    o.max_morph = 0.001;
    pk_motion *baked = pk_motion_bake(m, &o, NULL, &log);
    double t0 = cpu_now();
    pk_reduce_stats st;
    pk_motion *red = pk_motion_reduce(baked, &o, &st, &log);
    double dt = cpu_now() - t0;
    pk_motion *again = pk_motion_reduce(m, &o, NULL, &log);
    double d, p, w;
    worst(baked, red, &d, &p, &w);
    size_t ko = keys_of(m), kb = keys_of(baked), kr = keys_of(red);
    bool ok = (double)kr <= 1.25 * (double)ko && d <= o.max_deg && p <= o.max_pos &&
              w <= o.max_morph && keys_of(again) <= ko;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("| %s | %zu | %zu | %zu | %.2f | %zu | %.4f | %.5f | %.5f | %.3f | %.0f | %s |\n", name,
           ko, kb, kr, (double)kr / (double)ko, keys_of(again), d, p, w, dt, (double)kb / dt,
           ok ? "ok" : "FAIL");
    failures += !ok;
    pk_motion_free(m);
    pk_motion_free(baked);
    pk_motion_free(red);
    pk_motion_free(again);
    pk_log_free(&log);
}

/* Deterministic noise in [-1, 1]. */
static double noise(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return ((double)(*s >> 8) / (double)(1u << 24)) * 2.0 - 1.0;
}

static void dense(void)
{
    enum { BONES = 40, FRAMES = 3000 };
    pk_motion *m = pk_motion_new();
    uint32_t seed = 7;
    const double rad = 3.14159265358979323846 / 180.0;
    for (int b = 0; b < BONES; b++) {
        char name[16];
        snprintf(name, sizeof name, "bone%02d", b);
        pk_name_id id = pk_names_intern(m->names, name, strlen(name));
        for (int f = 0; f < FRAMES; f++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            k->name = id;
            k->frame = (uint32_t)f;
            pk_interp_linear(k->interp);
            /* smooth: a few slow sines per axis; noise 0.2 deg per axis */
            double ax = 20.0 * sin(f * 0.031 + b) + 6.0 * sin(f * 0.11 + 2 * b);
            double ay = 15.0 * sin(f * 0.017 + 3 * b) + 0.2 * noise(&seed);
            double az = 10.0 * sin(f * 0.023 + 5 * b) + 0.2 * noise(&seed);
            ax += 0.2 * noise(&seed);
            double cx = cos(ax * rad / 2), sx = sin(ax * rad / 2), cy = cos(ay * rad / 2),
                   sy = sin(ay * rad / 2), cz = cos(az * rad / 2), sz = sin(az * rad / 2);
            k->rot[0] = (float)(sx * cy * cz - cx * sy * sz);
            k->rot[1] = (float)(cx * sy * cz + sx * cy * sz);
            k->rot[2] = (float)(cx * cy * sz - sx * sy * cz);
            k->rot[3] = (float)(cx * cy * cz + sx * sy * sz);
            if (b == 0)
                for (int a = 0; a < 3; a++)
                    k->pos[a] = (float)(2.0 * sin(f * 0.02 + a) + 0.002 * noise(&seed));
        }
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.max_deg = 1.0;
    o.max_pos = 0.05;
    double t0 = cpu_now();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    double dt = cpu_now() - t0;
    double d, p, w;
    worst(m, r, &d, &p, &w);
    double share = (double)r->nbones / (double)m->nbones;
    bool ok = share <= 0.10 && d <= o.max_deg && p <= o.max_pos;
    printf("\ndense capture (%d bones x %d frames, noise 0.2 deg): %zu -> %zu keys (%.1f%%), "
           "worst %.3f deg %.4f units, %.3f s (%.0f keys/s) %s\n",
           BONES, FRAMES, m->nbones, r->nbones, 100.0 * share, d, p, dt, (double)m->nbones / dt,
           ok ? "ok" : "FAIL");
    failures += !ok;
    pk_motion_free(m);
    pk_motion_free(r);
    pk_log_free(&log);
}

/* The corpus's WAVEFILE dance repeated `times` times, 2,820 frames
 * apart; NULL without PK_CORPUS. */
static pk_motion *long_dance(int times)
{
    const char *dir = getenv("PK_CORPUS");
    if (!dir)
        return NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/vmd_wavefile_v2.vmd", dir);
    pk_log log;
    pk_log_init(&log);
    pk_bytes by;
    pk_motion *m = NULL;
    if (pk_file_read(path, &by, &log) == 0) {
        m = pk_vmd_read(by.data, by.len, &log);
        pk_bytes_free(&by);
    }
    pk_log_free(&log);
    if (!m)
        return NULL;
    size_t nb = m->nbones, nm = m->nmorphs;
    for (int copy = 1; copy < times; copy++) {
        for (size_t i = 0; i < nb; i++) {
            pk_bone_key k = m->bones[i];
            k.frame += 2820u * (uint32_t)copy;
            *pk_motion_push_bone(m) = k;
        }
        for (size_t i = 0; i < nm; i++) {
            pk_morph_key k = m->morphs[i];
            k.frame += 2820u * (uint32_t)copy;
            *pk_motion_push_morph(m) = k;
        }
    }
    return m;
}

static void long_reduce(int times, int reps)
{
    pk_motion *m = long_dance(times);
    if (!m) {
        printf("(PK_CORPUS not set: no long dance)\n");
        return;
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    double best = INFINITY;
    pk_motion *r = NULL;
    for (int i = 0; i < reps; i++) {
        pk_motion_free(r);
        double t0 = cpu_now();
        r = pk_motion_reduce(m, &o, NULL, &log);
        best = fmin(best, cpu_now() - t0);
    }
    double d, p, w;
    worst(m, r, &d, &p, &w);
    bool ok = d <= o.max_deg && p <= o.max_pos && w <= o.max_morph;
    printf("| reduce, WAVEFILE x %d | %zu | %zu | %.4f | %.5f | %.5f | %.3f | %s |\n", times,
           keys_of(m), keys_of(r), d, p, w, best, ok ? "ok" : "FAIL");
    failures += !ok;
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

typedef struct bake_ctx {
    char in[512], out[512], cmd[2048];
} bake_ctx;

static int bake_cli(void *p)
{
    bake_ctx *c = p;
    return system(c->cmd) == 0 ? 0 : -1;
}

/* The 53 MB dance baked by the posekit binary: peak memory / output. */
static void long_bake(const char *self)
{
    pk_motion *m = long_dance(33);
    if (!m)
        return;
    static bake_ctx c;
    snprintf(c.in, sizeof c.in, "%s/long.vmd", bench_tmpdir());
    snprintf(c.out, sizeof c.out, "%s/long_baked.vmd", bench_tmpdir());
    size_t in_size = bench_write_vmd(m, c.in);
    pk_motion_free(m);
    char exe[512];
    snprintf(exe, sizeof exe, "%s", self);
    char *slash = strrchr(exe, '/');
    snprintf(slash ? slash + 1 : exe, sizeof exe - (size_t)(slash ? slash + 1 - exe : 0),
             "../../cli/posekit");
    snprintf(c.cmd, sizeof c.cmd, "'%s' bake '%s' -o '%s' 2>/dev/null", exe, c.in, c.out);
    bench_case bc = {.name = "bake 53 MB dance (CLI)", .body = bake_cli, .ctx = &c};
    bench_result res = bench_run(&bc, 1);
    FILE *f = fopen(c.out, "rb");
    long out_size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        out_size = ftell(f);
    if (f)
        fclose(f);
    remove(c.out);
    remove(c.in);
    double ratio = (double)res.peak_kib * 1024.0 / (double)out_size;
    bool ok = res.ok && out_size > 0 && ratio <= 1.2;
    printf("\nbake of the %.1f MB dance: output %.1f MB, peak %.1f MB (%.2f x the output) %s\n",
           (double)in_size / 1e6, (double)out_size / 1e6, (double)res.peak_kib / 1024.0 * 1.048576,
           ratio, ok ? "ok" : "FAIL");
    failures += !ok;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--long") == 0) {
        int reps = argc > 3 && strcmp(argv[2], "--reps") == 0 ? atoi(argv[3]) : 5;
        printf("| case | keys | reduced | worst deg | worst units | worst weight | best CPU s | "
               "goal |\n|---|---|---|---|---|---|---|---|\n");
        long_reduce(3, reps < 1 ? 1 : reps);
        long_reduce(33, 1);
        long_bake(argv[0]);
        return failures ? 1 : 0;
    }
    printf("| file | original keys | baked | reduced | reduced/original | original reduced | "
           "worst deg | worst units | worst weight | CPU s | input keys/s | goal |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            recovery(argv[i]);
    } else {
        const char *dir = getenv("PK_CORPUS");
        DIR *d = dir ? opendir(dir) : NULL;
        if (!d) {
            fprintf(stderr, "bench_reduce: set PK_CORPUS or name VMD files\n");
        } else {
            char *names[256];
            size_t n = 0;
            struct dirent *e;
            while ((e = readdir(d)) && n < 256) {
                size_t l = strlen(e->d_name);
                if (l > 4 && strcmp(e->d_name + l - 4, ".vmd") == 0) {
                    names[n] = malloc(strlen(dir) + l + 2);
                    sprintf(names[n], "%s/%s", dir, e->d_name);
                    n++;
                }
            }
            closedir(d);
            qsort(names, n, sizeof *names, by_name);
            for (size_t i = 0; i < n; i++) {
                recovery(names[i]);
                free(names[i]);
            }
        }
    }
    dense();
    return failures ? 1 : 0;
}
