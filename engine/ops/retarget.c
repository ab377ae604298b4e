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
 * When a motion keys bones but not the stance bone itself, the rest pose of
 * that bone must still change (q = identity becomes r⁻¹), so a key is added
 * at frame 0 with linear curves.  A motion with no bone keys at all (a face
 * or camera motion) is left alone.
 *
 * Scale: every bone translation is multiplied by its bone's factor (rules'
 * scale.bones: exact names, then the glob with the longest literal part)
 * or by scale.default (1 when absent): centre, groove and IK targets
 * follow a taller or shorter model.
 */
#include "common/diag_internal.h"
#include "rules/rules_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- quaternion math in double, x,y,z,w ---- */

static void qmul(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* v' = r·v·r⁻¹ for a unit r. */
static void qrotate(const double r[4], const double v[3], double out[3])
{
    double p[4] = {v[0], v[1], v[2], 0}, ri[4] = {-r[0], -r[1], -r[2], r[3]}, t[4], u[4];
    qmul(r, p, t);
    qmul(t, ri, u);
    out[0] = u[0];
    out[1] = u[1];
    out[2] = u[2];
}

static void stance_bone_key(const double r[4], float rot[4])
{
    double q[4] = {rot[0], rot[1], rot[2], rot[3]}, ri[4] = {-r[0], -r[1], -r[2], r[3]}, o[4];
    qmul(q, ri, o);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)o[i];
}

static void chain_key(const double r[4], float pos[3], float rot[4])
{
    double q[4] = {rot[0], rot[1], rot[2], rot[3]}, ri[4] = {-r[0], -r[1], -r[2], r[3]}, t[4], o[4];
    qmul(r, q, t);
    qmul(t, ri, o);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)o[i];
    double p[3] = {pos[0], pos[1], pos[2]}, po[3];
    qrotate(r, p, po);
    for (int i = 0; i < 3; i++)
        pos[i] = (float)po[i];
}

/* ---- compiled stance rules ---- */

typedef struct stance_c {
    const pk_stance_rule *rule;
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
        pk_error(log, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < r->nstance; i++) {
        const pk_stance_rule *s = &r->stance[i];
        v[i].rule = s;
        double n = 0;
        for (int k = 0; k < 4; k++)
            n += (double)s->r[k] * s->r[k];
        /* r is unit by construction; renormalise the float copy in double. */
        n = n > 0 ? 1.0 / sqrt(n) : 1.0;
        for (int k = 0; k < 4; k++)
            v[i].r[k] = s->r[k] * n;
        /* The chain is an anonymous group: its items and @references. */
        v[i].chain = pk_selection_new_empty();
        if (!v[i].chain) {
            pk_error(log, "out of memory");
            free_stances(v, i);
            return NULL;
        }
        if (pk_selection_add_group(v[i].chain, r, &s->chain, log, 0) != 0) {
            free_stances(v, i + 1);
            return NULL;
        }
    }
    return v;
}

static double scale_for(const pk_rules *r, const uint8_t *raw, size_t len)
{
    const pk_scale_rule *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < r->nscale; i++) {
        const pk_scale_rule *s = &r->scale[i];
        if (!pk_pattern_match(&s->bone, raw, len, NULL, NULL))
            continue;
        int score = s->bone.star < 0 ? 1000 : (int)s->bone.len;
        if (!best || score > best_score) {
            best = s;
            best_score = score;
        }
    }
    return best ? best->factor : r->scale_default;
}

static bool rot_changed(const float a[4], const float b[4])
{
    return memcmp(a, b, 4 * sizeof *a) != 0;
}

/* The stance bone's name, interned in `names`, for a model that has no
 * key/entry for it yet.  Fails (error at the rule's line) when the name
 * does not fit the format's field of `max` bytes, or on OOM. */
static pk_name_id stance_bone_name(pk_names *names, const stance_c *sc, size_t max,
                                   const char *format, pk_log *log)
{
    const pk_pattern *b = &sc->rule->bone;
    if (b->len > max) {
        pk_log_add_at(log, PK_ERROR, sc->rule->at.file, -1, sc->rule->at.line, sc->rule->at.col,
                   "stance bone '%s' needs a key but its name is %zu bytes; a %s bone name "
                   "holds %zu",
                   sc->rule->bone_utf8, b->len, format, max);
        return PK_NO_NAME;
    }
    pk_name_id id = pk_names_intern(names, b->raw, b->len);
    if (id == PK_NO_NAME)
        pk_error(log, "out of memory");
    return id;
}

/* ---- motion ---- */

static int motion_stance(pk_motion *m, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    if (!r->nstance || !m->nbones)
        return 0;
    stance_c *sc = compile_stances(r, log);
    if (!sc)
        return -1;
    int rc = 0;
    for (size_t s = 0; s < r->nstance && !rc; s++) {
        bool keyed = false;
        for (size_t i = 0; i < m->nbones; i++) {
            pk_bone_key *k = &m->bones[i];
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, k->name, &len);
            float before[7];
            memcpy(before, k->pos, sizeof k->pos);
            memcpy(before + 3, k->rot, sizeof k->rot);
            if (pk_pattern_match(&sc[s].rule->bone, raw, len, NULL, NULL)) {
                stance_bone_key(sc[s].r, k->rot);
                keyed = true;
            } else if (pk_selection_has(sc[s].chain, raw, len)) {
                chain_key(sc[s].r, k->pos, k->rot);
            } else {
                continue;
            }
            if (st && (rot_changed(before + 3, k->rot) || memcmp(before, k->pos, 12) != 0))
                st->keys_changed++;
        }
        if (keyed)
            continue;
        pk_name_id id = stance_bone_name(m->names, &sc[s], PK_VMD_NAME_BYTES, "VMD", log);
        pk_bone_key *k = id == PK_NO_NAME ? NULL : pk_motion_push_bone(m);
        if (!k) {
            if (id != PK_NO_NAME)
                pk_error(log, "out of memory");
            rc = -1;
            break;
        }
        k->name = id;
        k->frame = 0;
        k->rot[3] = 1.0f;
        stance_bone_key(sc[s].r, k->rot);
        pk_interp_linear(k->interp);
        if (st)
            st->keys_added++;
    }
    free_stances(sc, r->nstance);
    return rc;
}

static void motion_scale(pk_motion *m, const pk_rules *r, pk_edit_stats *st)
{
    if (!r->scale_set && !r->nscale)
        return;
    for (size_t i = 0; i < m->nbones; i++) {
        pk_bone_key *k = &m->bones[i];
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, k->name, &len);
        double f = scale_for(r, raw, len);
        if (f == 1.0)
            continue;
        for (int j = 0; j < 3; j++)
            k->pos[j] = (float)(k->pos[j] * f);
        if (st)
            st->keys_changed++;
    }
}

int pk_motion_retarget(pk_motion *m, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    /* Work on a copy so a failure in a later step leaves m untouched. */
    pk_motion *c = pk_motion_clone(m);
    if (!c) {
        pk_error(log, "out of memory");
        return -1;
    }
    if (pk_motion_rename(c, r, false, st, log) != 0 || motion_stance(c, r, st, log) != 0) {
        pk_motion_free(c);
        return -1;
    }
    motion_scale(c, r, st);
    pk_motion tmp = *m;
    *m = *c;
    *c = tmp;
    pk_motion_free(c);
    return 0;
}

/* ---- pose ---- */

static int pose_stance(pk_pose *p, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    if (!r->nstance || !p->nbones)
        return 0;
    stance_c *sc = compile_stances(r, log);
    if (!sc)
        return -1;
    int rc = 0;
    for (size_t s = 0; s < r->nstance && !rc; s++) {
        bool found = false;
        for (size_t i = 0; i < p->nbones; i++) {
            pk_pose_bone *b = &p->bones[i];
            size_t len;
            const uint8_t *raw = pk_names_raw(p->names, b->name, &len);
            if (pk_pattern_match(&sc[s].rule->bone, raw, len, NULL, NULL)) {
                stance_bone_key(sc[s].r, b->rot);
                found = true;
            } else if (pk_selection_has(sc[s].chain, raw, len)) {
                chain_key(sc[s].r, b->pos, b->rot);
            } else {
                continue;
            }
            if (st)
                st->keys_changed++;
        }
        if (found)
            continue;
        pk_name_id id = stance_bone_name(p->names, &sc[s], PK_VPD_NAME_BYTES, "VPD", log);
        pk_pose_bone *b = id == PK_NO_NAME ? NULL : pk_pose_push_bone(p);
        if (!b) {
            if (id != PK_NO_NAME)
                pk_error(log, "out of memory");
            rc = -1;
            break;
        }
        b->name = id;
        b->rot[3] = 1.0f;
        stance_bone_key(sc[s].r, b->rot);
        if (st)
            st->keys_added++;
    }
    free_stances(sc, r->nstance);
    return rc;
}

int pk_pose_retarget(pk_pose *p, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pk_pose *c = pk_pose_clone(p);
    if (!c) {
        pk_error(log, "out of memory");
        return -1;
    }
    if (pk_pose_rename(c, r, false, st, log) != 0 || pose_stance(c, r, st, log) != 0) {
        pk_pose_free(c);
        return -1;
    }
    if (r->scale_set || r->nscale) {
        for (size_t i = 0; i < c->nbones; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(c->names, c->bones[i].name, &len);
            double f = scale_for(r, raw, len);
            if (f == 1.0)
                continue;
            for (int j = 0; j < 3; j++)
                c->bones[i].pos[j] = (float)(c->bones[i].pos[j] * f);
            if (st)
                st->keys_changed++;
        }
    }
    pk_pose tmp = *p;
    *p = *c;
    *c = tmp;
    pk_pose_free(c);
    return 0;
}
