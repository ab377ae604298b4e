/*
 * bench_sizing.c — retarget between two models with the sizing steps
 * (contacts, avoid, twist; engine/ops/retarget/sizing.c) on a 4 MB dance:
 * the corpus's vmd_wavefile_v2.vmd (a real dance with claps and hands on
 * the head, 1.6 MB, 2,810 frames) played three times over, each copy
 * 2,811 frames after the last (8,432 frames, 4.5 MB of VMD).  A dance of
 * random keys would pass its arms through the body at every frame, which
 * no dance does; bench_retarget's generated 4 MB dance (64 tracks of 560
 * random keys, 1,680 frames) is timed too, as that benchmark's dance.
 * Gene (the model it was made for) to Mei (rigid bodies,
 * twist bones: every step works) and to SD Mei (a chibi: the most to
 * correct); each row once with the sizing steps off (--no-contacts
 * --no-avoid --no-twist and the body steps' --no-X: stance, scale, fold)
 * and once with all on.  The
 * models and the dance are read once, untimed; the time is
 * pk_motion_retarget_models on a copy of the dance, CPU time.  Goal: under
 * 100 ms with every step on.
 *
 * usage: PK_CORPUS=DIR bench_sizing [--reps N] [--only CASE]
 * (--only: run one row, 1..8 in the order printed; for a profiler)
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COPIES = 3 };

typedef struct sz_ctx {
    const char *to;
    bool steps;
    bool generated; /* bench_retarget's generated 4 MB dance instead */
    pk_model *a, *b;
    pk_motion *dance, *work;
} sz_ctx;

static pk_model *load_model(const char *name)
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

/* The corpus dance played COPIES times over (bone and morph keys). */
static pk_motion *long_dance(void)
{
    const char *dir = getenv("PK_CORPUS");
    char path[1024];
    snprintf(path, sizeof path, "%s/vmd_wavefile_v2.vmd", dir);
    pk_log log;
    pk_log_init(&log);
    pk_doc d;
    if (pk_doc_load(path, &d, &log) != 0 || !d.motion) {
        pk_log_free(&log);
        return NULL;
    }
    pk_log_free(&log);
    pk_motion *m = d.motion;
    uint32_t last = 0;
    size_t nb = m->nbones, nm = m->nmorphs;
    for (size_t i = 0; i < nb; i++)
        last = m->bones[i].frame > last ? m->bones[i].frame : last;
    for (int c = 1; c < COPIES; c++) {
        uint32_t shift = (uint32_t)c * (last + 1);
        for (size_t i = 0; i < nb; i++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                return NULL;
            *k = m->bones[i];
            k->frame += shift;
        }
        for (size_t i = 0; i < nm; i++) {
            pk_morph_key *k = pk_motion_push_morph(m);
            if (!k)
                return NULL;
            *k = m->morphs[i];
            k->frame += shift;
        }
    }
    return m;
}

static int setup(void *p)
{
    sz_ctx *c = p;
    c->a = load_model("pmx_gene.pmx");
    c->b = load_model(c->to);
    c->dance = c->generated ? bench_motion(64, 560, 12, 11) : long_dance();
    return c->a && c->b && c->dance ? 0 : -1;
}

static void teardown(void *p)
{
    sz_ctx *c = p;
    pk_model_free(c->a);
    pk_model_free(c->b);
    pk_motion_free(c->dance);
    pk_motion_free(c->work);
}

static int body(void *p)
{
    sz_ctx *c = p;
    pk_motion_free(c->work);
    c->work = pk_motion_clone(c->dance);
    if (!c->work)
        return -1;
    pk_log log;
    pk_log_init(&log);
    pk_retarget_options o = {.from = c->a,
                             .to = c->b,
                             .no_contacts = !c->steps,
                             .no_avoid = !c->steps,
                             .no_twist = !c->steps,
                             .no_centre = !c->steps,
                             .no_upper = !c->steps,
                             .no_shoulders = !c->steps,
                             .no_toes = !c->steps};
    pk_retarget_report rep;
    int rc = pk_motion_retarget_models(c->work, NULL, &o, NULL, &rep, &log);
    pk_retarget_report_free(&rep);
    pk_log_free(&log);
    return rc;
}

int main(int argc, char **argv)
{
    int only = 0;
    if (argc >= 3 && strcmp(argv[argc - 2], "--only") == 0) {
        only = atoi(argv[argc - 1]);
        argc -= 2;
    }
    int reps = bench_reps(argc, argv, 5, "PK_CORPUS=DIR bench_sizing [--reps N] [--only CASE]");
    if (reps < 0)
        return 2;
    if (!getenv("PK_CORPUS") || !*getenv("PK_CORPUS")) {
        fprintf(stderr, "bench_sizing: PK_CORPUS names no corpus: skipped\n");
        return 0;
    }
    bench_table_header();
    enum { N = 8 };
    sz_ctx cases_ctx[N] = {{"pmd_mei.pmd", false, false, NULL, NULL, NULL, NULL},
                           {"pmd_mei.pmd", true, false, NULL, NULL, NULL, NULL},
                           {"pmd_sd_mei.pmd", false, false, NULL, NULL, NULL, NULL},
                           {"pmd_sd_mei.pmd", true, false, NULL, NULL, NULL, NULL},
                           {"pmd_mei.pmd", false, true, NULL, NULL, NULL, NULL},
                           {"pmd_mei.pmd", true, true, NULL, NULL, NULL, NULL},
                           {"pmd_sd_mei.pmd", false, true, NULL, NULL, NULL, NULL},
                           {"pmd_sd_mei.pmd", true, true, NULL, NULL, NULL, NULL}};
    const char *names[N] = {
        "4.5 MB dance Gene -> Mei, no sizing steps",      "  the same, every sizing step",
        "4.5 MB dance Gene -> SD Mei, no sizing steps",   "  the same, every sizing step",
        "4 MB generated Gene -> Mei, no sizing steps",    "  the same, every sizing step",
        "4 MB generated Gene -> SD Mei, no sizing steps", "  the same, every sizing step"};
    for (int i = 0; i < N; i++) {
        if (only && only != i + 1)
            continue;
        bench_case bc = {.name = names[i],
                         .setup = setup,
                         .body = body,
                         .teardown = teardown,
                         .ctx = &cases_ctx[i],
                         .cpu = 1};
        bench_run(&bc, reps);
    }
    return 0;
}
