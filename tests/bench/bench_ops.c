/*
 * bench_ops.c — operation benchmarks on real-size dances (4 MB each, 64
 * bone tracks of 560 keys, 12 morph tracks): a full-range diff of two
 * dances (every bone at every frame), and an overlay of the right-hand
 * group (@hand_R: wrist and 15 finger bones) across a dance, over a window
 * with fades and over the whole motion.  Inputs are generated in memory
 * with the public API (bench_util.c); setup is not timed.  Times are CPU
 * time (pure computation: a loaded machine slows the wall clock, not this).
 *
 * usage: bench_ops [--reps N]
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ops_ctx {
    pk_motion *a, *b;
    pk_pose *hand;
    pk_selection *sel;
    pk_overlay_options opt;
    uint32_t first, last;
} ops_ctx;

static const char *const hand_bones[] = {
    "右手首",   "右親指０", "右親指１", "右親指２", "右人指１", "右人指２", "右人指３", "右中指１",
    "右中指２", "右中指３", "右薬指１", "右薬指２", "右薬指３", "右小指１", "右小指２", "右小指３",
};

static int setup(void *p)
{
    ops_ctx *c = p;
    c->a = bench_motion(64, 560, 12, 11);
    c->b = bench_motion(64, 560, 12, 13); /* same names, other values */
    if (!pk_motion_frame_range(c->a, &c->first, &c->last))
        return -1;
    pk_log log;
    pk_log_init(&log);
    /* A fist: every finger joint bent about 60 degrees around z. */
    c->hand = pk_pose_new();
    for (size_t i = 0; i < sizeof hand_bones / sizeof *hand_bones; i++) {
        pk_pose_bone *bn = pk_pose_push_bone(c->hand);
        if (!bn)
            return -1;
        bn->name = pk_names_intern_utf8(c->hand->names, hand_bones[i], PK_VPD_NAME_BYTES,
                                        "VPD bone", &log);
        if (bn->name == PK_NO_NAME)
            return -1;
        bn->rot[2] = i ? 0.5f : 0.0f;
        bn->rot[3] = i ? 0.8660254f : 1.0f;
    }
    c->sel = pk_selection_parse(NULL, "@hand_R", &log);
    pk_log_free(&log);
    return c->sel ? 0 : -1;
}

/* Two dance-like motions of about 4 MB each (bench_dance: 100 bones, a
 * key every 1-15 frames with its own random curve, 7 bones translating),
 * the same names, other values. */
static int setup_dance(void *p)
{
    ops_ctx *c = p;
    uint32_t rng = 12345u;
    c->a = bench_dance(100, 3000, BENCH_DANCE, &rng);
    c->b = bench_dance(100, 3000, BENCH_DANCE, &rng);
    return pk_motion_frame_range(c->a, &c->first, &c->last) ? 0 : -1;
}

static void teardown(void *p)
{
    ops_ctx *c = p;
    pk_motion_free(c->a);
    pk_motion_free(c->b);
    pk_pose_free(c->hand);
    pk_selection_free(c->sel);
}

static int diff_all(void *p)
{
    ops_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_diff_options o;
    pk_diff_options_init(&o);
    pk_diff *d = pk_diff_motions(c->a, c->b, c->first, c->last, &o, &log);
    int rc = d && (d->nbones == 64 || d->nbones == 100) ? 0 : -1;
    pk_diff_free(d);
    pk_log_free(&log);
    return rc;
}

/* The diff's own inputs sampled through the cursor, every bone at every
 * frame of one dance, track by track as the diff walks them: what a
 * diff costs at least twice over (it samples both dances). */
static int sample_one(void *p)
{
    ops_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(c->a, &log);
    pk_log_free(&log);
    if (!t)
        return -1;
    volatile float sink = 0.0f;
    for (size_t i = 0; i < t->nbones; i++) {
        pk_cursor cur;
        pk_cursor_init(&cur, c->a, &t->bones[i]);
        for (uint32_t f = c->first; f <= c->last; f++) {
            float pos[3], rot[4];
            pk_cursor_bone(&cur, (double)f, pos, rot);
            sink += rot[3];
        }
    }
    (void)sink;
    int rc = t->nbones == 64 || t->nbones == 100 ? 0 : -1;
    pk_tracks_free(t);
    return rc;
}

static int overlay(void *p)
{
    ops_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_overlay_stats st;
    pk_motion *m = pk_overlay_motion(c->a, c->hand, c->sel, &c->opt, &st, &log);
    int rc = m && st.bones == 16 ? 0 : -1;
    if (rc)
        fprintf(stderr, "overlay: %s (%zu bones)\n", m ? "wrong bone count" : "failed",
                m ? st.bones : 0);
    pk_motion_free(m);
    pk_log_free(&log);
    return rc;
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 5, "bench_ops [--reps N]");
    if (reps < 0)
        return 2;
    /* The frame range of the generated dance, for the rates below. */
    pk_motion *probe = bench_motion(64, 560, 12, 11);
    uint32_t first = 0, last = 0;
    pk_motion_frame_range(probe, &first, &last);
    pk_motion_free(probe);
    double frames = (double)(last - first + 1);

    bench_table_header();
    ops_ctx cd = {0}, cs = {0}, cd2 = {0}, cs2 = {0}, cw = {0}, cf = {0};
    cw.opt.mode = PK_OVERLAY_REPLACE;
    cw.opt.first = 300;
    cw.opt.last = 900;
    cw.opt.fade = 10;
    cf.opt.mode = PK_OVERLAY_ADD;
    cf.opt.all_frames = true;
    char n_diff[64];
    snprintf(n_diff, sizeof n_diff, "diff 2 dances, frames 0-%u", last);
    bench_case cases[] = {
        {.name = n_diff,
         .setup = setup,
         .body = diff_all,
         .teardown = teardown,
         .ctx = &cd,
         .items = 64 * frames,
         .unit = "bone-frames",
         .cpu = 1},
        {.name = "sample 1 of those dances (cursor)",
         .setup = setup,
         .body = sample_one,
         .teardown = teardown,
         .ctx = &cs,
         .items = 64 * frames,
         .unit = "bone-frames",
         .cpu = 1},
        {.name = "diff 2 dance-like 4 MB, 0-2999",
         .setup = setup_dance,
         .body = diff_all,
         .teardown = teardown,
         .ctx = &cd2,
         .items = 100 * 3000.0,
         .unit = "bone-frames",
         .cpu = 1},
        {.name = "sample 1 of those dances (cursor)",
         .setup = setup_dance,
         .body = sample_one,
         .teardown = teardown,
         .ctx = &cs2,
         .items = 100 * 3000.0,
         .unit = "bone-frames",
         .cpu = 1},
        {.name = "overlay @hand_R 300-900 fade 10",
         .setup = setup,
         .body = overlay,
         .teardown = teardown,
         .ctx = &cw,
         .items = 16 * 601,
         .unit = "bone-frames",
         .cpu = 1},
        {.name = "overlay @hand_R whole dance (add)",
         .setup = setup,
         .body = overlay,
         .teardown = teardown,
         .ctx = &cf,
         .items = 16 * frames,
         .unit = "bone-frames",
         .cpu = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        bench_run(&cases[i], reps);
    return 0;
}
