/* test_tracks.c — per-track sorted views: order, duplicates, lookups. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pk_bone_key *bone(pk_motion *m, const char *name, uint32_t frame, float x)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = pk_names_intern(m->names, name, strlen(name));
    k->frame = frame;
    k->pos[0] = x;
    k->rot[3] = 1.0f;
    pk_interp_linear(k->interp);
    return k;
}

static void sorted_per_track_in_first_appearance_order(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    /* Interning "A" first makes its id smaller than "B"'s, but B appears
     * first among the bone records. */
    pk_names_intern(m->names, "A", 1);
    bone(m, "B", 30, 0); /* 0 */
    bone(m, "A", 60, 0); /* 1 */
    bone(m, "B", 0, 0);  /* 2 */
    bone(m, "A", 0, 0);  /* 3 */
    bone(m, "B", 10, 0); /* 4 */
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    assert_int_equal(log.count, 0);
    assert_int_equal(t->nbones, 2);
    assert_int_equal(t->bones[0].name, pk_names_find(m->names, "B", 1));
    assert_int_equal(t->bones[0].count, 3);
    assert_int_equal(t->bones[0].keys[0], 2);
    assert_int_equal(t->bones[0].keys[1], 4);
    assert_int_equal(t->bones[0].keys[2], 0);
    assert_int_equal(t->bones[1].count, 2);
    assert_int_equal(t->bones[1].keys[0], 3);
    assert_int_equal(t->bones[1].keys[1], 1);
    assert_ptr_equal(pk_tracks_bone(t, pk_names_find(m->names, "A", 1)), &t->bones[1]);
    assert_null(pk_tracks_bone(t, pk_names_intern(m->names, "C", 1)));
    assert_null(pk_tracks_bone(t, 999999));
    assert_null(pk_tracks_morph(t, 0));
    assert_int_equal(t->duplicates, 0);
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

static void duplicates_keep_the_later_record_and_warn_once_per_track(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "A", 10, 1.0f); /* 0: hidden by 2 */
    bone(m, "A", 0, 0.0f);  /* 1 */
    bone(m, "A", 10, 2.0f); /* 2: hidden by 4 */
    bone(m, "A", 20, 0.0f); /* 3 */
    bone(m, "A", 10, 3.0f); /* 4: wins */
    bone(m, "B", 5, 0.0f);  /* 5 */
    bone(m, "B", 5, 1.0f);  /* 6: wins */
    pk_morph_key *mk;
    for (int i = 0; i < 3; i++) {
        mk = pk_motion_push_morph(m);
        mk->name = pk_names_intern(m->names, "base", 4);
        mk->frame = 0;
        mk->weight = (float)i;
    }
    pk_camera_key *ck;
    const uint32_t cframes[] = {30, 0, 30};
    for (int i = 0; i < 3; i++) {
        ck = pk_motion_push_camera(m);
        ck->frame = cframes[i];
        ck->distance = (float)i;
    }
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    const pk_track *a = pk_tracks_bone(t, pk_names_find(m->names, "A", 1));
    assert_int_equal(a->count, 3);
    assert_int_equal(a->keys[0], 1);
    assert_int_equal(a->keys[1], 4);
    assert_int_equal(a->keys[2], 3);
    const pk_track *b = pk_tracks_bone(t, pk_names_find(m->names, "B", 1));
    assert_int_equal(b->count, 1);
    assert_int_equal(b->keys[0], 6);
    const pk_track *base = pk_tracks_morph(t, pk_names_find(m->names, "base", 4));
    assert_int_equal(base->count, 1);
    assert_int_equal(base->keys[0], 2);
    assert_int_equal(t->ncameras, 2);
    assert_int_equal(t->cameras[0], 1);
    assert_int_equal(t->cameras[1], 2);
    assert_int_equal(t->duplicates, 2 + 1 + 2 + 1);
    /* one line per kind: the two bone tracks summed up (count, names,
     * frames), the morph and the camera each alone */
    assert_int_equal(log.errors, 0);
    assert_int_equal(log.warnings, 3);
    char line[512];
    pk_diag_format(&log.items[0], line, sizeof line);
    assert_non_null(strstr(line, "2 bones have duplicate keys"));
    assert_non_null(strstr(line, "\"A\" (2 duplicates, first at frame 10)"));
    assert_non_null(strstr(line, "\"B\" (1 duplicate, first at frame 5)"));
    pk_diag_format(&log.items[1], line, sizeof line);
    assert_non_null(strstr(line, "morph \"base\": 2 duplicate keys"));
    assert_null(strstr(line, "15 bytes"));
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

/* A name that fills the whole 15-byte field and has duplicate keys is
 * said to be two names MMD cut to the same bytes. */
static void full_width_name_is_two_cut_names(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "abcdefghijklmno", 0, 0.0f);
    bone(m, "abcdefghijklmno", 0, 1.0f);
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    assert_int_equal(log.warnings, 1);
    char line[512];
    pk_diag_format(&log.items[0], line, sizeof line);
    assert_non_null(strstr(line, "fills all 15 bytes"));
    assert_non_null(strstr(line, "two bones whose names MMD cut to the same name"));
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

/* 13 duplicated morphs are one line with the count and the first three
 * names; a motion whose duplicates were told (pk_doc_load) is not warned
 * about again, but they are still counted. */
static void many_duplicates_one_line_and_told_once(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    char name[8];
    for (int i = 0; i < 13; i++)
        for (int k = 0; k < 2; k++) {
            pk_morph_key *mk = pk_motion_push_morph(m);
            snprintf(name, sizeof name, "m%02d", i);
            mk->name = pk_names_intern(m->names, name, strlen(name));
            mk->frame = 3;
        }
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    assert_int_equal(log.warnings, 1);
    char line[1024];
    pk_diag_format(&log.items[0], line, sizeof line);
    assert_non_null(strstr(line, "13 morphs have duplicate keys"));
    assert_non_null(strstr(line, "\"m00\""));
    assert_non_null(strstr(line, "\"m02\""));
    assert_null(strstr(line, "\"m03\""));
    assert_non_null(strstr(line, "and 10 more"));
    pk_tracks_free(t);
    pk_log_free(&log);

    m->duplicates_told = true;
    pk_log_init(&log);
    t = pk_tracks_build(m, &log);
    assert_non_null(t);
    assert_int_equal(log.warnings, 0);
    assert_int_equal(t->duplicates, 13);
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

static void empty_motion(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_tracks *t = pk_tracks_build(m, NULL);
    assert_non_null(t);
    assert_int_equal(t->nbones + t->nmorphs + t->ncameras + t->nlights + t->nshadows + t->niks, 0);
    assert_null(pk_tracks_bone(t, 0));
    pk_tracks_free(t);
    pk_tracks_free(NULL);
    pk_motion_free(m);
}

/* 500 bones x 1000 keys in shuffled order: every track comes out sorted,
 * complete, and grouped; this is the size of a large dance (O(n log n)
 * or better, or the test times out). */
static void large_shuffled_motion(void **state)
{
    (void)state;
    enum { NB = 500, NK = 1000 };
    pk_motion *m = pk_motion_new();
    pk_name_id ids[NB];
    for (int b = 0; b < NB; b++) {
        char name[16];
        snprintf(name, sizeof name, "bone%d", b);
        ids[b] = pk_names_intern(m->names, name, strlen(name));
    }
    uint32_t *order = malloc(sizeof(uint32_t) * NB * NK);
    for (uint32_t i = 0; i < NB * NK; i++)
        order[i] = i;
    srand(7);
    for (uint32_t i = NB * NK - 1; i > 0; i--) {
        uint32_t j = (uint32_t)rand() % (i + 1), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (uint32_t i = 0; i < NB * NK; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = ids[order[i] % NB];
        k->frame = (order[i] / NB) * 3;
    }
    free(order);
    pk_tracks *t = pk_tracks_build(m, NULL);
    assert_non_null(t);
    assert_int_equal(t->nbones, NB);
    assert_int_equal(t->duplicates, 0);
    for (size_t b = 0; b < t->nbones; b++) {
        const pk_track *tr = &t->bones[b];
        assert_int_equal(tr->count, NK);
        for (size_t i = 0; i < tr->count; i++) {
            assert_int_equal(m->bones[tr->keys[i]].name, tr->name);
            assert_int_equal(m->bones[tr->keys[i]].frame, i * 3);
        }
    }
    pk_tracks_free(t);
    pk_motion_free(m);
}

/* Frames over the whole uint32 range (every byte of the frame differs
 * somewhere, so the radix sort runs all its passes), shuffled, with
 * repeated frames: each track must equal a reference built by qsort on
 * (frame, record index), keeping the last record of each frame. */
static int cmp_pair(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void wide_frames_match_a_reference_sort(void **state)
{
    (void)state;
    enum { NB = 3, NK = 3000 };
    pk_motion *m = pk_motion_new();
    pk_name_id ids[NB];
    for (int b = 0; b < NB; b++) {
        char name[16];
        snprintf(name, sizeof name, "w%d", b);
        ids[b] = pk_names_intern(m->names, name, strlen(name));
    }
    uint32_t rng = 99;
    for (uint32_t i = 0; i < NB * NK; i++) {
        rng = rng * 1664525u + 1013904223u;
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = ids[(rng >> 8) % NB];
        /* a few hundred distinct frames spread over 32 bits: many repeats */
        uint32_t r = rng >> 23;
        k->frame = r * 0x9E3779B1u;
        k->pos[0] = (float)i;
        k->rot[3] = 1.0f;
    }
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    assert_int_equal(t->nbones, NB);
    uint64_t *ref = malloc(sizeof *ref * NB * NK);
    assert_non_null(ref);
    size_t dups = 0;
    for (size_t b = 0; b < t->nbones; b++) {
        size_t n = 0;
        for (uint32_t i = 0; i < m->nbones; i++)
            if (m->bones[i].name == t->bones[b].name)
                ref[n++] = (uint64_t)m->bones[i].frame << 32 | i;
        qsort(ref, n, sizeof *ref, cmp_pair);
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            if (i + 1 < n && ref[i] >> 32 == ref[i + 1] >> 32) {
                dups++;
                continue;
            }
            assert_true(kept < t->bones[b].count);
            assert_int_equal(t->bones[b].keys[kept], (uint32_t)ref[i]);
            kept++;
        }
        assert_int_equal(kept, t->bones[b].count);
    }
    assert_true(dups > 1000);
    assert_int_equal(t->duplicates, dups);
    free(ref);
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

/* Dropping duplicates (an editing step's input): the earlier of two
 * records of one key goes, every section alike (bones and morphs by name
 * and frame, the camera, light, shadow and IK by frame), and what stays
 * keeps its order and bytes; a pose keeps the last entry of a name. */
static void drop_duplicates_keeps_the_later_record(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "A", 0, 1); /* 0: hidden by 2 */
    bone(m, "B", 0, 2); /* 1 */
    bone(m, "A", 0, 3); /* 2 */
    bone(m, "A", 5, 4); /* 3 */
    for (int i = 0; i < 3; i++) {
        pk_morph_key *k = pk_motion_push_morph(m);
        k->name = pk_names_intern(m->names, "base", 4);
        k->frame = i == 2 ? 9 : 0; /* the first hidden by the second */
        k->weight = (float)i;
    }
    for (int i = 0; i < 2; i++) {
        pk_camera_key *c = pk_motion_push_camera(m);
        c->frame = 7;
        c->distance = (float)i;
        pk_ik_key *k = pk_motion_push_ik(m, 1);
        k->frame = 3;
        k->show = (uint8_t)i;
    }
    size_t n = 99;
    assert_int_equal(pk_motion_drop_duplicates(m, &n, NULL), 0);
    assert_int_equal(n, 4);
    assert_int_equal(m->nbones, 3);
    assert_true(m->bones[0].pos[0] == 2 && m->bones[1].pos[0] == 3 && m->bones[2].pos[0] == 4);
    assert_int_equal(m->nmorphs, 2);
    assert_true(m->morphs[0].weight == 1 && m->morphs[1].weight == 2);
    assert_int_equal(m->ncameras, 1);
    assert_true(m->cameras[0].distance == 1);
    assert_int_equal(m->niks, 1);
    assert_int_equal(m->iks[0].show, 1);
    pk_tracks *t = pk_tracks_build(m, NULL);
    assert_int_equal(t->duplicates, 0);
    pk_tracks_free(t);
    /* nothing left to drop */
    assert_int_equal(pk_motion_drop_duplicates(m, &n, NULL), 0);
    assert_int_equal(n, 0);
    pk_motion_free(m);

    pk_pose *p = pk_pose_new();
    for (int i = 0; i < 3; i++) {
        pk_pose_bone *b = pk_pose_push_bone(p);
        b->name = pk_names_intern(p->names, i == 1 ? "B" : "A", 1);
        b->pos[0] = (float)i;
        b->rot[3] = 1;
    }
    assert_int_equal(pk_pose_drop_duplicates(p, &n, NULL), 0);
    assert_int_equal(n, 1);
    assert_int_equal(p->nbones, 2);
    assert_true(p->bones[0].pos[0] == 1 && p->bones[1].pos[0] == 2);
    pk_pose_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorted_per_track_in_first_appearance_order),
        cmocka_unit_test(duplicates_keep_the_later_record_and_warn_once_per_track),
        cmocka_unit_test(full_width_name_is_two_cut_names),
        cmocka_unit_test(many_duplicates_one_line_and_told_once),
        cmocka_unit_test(empty_motion),
        cmocka_unit_test(large_shuffled_motion),
        cmocka_unit_test(wide_frames_match_a_reference_sort),
        cmocka_unit_test(drop_duplicates_keeps_the_later_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
