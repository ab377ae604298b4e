/* bench_util.c — see bench_util.h. */
#include "bench_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench: %s\n", what);
    exit(3);
}

/* ---- synthetic data ---- */

/* Standard bone names (UTF-8, encoded to CP932 at run time): the first
 * tracks of a synthetic motion look like a real model's. */
static const char *const std_names[] = {
    "全ての親",     "センター", "グルーブ", "腰",       "上半身",   "上半身2",      "下半身",
    "首",           "頭",       "両目",     "左目",     "右目",     "左肩",         "左腕",
    "左腕捩",       "左ひじ",   "左手捩",   "左手首",   "左親指０", "左親指１",     "左親指２",
    "左人指１",     "左人指２", "左人指３", "左中指１", "左中指２", "左中指３",     "左薬指１",
    "左薬指２",     "左薬指３", "左小指１", "左小指２", "左小指３", "右肩",         "右腕",
    "右腕捩",       "右ひじ",   "右手捩",   "右手首",   "右親指０", "右親指１",     "右親指２",
    "右人指１",     "右人指２", "右人指３", "右中指１", "右中指２", "右中指３",     "右薬指１",
    "右薬指２",     "右薬指３", "右小指１", "右小指２", "右小指３", "左足",         "左ひざ",
    "左足首",       "右足",     "右ひざ",   "右足首",   "左足ＩＫ", "左つま先ＩＫ", "右足ＩＫ",
    "右つま先ＩＫ",
};
static const char *const morph_names[] = {"まばたき",   "笑い", "あ",     "い",
                                          "う",         "え",   "お",     "ウィンク",
                                          "ウィンク右", "はぅ", "なごみ", "びっくり"};

static uint32_t rng_next(uint32_t *s)
{
    /* xorshift32: deterministic, so every run benchmarks the same bytes. */
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static float rng_unit(uint32_t *s) /* [-1, 1) */
{
    return (float)((double)(rng_next(s) >> 8) / 8388608.0 - 1.0);
}

static pk_name_id name_of(pk_motion *m, const char *const *list, size_t nlist, size_t i,
                          const char *prefix)
{
    char buf[32];
    const char *utf8 = buf;
    if (i < nlist)
        utf8 = list[i];
    else
        snprintf(buf, sizeof buf, "%s%zu", prefix, i);
    pk_log log;
    pk_log_init(&log);
    pk_name_id id = pk_names_intern_utf8(m->names, utf8, PK_VMD_NAME_BYTES, "VMD bone", &log);
    pk_log_free(&log);
    if (id == PK_NO_NAME)
        die("cannot intern a name");
    return id;
}

static void fill_bone(pk_bone_key *k, pk_name_id name, uint32_t frame, uint32_t *s)
{
    k->name = name;
    k->frame = frame;
    for (int a = 0; a < 3; a++)
        k->pos[a] = rng_unit(s) * 2.0f;
    float q[4], n = 0;
    for (int a = 0; a < 4; a++) {
        q[a] = rng_unit(s);
        n += q[a] * q[a];
    }
    n = sqrtf(n > 1e-6f ? n : 1.0f);
    for (int a = 0; a < 4; a++)
        k->rot[a] = q[a] / n;
    uint8_t cp[4][4];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            cp[a][b] = (uint8_t)(rng_next(s) % 128);
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
}

pk_motion *bench_motion(size_t nbones, size_t keys, size_t nmorphs, uint32_t seed)
{
    uint32_t s = seed ? seed : 1;
    pk_motion *m = pk_motion_new();
    if (!m)
        die("out of memory");
    const size_t nstd = sizeof std_names / sizeof *std_names;
    const size_t nmstd = sizeof morph_names / sizeof *morph_names;
    pk_name_id *bone_ids = malloc((nbones ? nbones : 1) * sizeof *bone_ids);
    pk_name_id *morph_ids = malloc((nmorphs ? nmorphs : 1) * sizeof *morph_ids);
    if (!bone_ids || !morph_ids)
        die("out of memory");
    for (size_t b = 0; b < nbones; b++)
        bone_ids[b] = name_of(m, std_names, nstd, b, "bone");
    for (size_t j = 0; j < nmorphs; j++)
        morph_ids[j] = name_of(m, morph_names, nmstd, j, "morph");
    /* MMD writes every frame-0 key first, then the rest track by track. */
    for (size_t b = 0; b < nbones; b++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        if (!k)
            die("out of memory");
        fill_bone(k, bone_ids[b], 0, &s);
    }
    for (size_t b = 0; b < nbones; b++)
        for (size_t i = 1; i < keys; i++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                die("out of memory");
            fill_bone(k, bone_ids[b], (uint32_t)(i * 3 + rng_next(&s) % 3), &s);
        }
    for (size_t j = 0; j < nmorphs; j++)
        for (size_t i = 0; i < (keys + 1) / 2; i++) {
            pk_morph_key *k = pk_motion_push_morph(m);
            if (!k)
                die("out of memory");
            k->name = morph_ids[j];
            k->frame = (uint32_t)(i * 6);
            k->weight = (rng_unit(&s) + 1.0f) / 2.0f;
        }
    free(bone_ids);
    free(morph_ids);
    return m;
}

size_t bench_write_vmd(const pk_motion *m, const char *path)
{
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    if (pk_vmd_write(m, &out, &log) != 0 || pk_file_write_atomic(path, out.data, out.len, &log))
        die("cannot write the benchmark input");
    size_t n = out.len;
    pk_buf_free(&out);
    pk_log_free(&log);
    return n;
}

const char *bench_tmpdir(void)
{
    static char dir[128];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/pkbench.XXXXXX",
                 base && *base && strlen(base) < 100 ? base : "/tmp");
        if (!mkdtemp(dir))
            die("cannot create a temporary folder");
    }
    return dir;
}

/* ---- running cases ---- */

static void print_row(const bench_case *c, const bench_result *r, long base_kib)
{
    char tput[48] = "", ratio[32] = "";
    if (!r->ok) {
        printf("| %-34s | %10s | %22s | %9s | %9s | %8s |\n", c->name, "FAILED", "", "", "", "");
        return;
    }
    if (c->bytes > 0)
        snprintf(tput, sizeof tput, "%.0f MB/s", c->bytes / r->seconds / 1e6);
    else if (c->items > 0)
        snprintf(tput, sizeof tput, "%.1f M %s/s", c->items / r->seconds / 1e6,
                 c->unit ? c->unit : "items");
    if (c->base_kib > 0)
        base_kib = c->base_kib;
    if (c->file_size > 0)
        snprintf(ratio, sizeof ratio, "%.2fx",
                 (double)(r->peak_kib - base_kib) * 1024.0 / c->file_size);
    printf("| %-34s | %8.1f ms | %22s | %6.1f MB | %9s | %8ld |\n", c->name, r->seconds * 1e3,
           tput, (double)r->peak_kib / 1024.0, ratio, r->minflt);
    fflush(stdout);
}

static long baseline = -1;

static int noop(void *ctx)
{
    (void)ctx;
    return 0;
}

long bench_baseline_kib(void)
{
    if (baseline < 0) {
        baseline = 0;
        bench_case c = {.name = "baseline", .body = noop};
        bench_result r = bench_run(&c, 1);
        baseline = r.peak_kib;
    }
    return baseline;
}

bench_result bench_run(const bench_case *c, int reps)
{
    bench_result res = {0, 0, 0, 0};
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        close(fds[0]);
        double best = -1, best_faults = 0;
        int ok = !c->setup || c->setup(c->ctx) == 0;
        for (int i = 0; ok && i < reps; i++) {
            double (*clock)(void) = c->cpu ? bench_cpu_now : bench_now;
            struct rusage s0, k0, s1, k1;
            getrusage(RUSAGE_SELF, &s0);
            getrusage(RUSAGE_CHILDREN, &k0);
            double t0 = clock();
            ok = c->body(c->ctx) == 0;
            double t = clock() - t0;
            getrusage(RUSAGE_SELF, &s1);
            getrusage(RUSAGE_CHILDREN, &k1);
            if (best < 0 || t < best) {
                best = t;
                /* minor page faults of this run, its own or those of the
                 * process it ran (the CLI rows) */
                best_faults = (double)(s1.ru_minflt - s0.ru_minflt) +
                              (double)(k1.ru_minflt - k0.ru_minflt);
            }
        }
        if (c->teardown)
            c->teardown(c->ctx);
        /* The child's own peak, or that of a process it ran (CLI case). */
        struct rusage self, kids;
        getrusage(RUSAGE_SELF, &self);
        getrusage(RUSAGE_CHILDREN, &kids);
        long peak = self.ru_maxrss > kids.ru_maxrss ? self.ru_maxrss : kids.ru_maxrss;
        double msg[4] = {ok ? 1.0 : 0.0, best, (double)peak, best_faults};
        if (write(fds[1], msg, sizeof msg) != (ssize_t)sizeof msg)
            _exit(4);
        _exit(0);
    }
    close(fds[1]);
    double msg[4] = {0, 0, 0, 0};
    ssize_t got = read(fds[0], msg, sizeof msg);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    res.ok = got == (ssize_t)sizeof msg && msg[0] == 1.0 && WIFEXITED(status) &&
             WEXITSTATUS(status) == 0;
    res.seconds = msg[1];
    res.peak_kib = (long)msg[2];
    res.minflt = (long)msg[3];
    if (strcmp(c->name, "baseline") != 0)
        print_row(c, &res, baseline > 0 ? baseline : 0);
    return res;
}

int bench_reps(int argc, char **argv, int dflt, const char *usage)
{
    int reps = dflt;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s\n", usage);
            return -1;
        }
    }
    return reps < 1 ? 1 : reps;
}

void bench_table_header(void)
{
    long b = bench_baseline_kib();
    printf("| %-34s | %11s | %22s | %9s | %9s | %8s |\n", "case", "best time", "throughput",
           "peak RSS", "peak/file", "minflt");
    printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------------------",
           "-------------:", "-----------------------:", "----------:", "----------:",
           "---------:");
    fprintf(stderr, "bench: child baseline RSS %.1f MB (subtracted in peak/file)\n",
            (double)b / 1024.0);
}

static uint32_t rnd(uint32_t *st) /* xorshift32: deterministic across libcs */
{
    *st ^= *st << 13;
    *st ^= *st >> 17;
    *st ^= *st << 5;
    return *st;
}

/* A random non-linear curve (x1, y1, x2, y2). */
static void random_curve(uint8_t cp[4], uint32_t *st)
{
    do {
        for (int j = 0; j < 4; j++)
            cp[j] = (uint8_t)(rnd(st) % 128);
    } while (cp[0] == cp[1] && cp[2] == cp[3]);
}

pk_motion *bench_dance(size_t nbones, uint32_t frames, bench_dance_kind kind, uint32_t *st)
{
    static const uint8_t presets[8][4] = {
        {127, 0, 127, 127}, {0, 127, 0, 127},  {127, 0, 0, 127},  {64, 0, 64, 127},
        {40, 10, 90, 120},  {10, 40, 120, 90}, {90, 20, 40, 110}, {20, 60, 100, 127},
    };
    pk_motion *m = pk_motion_new();
    if (!m)
        exit(1);
    for (size_t b = 0; b < nbones; b++) {
        char name[16];
        snprintf(name, sizeof name, "bone%03u", (unsigned)(b % 1000));
        pk_name_id id = pk_names_intern(m->names, name, strlen(name));
        bool moves = kind != BENCH_DANCE || b < 7; /* parent, centre, groove, 4 IK */
        for (uint32_t f = 0; f < frames; f += 1 + rnd(st) % 15) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                exit(1);
            k->name = id;
            k->frame = f;
            for (int i = 0; i < 3; i++)
                k->pos[i] = moves ? (float)(rnd(st) % 2000) / 100.0f - 10.0f : 0.0f;
            for (int i = 0; i < 4; i++)
                k->rot[i] = (float)(rnd(st) % 2001) / 1000.0f - 1.0f;
            uint8_t cp[4][4];
            uint32_t preset = rnd(st) % 8;
            for (int a = 0; a < 4; a++) {
                if (kind == BENCH_PRESET)
                    memcpy(cp[a], presets[preset], 4);
                else
                    random_curve(cp[a], st);
            }
            pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
        }
    }
    /* MMD's file order is not per track: shuffle the records. */
    for (size_t i = m->nbones; i > 1; i--) {
        size_t j = rnd(st) % i;
        pk_bone_key tmp = m->bones[i - 1];
        m->bones[i - 1] = m->bones[j];
        m->bones[j] = tmp;
    }
    return m;
}

/* ---- two corpus models and a dance ---- */

const char *bench_corpus(const char *prog)
{
    const char *dir = getenv("PK_CORPUS");
    if (dir && *dir)
        return dir;
    fprintf(stderr, "%s: PK_CORPUS names no corpus: skipped\n", prog);
    return NULL;
}

void bench_corpus_path(const char *name, char *path, size_t size)
{
    const char *dir = getenv("PK_CORPUS");
    snprintf(path, size, "%s/%s", dir ? dir : ".", name);
}

pk_model *bench_corpus_model(const char *name)
{
    char path[1024];
    bench_corpus_path(name, path, sizeof path);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    pk_log_free(&log);
    return m;
}

pk_motion *bench_load_motion(const char *prog, const char *path, pk_log *log)
{
    pk_doc d;
    if (pk_doc_load(path, &d, log) != 0)
        return NULL;
    if (!d.motion) {
        fprintf(stderr, "%s: %s: not a motion\n", prog, path);
        pk_doc_free(&d);
        return NULL;
    }
    return d.motion;
}

int bench_pair_load(bench_pair *p, const char *from, const char *to)
{
    p->a = bench_corpus_model(from);
    p->b = bench_corpus_model(to);
    return p->a && p->b ? 0 : -1;
}

void bench_pair_free(bench_pair *p)
{
    pk_model_free(p->a);
    pk_model_free(p->b);
    pk_motion_free(p->dance);
    pk_motion_free(p->work);
    memset(p, 0, sizeof *p);
}

int bench_pair_retarget(bench_pair *p, pk_retarget_options o)
{
    pk_motion_free(p->work);
    p->work = pk_motion_clone(p->dance);
    if (!p->work)
        return -1;
    pk_log log;
    pk_log_init(&log);
    o.from = p->a;
    o.to = p->b;
    pk_retarget_report rep;
    int rc = pk_motion_retarget_models(p->work, NULL, &o, NULL, &rep, &log);
    pk_retarget_report_free(&rep);
    pk_log_free(&log);
    return rc;
}

int bench_box_halves(bench_box **st, size_t *n, size_t *cap, const bench_box *b, int k)
{
    if (*n + 2 > *cap) {
        bench_box *t = realloc(*st, 2 * *cap * sizeof **st);
        if (!t) {
            free(*st);
            *st = NULL;
            return -1;
        }
        *st = t;
        *cap *= 2;
    }
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        bench_box c = *b;
        c.h[k] /= 2;
        c.c[k] += sgn * c.h[k];
        (*st)[(*n)++] = c;
    }
    return 0;
}

bool bench_bound_load(const char *prog, const char *p[4], bench_bound_in *bp, pk_log *log)
{
    bp->ma = pk_model_load(p[0], log);
    bp->mb = pk_model_load(p[2], log);
    bp->da = bench_load_motion(prog, p[1], log);
    bp->db = bench_load_motion(prog, p[3], log);
    return bp->ma && bp->mb && bp->da && bp->db;
}

void bench_bound_free(bench_bound_in *bp)
{
    pk_motion_free(bp->da);
    pk_motion_free(bp->db);
    pk_model_free(bp->ma);
    pk_model_free(bp->mb);
}
