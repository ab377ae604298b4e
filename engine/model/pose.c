/* pose.c — the pose model: one instant of bones and morphs. */
#include "posekit.h"
#include "common/grow.h"

#include <stdlib.h>
#include <string.h>

pk_pose *pk_pose_new(void)
{
    pk_pose *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->layout = PK_VPD_TEXT;
    p->eol = PK_EOL_CRLF;
    p->encoding = PK_TEXT_CP932;
    p->names = pk_names_new();
    if (!p->names) {
        free(p);
        return NULL;
    }
    return p;
}

void pk_pose_free(pk_pose *p)
{
    if (!p)
        return;
    pk_names_free(p->names);
    free(p->model);
    free(p->bones);
    free(p->morphs);
    free(p);
}

pk_pose_bone *pk_pose_push_bone(pk_pose *p)
{
    pk_pose_bone *b = pki_grow_push(&p->bones, &p->nbones, &p->cap_bones, sizeof *p->bones);
    if (b)
        b->rot[3] = 1.0f; /* a new bone starts at rest: identity rotation */
    return b;
}

pk_pose_morph *pk_pose_push_morph(pk_pose *p)
{
    return pki_grow_push(&p->morphs, &p->nmorphs, &p->cap_morphs, sizeof *p->morphs);
}

int pk_pose_set_model(pk_pose *p, const void *raw, size_t len, pk_log *log)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (len)
        memcpy(copy, raw, len);
    free(p->model);
    p->model = copy;
    p->model_len = len;
    return 0;
}

pk_pose *pk_pose_clone(const pk_pose *p)
{
    pk_pose *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->layout = p->layout;
    c->eol = p->eol;
    c->encoding = p->encoding;
    c->names = pk_names_clone(p->names);
    bool ok = c->names != NULL;
    if (ok && p->model) {
        c->model = malloc(p->model_len ? p->model_len : 1);
        ok = c->model != NULL;
        if (ok) {
            if (p->model_len)
                memcpy(c->model, p->model, p->model_len);
            c->model_len = p->model_len;
        }
    }
    if (ok && p->nbones) {
        c->bones = malloc(p->nbones * sizeof *c->bones);
        ok = c->bones != NULL;
        if (ok) {
            memcpy(c->bones, p->bones, p->nbones * sizeof *c->bones);
            c->nbones = c->cap_bones = p->nbones;
        }
    }
    if (ok && p->nmorphs) {
        c->morphs = malloc(p->nmorphs * sizeof *c->morphs);
        ok = c->morphs != NULL;
        if (ok) {
            memcpy(c->morphs, p->morphs, p->nmorphs * sizeof *c->morphs);
            c->nmorphs = c->cap_morphs = p->nmorphs;
        }
    }
    if (!ok) {
        pk_pose_free(c);
        return NULL;
    }
    return c;
}

long pk_pose_find_bone(const pk_pose *p, pk_name_id name)
{
    for (size_t i = p->nbones; i-- > 0;)
        if (p->bones[i].name == name)
            return (long)i;
    return -1;
}

long pk_pose_find_morph(const pk_pose *p, pk_name_id name)
{
    for (size_t i = p->nmorphs; i-- > 0;)
        if (p->morphs[i].name == name)
            return (long)i;
    return -1;
}
