/*
 * bench_retarget.c — retarget between two models on a 4 MB
 * dance (the generated dance of bench_ops: 64 standard bone tracks of 560
 * keys, 全ての親, グルーブ, 腰, 上半身2, 腕捩, 手捩 among them, 12 morph
 * tracks) with the corpus models: Gene to mmt (stance and scale, nothing
 * to fold), the same with --fingers, and Gene to the classic skeleton
 * (nanoem: no 全ての親, グルーブ or 上半身2, so those are folded).  The
 * models are read once, untimed; the time is pk_motion_retarget_models on
 * a copy of the dance (the copy is made in setup), CPU time (a loaded
 * machine slows the wall clock, not this).  Goal: under 50 ms.
 *
 * The generated rotations are random, also on the bones Gene gives a fixed
 * axis (腕捩, 手捩), where MMD's editor only writes twists about that axis.
 * The first three rows key those bones as a dance made for Gene would
 * (each key cut to its twist, untimed); the last keeps the random keys,
 * so the fold must cut every one of them to its twist and fit the result
 * (the slow path: every frame's twist, fitted).
 *
 * usage: PK_CORPUS=DIR bench_retarget [--reps N]
 */
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_ctx {
    const char *from, *to;
    bool fingers;
    bool off_axis; /* keep random keys on the source's fixed-axis bones */
    bench_pair p;
} rt_ctx;

/* Keys of bones with a fixed axis on model a cut to their twist about it,
 * as MMD's editor keys them. */
static void key_as_made_for(pk_motion *m, const pk_model *a)
{
    for (size_t i = 0; i < m->nbones; i++) {
        pk_bone_key *k = &m->bones[i];
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, k->name, &len);
        long bi = raw ? pk_model_find_bone(a, raw, len) : -1;
        if (bi < 0 || !(a->bones[bi].flags & PK_BONE_FIXED_AXIS))
            continue;
        const float *ax = a->bones[bi].fixed_axis;
        double n = sqrt((double)ax[0] * ax[0] + (double)ax[1] * ax[1] + (double)ax[2] * ax[2]);
        if (!(n > 0.0))
            continue;
        double d = (k->rot[0] * ax[0] + k->rot[1] * ax[1] + k->rot[2] * ax[2]) / (n * n);
        double q[4] = {ax[0] * d, ax[1] * d, ax[2] * d, k->rot[3]};
        double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int c = 0; c < 4; c++)
            k->rot[c] = qn > 0.0 ? (float)(q[c] / qn) : (c == 3 ? 1.0f : 0.0f);
    }
}

static int setup(void *p)
{
    rt_ctx *c = p;
    c->p.dance = bench_motion(64, 560, 12, 11);
    if (bench_pair_load(&c->p, c->from, c->to) != 0)
        return -1;
    if (!c->off_axis)
        key_as_made_for(c->p.dance, c->p.a);
    return 0;
}

static void teardown(void *p)
{
    bench_pair_free(&((rt_ctx *)p)->p);
}

static int body(void *p)
{
    rt_ctx *c = p;
    return bench_pair_retarget(&c->p, (pk_retarget_options){.fingers = c->fingers});
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 5, "PK_CORPUS=DIR bench_retarget [--reps N]");
    if (reps < 0)
        return 2;
    if (!bench_corpus("bench_retarget"))
        return 0;
    bench_table_header();
    rt_ctx plain = {"pmx_gene.pmx", "pmx_mmt_test_model.pmx", false, false, {0}};
    rt_ctx fingers = {"pmx_gene.pmx", "pmx_mmt_test_model.pmx", true, false, {0}};
    rt_ctx fold = {"pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", false, false, {0}};
    rt_ctx off = {"pmx_gene.pmx", "pmx_nanoem_miku_bones.pmx", false, true, {0}};
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
        {.name = "  the same, random twist-bone keys",
         .setup = setup,
         .body = body,
         .teardown = teardown,
         .ctx = &off,
         .cpu = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        bench_run(&cases[i], reps);
    return 0;
}
