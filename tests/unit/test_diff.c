/* test_diff.c — pose and motion diffs with hand-computed angles. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)

static void axis_angle(int axis, double deg, float q[4])
{
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = (float)sin(deg * DEG / 2.0);
    q[3] = (float)cos(deg * DEG / 2.0);
}

static pk_pose_bone *pbone(pk_pose *p, const char *name, const float rot[4], float x)
{
    pk_pose_bone *b = pk_pose_push_bone(p);
    assert_non_null(b);
    b->name = pk_names_intern(p->names, name, strlen(name));
    memcpy(b->rot, rot, sizeof b->rot);
    b->pos[0] = x;
    return b;
}

static void pmorph(pk_pose *p, const char *name, float w)
{
    pk_pose_morph *m = pk_pose_push_morph(p);
    m->name = pk_names_intern(p->names, name, strlen(name));
    m->weight = w;
}

static const pk_diff_bone *find_bone(const pk_diff *d, const char *name)
{
    for (size_t i = 0; i < d->nbones; i++)
        if (strcmp(d->bones[i].name, name) == 0)
            return &d->bones[i];
    fail_msg("no row for bone %s", name);
    abort(); /* fail_msg does not return; tells the compiler so */
}

static void pose_angles_and_distances(void **state)
{
    (void)state;
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1}, x90[4], z30[4], zm60[4];
    axis_angle(0, 90, x90);
    axis_angle(2, 30, z30);
    axis_angle(2, -60, zm60);
    pbone(a, "arm", x90, 0);
    pbone(b, "arm", id, 0); /* 90 degrees about X vs identity */
    pbone(a, "neg", x90, 0);
    pbone(b, "neg", (float[]){-x90[0], -x90[1], -x90[2], -x90[3]}, 0); /* q vs -q */
    pbone(a, "wrist", z30, 3);
    pbone(b, "wrist", zm60, 7); /* 90 degrees; (3,0,0) to (7,0,0) = 4 */
    pbone(a, "same", z30, 1);
    pbone(b, "same", z30, 1);
    pk_log log;
    pk_log_init(&log);
    pk_diff *d = pk_diff_poses(a, b, NULL, &log);
    assert_non_null(d);
    assert_false(d->range);
    assert_int_equal(d->nbones, 4);
    const pk_diff_bone *r = find_bone(d, "arm");
    assert_float_equal(r->angle_deg, 90.0, 1e-4);
    assert_true(r->differs);
    r = find_bone(d, "neg");
    assert_float_equal(r->angle_deg, 0.0, 1e-6);
    assert_false(r->differs);
    r = find_bone(d, "wrist");
    assert_float_equal(r->angle_deg, 90.0, 1e-4);
    assert_float_equal(r->pos_delta, 4.0, 1e-6);
    r = find_bone(d, "same");
    assert_float_equal(r->angle_deg, 0.0, 0);
    assert_false(r->differs);
    assert_int_equal(d->bones_differ, 2);
    assert_true(pk_diff_any(d));
    /* sorted: largest first (two 90s: the one that also moved first) */
    pk_diff_sort(d);
    assert_string_equal(d->bones[0].name, "wrist");
    assert_string_equal(d->bones[1].name, "arm");
    pk_diff_free(d);
    pk_log_free(&log);
    pk_pose_free(a);
    pk_pose_free(b);
}

static void thresholds(void **state)
{
    (void)state;
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1}, small[4];
    axis_angle(1, 0.005, small); /* under the default 0.01 degrees */
    pbone(a, "b", small, 0.00005f);
    pbone(b, "b", id, 0);
    pk_diff *d = pk_diff_poses(a, b, NULL, NULL);
    assert_float_equal(d->bones[0].angle_deg, 0.005, 1e-5);
    assert_false(pk_diff_any(d));
    pk_diff_free(d);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.threshold_deg = 0.001;
    d = pk_diff_poses(a, b, &o, NULL);
    assert_true(pk_diff_any(d));
    pk_diff_free(d);
    pk_diff_options_init(&o);
    o.threshold_deg = 1;
    o.pos_threshold = 0.00001;
    d = pk_diff_poses(a, b, &o, NULL);
    assert_true(d->bones[0].differs); /* by distance now */
    pk_diff_free(d);
    pk_pose_free(a);
    pk_pose_free(b);
}

static void one_side_rows_and_morphs(void **state)
{
    (void)state;
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1}, y45[4];
    axis_angle(1, 45, y45);
    pbone(a, "both", id, 0);
    pbone(b, "both", id, 0);
    pbone(a, "onlyA_rest", id, 0); /* at rest: listed, not a difference */
    pbone(b, "onlyB_bent", y45, 0);
    pmorph(a, "smile", 0.25f);
    pmorph(b, "smile", 1.0f);
    pmorph(a, "blink", 0.5f);
    pk_diff *d = pk_diff_poses(a, b, NULL, NULL);
    assert_int_equal(d->nbones, 3);
    const pk_diff_bone *r = find_bone(d, "onlyA_rest");
    assert_int_equal(r->only_in, PK_DIFF_ONLY_A);
    assert_false(r->differs);
    r = find_bone(d, "onlyB_bent");
    assert_int_equal(r->only_in, PK_DIFF_ONLY_B);
    assert_float_equal(r->angle_deg, 45.0, 1e-4);
    assert_true(r->differs);
    assert_int_equal(d->only_a, 2); /* a bone and the blink morph */
    assert_int_equal(d->only_b, 1);
    assert_int_equal(d->nmorphs, 2);
    pk_diff_sort(d);
    assert_string_equal(d->morphs[0].name, "smile");
    assert_float_equal(d->morphs[0].delta, 0.75, 1e-7);
    assert_string_equal(d->morphs[1].name, "blink");
    assert_float_equal(d->morphs[1].delta, -0.5, 1e-7);
    assert_int_equal(d->morphs[1].only_in, PK_DIFF_ONLY_A);
    assert_int_equal(d->morphs_differ, 2);
    pk_diff_free(d);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.no_morphs = true;
    d = pk_diff_poses(a, b, &o, NULL);
    assert_int_equal(d->nmorphs, 0);
    pk_diff_free(d);
    pk_pose_free(a);
    pk_pose_free(b);
}

static bool only_arm(void *ctx, const uint8_t *raw, size_t len)
{
    (void)ctx;
    return len == 3 && memcmp(raw, "arm", 3) == 0;
}

static void filter_and_cut_names(void **state)
{
    (void)state;
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1}, x10[4];
    axis_angle(0, 10, x10);
    pbone(a, "arm", x10, 0);
    pbone(b, "arm", id, 0);
    pbone(a, "leg", x10, 0);
    pbone(b, "leg", id, 0);
    /* a 17-byte VPD name vs the 15 bytes MMD keeps in a VMD */
    pbone(a, "abcdefghijklmnopq", x10, 0);
    pbone(b, "abcdefghijklmno", id, 0);
    /* 8 two-byte characters (16 bytes) cut at the last whole character (14
     * bytes), on either side */
    pbone(a, "\x83\x5A\x83\x93\x83\x5E\x81\x5B\x83\x5A\x83\x93\x83\x5E\x81\x5B", x10, 0);
    pbone(b, "\x83\x5A\x83\x93\x83\x5E\x81\x5B\x83\x5A\x83\x93\x83\x5E", id, 0);
    pbone(a, "\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A", x10, 0);
    pbone(b, "\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A\x83\x5A", id, 0);
    pk_diff *d = pk_diff_poses(a, b, NULL, NULL);
    assert_int_equal(d->nbones, 5);
    const pk_diff_bone *r = find_bone(d, "abcdefghijklmnopq");
    assert_int_equal(r->only_in, PK_DIFF_BOTH);
    assert_float_equal(r->angle_deg, 10.0, 1e-4);
    r = find_bone(d, "センターセンター");
    assert_int_equal(r->only_in, PK_DIFF_BOTH);
    assert_float_equal(r->angle_deg, 10.0, 1e-4);
    r = find_bone(d, "セセセセセセセ"); /* A's cut name, B's full name */
    assert_int_equal(r->only_in, PK_DIFF_BOTH);
    assert_float_equal(r->angle_deg, 10.0, 1e-4);
    pk_diff_free(d);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.bone_filter = only_arm;
    d = pk_diff_poses(a, b, &o, NULL);
    assert_int_equal(d->nbones, 1);
    assert_string_equal(d->bones[0].name, "arm");
    pk_diff_free(d);
    pk_pose_free(a);
    pk_pose_free(b);
}

/* Per-group summary: membership by names, globs, nested groups and cut
 * names; counts, the largest bone, the order (largest angle, then
 * distance), and groups with no compared bone left out. */
static void group_summary(void **state)
{
    (void)state;
    static const char yaml[] = "groups:\n"
                               "  left: [armL, \"fingerL*\"]\n"
                               "  right: [armR]\n"
                               "  both: [\"@left\", \"@right\"]\n"
                               "  long: [abcdefghijklmnopq]\n"
                               "  absent: [nothere]\n";
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_parse(yaml, sizeof yaml - 1, "g.yaml", &log);
    assert_non_null(r);
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1}, x30[4], x10[4];
    axis_angle(0, 30, x30);
    axis_angle(0, 10, x10);
    pbone(a, "armL", x30, 0);
    pbone(b, "armL", id, 0); /* 30 degrees */
    pbone(a, "fingerL1", x10, 0);
    pbone(b, "fingerL1", id, 0); /* 10 degrees */
    pbone(a, "fingerL2", x10, 0);
    pbone(b, "fingerL2", x10, 0); /* the same */
    pbone(a, "armR", id, 0);
    pbone(b, "armR", id, 2); /* moved 2, not turned */
    pbone(a, "abcdefghijklmnopq", x10, 0);
    pbone(b, "abcdefghijklmno", id, 0); /* cut to 15 bytes: 10 degrees */
    pbone(a, "other", x30, 0);
    pbone(b, "other", id, 0); /* in no group of ours */
    pk_diff *d = pk_diff_poses(a, b, NULL, &log);
    assert_non_null(d);
    pk_diff_sort(d);
    size_t n = 99;
    pk_diff_group *g = pk_diff_groups(d, r, &n, &log);
    assert_non_null(g);
    assert_int_equal(log.errors, 0);
    assert_int_equal(n, 4); /* absent and the standard groups hold none */
    static const char *const want[] = {"both", "left", "long", "right"};
    static const size_t bones[] = {4, 3, 1, 1}, differ[] = {3, 2, 1, 1};
    static const char *const top[] = {"armL", "armL", "abcdefghijklmnopq", "armR"};
    static const double deg[] = {30, 30, 10, 0}, pos[] = {2, 0, 0, 2};
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(g[i].name, want[i]);
        assert_int_equal(g[i].bones, bones[i]);
        assert_int_equal(g[i].bones_differ, differ[i]);
        assert_non_null(g[i].top);
        assert_string_equal(g[i].top->name, top[i]);
        assert_float_equal(g[i].top->angle_deg, deg[i], 1e-4);
        assert_float_equal(g[i].max_pos, pos[i], 1e-6);
    }
    free(g);
    /* The same with no difference at all: every group kept, none differs. */
    pk_diff_free(d);
    d = pk_diff_poses(a, a, NULL, &log);
    g = pk_diff_groups(d, r, &n, &log);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(g[i].bones_differ, 0);
        assert_null(g[i].top);
    }
    free(g);
    pk_diff_free(d);
    pk_pose_free(a);
    pk_pose_free(b);
    pk_rules_free(r);
    pk_log_free(&log);
}

static pk_bone_key *mkey(pk_motion *m, const char *name, uint32_t frame, const float rot[4])
{
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = pk_names_intern(m->names, name, strlen(name));
    k->frame = frame;
    memcpy(k->rot, rot, sizeof k->rot);
    pk_interp_linear(k->interp);
    return k;
}

static void motion_ranges(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    float id[4] = {0, 0, 0, 1}, x90[4];
    axis_angle(0, 90, x90);
    /* A: 0 -> 90 degrees over frames 0..10 (linear); B: identity.  The
     * angle at frame f is 9f degrees: max 90 at frame 10, mean over 0..10
     * = 45. */
    mkey(a, "arm", 0, id);
    mkey(a, "arm", 10, x90);
    mkey(b, "arm", 0, id);
    mkey(b, "still", 0, id);
    mkey(a, "still", 0, id);
    tu_morph_key(b, "blink", 4, 1.0f);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.keep_frames = true;
    pk_log log;
    pk_log_init(&log);
    pk_diff *d = pk_diff_motions(a, b, 0, 10, &o, &log);
    assert_non_null(d);
    assert_true(d->range);
    const pk_diff_bone *r = find_bone(d, "arm");
    assert_float_equal(r->angle_deg, 90.0, 1e-4);
    assert_int_equal(r->angle_frame, 10);
    assert_float_equal(r->angle_mean, 45.0, 1e-3);
    for (int f = 0; f <= 10; f++)
        assert_float_equal(r->frames[f], (float)(9 * f), 1e-3);
    r = find_bone(d, "still");
    assert_false(r->differs);
    assert_int_equal(d->bones_differ, 1);
    assert_int_equal(d->nmorphs, 1);
    assert_int_equal(d->morphs[0].only_in, PK_DIFF_ONLY_B);
    assert_float_equal(d->morphs[0].delta, 1.0, 0);
    assert_int_equal(d->morphs[0].frame, 0); /* held before its first key */
    pk_diff_free(d);
    /* a sub-range: frames 2..4 -> max 36 at 4, mean 27 */
    d = pk_diff_motions(a, b, 2, 4, NULL, &log);
    r = find_bone(d, "arm");
    assert_float_equal(r->angle_deg, 36.0, 1e-4);
    assert_int_equal(r->angle_frame, 4);
    assert_float_equal(r->angle_mean, 27.0, 1e-3);
    assert_null(r->frames);
    pk_diff_free(d);
    assert_null(pk_diff_motions(a, b, 5, 4, NULL, &log));
    tu_assert_log_has(&log, "empty frame range");
    pk_log_free(&log);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* Tracks with the same key bytes in both motions take a short way (no
 * sampling); it must give what the walk gives: 0 everywhere, maxima at the
 * range's first frame, the per-frame array zeroed.  A track that differs
 * only in one curve byte, or only in a key's frame, must still be walked. */
static void same_tracks_take_the_short_way(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    float id[4] = {0, 0, 0, 1}, x90[4];
    axis_angle(0, 90, x90);
    const char *names[] = {"same", "curve", "moved"};
    for (int m = 0; m < 2; m++) {
        pk_motion *mo = m ? b : a;
        for (int i = 0; i < 3; i++) {
            mkey(mo, names[i], 0, id);
            pk_bone_key *k = mkey(mo, names[i], i == 2 && m ? 21 : 20, x90);
            k->pos[1] = 2.0f;
            k->interp[16 * 3 + 0] = 100; /* an eased rotation curve: x1 */
            if (i == 1 && m)
                k->interp[16 * 3 + 4] = 90; /* y1 differs in B only */
        }
        tu_morph_key(mo, "blink", 12, 0.75f);
    }
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.keep_frames = true;
    o.bins = 4;
    pk_diff *d = pk_diff_motions(a, b, 3, 30, &o, NULL);
    assert_non_null(d);
    const pk_diff_bone *r = find_bone(d, "same");
    assert_false(r->differs);
    assert_true(r->angle_deg == 0.0 && r->pos_delta == 0.0);
    assert_true(r->angle_mean == 0.0 && r->pos_mean == 0.0);
    assert_int_equal(r->angle_frame, 3);
    assert_int_equal(r->pos_frame, 3);
    for (int f = 0; f <= 27; f++)
        assert_true(r->frames[f] == 0.0f);
    for (int i = 0; i < 4; i++)
        assert_true(r->bin_deg[i] == 0.0f && r->bin_pos[i] == 0.0f);
    r = find_bone(d, "curve");
    assert_true(r->differs);
    assert_true(r->angle_deg > 0.1);
    assert_float_equal(r->pos_delta, 0.0, 0); /* X/Y/Z curves are the same */
    r = find_bone(d, "moved");
    assert_true(r->differs);
    assert_true(r->pos_delta > 0.0);
    assert_int_equal(d->nmorphs, 1);
    assert_false(d->morphs[0].differs);
    assert_int_equal(d->morphs[0].frame, 3);
    assert_float_equal(d->morphs[0].weight_a, 0.75, 0);
    assert_float_equal(d->morphs[0].weight_b, 0.75, 0);
    assert_true(d->morphs[0].delta == 0.0 && d->morphs[0].mean == 0.0);
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
}

static void identical_corpus_motion_has_no_difference(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("vmd_wavefile_v2.vmd");
    if (!path)
        skip();
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_motion *m = pk_vmd_read(data, len, NULL);
    assert_non_null(m);
    pk_motion *c = pk_motion_clone(m);
    pk_diff *d = pk_diff_motions(m, c, 0, 300, NULL, NULL);
    assert_non_null(d);
    assert_false(pk_diff_any(d));
    assert_true(d->nbones > 50);
    pk_diff_free(d);
    /* rotate one key of one bone by 30 degrees about Y: the diff finds it
     * at that key's frame with 30 degrees */
    size_t k = 0;
    while (k < c->nbones && (c->bones[k].frame == 0 || c->bones[k].frame > 300))
        k++;
    assert_true(k < c->nbones);
    float y30[4], q[4];
    axis_angle(1, 30, y30);
    pk_quat_mul(c->bones[k].rot, y30, q);
    memcpy(c->bones[k].rot, q, sizeof q);
    d = pk_diff_motions(m, c, 0, 300, NULL, NULL);
    pk_diff_sort(d);
    assert_true(pk_diff_any(d));
    assert_string_equal(d->bones[0].name, pk_names_utf8(c->names, c->bones[k].name));
    assert_float_equal(d->bones[0].angle_deg, 30.0, 1e-3);
    assert_int_equal(d->bones[0].angle_frame, c->bones[k].frame);
    pk_diff_free(d);
    pk_motion_free(c);
    pk_motion_free(m);
    free(data);
}

/* A range longer than PK_DIFF_MAX_FRAMES (a damaged file with a key at
 * frame 4e9) is refused at once, naming the range, instead of sampling for
 * hours; the longest allowed range still works. */
static void absurd_ranges_refused(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    float id[4] = {0, 0, 0, 1};
    mkey(a, "arm", 0, id);
    mkey(b, "arm", 4000000000u, id);
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_diff_motions(a, b, 0, 4000000000u, NULL, &log));
    tu_assert_log_has(&log, "frame range 0-4000000000 is 4000000001 frames; at most 1000000");
    pk_log_free(&log);
    pk_log_init(&log);
    pk_diff *d = pk_diff_motions(a, b, 5, 5 + PK_DIFF_MAX_FRAMES - 1, NULL, &log);
    assert_non_null(d);
    assert_int_equal(log.errors, 0);
    pk_diff_free(d);
    pk_log_free(&log);
    pk_motion_free(a);
    pk_motion_free(b);
}

static bool name_is(void *ctx, const uint8_t *raw, size_t len)
{
    return strlen(ctx) == len && memcmp(ctx, raw, len) == 0;
}

/* The filter applies to morphs too (a selection
 * that names no morph compares none), and a filter that keeps nothing on
 * either side is an error naming it, for poses and motions alike. */
static void filter_selects_morphs_and_must_match(void **state)
{
    (void)state;
    pk_pose *a = pk_pose_new(), *b = pk_pose_new();
    float id[4] = {0, 0, 0, 1};
    pbone(a, "arm", id, 0);
    pbone(b, "arm", id, 0);
    pmorph(b, "blink", 1.0f);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.bone_filter = name_is;
    o.filter_ctx = (void *)"arm";
    pk_diff *d = pk_diff_poses(a, b, &o, NULL);
    assert_int_equal(d->nbones, 1);
    assert_int_equal(d->nmorphs, 0); /* "arm" names no morph */
    assert_false(pk_diff_any(d));
    pk_diff_free(d);
    o.filter_ctx = (void *)"blink";
    d = pk_diff_poses(a, b, &o, NULL);
    assert_int_equal(d->nbones, 0);
    assert_int_equal(d->nmorphs, 1);
    assert_true(pk_diff_any(d));
    pk_diff_free(d);
    o.filter_ctx = (void *)"nothing";
    o.filter_spec = "nothing";
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_diff_poses(a, b, &o, &log));
    tu_assert_log_has(&log, "the selection 'nothing' matches no bone or morph of either input");
    pk_log_free(&log);
    pk_motion *ma = pk_pose_to_motion(a, 0, NULL), *mb = pk_pose_to_motion(b, 0, NULL);
    pk_log_init(&log);
    assert_null(pk_diff_motions(ma, mb, 0, 10, &o, &log));
    tu_assert_log_has(&log, "matches no bone or morph");
    pk_log_free(&log);
    pk_motion_free(ma);
    pk_motion_free(mb);
    pk_pose_free(a);
    pk_pose_free(b);
}

/* Bins hold each run's largest difference, agree with
 * the per-frame values, and a range far past the last key costs one
 * sample for the tail while the maximum, its frame and the mean stay
 * exact. */
static void bins_and_tails(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    float id[4] = {0, 0, 0, 1}, x90[4];
    axis_angle(0, 90, x90);
    mkey(a, "arm", 0, id);
    mkey(a, "arm", 10, x90); /* 9f degrees at frame f <= 10, then 90 */
    mkey(b, "arm", 0, id);
    pk_bone_key *k = mkey(b, "move", 5, id);
    k->pos[1] = 2.0f; /* only in B: 2 units from the rest pose throughout */
    tu_morph_key(a, "blink", 3, 0.5f);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.bins = 4;
    o.keep_frames = true;
    pk_diff *d = pk_diff_motions(a, b, 0, 19, &o, NULL); /* 20 frames: 5 per bin */
    assert_int_equal(d->nbins, 4);
    const pk_diff_bone *r = find_bone(d, "arm");
    assert_float_equal(r->bin_deg[0], 36.0, 1e-3); /* frames 0-4 */
    assert_float_equal(r->bin_deg[1], 81.0, 1e-3); /* 5-9 */
    assert_float_equal(r->bin_deg[2], 90.0, 1e-3);
    assert_float_equal(r->bin_deg[3], 90.0, 1e-3);
    for (int f = 0; f < 20; f++)
        assert_float_equal(r->frames[f], f <= 10 ? 9.0f * (float)f : 90.0f, 1e-3);
    assert_float_equal(r->angle_mean, (9.0 * 55 + 90.0 * 9) / 20, 1e-3);
    r = find_bone(d, "move");
    for (int c = 0; c < 4; c++)
        assert_float_equal(r->bin_pos[c], 2.0, 1e-6);
    assert_float_equal(d->morphs[0].bins[0], 0.5, 1e-6);
    assert_float_equal(d->morphs[0].delta, -0.5, 1e-6);
    pk_diff_free(d);
    /* more bins than frames: one per frame */
    o.bins = 100;
    o.keep_frames = false;
    d = pk_diff_motions(a, b, 8, 12, &o, NULL);
    assert_int_equal(d->nbins, 5);
    r = find_bone(d, "arm");
    assert_float_equal(r->bin_deg[0], 72.0, 1e-3);
    assert_float_equal(r->bin_deg[4], 90.0, 1e-3);
    pk_diff_free(d);
    /* the longest range: exact maximum, frame and mean; bins all 90 */
    o.bins = 600;
    d = pk_diff_motions(a, b, 0, PK_DIFF_MAX_FRAMES - 1, &o, NULL);
    r = find_bone(d, "arm");
    assert_float_equal(r->angle_deg, 90.0, 1e-4);
    assert_int_equal(r->angle_frame, 10);
    double n = PK_DIFF_MAX_FRAMES;
    assert_true(fabs(r->angle_mean - (9.0 * 55 + 90.0 * (n - 11)) / n) < 1e-6);
    assert_float_equal(r->bin_deg[0], 90.0, 1e-3);
    assert_float_equal(r->bin_deg[599], 90.0, 1e-3);
    assert_int_equal(d->morphs[0].frame, 0);
    assert_float_equal(d->morphs[0].mean, 0.5, 1e-6);
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* A range diff walks bones in blocks of frames (PKI_DIFF_BLOCK, 128): its
 * maxima, frames, means and per-frame angles over 600 frames of random
 * keys match the sampler's poses compared frame by frame.  "arm" moves on
 * both sides; "still" keeps one translation throughout on each side (2
 * apart), which the diff folds in at once instead of frame by frame;
 * "settles" stops turning at frame ~200 and moving at ~300 but is keyed
 * again up to 450 (the walk stops at ~300 and folds in the rest at once). */
static void blocks_match_frame_by_frame(void **state)
{
    (void)state;
    static const char *const names[3] = {"arm", "still", "settles"};
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    uint32_t s = 99;
    for (int side = 0; side < 2; side++) {
        pk_motion *m = side ? b : a;
        for (int bone = 0; bone < 3; bone++) {
            float q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
            for (uint32_t f = side * 3u + bone; f <= 450;
                 f += 1 + (s = s * 1103515245u + 12345u) % 23) {
                if (bone < 2 || f < 200 + side * 9u) /* "settles": rotation still from ~200 */
                    for (int i = 0; i < 4; i++)
                        q[i] = (float)((s = s * 1103515245u + 12345u) >> 8) / 16777216.0f - 0.5f;
                pk_bone_key *k = mkey(m, names[bone], f, q);
                if (bone == 0) {
                    k->pos[0] = (float)(f % 7);
                } else if (bone == 2) {
                    k->pos[1] = f < 300 ? (float)(f % 5) : 4.0f; /* still from ~300 */
                } else {
                    k->pos[0] = 1.0f;
                    k->pos[2] = side ? 5.0f : 3.0f;
                }
                uint8_t cp[4][4] = {{20, 0, 100, 127},
                                    {20, 0, 100, 127},
                                    {20, 0, 100, 127},
                                    {(uint8_t)(f % 128), 10, 90, 117}};
                pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
            }
        }
    }
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.keep_frames = true;
    o.bins = 7;
    const uint32_t first = 7, last = 606; /* blocks end mid-range; a tail past 450 */
    const size_t n = last - first + 1;
    pk_diff *d = pk_diff_motions(a, b, first, last, &o, NULL);
    assert_non_null(d);
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    for (int bone = 0; bone < 3; bone++) {
        const pk_diff_bone *r = find_bone(d, names[bone]);
        double max = -1.0, sum = 0.0, pmax = -1.0, psum = 0.0, bins[7] = {0}, pbins[7] = {0};
        uint32_t at = 0, pat = 0;
        for (uint32_t f = first; f <= last; f++) {
            pk_pose *pa = pk_motion_sample(a, ta, f, NULL), *pb = pk_motion_sample(b, tb, f, NULL);
            const pk_pose_bone *xa = &pa->bones[bone], *xb = &pb->bones[bone];
            assert_string_equal(pk_names_utf8(pa->names, xa->name), names[bone]);
            double deg = pk_quat_angle_deg(xa->rot, xb->rot), dist = 0.0;
            for (int i = 0; i < 3; i++)
                dist += ((double)xa->pos[i] - xb->pos[i]) * ((double)xa->pos[i] - xb->pos[i]);
            dist = sqrt(dist);
            assert_true(fabs(r->frames[f - first] - deg) <= 1e-4);
            if (deg > max) {
                max = deg;
                at = f;
            }
            if (dist > pmax) {
                pmax = dist;
                pat = f;
            }
            sum += deg;
            psum += dist;
            size_t bin = 0; /* bin c: offsets c n / 7 .. (c + 1) n / 7 - 1 */
            while ((bin + 1) * n / 7 <= f - first)
                bin++;
            bins[bin] = fmax(bins[bin], deg);
            pbins[bin] = fmax(pbins[bin], dist);
            pk_pose_free(pa);
            pk_pose_free(pb);
        }
        assert_true(max > 10.0);
        assert_true(fabs(r->angle_deg - max) <= 1e-4);
        assert_int_equal(r->angle_frame, at);
        assert_true(fabs(r->angle_mean - sum / (double)n) <= 1e-4);
        assert_true(fabs(r->pos_delta - pmax) <= 1e-5);
        assert_int_equal(r->pos_frame, pat);
        assert_true(fabs(r->pos_mean - psum / (double)n) <= 1e-5);
        for (int c = 0; c < 7; c++) {
            assert_true(fabs(r->bin_deg[c] - bins[c]) <= 1e-4);
            assert_true(fabs(r->bin_pos[c] - pbins[c]) <= 1e-5);
        }
    }
    const pk_diff_bone *still = find_bone(d, "still");
    assert_true(fabs(still->pos_delta - 2.0) <= 1e-6 && still->pos_frame == first);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* A morph keyed again at the weight it already holds stops changing at
 * the first of those keys: the walk folds in the rest at once, and the
 * rows are what every frame gives (linear between keys). */
static void morph_still_after_repeated_keys(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    static const uint32_t frames[5] = {0, 50, 100, 200, 300};
    static const float weights[5] = {0.0f, 1.0f, 0.5f, 0.5f, 0.5f};
    for (int i = 0; i < 5; i++) {
        tu_morph_key(a, "smile", frames[i], weights[i]);
    }
    tu_morph_key(b, "smile", 0, 0.25f);
    pk_diff_options o;
    pk_diff_options_init(&o);
    pk_diff *d = pk_diff_motions(a, b, 20, 400, &o, NULL);
    assert_int_equal(d->nmorphs, 1);
    double sum = 0.0;
    for (uint32_t f = 20; f <= 400; f++) {
        double w = f <= 50 ? f / 50.0 : f <= 100 ? 1.0 - 0.5 * (f - 50) / 50.0 : 0.5;
        sum += fabs(w - 0.25);
    }
    assert_true(fabs(fabs(d->morphs[0].delta) - 0.75) <= 1e-6);
    assert_int_equal(d->morphs[0].frame, 50);
    assert_true(fabs(d->morphs[0].mean - sum / 381.0) <= 1e-6);
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* A NaN translation or weight is a difference, at a frame and over a
 * range, and a distance is never the walk's -1 start (which would say
 * "0 of 1 differ", exit 0, and -1.0 as the largest distance). */
static void nan_differs(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    float id[4] = {0, 0, 0, 1};
    pk_bone_key *k = mkey(a, "neck", 0, id);
    k->pos[0] = NAN;
    mkey(a, "neck", 10, id); /* finite again from frame 10 */
    mkey(b, "neck", 0, id);
    tu_morph_key(a, "a", 0, NAN);
    tu_morph_key(b, "a", 0, 0.0f);
    pk_diff_options o;
    pk_diff_options_init(&o);
    for (int range = 0; range < 2; range++) {
        pk_diff *d = pk_diff_motions(a, b, 0, range ? 20 : 0, &o, NULL);
        assert_non_null(d);
        const pk_diff_bone *r = find_bone(d, "neck");
        assert_true(isnan(r->pos_delta));
        assert_int_equal(r->pos_frame, 0);
        assert_true(r->differs);
        assert_true(d->morphs[0].differs);
        assert_int_equal(d->bones_differ, 1);
        pk_diff_free(d);
        /* a motion compared with itself is the same, NaN and infinity
         * included (it must not "differ" by nan) */
        a->bones[1].pos[1] = INFINITY;
        d = pk_diff_motions(a, a, 0, range ? 20 : 0, &o, NULL);
        assert_int_equal(d->bones_differ, 0);
        assert_int_equal(d->morphs_differ, 0);
        assert_true(find_bone(d, "neck")->pos_delta == 0.0);
        pk_diff_free(d);
        a->bones[1].pos[1] = 0.0f;
    }
    pk_motion_free(a);
    pk_motion_free(b);
}

static const pk_diff_scene *find_scene(const pk_diff *d, const char *name)
{
    for (size_t i = 0; i < d->nscene; i++)
        if (strcmp(d->scene[i].name, name) == 0)
            return &d->scene[i];
    fail_msg("no row for %s", name);
    abort();
}

/* Cameras, lights and self-shadows are compared, in
 * their units; a section keyed on one side only against MMD's default. */
static void scene_channels(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    pk_camera_key *c = pk_motion_push_camera(a);
    c->frame = 0;
    c->distance = -45;
    c->pos[1] = 10;
    c->fov = 30;
    pk_camera_interp_linear(c->interp);
    c = pk_motion_push_camera(b);
    c->frame = 0;
    c->distance = -40; /* 5 units */
    c->pos[0] = 3;
    c->pos[1] = 14; /* 3,4 -> 5 units */
    c->rot[1] = (float)(20 * DEG);
    c->fov = 45;
    pk_camera_interp_linear(c->interp);
    pk_light_key *l = pk_motion_push_light(a);
    l->direction[0] = 1;
    l->color[0] = 0.5f;
    l = pk_motion_push_light(b);
    l->frame = 10;
    l->direction[1] = 2; /* 90 degrees away, length does not matter */
    l->color[0] = 0.75f;
    pk_shadow_key *s = pk_motion_push_shadow(b);
    s->mode = 2;
    s->distance = (10000.0f - 8800.0f) / 100000.0f; /* 75 slider units from the default */
    pk_diff *d = pk_diff_motions(a, b, 0, 20, NULL, NULL);
    assert_non_null(d);
    assert_int_equal(d->nbones + d->nmorphs, 0);
    assert_int_equal(d->nscene, 9);
    assert_float_equal(find_scene(d, "camera position")->delta, 5.0, 1e-5);
    assert_string_equal(find_scene(d, "camera position")->unit, "units");
    assert_float_equal(find_scene(d, "camera distance")->delta, 5.0, 1e-5);
    assert_float_equal(find_scene(d, "camera rotation")->delta, 20.0, 1e-4);
    assert_float_equal(find_scene(d, "camera fov")->delta, 15.0, 1e-9);
    assert_false(find_scene(d, "camera perspective")->differs);
    assert_float_equal(find_scene(d, "light direction")->delta, 90.0, 1e-4);
    assert_float_equal(find_scene(d, "light colour")->delta, 0.25, 1e-6);
    const pk_diff_scene *r = find_scene(d, "shadow mode");
    assert_int_equal(r->only_in, PK_DIFF_ONLY_B);
    assert_true(r->differs);
    assert_float_equal(find_scene(d, "shadow distance")->delta, 75.0, 1e-2);
    assert_int_equal(d->scene_differ, 8);
    assert_true(pk_diff_any(d));
    pk_diff_free(d);
    /* camera angles differ the short way round (179 and -179 degrees of
     * yaw are 2 apart, not 358) */
    a->cameras[0].rot[1] = (float)(179 * DEG);
    b->cameras[0].rot[1] = (float)(-179 * DEG);
    d = pk_diff_motions(a, b, 0, 0, NULL, NULL);
    assert_float_equal(find_scene(d, "camera rotation")->delta, 2.0, 1e-4);
    pk_diff_free(d);
    a->cameras[0].rot[1] = 0.0f;
    b->cameras[0].rot[1] = (float)(20 * DEG);
    /* the same motion: nothing differs; a pose diff adds the rows at a frame */
    d = pk_diff_motions(a, a, 0, 20, NULL, NULL);
    assert_int_equal(d->nscene, 7);
    assert_false(pk_diff_any(d));
    pk_diff_free(d);
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.no_scene = true;
    d = pk_diff_motions(a, b, 0, 20, &o, NULL);
    assert_int_equal(d->nscene, 0);
    assert_true(pk_diff_add_scene(d, a, b, 0, 0, NULL, NULL));
    assert_int_equal(d->nscene, 9);
    assert_float_equal(find_scene(d, "light colour")->delta, 0.25, 1e-6); /* held at frame 0 */
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* IK on/off and model display: keys hold until the next one; a bone a key
 * does not list, and a motion without IK keys, has IK on and the model
 * shown.  A has the legs' IK off from frame 10 and hides the model from
 * 20; B lists only the left leg, off from frame 15, in another name table
 * order. */
static void ik_switches(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    pk_name_id la = pk_names_intern_utf8(a->names, "左足ＩＫ", 20, "IK", NULL);
    pk_name_id ra = pk_names_intern_utf8(a->names, "右足ＩＫ", 20, "IK", NULL);
    pk_ik_key *k = pk_motion_push_ik(a, 2);
    k->frame = 0;
    k->show = 1;
    k->ik[0] = (pk_ik_state){la, 0, 1};
    k->ik[1] = (pk_ik_state){ra, 0, 1};
    k = pk_motion_push_ik(a, 2);
    k->frame = 10;
    k->show = 1;
    k->ik[0] = (pk_ik_state){la, 0, 0};
    k->ik[1] = (pk_ik_state){ra, 0, 0};
    k = pk_motion_push_ik(a, 2);
    k->frame = 20;
    k->show = 0;
    k->ik[0] = (pk_ik_state){la, 0, 0};
    k->ik[1] = (pk_ik_state){ra, 0, 0};
    pk_names_intern_utf8(b->names, "センター", 20, "bone", NULL); /* other ids than A's */
    pk_name_id lb = pk_names_intern_utf8(b->names, "左足ＩＫ", 20, "IK", NULL);
    k = pk_motion_push_ik(b, 1);
    k->frame = 15;
    k->show = 1;
    k->ik[0] = (pk_ik_state){lb, 0, 0};
    pk_diff *d = pk_diff_motions(a, b, 0, 29, NULL, NULL);
    assert_non_null(d);
    const pk_diff_scene *sw = find_scene(d, "ik switches"), *show = find_scene(d, "model display");
    /* 0-9 both on (B's only key, at 15, holds before it: left off, so 1);
     * 10-14 A both off, B left off: 1 (right); 15-29 the same: 1 */
    assert_float_equal(sw->delta, 1.0, 0);
    assert_int_equal(sw->frame, 0);
    assert_float_equal(sw->mean, 1.0, 1e-12);
    assert_true(sw->differs);
    assert_float_equal(show->delta, 1.0, 0);
    assert_int_equal(show->frame, 20);
    assert_true(fabs(show->mean - 10.0 / 30.0) < 1e-12);
    assert_int_equal(d->scene_differ, 2);
    pk_diff_free(d);
    /* against a motion without IK keys: A's legs off from 10 = 2 switches */
    pk_motion *c = pk_motion_new();
    d = pk_diff_motions(a, c, 0, 29, NULL, NULL);
    sw = find_scene(d, "ik switches");
    assert_float_equal(sw->delta, 2.0, 0);
    assert_int_equal(sw->frame, 10);
    assert_int_equal(sw->only_in, PK_DIFF_ONLY_A);
    pk_diff_free(d);
    d = pk_diff_motions(a, a, 0, 29, NULL, NULL);
    assert_false(pk_diff_any(d));
    pk_diff_free(d);
    pk_motion_free(a);
    pk_motion_free(b);
    pk_motion_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pose_angles_and_distances),
        cmocka_unit_test(thresholds),
        cmocka_unit_test(one_side_rows_and_morphs),
        cmocka_unit_test(filter_and_cut_names),
        cmocka_unit_test(group_summary),
        cmocka_unit_test(motion_ranges),
        cmocka_unit_test(absurd_ranges_refused),
        cmocka_unit_test(identical_corpus_motion_has_no_difference),
        cmocka_unit_test(filter_selects_morphs_and_must_match),
        cmocka_unit_test(bins_and_tails),
        cmocka_unit_test(blocks_match_frame_by_frame),
        cmocka_unit_test(morph_still_after_repeated_keys),
        cmocka_unit_test(nan_differs),
        cmocka_unit_test(same_tracks_take_the_short_way),
        cmocka_unit_test(scene_channels),
        cmocka_unit_test(ik_switches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
