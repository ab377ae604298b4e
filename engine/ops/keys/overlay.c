/* overlay.c — a pose laid over chosen bones and morphs of a motion
 * (pk_overlay_motion) or of another pose (pk_overlay_pose).
 *
 * Over a motion, each selected track the pose holds is rebuilt by
 * rebuild.c around the window (its comment has the laws and the steps);
 * bones and morphs go through the same loop.  Over a pose, the selected
 * bones and morphs take the pose's values (replace) or are composed with
 * them (add).
 *
 * Both say what the pose lacks: the selected tracks of the base it holds
 * no value for, in one line per kind.
 */
#include "common/diag.h"
#include "model/names.h"
#include "ops/keys/overlay.h"
#include "ops/keys/rebuild.h"
#include "posekit.h"
#include "math/curve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_word(bool morph)
{
    return morph ? "morph" : "bone";
}

/* The pose's name of item i (bone or morph). */
static pk_name_id pose_name(const pk_pose *p, bool morph, size_t i)
{
    return morph ? p->morphs[i].name : p->bones[i].name;
}

static size_t pose_count(const pk_pose *p, bool morph)
{
    return morph ? p->nmorphs : p->nbones;
}

/* Is item i the pose's record of its name (the last of repeated ones)? */
static bool pose_first(const pk_pose *p, bool morph, size_t i)
{
    pk_name_id id = pose_name(p, morph, i);
    return (morph ? pk_pose_find_morph(p, id) : pk_pose_find_bone(p, id)) == (long)i;
}

/* ---- what the pose lacks ---- */

/* Selected base tracks the pose lacks: one warning, or one line for many
 * ("16 selected bones are not in the pose, left as they are: '右手首',
 * '右親指０', '右親指１' and 13 more"). */
static void absent_add(pki_log_sum *sum, bool morph, const char *name)
{
    char item[96];
    snprintf(item, sizeof item, "'%s'", name);
    pki_log_sum_add(sum, -1, 0, 0, item, "selected %s '%s' is not in the pose; left as it is",
                    kind_word(morph), name);
}

static void absent_end(pki_log_sum *sum, bool morph, pk_log *log)
{
    pki_log_sum_end(sum, log, PK_WARNING, PK_E_NOT_FOUND, NULL,
                    "%zu selected %ss are not in the pose, left as they are", sum->count,
                    kind_word(morph));
}

/* A tip bone (…先: the end of a chain, a tail marker MMD never moves)
 * whose keys all rest is left out of the warning: the pose lacking it
 * changes nothing. */
static bool is_tip(const char *utf8)
{
    static const char TIP[] = "先";
    size_t n = strlen(utf8), t = sizeof TIP - 1;
    return n >= t && memcmp(utf8 + n - t, TIP, t) == 0;
}

static bool at_rest(const float pos[3], const float rot[4])
{
    static const float id[4] = {0, 0, 0, 1};
    for (int a = 0; a < 3; a++)
        if (fabs((double)pos[a]) > PK_OVERLAY_TOL_POS)
            return false;
    return pk_quat_angle_deg(rot, id) <= PK_OVERLAY_TOL_DEG;
}

static bool track_at_rest(const pk_motion *m, const pk_track *t)
{
    for (size_t i = 0; i < t->count; i++)
        if (!at_rest(m->bones[t->keys[i]].pos, m->bones[t->keys[i]].rot))
            return false;
    return true;
}

/* The thumb: a pose from a model whose thumb is 親指１ and 親指２ (the
 * classic skeleton) laid on a motion for a model with 親指０, 親指１ and
 * 親指２ puts its first joint's turn on the second joint there.  The sign:
 * the pose holds a selected 親指１ but no 親指０, and the base has 親指０.
 * rules/thumb-shift.yaml renames the pose's joints one down. */
typedef bool (*has_name_fn)(const void *ctx, const uint8_t *raw, size_t len);

static bool pose_has(const pk_pose *p, const uint8_t *raw, size_t len)
{
    pk_name_id id = pk_names_find(p->names, raw, len);
    return id != PK_NO_NAME && pk_pose_find_bone(p, id) >= 0;
}

static void thumb_hint(const pk_pose *pose, const pk_selection *sel, has_name_fn base_has,
                       const void *base, pk_log *log)
{
    static const char *const SIDE[2] = {"右", "左"};
    char found[2][2][32]; /* per side found: 親指０, 親指１ */
    int n = 0;
    for (int s = 0; s < 2; s++) {
        char name[2][32];
        uint8_t *raw[2] = {NULL, NULL};
        size_t len[2] = {0, 0};
        bool ok = true;
        for (int j = 0; j < 2; j++) {
            snprintf(name[j], sizeof name[j], "%s親指%s", SIDE[s], j ? "１" : "０");
            ok = ok && pk_utf8_to_cp932(name[j], &raw[j], &len[j]) == 0;
        }
        if (ok && pose_has(pose, raw[1], len[1]) && pk_selection_has(sel, raw[1], len[1]) &&
            !pose_has(pose, raw[0], len[0]) && base_has(base, raw[0], len[0]))
            memcpy(found[n++], name, sizeof name);
        for (int j = 0; j < 2; j++)
            free(raw[j]);
    }
    if (n == 0)
        return;
    char one[160], zero[160];
    snprintf(one, sizeof one, "%s%s%s", found[0][1], n > 1 ? " and " : "",
             n > 1 ? found[1][1] : "");
    snprintf(zero, sizeof zero, "%s%s%s", found[0][0], n > 1 ? " or " : "",
             n > 1 ? found[1][0] : "");
    pk_warning(log, PK_E_CONFLICT,
               "the pose has %s but no %s, which the base has: it is most likely from a model "
               "whose thumb is 親指１ and 親指２ (this model's 親指０ and 親指１), so its %s %s "
               "the second joint here; shift its thumb%s first: posekit rename POSE --rules "
               "thumb-shift.yaml -o SHIFTED (rules/thumb-shift.yaml)",
               one, zero, one, n > 1 ? "turn" : "turns", n > 1 ? "s" : "");
}

static void warn_nothing(const pk_overlay_stats *st, pk_log *log)
{
    if (st->bones + st->morphs > 0)
        return;
    if (st->bones_same + st->morphs_same == 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing overlaid: the pose holds none of the selected bones or morphs, "
                   "the output is the base");
    else
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing changed: the selected bones and morphs the pose holds already have "
                   "its values, the output is the base");
}

/* ---- a pose over a motion ---- */

/* The base track a pose name lands on: same bytes, or the pose name as MMD
 * stored it cut (names.c's one rule; doc/formats.md §4). */
static pk_name_id base_name_for(const pk_motion *m, const uint8_t *raw, size_t len)
{
    return pki_names_find_stored(m->names, raw, len);
}

static const pk_track *base_track(const pk_tracks *tracks, bool morph, pk_name_id id)
{
    if (id == PK_NO_NAME)
        return NULL;
    return morph ? pk_tracks_morph(tracks, id) : pk_tracks_bone(tracks, id);
}

/* True when every selected pose name (of bones, or of morphs) that the
 * base lacks fits the VMD field; otherwise each one that does not is an
 * error, all at once (a name the base has, cut as MMD stores it, lands on
 * that track and needs no room). */
static bool new_names_fit(const pk_pose *pose, const pk_motion *base, const pk_tracks *tracks,
                          const pk_selection *sel, bool morph, pk_log *log)
{
    const char *word = kind_word(morph);
    bool fit = true;
    for (size_t i = 0; i < pose_count(pose, morph); i++) {
        pk_name_id pid = pose_name(pose, morph, i);
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (len <= PK_VMD_NAME_BYTES || !pose_first(pose, morph, i) ||
            !pk_selection_has(sel, raw, len))
            continue;
        if (!base_track(tracks, morph, base_name_for(base, raw, len))) {
            pk_error(log, PK_E_UNSUPPORTED,
                     "%s '%s' is %zu bytes; a VMD %s name holds at most %d (--cut-names cuts it "
                     "as MMD does)",
                     word, pk_names_utf8(pose->names, pid), len, word, PK_VMD_NAME_BYTES);
            fit = false;
        }
    }
    return fit;
}

/* The fade-in needs frames before A; the range may start too early. */
static void warn_fade_cut(const pk_overlay_options *o, pk_log *log)
{
    if (o->all_frames || o->fade <= o->first)
        return;
    if (o->first == 0)
        pk_warning(log, PK_E_LOSS, "fade %u: the range starts at frame 0, so there is no fade-in",
                   o->fade);
    else
        pk_warning(log, PK_E_LOSS,
                   "fade %u cut short at frame 0: the fade-in runs over %u frame%s (frames 0-%u)",
                   o->fade, o->first, o->first == 1 ? "" : "s", o->first);
}

/* A track left as it was: the crossed pieces its rebuild split, fitted or
 * baked are not counted. */
static void keep_counts(pk_overlay_stats *st, const pk_overlay_stats *before)
{
    st->split = before->split;
    st->split_exact = before->split_exact;
    st->fitted = before->fitted;
    st->fitted_keys = before->fitted_keys;
    st->baked = before->baked;
    st->baked_keys = before->baked_keys;
}

/* One run over a motion: the base, its tracks, the output. */
typedef struct run {
    const pk_motion *base;
    const pk_tracks *tracks;
    pk_motion *out;
    const pk_pose *pose;
    const pk_selection *sel;
    const pki_rb_env *env;
    pk_log *log;
} run;

/* The pose's value of item i as the rebuild's overlay value. */
static void set_pose(pki_rb *c, const pk_pose *pose, bool morph, size_t i)
{
    if (morph)
        pki_rb_set_morph_pose(c, pose->morphs[i].weight);
    else
        pki_rb_set_bone_pose(c, pose->bones[i].pos, pose->bones[i].rot);
}

/* The selected bones (morphs) of the pose over the base's tracks of that
 * kind in r->out; the selected tracks it lacks are warned about.  0, or -1
 * (logged). */
static int overlay_kind(const run *r, bool morph)
{
    const pk_pose *pose = r->pose;
    const pk_tracks *tracks = r->tracks;
    pk_overlay_stats *st = r->env->st;
    size_t ntracks = morph ? tracks->nmorphs : tracks->nbones;
    pki_rb_plan *plans = calloc(pose_count(pose, morph) + 1, sizeof *plans);
    bool *done = calloc(ntracks + 1, sizeof *done);
    size_t np = 0;
    if (!plans || !done)
        goto oom;
    if (!new_names_fit(pose, r->base, tracks, r->sel, morph, r->log))
        goto fail;
    for (size_t i = 0; i < pose_count(pose, morph); i++) {
        pk_name_id pid = pose_name(pose, morph, i);
        if (!pose_first(pose, morph, i))
            continue; /* a duplicate: the last one wins */
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (!pk_selection_has(r->sel, raw, len))
            continue;
        pk_name_id bid = base_name_for(r->base, raw, len);
        const pk_track *t = base_track(tracks, morph, bid);
        if (!t) {
            if (len > PK_VMD_NAME_BYTES) /* said by new_names_fit */
                goto fail;
            bid = pk_names_intern(r->out->names, raw, len);
            if (bid == PK_NO_NAME)
                goto oom;
        } else {
            done[t - (morph ? tracks->morphs : tracks->bones)] = true;
        }
        pki_rb c;
        pki_rb_init(&c, r->env, t, morph);
        set_pose(&c, pose, morph, i);
        pk_overlay_stats before = *st;
        if (r->env->opt->all_frames)
            pki_rb_all(&c);
        else
            pki_rb_range(&c);
        bool ok = !c.oom, same = false;
        if (ok && !c.too_long)
            same = pki_rb_unchanged(&c, &ok);
        if (same) { /* nothing to rewrite: the base's records stay */
            free(c.out.v);
            keep_counts(st, &before);
            if (morph)
                st->morphs_same++;
            else
                st->bones_same++;
            continue;
        }
        plans[np].name = bid;
        plans[np++].keys = c.out;
        if (morph)
            st->morphs++;
        else
            st->bones++;
        if (!ok)
            goto oom;
        if (c.too_long) {
            pk_error(r->log, PK_E_UNSUPPORTED,
                     "bone '%s': a segment crossed by the overlay's edges is longer than %u "
                     "frames; it cannot be checked frame by frame",
                     pk_names_utf8(pose->names, pid), PKI_RB_PIECE_MAX);
            goto fail;
        }
    }
    pki_log_sum absent;
    pki_log_sum_init(&absent);
    for (size_t ti = 0; ti < ntracks; ti++) {
        pk_name_id name = morph ? tracks->morphs[ti].name : tracks->bones[ti].name;
        size_t len;
        const uint8_t *raw = pk_names_raw(r->base->names, name, &len);
        if (done[ti] || !pk_selection_has(r->sel, raw, len))
            continue;
        if (!morph && is_tip(pk_names_utf8(r->base->names, name)) &&
            track_at_rest(r->base, &tracks->bones[ti]))
            continue;
        if (morph)
            st->morphs_missing++;
        else
            st->missing++;
        absent_add(&absent, morph, pk_names_utf8(r->base->names, name));
    }
    absent_end(&absent, morph, r->log);
    if (pki_rb_apply(r->out, plans, np, morph, st) != 0)
        goto oom;
    pki_rb_plans_free(plans, np);
    free(done);
    return 0;
oom:
    pk_error(r->log, PK_E_NO_MEMORY, "out of memory");
fail:
    pki_rb_plans_free(plans, np);
    free(done);
    return -1;
}

static bool base_has_track(const void *ctx, const uint8_t *raw, size_t len)
{
    const run *r = ctx;
    return base_track(r->tracks, false, pk_names_find(r->base->names, raw, len)) != NULL;
}

bool pki_overlay_window(const pk_overlay_options *opt, pk_log *log)
{
    if (!pki_rb_window_ok(opt, log))
        return false;
    warn_fade_cut(opt, log);
    return true;
}

pk_motion *pk_overlay_motion(const pk_motion *base, const pk_pose *pose, const pk_selection *sel,
                             const pk_overlay_options *opt, pk_overlay_stats *stats, pk_log *log)
{
    if (!pki_overlay_window(opt, log)) {
        if (stats)
            memset(stats, 0, sizeof *stats);
        return NULL;
    }
    return pki_overlay_motion_in(base, pose, sel, opt, stats, log);
}

pk_motion *pki_overlay_motion_in(const pk_motion *base, const pk_pose *pose,
                                 const pk_selection *sel, const pk_overlay_options *opt,
                                 pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    pk_log quiet; /* duplicate-key warnings belong to reading the base */
    pk_log_init(&quiet);
    pk_tracks *tracks = pk_tracks_build(base, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(base);
    /* no cache (no memory) only slows the fitter down */
    pki_rb_env env = {
        base,       opt, st, pki_rb_scratch_new(), opt->exact ? NULL : pki_curve_cache_new(),
        !opt->exact};
    if (!tracks || !out || !env.scratch) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto fail;
    }
    run r = {base, tracks, out, pose, sel, &env, log};
    if (overlay_kind(&r, false) != 0 || overlay_kind(&r, true) != 0)
        goto fail;
    thumb_hint(pose, sel, base_has_track, &r, log);
    warn_nothing(st, log);
    pk_motion_free(env.scratch);
    pki_curve_cache_free(env.cache);
    pk_tracks_free(tracks);
    return out;
fail:
    pk_motion_free(env.scratch);
    pki_curve_cache_free(env.cache);
    pk_motion_free(out);
    pk_tracks_free(tracks);
    return NULL;
}

/* ---- a pose over a pose ---- */

static long pose_find(const pk_pose *p, bool morph, pk_name_id id)
{
    if (id == PK_NO_NAME)
        return -1;
    return morph ? pk_pose_find_morph(p, id) : pk_pose_find_bone(p, id);
}

/* Appends item i of `pose` to out (a name out lacks); false on OOM. */
static bool pose_append(pk_pose *out, const pk_pose *pose, bool morph, size_t i,
                        pk_overlay_mode mode, const uint8_t *raw, size_t len)
{
    pk_name_id bid = pk_names_intern(out->names, raw, len);
    if (bid == PK_NO_NAME)
        return false;
    if (morph) {
        pk_pose_morph *nm = pk_pose_push_morph(out);
        if (!nm)
            return false;
        nm->name = bid;
        nm->weight = pose->morphs[i].weight;
        return true;
    }
    pk_pose_bone *nb = pk_pose_push_bone(out);
    if (!nb)
        return false;
    const pk_pose_bone *pb = &pose->bones[i];
    nb->name = bid;
    memcpy(nb->pos, pb->pos, sizeof nb->pos);
    memcpy(nb->rot, pb->rot, sizeof nb->rot);
    if (mode == PK_OVERLAY_ADD)
        pk_quat_normalize(pb->rot, nb->rot);
    return true;
}

/* bb takes the pose's pb: replaced, or composed with it. */
static void bone_compose(pk_pose_bone *bb, const pk_pose_bone *pb, pk_overlay_mode mode)
{
    if (mode == PK_OVERLAY_REPLACE) {
        memcpy(bb->pos, pb->pos, sizeof bb->pos);
        memcpy(bb->rot, pb->rot, sizeof bb->rot);
        return;
    }
    float qa[4], qb[4];
    pk_quat_normalize(bb->rot, qa);
    pk_quat_normalize(pb->rot, qb);
    pk_quat_mul(qa, qb, bb->rot);
    for (int a = 0; a < 3; a++)
        bb->pos[a] += pb->pos[a];
}

/* Item bi of out takes item i of `pose`: replaced or composed. */
static void pose_set(pk_pose *out, long bi, const pk_pose *pose, bool morph, size_t i,
                     pk_overlay_mode mode)
{
    if (morph) {
        float w = pose->morphs[i].weight;
        out->morphs[bi].weight = mode == PK_OVERLAY_REPLACE ? w : out->morphs[bi].weight + w;
        return;
    }
    bone_compose(&out->bones[bi], &pose->bones[i], mode);
}

/* Would item i of `pose` leave out's item bi (-1: none, the rest pose)
 * as it is, within PK_OVERLAY_TOL_* (morphs 1e-5)? */
static bool pose_same(const pk_pose *out, long bi, const pk_pose *pose, bool morph, size_t i,
                      pk_overlay_mode mode)
{
    if (morph) {
        float was = bi < 0 ? 0.0f : out->morphs[bi].weight, w = pose->morphs[i].weight;
        float now = mode == PK_OVERLAY_REPLACE ? w : was + w;
        return fabs((double)now - was) <= 1e-5;
    }
    pk_pose_bone was, now;
    memset(&was, 0, sizeof was);
    was.rot[3] = 1.0f;
    if (bi >= 0)
        was = out->bones[bi];
    now = was;
    bone_compose(&now, &pose->bones[i], mode);
    if (pk_quat_angle_deg(was.rot, now.rot) > PK_OVERLAY_TOL_DEG)
        return false;
    for (int a = 0; a < 3; a++)
        if (fabs((double)now.pos[a] - was.pos[a]) > PK_OVERLAY_TOL_POS)
            return false;
    return true;
}

/* The selected bones (morphs) of `pose` over those of `out` (a clone of
 * the base); a name only in the pose is appended; the selected ones of
 * the base that the pose lacks are warned about.  0, or -1 on OOM. */
static int pose_kind(pk_pose *out, const pk_pose *pose, const pk_selection *sel, bool morph,
                     pk_overlay_mode mode, pk_overlay_stats *st, pk_log *log)
{
    size_t nbase = pose_count(out, morph);
    bool *hit = calloc(nbase ? nbase : 1, sizeof *hit);
    if (!hit)
        return -1;
    for (size_t i = 0; i < pose_count(pose, morph); i++) {
        if (!pose_first(pose, morph, i))
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pose_name(pose, morph, i), &len);
        if (!pk_selection_has(sel, raw, len))
            continue;
        long bi = pose_find(out, morph, pk_names_find(out->names, raw, len));
        if (bi >= 0 && (size_t)bi < nbase)
            hit[bi] = true;
        if (pose_same(out, bi, pose, morph, i, mode)) {
            if (morph)
                st->morphs_same++;
            else
                st->bones_same++;
            continue;
        }
        if (morph)
            st->morphs++;
        else
            st->bones++;
        if (bi < 0) {
            if (!pose_append(out, pose, morph, i, mode, raw, len)) {
                free(hit);
                return -1;
            }
            st->keys_added++;
            continue;
        }
        pose_set(out, bi, pose, morph, i, mode);
    }
    pki_log_sum absent;
    pki_log_sum_init(&absent);
    for (size_t i = 0; i < nbase; i++) {
        pk_name_id name = pose_name(out, morph, i);
        size_t len;
        const uint8_t *raw = pk_names_raw(out->names, name, &len);
        if (hit[i] || !pk_selection_has(sel, raw, len) || !pose_first(out, morph, i))
            continue;
        if (!morph && is_tip(pk_names_utf8(out->names, name)) &&
            at_rest(out->bones[i].pos, out->bones[i].rot))
            continue;
        if (morph)
            st->morphs_missing++;
        else
            st->missing++;
        absent_add(&absent, morph, pk_names_utf8(out->names, name));
    }
    absent_end(&absent, morph, log);
    free(hit);
    return 0;
}

static bool base_pose_has(const void *ctx, const uint8_t *raw, size_t len)
{
    return pose_has(ctx, raw, len);
}

pk_pose *pk_overlay_pose(const pk_pose *base, const pk_pose *pose, const pk_selection *sel,
                         pk_overlay_mode mode, pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    pk_pose *out = pk_pose_clone(base);
    if (!out || pose_kind(out, pose, sel, false, mode, st, log) != 0 ||
        pose_kind(out, pose, sel, true, mode, st, log) != 0) {
        pk_pose_free(out);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    thumb_hint(pose, sel, base_pose_has, base, log);
    warn_nothing(st, log);
    return out;
}
