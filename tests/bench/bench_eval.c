/*
 * bench_eval.c — skeleton evaluation (engine/ops/skeleton/eval.c): the corpus's
 * pmx_gene.pmx (224 bones, 5 IK chains: two legs with 40 loops, two toes,
 * one cloak) and pmd_gene.pmd, posed by 120 frames spread over the corpus
 * dance vmd_wavefile_v2.vmd (its local poses sampled beforehand, untimed).
 * Per evaluation: plain forward kinematics (PK_EVAL_NO_IK |
 * PK_EVAL_NO_APPEND), and the full evaluation (append and IK).  The goal
 * is well under 50 us for a 200-bone model.  Each case runs all 120 frames
 * 20 times per run; the fastest of `reps` runs counts.
 *
 * usage: PK_CORPUS=DIR bench_eval [--reps N]
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FRAMES = 120, INNER = 20 };

typedef struct eval_ctx {
    char model[512], motion[512];
    pk_model *m;
    pk_rig *r;
    pk_bone_local *loc; /* FRAMES x nbones */
    bool *on;           /* FRAMES x nbones */
    pk_bone_world *out;
    unsigned flags;
} eval_ctx;

static int setup(void *p)
{
    eval_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_doc d;
    c->m = pk_model_load(c->model, &log);
    if (!c->m || pk_doc_load(c->motion, &d, &log) != 0 || !d.motion)
        return -1;
    c->r = pk_rig_new(c->m, &log);
    size_t n = c->m->nbones;
    c->loc = calloc(FRAMES * n, sizeof *c->loc);
    c->on = calloc(FRAMES * n, sizeof *c->on);
    c->out = calloc(n, sizeof *c->out);
    pk_tracks *t = pk_tracks_build(d.motion, &log);
    uint32_t lo, hi;
    pk_motion_frame_range(d.motion, &lo, &hi);
    for (int f = 0; f < FRAMES; f++)
        pk_rig_motion_local(c->r, d.motion, t, lo + (double)(hi - lo) * f / (FRAMES - 1),
                            c->loc + (size_t)f * n, c->on + (size_t)f * n);
    pk_tracks_free(t);
    pk_doc_free(&d);
    pk_log_free(&log);
    return c->r && c->loc && c->on && c->out ? 0 : -1;
}

static int body(void *p)
{
    eval_ctx *c = p;
    size_t n = c->m->nbones;
    for (int k = 0; k < INNER; k++)
        for (int f = 0; f < FRAMES; f++)
            pk_rig_eval(c->r, c->loc + (size_t)f * n, c->on + (size_t)f * n, c->flags, c->out);
    return c->out[0].rot[3] == c->out[0].rot[3] ? 0 : -1;
}

static void teardown(void *p)
{
    eval_ctx *c = p;
    free(c->loc);
    free(c->on);
    free(c->out);
    pk_rig_free(c->r);
    pk_model_free(c->m);
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 10, "PK_CORPUS=DIR bench_eval [--reps N]");
    if (reps < 0)
        return 2;
    const char *dir = getenv("PK_CORPUS");
    if (!dir || !*dir) {
        fprintf(stderr, "bench_eval: set PK_CORPUS to the corpus folder\n");
        return 2;
    }
    bench_table_header();
    static const char *const files[2] = {"pmx_gene.pmx", "pmd_gene.pmd"};
    for (int f = 0; f < 2; f++) {
        for (int full = 0; full < 2; full++) {
            eval_ctx c;
            memset(&c, 0, sizeof c);
            snprintf(c.model, sizeof c.model, "%s/%s", dir, files[f]);
            snprintf(c.motion, sizeof c.motion, "%s/vmd_wavefile_v2.vmd", dir);
            c.flags = full ? 0 : PK_EVAL_NO_IK | PK_EVAL_NO_APPEND;
            char name[128];
            snprintf(name, sizeof name, "%s %s (%d frames x %d)", files[f],
                     full ? "append + IK" : "plain FK", FRAMES, INNER);
            bench_case bc = {.name = name,
                             .setup = setup,
                             .body = body,
                             .teardown = teardown,
                             .ctx = &c,
                             .items = FRAMES * INNER,
                             .unit = "evals"};
            bench_result r = bench_run(&bc, reps);
            if (!r.ok)
                return 3;
            printf("    -> %.2f us per evaluation\n", r.seconds / (FRAMES * INNER) * 1e6);
        }
    }
    return 0;
}
