/* test_body.c — bodies (engine/format/body.c): reading a written body,
 * writing a model as one and reading it back, every corpus model's body
 * evaluating to the same bits as the model (every bone, at rest and on
 * corpus poses and motion frames, IK on), a selection's body evaluating
 * its bones as the whole model does, the built-in bodies, format
 * detection, and bad bodies failing at their LINE:COL. */
#include "testutil.h"
#include "posekit_tool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pk_model *read_text(const char *yaml, pk_log *log)
{
    return pk_body_read(yaml, strlen(yaml), log);
}

static long bone(const pk_model *m, const char *name)
{
    for (size_t i = 0; i < m->nbones; i++)
        if (strcmp(m->bones[i].name, name) == 0)
            return (long)i;
    return -1;
}

static const char SMALL[] =
    "# a comment\n"
    "posekit_body: 1\n"
    "name: \"small\"\n"
    "bones:\n"
    "  - {name: センター, pos: [0, 8, 0], flags: [rotate, move, visible, operable]}\n"
    "  - {name: 上半身, parent: センター, pos: [0, 13.3, -0.25], tail: 首}\n"
    "  - {name: 首, parent: 上半身, pos: [0, 16.4, 0], tail: [0, 1, 0]}\n"
    "  - {name: 両目, parent: 首, pos: [0, 17, 0], flags: []}\n"
    "  - {name: 左目, parent: 首, pos: [0.35, 17.8, -0.35], layer: 2,\n"
    "     append: {bone: 両目, ratio: 0.5, rotate: true}}\n"
    "  - {name: 左腕捩, parent: 上半身, pos: [1, 15, 0], fixed_axis: [1, 0, 0],\n"
    "     local_axes: {x: [1, 0, 0], z: [0, 0, 1]}}\n"
    "  - {name: 左足, parent: センター, pos: [1, 10, 0]}\n"
    "  - {name: 左ひざ, parent: 左足, pos: [1, 5, 0]}\n"
    "  - {name: 左足首, parent: 左ひざ, pos: [1, 1, 0]}\n"
    "  - name: 左足ＩＫ\n"
    "    pos: [1, 1, 0]\n"
    "    layer: 1\n"
    "    flags: [rotate, move, visible, operable]\n"
    "    ik: {target: 左足首, loops: 40, limit: 2.0,\n"
    "         links: [{bone: 左ひざ, min: [-3.1415927, 0, 0], max: [-0.008726646, 0, 0]}, 左足]}\n"
    "morphs:\n"
    "  - あ\n"
    "  - {name: まばたき, panel: eye, kind: vertex}\n"
    "rigid_bodies:\n"
    "  - {name: 頭, bone: 首, shape: sphere, size: [1.5, 0, 0], pos: [0, 17, 0],\n"
    "     rot: [0, 0, 0], mode: follow_bone}\n";

static void read_small(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_model *m = read_text(SMALL, &log);
    assert_non_null(m);
    assert_int_equal(log.errors + log.warnings, 0);
    assert_int_equal(m->format, PK_FMT_BODY);
    assert_string_equal(m->name, "small");
    assert_int_equal(m->nbones, 10);
    long c = bone(m, "センター"), u = bone(m, "上半身"), n = bone(m, "首"), e = bone(m, "両目");
    long l = bone(m, "左目"), t = bone(m, "左腕捩"), ik = bone(m, "左足ＩＫ");
    long knee = bone(m, "左ひざ"), leg = bone(m, "左足"), ank = bone(m, "左足首");
    assert_int_equal(m->bones[c].parent, -1);
    assert_int_equal(m->bones[u].parent, c);
    assert_true(m->bones[c].flags & PK_BONE_MOVE);
    assert_false(m->bones[u].flags & PK_BONE_MOVE);
    assert_true(m->bones[u].flags & PK_BONE_ROTATE); /* the default flags */
    assert_int_equal(m->bones[e].flags, 0);
    assert_true(m->bones[u].flags & PK_BONE_TAIL_IS_BONE);
    assert_int_equal(m->bones[u].tail_bone, n);
    assert_false(m->bones[n].flags & PK_BONE_TAIL_IS_BONE);
    assert_true(m->bones[n].tail[1] == 1.0f);
    assert_true(m->bones[u].pos[1] == 13.3f && m->bones[u].pos[2] == -0.25f);
    assert_int_equal(m->bones[l].layer, 2);
    assert_int_equal(m->bones[l].append_parent, e);
    assert_true(m->bones[l].append_ratio == 0.5f);
    assert_true(m->bones[l].flags & PK_BONE_APPEND_ROTATE);
    assert_false(m->bones[l].flags & PK_BONE_APPEND_MOVE);
    assert_true(m->bones[t].flags & PK_BONE_FIXED_AXIS);
    assert_true(m->bones[t].flags & PK_BONE_LOCAL_AXES);
    assert_true(m->bones[t].local_z[2] == 1.0f);
    assert_true(m->bones[ik].flags & PK_BONE_IK);
    assert_int_equal(m->bones[ik].ik_target, ank);
    assert_int_equal(m->bones[ik].ik_loops, 40);
    assert_int_equal(m->bones[ik].nik_links, 2);
    assert_int_equal(m->bones[ik].ik_links[0].bone, knee);
    assert_true(m->bones[ik].ik_links[0].limited);
    assert_true(m->bones[ik].ik_links[0].min[0] == -3.1415927f);
    assert_int_equal(m->bones[ik].ik_links[1].bone, leg);
    assert_false(m->bones[ik].ik_links[1].limited);
    assert_int_equal(m->nmorphs, 2);
    assert_string_equal(m->morphs[0].name, "あ");
    assert_int_equal(m->morphs[1].panel, 2);
    assert_int_equal(m->nrigids, 1);
    assert_int_equal(m->rigids[0].bone, n);
    assert_int_equal(m->rigids[0].mask, 0xFFFF);
    /* names are the CP932 bytes motions hold */
    assert_int_equal(pk_model_find_bone(m, "\x83\x5a\x83\x93\x83\x5e\x81\x5b", 8), c);
    /* detection: by its first key, after comments */
    assert_int_equal(pk_format_detect(SMALL, strlen(SMALL), NULL), PK_FMT_BODY);
    pk_model *again = pk_model_read(SMALL, strlen(SMALL), &log);
    assert_non_null(again);
    pk_model_free(again);
    pk_model_free(m);
    pk_log_free(&log);
}

/* Every field a body holds, a against b. */
static void same_model(const pk_model *a, const pk_model *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->nbones, b->nbones);
    for (size_t i = 0; i < a->nbones; i++) {
        const pk_model_bone *x = &a->bones[i], *y = &b->bones[i];
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->name_en, y->name_en);
        assert_int_equal(x->parent, y->parent);
        assert_memory_equal(x->pos, y->pos, sizeof x->pos);
        assert_int_equal(x->layer, y->layer);
        assert_int_equal(x->flags, y->flags);
        assert_int_equal(x->tail_bone, y->tail_bone);
        assert_memory_equal(x->tail, y->tail, sizeof x->tail);
        assert_int_equal(x->append_parent, y->append_parent);
        assert_true(x->append_ratio == y->append_ratio);
        assert_memory_equal(x->fixed_axis, y->fixed_axis, sizeof x->fixed_axis);
        assert_memory_equal(x->local_x, y->local_x, sizeof x->local_x);
        assert_memory_equal(x->local_z, y->local_z, sizeof x->local_z);
        assert_int_equal(x->ik_target, y->ik_target);
        assert_int_equal(x->ik_loops, y->ik_loops);
        assert_true(x->ik_limit == y->ik_limit);
        assert_int_equal(x->nik_links, y->nik_links);
        for (size_t k = 0; k < x->nik_links; k++) {
            assert_int_equal(x->ik_links[k].bone, y->ik_links[k].bone);
            assert_int_equal(x->ik_links[k].limited, y->ik_links[k].limited);
            if (x->ik_links[k].limited) {
                assert_memory_equal(x->ik_links[k].min, y->ik_links[k].min, 12);
                assert_memory_equal(x->ik_links[k].max, y->ik_links[k].max, 12);
            }
        }
    }
    assert_int_equal(a->nmorphs, b->nmorphs);
    for (size_t i = 0; i < a->nmorphs; i++) {
        assert_string_equal(a->morphs[i].name, b->morphs[i].name);
        assert_int_equal(a->morphs[i].panel, b->morphs[i].panel);
        assert_int_equal(a->morphs[i].kind, b->morphs[i].kind);
    }
    assert_int_equal(a->nrigids, b->nrigids);
    for (size_t i = 0; i < a->nrigids; i++)
        assert_memory_equal(a->rigids[i].size, b->rigids[i].size, 3 * sizeof(float));
}

static pk_model *through_body(const pk_model *m, const bool *keep, pk_log *log)
{
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_body_write(m, keep, "a header\n\nof two lines", &out, log), 0);
    pk_model *b = pk_body_read(out.data, out.len, log);
    if (!b)
        fail_msg("the written body does not read back:\n%.*s",
                 (int)(out.len > 3000 ? 3000 : out.len), (const char *)out.data);
    pk_buf_free(&out);
    return b;
}

/* a and b written as bodies give the same text */
static void same_body_text(const pk_model *a, const pk_model *b, pk_log *log)
{
    pk_buf x, y;
    pk_buf_init(&x);
    pk_buf_init(&y);
    assert_int_equal(pk_body_write(a, NULL, NULL, &x, log), 0);
    assert_int_equal(pk_body_write(b, NULL, NULL, &y, log), 0);
    assert_int_equal(x.len, y.len);
    assert_memory_equal(x.data, y.data, x.len);
    pk_buf_free(&x);
    pk_buf_free(&y);
}

static void write_read(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_model *m = read_text(SMALL, &log);
    assert_non_null(m);
    pk_model *b = through_body(m, NULL, &log);
    same_model(m, b);
    /* the header became comment lines, an empty line a bare '#' */
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_body_write(b, NULL, "one\n\ntwo", &out, &log), 0);
    assert_true(out.len > 20 && memcmp(out.data, "# one\n#\n# two\nposekit_body: 1\n", 28) == 0);
    pk_buf_free(&out);
    pk_model_free(b);
    pk_model_free(m);
    pk_log_free(&log);
}

/* Non-finite numbers: "nan" and "inf" read, and YAML's spellings too,
 * which is what pk_body_write writes for them: the written body reads
 * back and writes the same text. */
static void nonfinite_numbers(void **state)
{
    (void)state;
    static const char TEXT[] = "posekit_body: 1\nbones:\n"
                               "  - {name: a, pos: [nan, -.inf, .INF]}\n"
                               "  - {name: b, parent: a, pos: [inf, .NaN, -inf]}\n"
                               "rigid_bodies:\n  - {name: r, bone: a, shape: box, mass: .nan}\n";
    pk_log log;
    pk_log_init(&log);
    pk_model *m = read_text(TEXT, &log);
    assert_non_null(m);
    assert_true(isnan(m->bones[0].pos[0]));
    assert_true(isinf(m->bones[0].pos[1]) && m->bones[0].pos[1] < 0);
    assert_true(isinf(m->bones[0].pos[2]) && m->bones[0].pos[2] > 0);
    assert_true(isinf(m->bones[1].pos[0]) && isnan(m->bones[1].pos[1]));
    assert_true(isnan(m->rigids[0].mass));
    pk_model *b = through_body(m, NULL, &log);
    same_body_text(m, b, &log);
    pk_model_free(b);
    pk_model_free(m);
    pk_log_free(&log);
}

/* ---- a body evaluates as its model ---- */

typedef struct pair {
    const pk_model *m, *b;
    pk_rig *rm, *rb;
    long *map; /* body bone -> model bone */
    pk_bone_local *lm, *lb;
    bool *om, *ob;
    pk_bone_world *wm, *wb;
    size_t evals;
} pair;

static void pair_open(pair *p, const pk_model *m, const pk_model *b, pk_log *log)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->b = b;
    p->rm = pk_rig_new(m, log);
    p->rb = pk_rig_new(b, log);
    assert_non_null(p->rm);
    assert_non_null(p->rb);
    /* a whole model's body keeps its order (and its bones of one name:
     * SD Mei has two センター); a selection's is matched by name */
    p->map = calloc(b->nbones + 1, sizeof *p->map);
    for (size_t i = 0; i < b->nbones; i++) {
        p->map[i] = b->nbones == m->nbones ? (long)i : bone(m, b->bones[i].name);
        assert_true(p->map[i] >= 0);
        assert_string_equal(m->bones[p->map[i]].name, b->bones[i].name);
    }
    p->lm = calloc(m->nbones + 1, sizeof *p->lm);
    p->lb = calloc(b->nbones + 1, sizeof *p->lb);
    p->om = calloc(m->nbones + 1, 1);
    p->ob = calloc(b->nbones + 1, 1);
    p->wm = calloc(m->nbones + 1, sizeof *p->wm);
    p->wb = calloc(b->nbones + 1, sizeof *p->wb);
}

static void pair_close(pair *p)
{
    pk_rig_free(p->rm);
    pk_rig_free(p->rb);
    free(p->map);
    free(p->lm);
    free(p->lb);
    free(p->om);
    free(p->ob);
    free(p->wm);
    free(p->wb);
}

/* Both evaluated (IK on as the motion says); every body bone's world
 * transform bit-equal to its model bone's. */
static void pair_compare(pair *p, const char *what)
{
    pk_rig_eval(p->rm, p->lm, p->om, 0, p->wm);
    pk_rig_eval(p->rb, p->lb, p->ob, 0, p->wb);
    for (size_t i = 0; i < p->b->nbones; i++) {
        const pk_bone_world *x = &p->wm[p->map[i]], *y = &p->wb[i];
        bool nan = isnan(x->pos[0]) && isnan(y->pos[0]);
        if (!nan && (memcmp(x->pos, y->pos, sizeof x->pos) != 0 ||
                     memcmp(x->rot, y->rot, sizeof x->rot) != 0))
            fail_msg("%s on %s: bone %s at (%.9g %.9g %.9g) on the model, (%.9g %.9g %.9g) on "
                     "its body",
                     what, p->m->name, p->b->bones[i].name, x->pos[0], x->pos[1], x->pos[2],
                     y->pos[0], y->pos[1], y->pos[2]);
    }
    p->evals++;
}

/* At rest, on every corpus pose, and on 12 frames of every corpus motion
 * that keys bones. */
static void pair_poses(pair *p, pk_log *log)
{
    pk_rig_rest(p->rm, p->lm);
    pk_rig_rest(p->rb, p->lb);
    pair_compare(p, "rest");
    char **vpds, **vmds;
    size_t nvpd = tu_corpus_list(".vpd", &vpds), nvmd = tu_corpus_list(".vmd", &vmds);
    for (size_t v = 0; v < nvpd; v++) {
        pk_doc d;
        if (pk_doc_load(vpds[v], &d, log) != 0 || !d.pose) {
            pk_doc_free(&d);
            continue;
        }
        pk_rig_pose_local(p->rm, d.pose, p->lm);
        pk_rig_pose_local(p->rb, d.pose, p->lb);
        pair_compare(p, vpds[v]);
        pk_doc_free(&d);
    }
    for (size_t v = 0; v < nvmd; v++) {
        pk_doc d;
        if (pk_doc_load(vmds[v], &d, log) != 0 || !d.motion || !d.motion->nbones) {
            pk_doc_free(&d);
            continue;
        }
        pk_tracks *t = pk_tracks_build(d.motion, log);
        uint32_t lo, hi;
        pk_motion_frame_range(d.motion, &lo, &hi);
        for (int s = 0; s < 12; s++) {
            double f = lo + (hi - lo) * (s / 11.0);
            pk_rig_motion_local(p->rm, d.motion, t, f, p->lm, p->om);
            pk_rig_motion_local(p->rb, d.motion, t, f, p->lb, p->ob);
            pair_compare(p, vmds[v]);
        }
        pk_tracks_free(t);
        pk_doc_free(&d);
    }
    tu_free_list(vpds, nvpd);
    tu_free_list(vmds, nvmd);
}

static void corpus_models_evaluate_alike(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    char **pmx, **pmd;
    size_t a = tu_corpus_list(".pmx", &pmx), b = tu_corpus_list(".pmd", &pmd);
    size_t evals = 0, models = 0;
    for (size_t i = 0; i < a + b; i++) {
        const char *path = i < a ? pmx[i] : pmd[i - a];
        pk_log log;
        pk_log_init(&log);
        pk_model *m = pk_model_load(path, &log);
        assert_non_null(m);
        pk_model *body = through_body(m, NULL, &log);
        assert_int_equal(body->nbones, m->nbones);
        pair p;
        pair_open(&p, m, body, &log);
        pair_poses(&p, &log);
        evals += p.evals;
        pair_close(&p);
        /* written again, the body gives the same text: nothing is lost */
        same_body_text(m, body, &log);
        pk_model_free(body);
        pk_model_free(m);
        pk_log_free(&log);
        models++;
    }
    tu_free_list(pmx, a);
    tu_free_list(pmd, b);
    assert_true(models >= 5);
    assert_true(evals > models * 20);
}

/* A selection's body: its bones (and what they need) evaluate as in the
 * whole model, IK included. */
static void selection_evaluates_alike(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("pmx_gene.pmx");
    if (!path)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    assert_non_null(m);
    pk_selection *sel = pk_selection_parse(NULL, "@arms,@legs,@ik,左目", &log);
    assert_non_null(sel);
    bool *keep = calloc(m->nbones, 1);
    size_t asked = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, m->bones[i].cp932, &len);
        keep[i] = raw && pk_selection_has(sel, raw, len);
        asked += keep[i];
    }
    pk_model *body = through_body(m, keep, &log);
    assert_true(body->nbones > asked);        /* parents, IK targets were added */
    assert_true(body->nbones < m->nbones);    /* hair, cloak, fingers were not */
    assert_true(bone(body, "センター") >= 0); /* a parent of 足 */
    assert_true(bone(body, "左足先") >= 0);   /* つま先ＩＫ's target */
    assert_true(bone(body, "両目") >= 0);     /* 左目's append parent */
    assert_true(bone(body, "後髪A1_1") < 0);
    /* a tail bone left out: the offset to it */
    long head = bone(m, "下半身"), hb = bone(body, "下半身");
    assert_true(head >= 0 && hb >= 0);
    assert_false(body->bones[hb].flags & PK_BONE_TAIL_IS_BONE);
    long tail = m->bones[head].tail_bone;
    assert_true(body->bones[hb].tail[1] == m->bones[tail].pos[1] - m->bones[head].pos[1]);
    pair p;
    pair_open(&p, m, body, &log);
    pair_poses(&p, &log);
    pair_close(&p);
    free(keep);
    pk_selection_free(sel);
    pk_model_free(body);
    pk_model_free(m);
    pk_log_free(&log);
}

static void builtin_bodies(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    size_t n;
    const char *const *names = pk_body_builtin_names(&n);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "classic");
    assert_string_equal(names[1], "standard");
    /* run from the build tree: the source tree's rules/bodies/ */
    pk_bodies *b = pk_bodies_load(&log);
    assert_non_null(b);
    assert_int_equal(b->n, 2);
    assert_int_equal(b->models[0]->nbones, 140);
    assert_true(bone(b->models[0], "上半身2") < 0);
    assert_true(bone(b->models[1], "上半身2") >= 0);
    assert_true(bone(b->models[1], "全ての親") >= 0);
    pk_bodies_free(b);
    pk_model *m = pk_model_load("@classic", &log);
    assert_non_null(m);
    pk_model_free(m);
    assert_int_equal(pk_file_format("@standard"), PK_FMT_BODY);
    assert_null(pk_model_load("@nobody", &log));
    tu_assert_log_has(&log, "@nobody is not a built-in body");
    pk_log_free(&log);
}

/* ---- which body a motion fits ---- */

static pk_model *body_of(const char *bones)
{
    char text[1024];
    int o = snprintf(text, sizeof text, "posekit_body: 1\nbones:\n");
    for (const char *p = bones; *p; p++)
        o += snprintf(text + o, sizeof text - (size_t)o, "  - {name: %c, pos: [0, 0, 0]}\n", *p);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = read_text(text, &log);
    assert_non_null(m);
    pk_log_free(&log);
    return m;
}

/* A motion keying each named bone once (at rest: keys at rest count). */
static pk_doc motion_of(const char *bones)
{
    pk_doc d = {PK_FMT_VMD, pk_motion_new(), NULL};
    for (const char *p = bones; *p; p++) {
        pk_bone_key *k = pk_motion_push_bone(d.motion);
        k->name = pk_names_intern(d.motion->names, p, 1);
        k->rot[3] = 1;
        pk_interp_linear(k->interp);
    }
    return d;
}

static void fit_picks(void **state)
{
    (void)state;
    pk_model *m[2] = {body_of("xy"), body_of("xyz")};
    static const struct {
        const char *keys;
        long pick;
        size_t has0, has1;
    } CASES[] = {
        {"xy", 0, 2, 2},   /* both have every bone: the first */
        {"xz", 1, 1, 2},   /* only the second has every bone */
        {"xq", 0, 1, 1},   /* neither: the overlap, 1/3 against 1/4 */
        {"xyzq", 1, 2, 3}, /* 2/4 against 3/4 */
        {"q", 0, 0, 0},    /* none has any: the first, has 0 */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        pk_log log;
        pk_log_init(&log);
        pk_doc d = motion_of(CASES[i].keys);
        pk_body_fit fit[2];
        long pick = pk_body_fit_doc((const pk_model *const *)m, 2, &d, fit, &log);
        if (pick != CASES[i].pick || fit[0].has != CASES[i].has0 || fit[1].has != CASES[i].has1)
            fail_msg("keys %s: picked %ld (%zu, %zu), want %ld (%zu, %zu)", CASES[i].keys, pick,
                     fit[0].has, fit[1].has, CASES[i].pick, CASES[i].has0, CASES[i].has1);
        assert_int_equal(fit[0].keyed, strlen(CASES[i].keys));
        pk_doc_free(&d);
        pk_log_free(&log);
    }
    pk_log log;
    pk_log_init(&log);
    /* every bone had beats a closer overlap: the motion cannot tell them
     * apart, and the first is the older skeleton */
    pk_model *big[2] = {body_of("xyzw"), body_of("xy")};
    pk_doc d = motion_of("xy");
    pk_body_fit fit[2];
    assert_int_equal(pk_body_fit_doc((const pk_model *const *)big, 2, &d, fit, &log), 0);
    assert_true(fit[1].overlap > fit[0].overlap);
    pk_doc_free(&d);
    pk_model_free(big[0]);
    pk_model_free(big[1]);
    d = motion_of("");
    assert_int_equal(pk_body_fit_doc((const pk_model *const *)m, 2, &d, fit, &log), -1);
    tu_assert_log_has(&log, "keys no bone");
    pk_doc_free(&d);
    pk_log_free(&log);
    pk_model_free(m[0]);
    pk_model_free(m[1]);
}

/* The corpus dances made for the classic skeleton, and those made on
 * Gene and on semi-standard models. */
static void fit_corpus(void **state)
{
    (void)state;
    if (!tu_corpus_path("x"))
        skip();
    static const struct {
        const char *file, *body;
    } CASES[] = {
        {"vmd_wavefile_v2.vmd", "classic"},
        {"vmd_mmd4unity_IK_Test.vmd", "classic"},
        {"vpd_keitel_01.vpd", "classic"},
        {"vmd_imas_azusa_bow1.vmd", "classic"},
        {"vmd_mmdagent_stand.vmd", "standard"},
        {"vmd_mmdtools_test.vmd", "standard"},
        {"vmd_babylon_physics_toggle_yyb10th.vmd", "standard"},
    };
    pk_log log;
    pk_log_init(&log);
    pk_bodies *b = pk_bodies_load(&log);
    assert_non_null(b);
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        pk_doc d;
        assert_int_equal(pk_doc_load(tu_corpus_path(CASES[i].file), &d, &log), 0);
        pk_body_fit fit[2];
        long pick = pk_body_fit_doc((const pk_model *const *)b->models, b->n, &d, fit, &log);
        assert_true(pick >= 0);
        if (strcmp(b->names[pick], CASES[i].body) != 0)
            fail_msg("%s: @%s picked (has %zu, %zu of %zu), want @%s", CASES[i].file,
                     b->names[pick], fit[0].has, fit[1].has, fit[0].keyed, CASES[i].body);
        pk_doc_free(&d);
    }
    pk_bodies_free(b);
    pk_log_free(&log);
}

/* ---- bad bodies ---- */

typedef struct bad_case {
    const char *yaml;
    int line, col;
    const char *msg;
} bad_case;

static void bad_bodies(void **state)
{
    (void)state;
    static const bad_case CASES[] = {
        {"posekit_body: 1\nbones: [{name: a, pos: [0, 0, 0]}\n", 3, 1, "YAML syntax error"},
        {"bones: [{name: a, pos: [0, 0, 0]}]\n", 1, 1, "posekit_body"},
        {"posekit_body: 2\nbones: [{name: a, pos: [0, 0, 0]}]\n", 1, 15, "body format 1"},
        {"posekit_body: 1\nname: x\n", 1, 1, "needs its bones"},
        {"posekit_body: 1\nbones: []\n", 2, 8, "bones is empty"},
        {"posekit_body: 1\nbone: []\n", 2, 1, "unknown key 'bone'"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], prent: b}\n", 3, 31,
         "unknown key 'prent' (known: name, id, name_en, parent"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0]}\n", 3, 20, "three numbers"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, x]}\n", 3, 27,
         "must be a number, not 'x'"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, -1e39, 0]}\n", 3, 24,
         "number '-1e39' is out of range for a float (pos)"},
        {"posekit_body: 1\nbones:\n  - {name: a}\n", 3, 5, "has no rest position"},
        {"posekit_body: 1\nbones:\n  - {pos: [0, 0, 0]}\n", 3, 5, "bone 0 has no name"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n  - {name: a, pos: [0, 0, 0]}\n",
         4, 12, "bone 'a' is given twice (first at 3:12)"},
        {"posekit_body: 1\nbones:\n  - {name: a, parent: b, pos: [0, 0, 0]}\n", 3, 23,
         "parent 'b' names no bone"},
        {"posekit_body: 1\nbones:\n  - {name: a, parent: b, pos: [0, 0, 0]}\n"
         "  - {name: b, parent: a, pos: [0, 0, 0]}\n",
         3, 23, "parent cycle"},
        {"posekit_body: 1\nbones:\n  - {name: a, parent: a, pos: [0, 0, 0]}\n", 3, 23,
         "its own parent"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], flags: [rotate, fly]}\n", 3, 47,
         "a flag 'fly' is not one of rotate, move, visible, operable, after_physics"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], ik: {target: a}}\n", 3, 35,
         "ik needs its target and links"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], ik: {target: a, links: [b]}}\n", 3,
         55, "an IK link 'b' names no bone"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0],\n"
         "     ik: {target: a, links: [{bone: a, min: [0, 0, 0]}]}}\n",
         4, 30, "limits go together"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], append: {bone: a, ratio: 1}}\n", 3,
         39, "append takes the rotation"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], layer: 1.5}\n", 3, 38,
         "whole number"},
        {"posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0], pos: [1, 1, 1]}\n", 3, 31,
         "'pos' is given twice (first at 3:15)"},
        {"posekit_body: 1\nbones: [{name: a, pos: [0, 0, 0]}]\nmorphs: [{panel: eye}]\n", 3, 10,
         "morph 0 has no name"},
        {"posekit_body: 1\nbones: [{name: a, pos: [0, 0, 0]}]\n"
         "rigid_bodies: [{name: r, bone: a, shape: cube}]\n",
         3, 42, "shape 'cube' is not one of sphere, box, capsule"},
        {"posekit_body: 1\nbones: [{name: a, pos: [0, 0, 0]}]\n---\nposekit_body: 1\n", 3, 1,
         "a second document"},
        {"", 1, 1, "empty"},
        {"- a\n- b\n", 1, 1, "a body is a mapping"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        const bad_case *c = &CASES[i];
        pk_log log;
        pk_log_init(&log);
        pk_model *m = read_text(c->yaml, &log);
        if (m)
            fail_msg("case %zu read:\n%s", i, c->yaml);
        bool found = false;
        for (size_t k = 0; k < log.count && !found; k++) {
            const pk_diag *d = &log.items[k];
            found = d->severity == PK_ERROR && strstr(d->msg, c->msg) && d->line == c->line &&
                    d->col == c->col;
        }
        if (!found)
            fail_msg("case %zu: want %d:%d '%s', got %d:%d '%s'", i, c->line, c->col, c->msg,
                     log.count ? log.items[0].line : -1, log.count ? log.items[0].col : -1,
                     log.count ? log.items[0].msg : "(nothing)");
        pk_log_free(&log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_small),
        cmocka_unit_test(write_read),
        cmocka_unit_test(nonfinite_numbers),
        cmocka_unit_test(corpus_models_evaluate_alike),
        cmocka_unit_test(selection_evaluates_alike),
        cmocka_unit_test(builtin_bodies),
        cmocka_unit_test(fit_picks),
        cmocka_unit_test(fit_corpus),
        cmocka_unit_test(bad_bodies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
