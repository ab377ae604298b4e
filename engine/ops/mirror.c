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
 * the first pair that applies wins.  Bones and IK names are swapped; morphs
 * are not (MMD's standard morphs are not named in left/right pairs, e.g.
 * ウィンク / ウィンク右).  Unpaired bones are mirrored in place.
 *
 * Only sign bits change, so mirroring twice gives back the same bytes; the
 * names must map back too, which is checked (f(f(name)) == name) together
 * with collisions and field widths before anything changes.
 */
#include "rules/rules_internal.h"

#include <stdlib.h>
#include <string.h>

/* The default pair when no rules are given. */
static int default_pairs(pk_mirror_pair *p)
{
    memset(p, 0, sizeof *p);
    const char *why;
    if (pk_pattern_compile("左", false, &p->a, &why) != 0 ||
        pk_pattern_compile("右", false, &p->b, &why) != 0)
        return -1;
    return 0;
}

static bool starts(const uint8_t *raw, size_t len, const pk_pattern *f)
{
    return len >= f->len && memcmp(raw, f->raw, f->len) == 0;
}

static bool ends(const uint8_t *raw, size_t len, const pk_pattern *f)
{
    return len >= f->len && memcmp(raw + len - f->len, f->raw, f->len) == 0 &&
           pk_cp932_is_boundary(raw, len, len - f->len);
}

/* Writes the mirrored name into out (room for len + PK_PATTERN_MAX);
 * returns whether a pair applied. */
static bool mirror_name(const pk_mirror_pair *pairs, size_t npairs, const uint8_t *raw, size_t len,
                        uint8_t *out, size_t *out_len)
{
    for (size_t i = 0; i < npairs; i++) {
        for (int side = 0; side < 2; side++) {
            const pk_pattern *from = side ? &pairs[i].b : &pairs[i].a;
            const pk_pattern *to = side ? &pairs[i].a : &pairs[i].b;
            if (starts(raw, len, from)) {
                memcpy(out, to->raw, to->len);
                memcpy(out + to->len, raw + from->len, len - from->len);
                *out_len = to->len + len - from->len;
                return true;
            }
        }
        for (int side = 0; side < 2; side++) {
            const pk_pattern *from = side ? &pairs[i].b : &pairs[i].a;
            const pk_pattern *to = side ? &pairs[i].a : &pairs[i].b;
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

/* Plans the swap of every used name; errors when a name would not map back
 * to itself under a second mirror. */
static int plan_mirror(pk_name_plan *pl, const pk_names *names, const pk_mirror_pair *pairs,
                       size_t npairs, size_t *renamed, pk_edit_stats *st, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < pl->n; i++) {
        if (!pl->used[i])
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(names, (pk_name_id)i, &len);
        uint8_t *out = malloc(len + PK_PATTERN_MAX), *back = malloc(len + 2 * PK_PATTERN_MAX);
        size_t out_len, back_len;
        if (!out || !back) {
            free(out);
            free(back);
            pk_error(log, "out of memory");
            return -1;
        }
        if (mirror_name(pairs, npairs, raw, len, out, &out_len)) {
            if (!mirror_name(pairs, npairs, out, out_len, back, &back_len) || back_len != len ||
                memcmp(back, raw, len) != 0) {
                pk_error(log,
                         "mirror pairs are not symmetric for bone '%s' (mirroring twice would "
                         "not give it back)",
                         pk_names_utf8(names, (pk_name_id)i));
                rc = -1;
            } else if (pk_name_plan_set(pl, (pk_name_id)i, out, out_len) != 0) {
                pk_error(log, "out of memory");
                rc = -1;
            } else {
                (*renamed)++;
            }
        } else {
            pk_edit_stats_add_unmatched(st, pk_names_utf8(names, (pk_name_id)i));
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

static void mirror_bone(float pos[3], float rot[4])
{
    neg(&pos[0]);
    neg(&rot[1]);
    neg(&rot[2]);
}

static const pk_mirror_pair *pairs_of(const pk_rules *r, pk_mirror_pair *fallback, size_t *n)
{
    if (r && r->nmirror) {
        *n = r->nmirror;
        return r->mirror;
    }
    *n = default_pairs(fallback) == 0 ? 1 : 0;
    return fallback;
}

int pk_motion_mirror(pk_motion *m, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pk_mirror_pair fallback;
    size_t npairs;
    const pk_mirror_pair *pairs = pairs_of(r, &fallback, &npairs);
    size_t n = pk_names_count(m->names);
    pk_name_plan pl;
    bool *in_bones = calloc(n ? n : 1, 1), *in_ik = calloc(n ? n : 1, 1);
    if (!in_bones || !in_ik || pk_name_plan_init(&pl, n) != 0) {
        free(in_bones);
        free(in_ik);
        pk_error(log, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->nbones; i++)
        in_bones[m->bones[i].name] = pl.used[m->bones[i].name] = true;
    for (size_t i = 0; i < m->niks; i++)
        for (uint32_t j = 0; j < m->iks[i].count; j++)
            in_ik[m->iks[i].ik[j].name] = pl.used[m->iks[i].ik[j].name] = true;
    size_t renamed = 0;
    int rc = plan_mirror(&pl, m->names, pairs, npairs, &renamed, st, log);
    if (!rc) {
        if (pk_name_plan_check_width(&pl, m->names, in_bones, PK_VMD_NAME_BYTES, "bone", log))
            rc = -1;
        if (pk_name_plan_check_width(&pl, m->names, in_ik, PK_VMD_IK_BYTES, "IK name", log))
            rc = -1;
        if (pk_name_plan_check_collisions(&pl, m->names, "bone", log))
            rc = -1;
    }
    pk_name_id *map = NULL;
    if (!rc && pk_name_plan_commit(&pl, m->names, &map, log) != 0)
        rc = -1;
    if (!rc) {
        if (pk_motion_apply_names(m, map, NULL) != 0) {
            pk_error(log, "out of memory");
            rc = -1;
        }
        for (size_t i = 0; i < m->nbones; i++)
            mirror_bone(m->bones[i].pos, m->bones[i].rot);
        for (size_t i = 0; i < m->ncameras; i++) {
            neg(&m->cameras[i].pos[0]);
            neg(&m->cameras[i].rot[1]);
            neg(&m->cameras[i].rot[2]);
        }
        for (size_t i = 0; i < m->nlights; i++)
            neg(&m->lights[i].direction[0]);
        if (st) {
            for (size_t i = 0; i < n; i++) {
                st->bones += in_bones[i];
                st->bones_renamed += in_bones[i] && pl.changed[i];
                st->ik_renamed += in_ik[i] && pl.changed[i];
            }
            st->keys_changed += m->nbones + m->ncameras + m->nlights;
        }
    }
    free(map);
    pk_name_plan_free(&pl);
    free(in_bones);
    free(in_ik);
    return rc;
}

int pk_pose_mirror(pk_pose *p, const pk_rules *r, pk_edit_stats *st, pk_log *log)
{
    pk_mirror_pair fallback;
    size_t npairs;
    const pk_mirror_pair *pairs = pairs_of(r, &fallback, &npairs);
    size_t n = pk_names_count(p->names);
    pk_name_plan pl;
    if (pk_name_plan_init(&pl, n) != 0) {
        pk_error(log, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < p->nbones; i++)
        pl.used[p->bones[i].name] = true;
    size_t renamed = 0;
    int rc = plan_mirror(&pl, p->names, pairs, npairs, &renamed, st, log);
    if (!rc && (pk_name_plan_check_width(&pl, p->names, NULL, PK_VPD_NAME_BYTES, "bone", log) ||
                pk_name_plan_check_collisions(&pl, p->names, "bone", log)))
        rc = -1;
    pk_name_id *map = NULL;
    if (!rc && pk_name_plan_commit(&pl, p->names, &map, log) != 0)
        rc = -1;
    if (!rc) {
        for (size_t i = 0; i < p->nbones; i++) {
            p->bones[i].name = map[p->bones[i].name];
            mirror_bone(p->bones[i].pos, p->bones[i].rot);
        }
        if (st) {
            for (size_t i = 0; i < n; i++)
                st->bones += pl.used[i];
            st->bones_renamed += renamed;
            st->keys_changed += p->nbones;
        }
    }
    free(map);
    pk_name_plan_free(&pl);
    return rc;
}
