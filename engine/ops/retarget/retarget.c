/*
 * retarget.c — play a motion made for one model on another: rename, then
 * stance corrections, then translation scale.
 *
 * Stance.  MMD bones have no rest rotation: a bone's key q rotates its
 * subtree about the bone's head, in axes parallel to the world's, and the
 * rest pose is given by the bone positions alone.  Two models differ in
 * stance when one subtree rests turned by a rotation r relative to the
 * other: r turns the source model's rest direction d_s of the stance bone
 * (e.g. the left arm, 35° below horizontal in an A-stance) into the target
 * model's d_t = r·d_s (horizontal in a T-stance), and every bone below it
 * rests turned by r as well: e_t = r·e_s for a child's rest offset.
 *
 * With P the accumulated rotation above the stance bone, the source pose
 * shows the arm in world direction P·q·d_s and the forearm in P·q·q_c·e_s.
 * The target must show the same directions:
 *   stance bone:  P·q'·d_t = P·q'·r·d_s  = P·q·d_s      ⇐  q'   = q·r⁻¹
 *   below it:     P·q'·q_c'·e_t = P·q·r⁻¹·q_c'·r·e_s
 *                                = P·q·q_c·e_s          ⇐  q_c' = r·q_c·r⁻¹
 * and a child's own translation t (in its parent's axes) needs t' = r·t
 * for the same reason.  Deeper bones follow by induction: their parents'
 * products telescope (r⁻¹·r) exactly as above.
 *
 * Both rewrites commute with MMD's interpolation: right-multiplying by a
 * constant unit quaternion and conjugating by one are isometries of the
 * unit sphere that keep dot products, so slerp(a·c, b·c, t) = slerp(a, b,
 * t)·c and the shortest-path choice is unchanged; the rewritten keys give
 * the rewritten pose at every frame, and the curves are kept.
 *
 * When a motion moves bones of the chain but does not key the stance bone
 * itself, the rest pose of that bone must still change (q = identity
 * becomes r⁻¹), so a key is added at frame 0 with linear curves.  Only a
 * chain key off rest counts: MMD shows a bone whose keys are all at rest
 * as it shows a bone with no key, and exporters key every bone of their
 * model at rest at frame 0, so resting keys say nothing about whether the
 * motion drives this arm.  A motion renamed to English keeps such keys for
 * the bones the rename left alone (左中指先, which the Japanese chain's
 * globs still match) while its arm is arm_L: adding a Japanese 左腕 there
 * would turn nothing the motion moves.  A motion with no bone keys at all
 * (a face or camera motion) is left alone.
 *
 * Scale: every bone translation is multiplied by its bone's factor (rules'
 * scale.bones: exact names, then the glob with the longest literal part)
 * or by scale.default (1 when absent): centre, groove and IK targets
 * follow a taller or shorter model.
 */
#include "common/diag.h"
#include "math/quat.h"
#include "ops/names/bone_set.h"
#include "ops/retarget/retarget.h"
#include "rules/rules.h"
#include "rules/select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the two key rewrites (quaternions in double: math/quat.h) ---- */

static void stance_bone_key(const double r[4], float rot[4])
{
    double q[4], ri[4] = {-r[0], -r[1], -r[2], r[3]}, o[4];
    pki_qd_from_key(rot, q);
    pki_qd_mul(q, ri, o);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)o[i];
}

static void chain_key(const double r[4], float pos[3], float rot[4])
{
    double q[4], ri[4] = {-r[0], -r[1], -r[2], r[3]}, t[4], o[4];
    pki_qd_from_key(rot, q);
    pki_qd_mul(r, q, t);
    pki_qd_mul(t, ri, o);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)o[i];
    double p[3] = {pos[0], pos[1], pos[2]}, po[3];
    pki_qd_rotate(r, p, po);
    for (int i = 0; i < 3; i++)
        pos[i] = (float)po[i];
}

/* ---- compiled stance rules ---- */

typedef struct stance_c {
    const pki_stance_rule *rule;
    double r[4];
    pk_selection *chain;
} stance_c;

static void free_stances(stance_c *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pk_selection_free(v[i].chain);
    free(v);
}

static stance_c *compile_stances(const pk_rules *r, pk_log *log)
{
    stance_c *v = calloc(r->nstance ? r->nstance : 1, sizeof *v);
    if (!v) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < r->nstance; i++) {
        const pki_stance_rule *s = &r->stance[i];
        v[i].rule = s;
        double n = 0;
        for (int k = 0; k < 4; k++)
            n += (double)s->r[k] * s->r[k];
        /* r is unit by construction; renormalise the float copy in double. */
        n = n > 0 ? 1.0 / sqrt(n) : 1.0;
        for (int k = 0; k < 4; k++)
            v[i].r[k] = s->r[k] * n;
        /* The chain is an anonymous group: its items and @references. */
        v[i].chain = pki_selection_new_empty();
        if (!v[i].chain) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            free_stances(v, i);
            return NULL;
        }
        if (pki_selection_add_group(v[i].chain, r, &s->chain, log, 0) != 0) {
            free_stances(v, i + 1);
            return NULL;
        }
    }
    return v;
}

static double scale_for(const pk_rules *r, const uint8_t *raw, size_t len)
{
    const pki_scale_rule *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < r->nscale; i++) {
        const pki_scale_rule *s = &r->scale[i];
        if (!pki_pattern_match(&s->bone, raw, len, NULL, NULL))
            continue;
        int score = s->bone.star < 0 ? 1000 : (int)s->bone.len;
        if (!best || score > best_score) {
            best = s;
            best_score = score;
        }
    }
    return best ? best->factor : r->scale_default;
}

/* The stance bone's name, interned in `names`, for a model that has no
 * key/entry for it yet.  Fails (error at the rule's line) when the name
 * does not fit the format's field of `max` bytes, or on OOM. */
static pk_name_id stance_bone_name(pk_names *names, const stance_c *sc, size_t max,
                                   const char *format, pk_log *log)
{
    const pki_pattern *b = &sc->rule->bone;
    if (b->len > max) {
        pk_log_add_at(log, PK_ERROR, PK_E_UNSUPPORTED, sc->rule->at.file, -1, sc->rule->at.line,
                      sc->rule->at.col,
                      "stance bone '%s' needs a key but its name is %zu bytes; a %s bone name "
                      "holds %zu",
                      sc->rule->bone_utf8, b->len, format, max);
        return PK_NO_NAME;
    }
    pk_name_id id = pk_names_intern(names, b->raw, b->len);
    if (id == PK_NO_NAME)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return id;
}

/* ---- one transform per bone key, applied to a motion or a pose ---- */

typedef struct stance_run {
    const stance_c *sc;
    bool keyed;             /* the stance bone has keys */
    size_t chain_keys;      /* keys of bones in its chain */
    size_t chain_moving;    /* ... of them off rest */
    pk_name_id first_chain; /* the first chain key's bone, for the warning */
} stance_run;

static void stance_fn(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k)
{
    stance_run *run = ctx;
    if (pki_pattern_match(&run->sc->rule->bone, raw, len, NULL, NULL)) {
        stance_bone_key(run->sc->r, k.rot);
        run->keyed = true;
    } else if (pk_selection_has(run->sc->chain, raw, len)) {
        if (!run->chain_keys++)
            run->first_chain = *k.name;
        run->chain_moving += !pki_bone_ref_at_rest(k);
        chain_key(run->sc->r, k.pos, k.rot);
    }
}

static void scale_fn(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k)
{
    double f = scale_for(ctx, raw, len);
    if (f == 1.0)
        return;
    for (int j = 0; j < 3; j++)
        k.pos[j] = (float)(k.pos[j] * f);
}

/* Stance corrections, then the translation scale, on the bone keys of s.
 * A stance bone without keys gets one at rest when a key of its chain is
 * off rest (its rest orientation must still turn); when neither the bone
 * nor a moving chain key is in s, the rule does not apply to this model:
 * a warning, and nothing is added. */
int pki_retarget_rules_apply(pki_bone_set *s, const pk_rules *r, pk_log *log)
{
    if (!pki_bone_set_count(s) || (!r->nstance && !r->scale_set && !r->nscale))
        return 0;
    stance_c *sc = r->nstance ? compile_stances(r, log) : NULL;
    if (r->nstance && !sc)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < r->nstance && !rc; i++) {
        stance_run run = {&sc[i], false, 0, 0, PK_NO_NAME};
        pki_bone_set_each(s, stance_fn, &run);
        if (run.keyed)
            continue;
        if (!run.chain_keys) {
            pk_warning(log, PK_E_NOT_FOUND,
                       "stance bone '%s' is not in the %s and no bone of its chain is; "
                       "nothing added for it",
                       sc[i].rule->bone_utf8, s->m ? "motion" : "pose");
            continue;
        }
        if (!run.chain_moving) {
            const char *first = pk_names_utf8(s->names, run.first_chain);
            pk_warning(log, PK_E_NOT_FOUND,
                       "stance bone '%s' is not in the %s and no bone of its chain moves "
                       "(%zu key%s of it, all at rest, the first '%s'); nothing added for it",
                       sc[i].rule->bone_utf8, s->m ? "motion" : "pose", run.chain_keys,
                       run.chain_keys == 1 ? "" : "s", first ? first : "?");
            continue;
        }
        pk_name_id id = stance_bone_name(s->names, &sc[i], s->name_bytes, s->format, log);
        pki_bone_ref k;
        if (id == PK_NO_NAME || !pki_bone_set_add(s, id, &k)) {
            if (id != PK_NO_NAME)
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
            break;
        }
        stance_bone_key(sc[i].r, k.rot);
    }
    if (!rc && (r->scale_set || r->nscale))
        pki_bone_set_each(s, scale_fn, (void *)r);
    free_stances(sc, r->nstance);
    return rc;
}

bool pki_retarget_rules_stance(const pk_rules *r, const uint8_t *raw, size_t len)
{
    for (size_t i = 0; r && i < r->nstance; i++)
        if (pki_pattern_match(&r->stance[i].bone, raw, len, NULL, NULL))
            return true;
    return false;
}

bool pki_retarget_rules_scale(const pk_rules *r)
{
    return r && (r->scale_set || r->nscale);
}

/* The rules' stance and scale on s, their keys counted into st. */
static int rules_counted(pki_bone_set *s, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pki_retarget_tally t;
    if (pki_retarget_tally_begin(&t, s) != 0) {
        pki_retarget_tally_free(&t);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = pki_retarget_drop_duplicates(s, st, log);
    if (!rc)
        rc = pki_retarget_rules_apply(s, r, log);
    if (!rc && pki_retarget_tally_end(&t, s, st) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    pki_retarget_tally_free(&t);
    return rc;
}

int pk_motion_retarget(pk_motion *m, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    /* Work on a copy so a failure in a later step leaves m untouched. */
    pk_motion *c = pk_motion_clone(m);
    if (!c) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pki_bone_set s;
    pki_bone_set_of_motion(&s, c);
    size_t before = c->nmorphs, written = st ? st->morph_keys : 0;
    int rc = pk_motion_rename(c, r, false, st, log);
    if (!rc)
        pki_retarget_tally_weights(st, before, c->nmorphs, written);
    if (rc || rules_counted(&s, r, st, log) != 0) {
        pk_motion_free(c);
        return -1;
    }
    pk_motion tmp = *m;
    *m = *c;
    *c = tmp;
    pk_motion_free(c);
    return 0;
}

int pk_pose_retarget(pk_pose *p, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pk_pose *c = pk_pose_clone(p);
    if (!c) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pki_bone_set s;
    pki_bone_set_of_pose(&s, c);
    size_t before = c->nmorphs, written = st ? st->morph_keys : 0;
    int rc = pk_pose_rename(c, r, false, st, log);
    if (!rc)
        pki_retarget_tally_weights(st, before, c->nmorphs, written);
    if (rc || rules_counted(&s, r, st, log) != 0) {
        pk_pose_free(c);
        return -1;
    }
    pk_pose tmp = *p;
    *p = *c;
    *c = tmp;
    pk_pose_free(c);
    return 0;
}
