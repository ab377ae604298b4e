/*
 * bench_retarget.c — retarget between two models (issue 14) on a 4 MB
 * dance (the generated dance of bench_ops: 64 standard bone tracks of 560
 * keys, 全ての親, グルーブ, 腰, 上半身2, 腕捩, 手捩 among them, 12 morph
 * tracks) with the corpus models: Gene to mmt (stance and scale, nothing
 * to fold), the same with --fingers, and Gene to the classic skeleton
 * (nanoem: no 全ての親, グルーブ or 上半身2, so those are folded).  The
 * models are read once, untimed; the time is pk_motion_retarget_models on
 * a copy of the dance (the copy is made in setup), CPU time (a loaded
 * machine slows the wall clock, not this).  Goal: under 50 ms.
 *
 * usage: PK_CORPUS=DIR bench_retarget [--reps N]
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_ctx {
    const char *from, *to;
    bool fingers;
    pk_model *a, *b;
    pk_motion *dance, *work;
} rt_ctx;

static pk_model *load(const char *name)
{
    const char *dir = getenv("PK_CORPUS");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    pk_log_free(&log);
    return m;
}

static int setup(void *p)
{
    rt_ctx *c = p;
    c->a = load(c->from);
    c->b = load(c->to);
    c->dance = bench_motion(64, 560, 12, 11);
    return c->a && c->b && c->dance ? 0 : -1;
}

static void teardown(void *p)
{
    rt_ctx *c = p;
    pk_model_free(c->a);
    pk_model_free(c->b);
    pk_motion_free(c->dance);
    pk_motion_free(c->work);
}

static int body(void *p)
{
    rt_ctx *c = p;
    pk_motion_free(c->work);
    c->work = pk_motion_clone(c->dance);
    if (!c->work)
        return -1;
    pk_log log;
    pk_log_init(&log);
    pk_retarget_options o = {c->a, c->b, false, false, false, c->fingers};
    pk_retarget_report rep;
    int rc = pk_motion_retarget_models(c->work, NULL, &o, NULL, &rep, &log);
    pk_retarget_report_free(&rep);
    pk_log_free(&log);
    return rc;
}

int main(int argc, char **argv)
{
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: PK_CORPUS=DIR bench_retarget [--reps N]\n");
            return 2;
        }
    }
    if (!getenv("PK_CORPUS") || !*getenv("PK_CORPUS")) {
        fprintf(stderr, "bench_retarget: PK_CORPUS names no corpus: skipped\n");
        return 0;
    }
    bench_table_header();
    rt_ctx plain = {"pmx_gene.pmx", "pmx_mmt_test_model.pmx", false, NULL, NULL, NULL, NULL};
    rt_ctx fingers = {"pmx_gene.pmx", "pmx_mmt_test_model.pmx", true, NULL, NULL, NULL, NULL};
    rt_ctx fold = {"pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", false, NULL, NULL, NULL, NULL};
    bench_case cases[] = {
        {.name = "retarget 4 MB dance Gene -> mmt",
         .setup = setup,
         .body = body,
         .teardown = teardown,
         .ctx = &plain,
         .cpu = 1},
        {.name = "  the same, --fingers",
         .setup = setup,
         .body = body,
         .teardown = teardown,
         .ctx = &fingers,
         .cpu = 1},
        {.name = "retarget 4 MB dance Gene -> classic",
         .setup = setup,
         .body = body,
         .teardown = teardown,
         .ctx = &fold,
         .cpu = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        bench_run(&cases[i], reps);
    return 0;
}
