/*
 * bench_sizing.c — retarget between two models with the sizing steps
 * (contacts, avoid, twist; engine/ops/retarget/sizing.c) on a 4 MB dance:
 * the corpus's vmd_wavefile_v2.vmd (a real dance with claps and hands on
 * the head, 1.6 MB, 2,810 frames) played three times over, each copy
 * 2,811 frames after the last (8,432 frames, 4.5 MB of VMD), each copy's
 * センター 0.001 units further along x than the last's: no row of a copy
 * repeats one of another bit for bit (a real dance has no such repeats,
 * and a cache of repeated rows would time faster here for nothing).  A dance of
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
    bench_pair p;
} sz_ctx;

/* The corpus dance played COPIES times over (bone and morph keys). */
static pk_motion *long_dance(void)
{
    char path[1024];
    bench_corpus_path("vmd_wavefile_v2.vmd", path, sizeof path);
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
    pk_name_id centre = pk_names_find(m->names, "\x83\x5a\x83\x93\x83\x5e\x81\x5b", 8);
    if (centre == PK_NO_NAME) /* the copies would repeat each other */
        return NULL;
    for (int c = 1; c < COPIES; c++) {
        uint32_t shift = (uint32_t)c * (last + 1);
        for (size_t i = 0; i < nb; i++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                return NULL;
            *k = m->bones[i];
            k->frame += shift;
            if (k->name == centre)
                k->pos[0] += 0.001f * (float)c;
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
    c->p.dance = c->generated ? bench_motion(64, 560, 12, 11) : long_dance();
    return bench_pair_load(&c->p, "pmx_gene.pmx", c->to) == 0 && c->p.dance ? 0 : -1;
}

static void teardown(void *p)
{
    bench_pair_free(&((sz_ctx *)p)->p);
}

static int body(void *p)
{
    sz_ctx *c = p;
    bool off = !c->steps;
    return bench_pair_retarget(&c->p, (pk_retarget_options){.no_contacts = off,
                                                            .no_avoid = off,
                                                            .no_twist = off,
                                                            .no_centre = off,
                                                            .no_upper = off,
                                                            .no_shoulders = off,
                                                            .no_toes = off});
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
    if (!bench_corpus("bench_sizing"))
        return 0;
    bench_table_header();
    enum { N = 8 };
    sz_ctx cases_ctx[N] = {
        {"pmd_mei.pmd", false, false, {0}},    {"pmd_mei.pmd", true, false, {0}},
        {"pmd_sd_mei.pmd", false, false, {0}}, {"pmd_sd_mei.pmd", true, false, {0}},
        {"pmd_mei.pmd", false, true, {0}},     {"pmd_mei.pmd", true, true, {0}},
        {"pmd_sd_mei.pmd", false, true, {0}},  {"pmd_sd_mei.pmd", true, true, {0}}};
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
