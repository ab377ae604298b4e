/* test_play.c — a motion played on a model (engine/ops/skeleton/play.c)
 * and one track sampled alone (engine/ops/sample/sample.c): a play that
 * takes the rows of an earlier one where their inputs did not change gives
 * every row bit for bit as a play from nothing, evaluates only the rows
 * an edit reached and samples only the tracks whose keys changed, solves
 * a chain held still (the same inputs as the row before) once;
 * pki_track_named and pki_tracks_named give the keys
 * pk_tracks_build gives the track (frame order, the later record of a duplicated frame). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "ops/sample/sample.h"
#include "ops/skeleton/play.h"

/* ---- a hand-built leg: hip, knee, ankle, toe; 右足ＩＫ on the ankle ---- */

typedef struct hb {
    pk_model m;
    pk_model_bone b[7];
    pk_model_ik_link l[2];
} hb;

static int hb_bone(hb *h, const char *name, int parent, float x, float y, float z)
{
    int i = (int)h->m.nbones++;
    pk_model_bone *b = &h->b[i];
    tu_model_bone(&h->m, b, name, parent, x, y, z);
    return i;
}

static void hb_leg(hb *h)
{
    memset(h, 0, sizeof *h);
    h->m.bones = h->b;
    h->m.format = PK_FMT_PMX;
    h->m.name = "leg";
    h->m.names = pk_names_new();
    assert_non_null(h->m.names);
    int centre = hb_bone(h, "センター", -1, 0, 10, 0);
    hb_bone(h, "上半身", centre, 0, 11, 0);
    int hip = hb_bone(h, "右足", centre, 0, 10, 0);
    int knee = hb_bone(h, "右ひざ", hip, 0, 5, -0.2f);
    int ankle = hb_bone(h, "右足首", knee, 0, 0, 0);
    hb_bone(h, "右つま先", ankle, 0, 0, -2);
    int ik = hb_bone(h, "右足ＩＫ", -1, 0, 0, 0);
    h->b[ik].flags |= PK_BONE_IK;
    h->b[ik].ik_target = ankle;
    h->b[ik].ik_loops = 40;
    h->b[ik].ik_limit = 2.0f;
    h->l[0].bone = knee;
    h->l[1].bone = hip;
    h->b[ik].ik_links = h->l;
    h->b[ik].nik_links = 2;
}

/* The hips sway and the foot steps: every frame of 0..60 moves; *at30:
 * the foot's key at frame 30. */
static pk_motion *walk(size_t *at30)
{
    pk_motion *mo = pk_motion_new();
    assert_non_null(mo);
    for (uint32_t f = 0; f <= 60; f += 10) {
        tu_bone_key(mo, "センター", f)->pos[1] = -1.0f - 0.2f * (float)(f % 20);
        pk_bone_key *k = tu_bone_key(mo, "右足ＩＫ", f);
        k->pos[2] = 0.1f * (float)f - 3.0f;
        k->pos[1] = (f % 20) ? 1.0f : 0.0f;
        if (f == 30)
            *at30 = (size_t)(k - mo->bones);
        tu_bone_key(mo, "上半身", f);
    }
    return mo;
}

/* The walk on the built leg, its log opened; WALK_WATCH marks the bones
 * the tests below keep. */
static const bool WALK_WATCH[7] = {false, true, true, true, true, true, false};

static pk_motion *walk_on_leg(hb *h, size_t *at30, pk_log *log)
{
    hb_leg(h);
    *at30 = 0;
    pk_log_init(log);
    return walk(at30);
}

static void walk_done(hb *h, pk_motion *mo, pk_log *log)
{
    pk_log_free(log);
    pk_motion_free(mo);
    pk_names_free(h->m.names);
}

static void play_again_same_rows(void **state)
{
    (void)state;
    hb h;
    size_t at30;
    pk_log log;
    pk_motion *mo = walk_on_leg(&h, &at30, &log);
    bool watch[7]; /* changed below */
    memcpy(watch, WALK_WATCH, sizeof watch);
    pki_play first, again, fresh;
    assert_int_equal(pki_play_motion(&first, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(first.evaluated, 61);
    assert_int_equal(first.sampled, 3);
    assert_int_equal(first.solved, 61);
    /* nothing changed: every row taken */
    assert_int_equal(pki_play_motion_again(&again, &first, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(again.evaluated, 0);
    assert_int_equal(again.sampled, 0);
    assert_int_equal(again.solved, 0);
    assert_memory_equal(again.w, first.w, 61 * first.nwatch * sizeof *first.w);
    pki_play_free(&again);
    /* the key at frame 30 moved: frames 21..39 change (linear pieces) */
    mo->bones[at30].pos[0] = 0.5f;
    assert_int_equal(pki_play_motion_again(&again, &first, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(pki_play_motion(&fresh, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(again.evaluated, 19);
    size_t fresh_rows = 0;
    for (uint32_t r = 0; r < 61; r++)
        fresh_rows += again.fresh[r];
    assert_int_equal(fresh_rows, 19);
    assert_true(again.fresh[30] && !again.fresh[20] && !again.fresh[40]);
    assert_int_equal(again.sampled, 1); /* the other tracks' keys are the same */
    assert_int_equal(again.solved, 19);
    assert_memory_equal(again.w, fresh.w, 61 * fresh.nwatch * sizeof *fresh.w);
    assert_memory_not_equal(&again.w[30 * again.nwatch], &first.w[30 * first.nwatch],
                            again.nwatch * sizeof *again.w);
    pki_play_free(&again);
    /* other frames: rows matched by frame (35..39 moved, 40..44 did not) */
    assert_int_equal(pki_play_motion_again(&again, &first, &h.m, mo, 35, 10, watch, &log), 0);
    assert_int_equal(again.evaluated, 5);
    assert_memory_equal(again.w, &fresh.w[35 * fresh.nwatch], 10 * fresh.nwatch * sizeof *fresh.w);
    pki_play_free(&again);
    /* the upper body turned at frame 30: the leg's solve is taken */
    for (size_t i = 0; i < mo->nbones; i++)
        if (mo->bones[i].frame == 30 && i != at30 && mo->bones[i].pos[1] == 0.0f)
            mo->bones[i].rot[0] = 0.3f;
    pki_play fourth;
    assert_int_equal(pki_play_motion_again(&fourth, &fresh, &h.m, mo, 0, 61, watch, &log), 0);
    pki_play_free(&fresh);
    assert_int_equal(pki_play_motion(&fresh, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(fourth.evaluated, 19);
    assert_int_equal(fourth.solved, 0);
    assert_memory_equal(fourth.w, fresh.w, 61 * fresh.nwatch * sizeof *fresh.w);
    pki_play_free(&fourth);
    /* other bones watched: nothing taken */
    watch[6] = true;
    assert_int_equal(pki_play_motion_again(&again, &first, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(again.evaluated, 61);
    pki_play_free(&again);
    pki_play_free(&first);
    pki_play_free(&fresh);
    walk_done(&h, mo, &log);
}

/* A leg held still (the same keys at frames 0 and 20, a step to frame 30):
 * the rows of the hold have the same inputs, so the chain is solved once
 * for them and taken from the row before after that; every row is the
 * bits a frame evaluated alone gives. */
static void held_rows_solve_once(void **state)
{
    (void)state;
    hb h;
    hb_leg(&h);
    pk_motion *mo = pk_motion_new();
    assert_non_null(mo);
    for (uint32_t f = 0; f <= 20; f += 20) {
        tu_bone_key(mo, "センター", f)->pos[1] = -1.5f;
        tu_bone_key(mo, "右足ＩＫ", f)->pos[2] = -1.0f;
    }
    tu_bone_key(mo, "センター", 30)->pos[1] = -1.0f;
    tu_bone_key(mo, "右足ＩＫ", 30)->pos[2] = 1.0f;
    bool watch[7] = {false, true, true, true, true, true, false};
    pk_log log;
    pk_log_init(&log);
    pki_play p;
    assert_int_equal(pki_play_motion(&p, &h.m, mo, 0, 31, watch, &log), 0);
    assert_int_equal(p.evaluated, 31);
    assert_int_equal(p.solved, 1 + 10); /* frame 0, then 21..30 */
    pk_rig *rig = pk_rig_new(&h.m, &log);
    pk_tracks *t = pk_tracks_build(mo, &log);
    assert_non_null(rig);
    assert_non_null(t);
    pk_bone_local loc[7];
    pk_bone_world all[7];
    bool on[7];
    for (uint32_t f = 0; f <= 30; f++) {
        pk_rig_motion_local(rig, mo, t, (double)f, loc, on);
        pk_rig_eval(rig, loc, on, 0, all);
        for (int b = 1; b <= 5; b++)
            assert_memory_equal(pki_play_at(&p, f, b), &all[b], sizeof all[b]);
    }
    pk_tracks_free(t);
    pk_rig_free(rig);
    pki_play_free(&p);
    pk_log_free(&log);
    pk_motion_free(mo);
    pk_names_free(h.m.names);
}

/* A chain whose target its link does not carry (a target beside the arm
 * it aims): the link turns towards the IK bone as seen from the target,
 * so a solve depends on where the target is even when nothing above the
 * link moved. */
static void solve_follows_a_target_off_the_chain(void **state)
{
    (void)state;
    hb h;
    memset(&h, 0, sizeof h);
    h.m.bones = h.b;
    h.m.format = PK_FMT_PMX;
    h.m.name = "aim";
    h.m.names = pk_names_new();
    assert_non_null(h.m.names);
    int root = hb_bone(&h, "センター", -1, 0, 0, 0);
    int arm = hb_bone(&h, "右腕", root, 0, 10, 0);
    hb_bone(&h, "右ひじ", arm, 3, 10, 0);
    int mark = hb_bone(&h, "目印", -1, 0, 12, 0);
    int ik = hb_bone(&h, "右腕ＩＫ", -1, 3, 13, 0);
    h.b[ik].flags |= PK_BONE_IK;
    h.b[ik].ik_target = mark;
    h.b[ik].ik_loops = 10;
    h.b[ik].ik_limit = 1.0f;
    h.l[0].bone = arm;
    h.b[ik].ik_links = h.l;
    h.b[ik].nik_links = 1;
    pk_motion *mo = pk_motion_new();
    assert_non_null(mo);
    tu_bone_key(mo, "右腕ＩＫ", 0);
    size_t at = (size_t)(tu_bone_key(mo, "目印", 0) - mo->bones);
    tu_bone_key(mo, "目印", 10);
    bool watch[5] = {false, true, true, false, false};
    pk_log log;
    pk_log_init(&log);
    pki_play first, again, fresh;
    assert_int_equal(pki_play_motion(&first, &h.m, mo, 0, 11, watch, &log), 0);
    mo->bones[at].pos[2] = 2.0f; /* the target moves; the arm's parent does not */
    assert_int_equal(pki_play_motion_again(&again, &first, &h.m, mo, 0, 11, watch, &log), 0);
    assert_int_equal(pki_play_motion(&fresh, &h.m, mo, 0, 11, watch, &log), 0);
    assert_int_equal(again.solved, 10); /* frames 0..9 moved */
    assert_memory_equal(again.w, fresh.w, 11 * fresh.nwatch * sizeof *fresh.w);
    assert_memory_not_equal(again.w, first.w, first.nwatch * sizeof *first.w);
    pki_play_free(&first);
    pki_play_free(&again);
    pki_play_free(&fresh);
    pk_log_free(&log);
    pk_motion_free(mo);
    pk_names_free(h.m.names);
}

/* p's rows and a play from nothing of mo: the same bits. */
static void same_as_fresh(const pki_play *p, const hb *h, const pk_motion *mo, const bool *watch)
{
    pk_log log;
    pk_log_init(&log);
    pki_play fresh;
    assert_int_equal(pki_play_motion(&fresh, &h->m, mo, p->f0, p->n, watch, &log), 0);
    assert_int_equal(fresh.nwatch, p->nwatch);
    assert_memory_equal(p->w, fresh.w, (size_t)p->n * fresh.nwatch * sizeof *fresh.w);
    pki_play_free(&fresh);
    pk_log_free(&log);
}

static size_t fresh_rows(const pki_play *p)
{
    size_t k = 0;
    for (uint32_t r = 0; r < p->n; r++)
        k += p->fresh[r];
    return k;
}

/* A play updated in place (pki_play_motion_update): after each edit its
 * rows are a play from nothing's, bit for bit, and it evaluated only the
 * rows the edit reached: a key moved (the pieces either side of it, on
 * curves the cursor solves), a key added, the IK section turning the leg's
 * IK off, a track gone (rest); a leaned play is played afresh. */
static void play_update_in_place(void **state)
{
    (void)state;
    hb h;
    size_t at30;
    pk_log log;
    pk_motion *mo = walk_on_leg(&h, &at30, &log);
    const uint8_t curve[4][4] = {
        {90, 10, 30, 120}, {90, 10, 30, 120}, {90, 10, 30, 120}, {90, 10, 30, 120}};
    for (size_t i = 0; i < mo->nbones; i++) {
        pk_interp_set(mo->bones[i].interp, curve, false);
        mo->bones[i].rot[0] = 0.05f * (float)(mo->bones[i].frame % 20);
    }
    const bool *watch = WALK_WATCH;
    pki_play p;
    assert_int_equal(pki_play_motion(&p, &h.m, mo, 0, 61, watch, &log), 0);
    /* nothing changed: nothing evaluated or sampled */
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 0);
    assert_int_equal(p.sampled, 0);
    /* the key at frame 30 moved: frames 21..39 */
    mo->bones[at30].pos[0] = 0.5f;
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 19);
    assert_int_equal(fresh_rows(&p), 19);
    assert_true(p.fresh[21] && p.fresh[39] && !p.fresh[20] && !p.fresh[40]);
    assert_int_equal(p.sampled, 1);
    same_as_fresh(&p, &h, mo, watch);
    /* a key added at frame 45: frames 41..49 */
    pk_bone_key *k = tu_bone_key(mo, "右足ＩＫ", 45);
    k->pos[2] = 2.0f;
    pk_interp_set(k->interp, curve, false);
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 9);
    assert_true(p.fresh[41] && p.fresh[49] && !p.fresh[40] && !p.fresh[50]);
    same_as_fresh(&p, &h, mo, watch);
    /* the leg's IK off from frame 50: frames 50..60 */
    pk_ik_key *ik = pk_motion_push_ik(mo, 1);
    assert_non_null(ik);
    ik->frame = 50;
    ik->ik[0].name =
        pk_names_intern(mo->names, (const uint8_t *)"\x89\x45\x91\xab\x82\x68\x82\x6a", 8);
    ik->ik[0].enabled = 0;
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 11);
    assert_int_equal(p.sampled, 0);
    same_as_fresh(&p, &h, mo, watch);
    /* 上半身's track gone (its keys renamed to a bone the model lacks):
     * every row where it turned takes the rest */
    pk_name_id other = pk_names_intern(mo->names, (const uint8_t *)"x", 1);
    size_t turned = 0;
    for (size_t i = 0; i < mo->nbones; i++)
        if (mo->bones[i].pos[0] == 0.0f && mo->bones[i].pos[1] == 0.0f &&
            mo->bones[i].pos[2] == 0.0f) {
            mo->bones[i].name = other;
            turned++;
        }
    assert_int_equal(turned, 7); /* 上半身's keys at 0, 10, ..., 60 */
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_true(p.evaluated > 0);
    same_as_fresh(&p, &h, mo, watch);
    /* a leaned play cannot be updated: played afresh */
    pki_play_lean(&p);
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 61);
    same_as_fresh(&p, &h, mo, watch);
    pki_play_free(&p);
    walk_done(&h, mo, &log);
}

/* An update of chosen rows (pki_play_motion_update_rows) evaluates only
 * those among the rows an edit reached and keeps the others as they
 * were (stale); a later update of every row, or a play taking rows from
 * it, evaluates the kept rows again: a play from nothing's bits. */
static void play_update_chosen_rows(void **state)
{
    (void)state;
    hb h;
    size_t at30;
    pk_log log;
    pk_motion *mo = walk_on_leg(&h, &at30, &log);
    const bool *watch = WALK_WATCH;
    pki_play p;
    assert_int_equal(pki_play_motion(&p, &h.m, mo, 0, 61, watch, &log), 0);
    pki_play before;
    assert_int_equal(pki_play_motion(&before, &h.m, mo, 0, 61, watch, &log), 0);
    /* the key at frame 30 moved: frames 21..39 reached, 30..34 chosen */
    mo->bones[at30].pos[0] = 0.5f;
    bool only[61] = {false};
    for (int r = 30; r < 35; r++)
        only[r] = true;
    assert_int_equal(pki_play_motion_update_rows(&p, mo, watch, only, &log), 0);
    assert_int_equal(p.evaluated, 5);
    assert_non_null(p.stale);
    assert_true(p.stale[21] && p.stale[29] && !p.stale[30] && !p.stale[34] && p.stale[35] &&
                p.stale[39] && !p.stale[20] && !p.stale[40]);
    /* the kept rows are the last play's */
    size_t row = p.nwatch * sizeof *p.w;
    assert_memory_equal(&p.w[25 * p.nwatch], &before.w[25 * p.nwatch], row);
    assert_memory_not_equal(&p.w[32 * p.nwatch], &before.w[32 * p.nwatch], row);
    /* a play taking rows from it evaluates the kept rows again */
    pki_play again;
    assert_int_equal(pki_play_motion_again(&again, &p, &h.m, mo, 0, 61, watch, &log), 0);
    assert_int_equal(again.evaluated, 14);
    same_as_fresh(&again, &h, mo, watch);
    pki_play_free(&again);
    /* nothing changed since: an update of chosen rows keeps them still */
    assert_int_equal(pki_play_motion_update_rows(&p, mo, watch, only, &log), 0);
    assert_int_equal(p.evaluated, 0);
    /* an update of every row evaluates them, and only them */
    assert_int_equal(pki_play_motion_update(&p, mo, watch, &log), 0);
    assert_int_equal(p.evaluated, 14);
    assert_true(!p.stale[21] && !p.stale[39]);
    same_as_fresh(&p, &h, mo, watch);
    pki_play_free(&before);
    pki_play_free(&p);
    walk_done(&h, mo, &log);
}

static void track_named_as_built(void **state)
{
    (void)state;
    pk_motion *mo = pk_motion_new();
    assert_non_null(mo);
    /* out of order, a duplicated frame (the later record wins), another
     * track between */
    uint32_t frames[] = {30, 0, 10, 30, 20, 10, 5};
    for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
        tu_bone_key(mo, "右足ＩＫ", frames[i])->pos[0] = (float)i;
        tu_bone_key(mo, "センター", 100 - frames[i]);
    }
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(mo, NULL);
    assert_non_null(t);
    for (size_t n = 0; n < t->nbones; n++) {
        const pk_track *want = &t->bones[n];
        pk_track got;
        assert_true(pki_track_named(mo, want->name, &got));
        assert_int_equal(got.count, want->count);
        assert_memory_equal(got.keys, want->keys, want->count * sizeof *want->keys);
        free(got.keys);
    }
    pk_track none;
    assert_true(pki_track_named(mo, PK_NO_NAME - 1, &none));
    assert_int_equal(none.count, 0);
    free(none.keys);
    /* all at once: each as built, a name asked twice, names without keys */
    pk_name_id ids[5] = {t->bones[1].name, PK_NO_NAME, t->bones[0].name, PK_NO_NAME - 1,
                         t->bones[1].name};
    pk_track got[5];
    assert_true(pki_tracks_named(mo, ids, 5, got));
    const pk_track *want[5] = {&t->bones[1], NULL, &t->bones[0], NULL, &t->bones[1]};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(got[i].count, want[i] ? want[i]->count : 0);
        if (want[i])
            assert_memory_equal(got[i].keys, want[i]->keys, want[i]->count * sizeof *got[i].keys);
        free(got[i].keys);
    }
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(mo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(play_again_same_rows),
        cmocka_unit_test(play_update_in_place),
        cmocka_unit_test(play_update_chosen_rows),
        cmocka_unit_test(held_rows_solve_once),
        cmocka_unit_test(solve_follows_a_target_off_the_chain),
        cmocka_unit_test(track_named_as_built),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
