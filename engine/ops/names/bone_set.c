/* bone_set.c — motion keys and pose bones seen alike (ops/names/bone_set.h). */
#include "ops/names/bone_set.h"

#include "math/quat.h"

#include <stdlib.h>
#include <string.h>

void pki_bone_set_of_motion(pki_bone_set *s, pk_motion *m)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->names = m->names;
    s->name_bytes = PK_VMD_NAME_BYTES;
    s->format = "VMD";
}

void pki_bone_set_of_pose(pki_bone_set *s, pk_pose *p)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->names = p->names;
    s->name_bytes = PK_VPD_NAME_BYTES;
    s->format = "VPD";
}

bool pki_bone_ref_at_rest(pki_bone_ref k)
{
    double q[4];
    pki_qd_from_key(k.rot, q);
    return k.pos[0] == 0.0f && k.pos[1] == 0.0f && k.pos[2] == 0.0f && q[0] == 0.0 && q[1] == 0.0 &&
           q[2] == 0.0;
}

size_t pki_bone_set_count(const pki_bone_set *s)
{
    return s->m ? s->m->nbones : s->p->nbones;
}

pki_bone_ref pki_bone_set_at(const pki_bone_set *s, size_t i)
{
    if (s->m) {
        pk_bone_key *k = &s->m->bones[i];
        return (pki_bone_ref){&k->name, k->pos, k->rot};
    }
    pk_pose_bone *b = &s->p->bones[i];
    return (pki_bone_ref){&b->name, b->pos, b->rot};
}

bool pki_bone_set_add(pki_bone_set *s, pk_name_id name, pki_bone_ref *out)
{
    if (s->m) {
        pk_bone_key *k = pk_motion_push_bone(s->m);
        if (!k)
            return false;
        k->name = name;
        k->frame = 0;
        k->rot[3] = 1.0f;
        pk_interp_linear(k->interp);
        *out = (pki_bone_ref){&k->name, k->pos, k->rot};
        return true;
    }
    pk_pose_bone *b = pk_pose_push_bone(s->p);
    if (!b)
        return false;
    b->name = name;
    b->rot[3] = 1.0f;
    *out = (pki_bone_ref){&b->name, b->pos, b->rot};
    return true;
}

size_t pki_bone_set_morphs(const pki_bone_set *s)
{
    return s->m ? s->m->nmorphs : s->p->nmorphs;
}

pk_name_id *pki_bone_set_morph_name(const pki_bone_set *s, size_t i)
{
    return s->m ? &s->m->morphs[i].name : &s->p->morphs[i].name;
}

size_t pki_bone_set_each(pki_bone_set *s, pki_bone_fn fn, void *ctx)
{
    size_t n = pki_bone_set_count(s), changed = 0;
    for (size_t i = 0; i < n; i++) {
        pki_bone_ref k = pki_bone_set_at(s, i);
        float before[7];
        memcpy(before, k.pos, 3 * sizeof *before);
        memcpy(before + 3, k.rot, 4 * sizeof *before);
        size_t len;
        const uint8_t *raw = pk_names_raw(s->names, *k.name, &len);
        fn(ctx, raw, len, k);
        changed += memcmp(before, k.pos, 3 * sizeof *before) != 0 ||
                   memcmp(before + 3, k.rot, 4 * sizeof *before) != 0;
    }
    return changed;
}

float *pki_bone_set_snapshot(const pki_bone_set *s)
{
    size_t n = pki_bone_set_count(s);
    float *v = malloc((n ? n : 1) * 7 * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        pki_bone_ref k = pki_bone_set_at(s, i);
        memcpy(v + 7 * i, k.pos, 3 * sizeof *v);
        memcpy(v + 7 * i + 3, k.rot, 4 * sizeof *v);
    }
    return v;
}

size_t pki_bone_set_changed(const pki_bone_set *s, const float *before, size_t n)
{
    size_t changed = 0;
    for (size_t i = 0; i < n; i++) {
        pki_bone_ref k = pki_bone_set_at(s, i);
        changed += memcmp(before + 7 * i, k.pos, 3 * sizeof *before) != 0 ||
                   memcmp(before + 7 * i + 3, k.rot, 4 * sizeof *before) != 0;
    }
    return changed;
}
