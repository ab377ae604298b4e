/*
 * mirror.c — left/right mirroring of motions and poses.
 *
 * MMD's space is left-handed, Y up, the model facing -Z; its left is +X.
 * Mirroring through the YZ plane (x -> -x):
 *   bone translation   (x, y, z)    -> (-x, y, z)
 *   bone rotation      (x, y, z, w) -> (x, -y, -z, w)
 *       (a reflection S = diag(-1,1,1) turns a rotation about axis a by
 *       angle t into a rotation about S·a by -t: the vector part becomes
 *       -(S·a) = (x, -y, -z) and w stays; the same rule as mmd_tools')
 *   camera             centre x -> -x, Euler y (yaw) -> -y, z (roll) -> -z;
 *                      pitch, distance, fov and curves unchanged
 *   light              direction x -> -x
 * Interpolation curves describe the fraction of the way from one key to
 * the next, which a sign flip does not change, so they are kept.
 *
 * Names: each mirror pair (rules' `mirror`, default [左, 右]) is swapped
 * where it stands at the start of a name, or else at its end (腰キャンセル左);
 * the first pair that applies wins.  Bones and IK names are swapped, and
 * so are morphs: first by the rules' `morph_mirror` pairs of whole names
 * (default: MMD's wink morphs, ウィンク / ウィンク右 and ウィンク２ / ｳｨﾝｸ２右,
 * which name only one side), else by the same fragments as bones (困り左,
 * 左手グー).  Unpaired bones are mirrored in place; unpaired morphs are
 * kept.  Without rules the built-in ones (standard.yaml) are used.
 *
 * The key transform (mirror_fn) is written once and applied to a motion's
 * keys or a pose's bones alike (ops/names/bone_set.h).
 *
 * Only sign bits change, so mirroring twice gives back the same bytes; the
 * names must map back too, which is checked (f(f(name)) == name) together
 * with collisions and field widths before anything changes.
 */
#include "model/names.h"
#include "ops/names/bone_set.h"
#include "ops/names/rename.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static bool starts(const uint8_t *raw, size_t len, const pki_pattern *f)
{
    return len >= f->len && memcmp(raw, f->raw, f->len) == 0;
}

static bool ends(const uint8_t *raw, size_t len, const pki_pattern *f)
{
    return len >= f->len && memcmp(raw + len - f->len, f->raw, f->len) == 0 &&
           pki_cp932_is_boundary(raw, len, len - f->len);
}

/* Writes the mirrored name into out (room for len + PKI_PATTERN_MAX);
 * returns whether a pair applied. */
static bool mirror_name(const pki_mirror_pair *pairs, size_t npairs, const uint8_t *raw, size_t len,
                        uint8_t *out, size_t *out_len)
{
    for (size_t i = 0; i < npairs; i++) {
        for (int side = 0; side < 2; side++) {
            const pki_pattern *from = side ? &pairs[i].b : &pairs[i].a;
            const pki_pattern *to = side ? &pairs[i].a : &pairs[i].b;
            if (starts(raw, len, from)) {
                memcpy(out, to->raw, to->len);
                memcpy(out + to->len, raw + from->len, len - from->len);
                *out_len = to->len + len - from->len;
                return true;
            }
        }
        for (int side = 0; side < 2; side++) {
            const pki_pattern *from = side ? &pairs[i].b : &pairs[i].a;
            const pki_pattern *to = side ? &pairs[i].a : &pairs[i].b;
            if (ends(raw, len, from)) {
                memcpy(out, raw, len - from->len);
                memcpy(out + len - from->len, to->raw, to->len);
                *out_len = len - from->len + to->len;
                return true;
            }
        }
    }
    return false;
}

/* A whole-name pair (morph_mirror) that names raw: the other name. */
static bool mirror_whole(const pki_mirror_pair *pairs, size_t npairs, const uint8_t *raw,
                         size_t len, uint8_t *out, size_t *out_len)
{
    for (size_t i = 0; i < npairs; i++)
        for (int side = 0; side < 2; side++) {
            const pki_pattern *from = side ? &pairs[i].b : &pairs[i].a;
            const pki_pattern *to = side ? &pairs[i].a : &pairs[i].b;
            if (from->len == len && memcmp(raw, from->raw, len) == 0) {
                memcpy(out, to->raw, to->len);
                *out_len = to->len;
                return true;
            }
        }
    return false;
}

typedef struct pairs {
    const pki_mirror_pair *frag, *whole; /* fragments; whole names (morphs) */
    size_t nfrag, nwhole;
} pairs;

static bool mirror_any(const pairs *p, const uint8_t *raw, size_t len, uint8_t *out,
                       size_t *out_len)
{
    return mirror_whole(p->whole, p->nwhole, raw, len, out, out_len) ||
           mirror_name(p->frag, p->nfrag, raw, len, out, out_len);
}

/* Plans the swap of every used name; errors when a name would not map back
 * to itself under a second mirror.  `what` names the kind in messages. */
static int plan_mirror(pki_name_plan *pl, const pk_names *names, const pairs *pp, const char *what,
                       size_t *renamed, pk_edit_stats *st, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < pl->n; i++) {
        if (!pl->used[i])
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(names, (pk_name_id)i, &len);
        uint8_t *out = malloc(len + 2 * PKI_PATTERN_MAX), *back = malloc(len + 3 * PKI_PATTERN_MAX);
        size_t out_len, back_len;
        if (!out || !back) {
            free(out);
            free(back);
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        if (mirror_any(pp, raw, len, out, &out_len)) {
            if (!mirror_any(pp, out, out_len, back, &back_len) || back_len != len ||
                memcmp(back, raw, len) != 0) {
                pk_error(log, PK_E_CONFLICT,
                         "mirror pairs are not symmetric for %s '%s' (mirroring twice would "
                         "not give it back)",
                         what, pk_names_utf8(names, (pk_name_id)i));
                rc = -1;
            } else if (pki_name_plan_set(pl, (pk_name_id)i, out, out_len) != 0) {
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                rc = -1;
            } else {
                (*renamed)++;
            }
        } else {
            pki_edit_stats_add_unmatched(st, pk_names_utf8(names, (pk_name_id)i));
        }
        free(out);
        free(back);
    }
    return rc;
}

static void neg(float *v)
{
    *v = -*v;
}

/* The one bone-key transform: translation x and rotation y, z change sign
 * (the name is swapped by the plan). */
static void mirror_fn(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k)
{
    (void)ctx;
    (void)raw;
    (void)len;
    neg(&k.pos[0]);
    neg(&k.rot[1]);
    neg(&k.rot[2]);
}

/* Mirrors the bone keys and morph names of s; a motion's IK names,
 * cameras and lights too. */
static int mirror_set(pki_bone_set *s, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pk_rules *builtin = NULL;
    if (!r) {
        builtin = pk_rules_default(log);
        if (!builtin)
            return -1;
        r = builtin;
    }
    pairs bone_pairs = {r->mirror, NULL, r->nmirror, 0};
    pairs morph_pairs = {r->mirror, r->morph_mirror, r->nmirror, r->nmorph_mirror};
    pk_motion *m = s->m;
    pki_set_plan p;
    if (pki_set_plan_init(&p, s, log) != 0) {
        pk_rules_free(builtin);
        return -1;
    }
    size_t renamed = 0, morphs_renamed = 0;
    int rc = plan_mirror(&p.bones, s->names, &bone_pairs, "bone", &renamed, st, log);
    if (!rc)
        rc = plan_mirror(&p.morphs, s->names, &morph_pairs, "morph", &morphs_renamed, NULL, log);
    if (!rc)
        rc = pki_set_plan_check(&p, s, log);
    if (!rc)
        rc = pki_set_plan_apply(&p, s, log);
    if (!rc) {
        size_t nb = pki_bone_set_count(s);
        pki_bone_set_each(s, mirror_fn, NULL);
        for (size_t i = 0; m && i < m->ncameras; i++) {
            neg(&m->cameras[i].pos[0]);
            neg(&m->cameras[i].rot[1]);
            neg(&m->cameras[i].rot[2]);
        }
        for (size_t i = 0; m && i < m->nlights; i++)
            neg(&m->lights[i].direction[0]);
        if (st) {
            pki_set_plan_count(&p, st);
            st->morphs_renamed += morphs_renamed;
            st->keys_changed += nb + (m ? m->ncameras + m->nlights : 0);
        }
    }
    pki_set_plan_free(&p);
    pk_rules_free(builtin);
    return rc;
}

int pk_motion_mirror(pk_motion *m, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pki_bone_set s;
    pki_bone_set_of_motion(&s, m);
    return mirror_set(&s, r, st, log);
}

int pk_pose_mirror(pk_pose *p, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pki_bone_set s;
    pki_bone_set_of_pose(&s, p);
    return mirror_set(&s, r, st, log);
}
