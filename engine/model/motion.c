/* motion.c — the motion model: allocation, growth, copies, small queries. */
#include "posekit.h"
#include "common/grow.h"

#include <stdlib.h>
#include <string.h>

static const char SIG_V2[] = "Vocaloid Motion Data 0002";

pk_motion *pk_motion_new(void)
{
    pk_motion *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->version = 2;
    memcpy(m->header, SIG_V2, sizeof SIG_V2 - 1); /* rest of the 30 bytes: zero */
    m->sections = PK_SEC_COUNT;
    m->names = pk_names_new();
    m->pads = pk_names_new();
    if (!m->names || !m->pads) {
        pk_motion_free(m);
        return NULL;
    }
    return m;
}

void pk_motion_free(pk_motion *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->niks; i++)
        free(m->iks[i].ik);
    free(m->bones);
    free(m->morphs);
    free(m->cameras);
    free(m->lights);
    free(m->shadows);
    free(m->iks);
    free(m->trailing);
    pk_names_free(m->names);
    pk_names_free(m->pads);
    free(m);
}

#define PUSH(m, arr, n, cap) pki_grow_push(&(m)->arr, &(m)->n, &(m)->cap, sizeof *(m)->arr)

pk_bone_key *pk_motion_push_bone(pk_motion *m)
{
    return PUSH(m, bones, nbones, cap_bones);
}
pk_morph_key *pk_motion_push_morph(pk_motion *m)
{
    return PUSH(m, morphs, nmorphs, cap_morphs);
}
pk_camera_key *pk_motion_push_camera(pk_motion *m)
{
    return PUSH(m, cameras, ncameras, cap_cameras);
}
pk_light_key *pk_motion_push_light(pk_motion *m)
{
    return PUSH(m, lights, nlights, cap_lights);
}
pk_shadow_key *pk_motion_push_shadow(pk_motion *m)
{
    return PUSH(m, shadows, nshadows, cap_shadows);
}

pk_ik_key *pk_motion_push_ik(pk_motion *m, uint32_t count)
{
    pk_ik_state *states = NULL;
    if (count) {
        states = calloc(count, sizeof *states);
        if (!states)
            return NULL;
    }
    pk_ik_key *k = PUSH(m, iks, niks, cap_iks);
    if (!k) {
        free(states);
        return NULL;
    }
    k->count = count;
    k->ik = states;
    return k;
}

/* Copies n elements of size `size`; the copy's capacity is n. */
static bool copy_array(void **dst, const void *src, size_t n, size_t size)
{
    *dst = NULL;
    if (!n)
        return true;
    *dst = malloc(n * size);
    if (!*dst)
        return false;
    memcpy(*dst, src, n * size);
    return true;
}

pk_motion *pk_motion_clone(const pk_motion *m)
{
    pk_motion *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->version = m->version;
    memcpy(c->header, m->header, sizeof c->header);
    memcpy(c->model, m->model, sizeof c->model);
    c->sections = m->sections;
    c->duplicates_told = m->duplicates_told;
    c->names = pk_names_clone(m->names);
    c->pads = pk_names_clone(m->pads);
    bool ok = c->names && c->pads;
#define COPY(arr, n, cap)                                                                          \
    ok = ok && copy_array((void **)&c->arr, m->arr, m->n, sizeof *m->arr);                         \
    if (ok)                                                                                        \
        c->n = c->cap = m->n;
    COPY(bones, nbones, cap_bones)
    COPY(morphs, nmorphs, cap_morphs)
    COPY(cameras, ncameras, cap_cameras)
    COPY(lights, nlights, cap_lights)
    COPY(shadows, nshadows, cap_shadows)
    COPY(iks, niks, cap_iks)
#undef COPY
    if (ok) {
        /* The IK records still point at m's state arrays: give each its own. */
        for (size_t i = 0; i < c->niks; i++)
            c->iks[i].ik = NULL;
        for (size_t i = 0; ok && i < c->niks; i++)
            ok = copy_array((void **)&c->iks[i].ik, m->iks[i].ik, m->iks[i].count,
                            sizeof *m->iks[i].ik);
    }
    if (ok && m->ntrailing) {
        ok = copy_array((void **)&c->trailing, m->trailing, m->ntrailing, 1);
        c->ntrailing = ok ? m->ntrailing : 0;
    }
    if (!ok) {
        pk_motion_free(c);
        return NULL;
    }
    return c;
}

static size_t model_width(const pk_motion *m)
{
    return m->version == 1 ? 10 : PK_VMD_MODEL_BYTES;
}

size_t pk_motion_model_raw(const pk_motion *m, const uint8_t **raw)
{
    size_t w = model_width(m);
    const uint8_t *nul = memchr(m->model, 0, w);
    *raw = m->model;
    return nul ? (size_t)(nul - m->model) : w;
}

char *pk_motion_model_utf8(const pk_motion *m)
{
    const uint8_t *raw;
    size_t len = pk_motion_model_raw(m, &raw);
    return pk_cp932_to_utf8(raw, len, NULL);
}

int pk_motion_set_model(pk_motion *m, const void *raw, size_t len, pk_log *log)
{
    size_t w = model_width(m);
    if (len > w) {
        char *u = pk_cp932_to_utf8(raw, len, NULL);
        pk_error(log, PK_E_UNSUPPORTED, "model name \"%s\" is %zu bytes; the VMD field holds %zu",
                 u ? u : "?", len, w);
        free(u);
        return -1;
    }
    memset(m->model, 0, sizeof m->model);
    if (len)
        memcpy(m->model, raw, len);
    return 0;
}

void pk_interp_linear(uint8_t interp[64])
{
    /* B[0..15] = x1 (X,Y,Z,R), y1, x2, y2; rows are B shifted by r with
     * zero filler (doc/formats.md §3.4). */
    uint8_t b[19] = {0};
    for (int i = 0; i < 8; i++)
        b[i] = 20;
    for (int i = 8; i < 16; i++)
        b[i] = 107;
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 16; k++)
            interp[16 * r + k] = b[k + r];
    interp[2] = interp[3] = 0; /* physics flag: simulate as usual */
}

void pk_camera_interp_linear(uint8_t interp[24])
{
    for (int i = 0; i < 6; i++) {
        interp[4 * i + 0] = 20;
        interp[4 * i + 1] = 107;
        interp[4 * i + 2] = 20;
        interp[4 * i + 3] = 107;
    }
}

size_t pk_motion_count(const pk_motion *m, pk_section s)
{
    switch (s) {
    case PK_SEC_BONE:
        return m->nbones;
    case PK_SEC_MORPH:
        return m->nmorphs;
    case PK_SEC_CAMERA:
        return m->ncameras;
    case PK_SEC_LIGHT:
        return m->nlights;
    case PK_SEC_SHADOW:
        return m->nshadows;
    case PK_SEC_IK:
        return m->niks;
    default:
        return 0;
    }
}

const char *pk_section_word(pk_section s)
{
    static const char *const WORDS[PK_SEC_COUNT] = {"bones", "morphs", "camera",
                                                    "light", "shadow", "ik"};
    return (unsigned)s < PK_SEC_COUNT ? WORDS[s] : "?";
}

static void widen(uint32_t f, bool *any, uint32_t *lo, uint32_t *hi)
{
    if (!*any || f < *lo)
        *lo = f;
    if (!*any || f > *hi)
        *hi = f;
    *any = true;
}

bool pk_motion_frame_range(const pk_motion *m, uint32_t *first, uint32_t *last)
{
    bool any = false;
    uint32_t lo = 0, hi = 0;
    for (size_t i = 0; i < m->nbones; i++)
        widen(m->bones[i].frame, &any, &lo, &hi);
    for (size_t i = 0; i < m->nmorphs; i++)
        widen(m->morphs[i].frame, &any, &lo, &hi);
    for (size_t i = 0; i < m->ncameras; i++)
        widen(m->cameras[i].frame, &any, &lo, &hi);
    for (size_t i = 0; i < m->nlights; i++)
        widen(m->lights[i].frame, &any, &lo, &hi);
    for (size_t i = 0; i < m->nshadows; i++)
        widen(m->shadows[i].frame, &any, &lo, &hi);
    for (size_t i = 0; i < m->niks; i++)
        widen(m->iks[i].frame, &any, &lo, &hi);
    if (first)
        *first = lo;
    if (last)
        *last = hi;
    return any;
}

/* Copies one name from the pose's table into the motion's, checking the
 * VMD field width; `what` is "bone" or "morph" for the message. */
static pk_name_id carry_name(pk_motion *m, const pk_pose *p, pk_name_id id, const char *what,
                             pk_log *log)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(p->names, id, &len);
    if (len > PK_VMD_NAME_BYTES) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "%s '%s' is %zu bytes in CP932; a VMD %s name holds at most %d", what,
                 pk_names_utf8(p->names, id), len, what, PK_VMD_NAME_BYTES);
        return PK_NO_NAME;
    }
    pk_name_id out = pk_names_intern(m->names, raw, len);
    if (out == PK_NO_NAME)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return out;
}

pk_motion *pk_pose_to_motion(const pk_pose *p, uint32_t frame, pk_log *log)
{
    pk_motion *m = pk_motion_new();
    if (!m) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    if (p->model && p->model_len) {
        /* MMD itself cuts model names at the field width (doc/formats.md §3.2);
         * we cut on a character boundary and say so. */
        size_t len = p->model_len;
        if (len > PK_VMD_MODEL_BYTES) {
            len = pk_cp932_boundary(p->model, PK_VMD_MODEL_BYTES);
            pk_warning(log, PK_E_LOSS, "model name cut to %zu bytes to fit the VMD header", len);
        }
        if (pk_motion_set_model(m, p->model, len, log) != 0)
            goto fail;
    }
    /* every name too long for the field, all at once */
    bool too_long = false;
    for (size_t k = 0; k < p->nbones + p->nmorphs; k++) {
        bool bone = k < p->nbones;
        pk_name_id id = bone ? p->bones[k].name : p->morphs[k - p->nbones].name;
        size_t len;
        pk_names_raw(p->names, id, &len);
        if (len <= PK_VMD_NAME_BYTES ||
            (bone ? pk_pose_find_bone(p, id) : pk_pose_find_morph(p, id) + (long)p->nbones) !=
                (long)k)
            continue; /* fits, or said at its last record */
        pk_error(log, PK_E_UNSUPPORTED,
                 "%s '%s' is %zu bytes in CP932; a VMD %s name holds at most %d "
                 "(--cut-names cuts it as MMD does)",
                 bone ? "bone" : "morph", pk_names_utf8(p->names, id), len, bone ? "bone" : "morph",
                 PK_VMD_NAME_BYTES);
        too_long = true;
    }
    if (too_long)
        goto fail;
    for (size_t i = 0; i < p->nbones; i++) {
        pk_name_id id = carry_name(m, p, p->bones[i].name, "bone", log);
        if (id == PK_NO_NAME)
            goto fail;
        pk_bone_key *k = pk_motion_push_bone(m);
        if (!k)
            goto oom;
        k->name = id;
        k->frame = frame;
        memcpy(k->pos, p->bones[i].pos, sizeof k->pos);
        memcpy(k->rot, p->bones[i].rot, sizeof k->rot);
        pk_interp_linear(k->interp);
    }
    for (size_t i = 0; i < p->nmorphs; i++) {
        pk_name_id id = carry_name(m, p, p->morphs[i].name, "morph", log);
        if (id == PK_NO_NAME)
            goto fail;
        pk_morph_key *k = pk_motion_push_morph(m);
        if (!k)
            goto oom;
        k->name = id;
        k->frame = frame;
        k->weight = p->morphs[i].weight;
    }
    return m;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail:
    pk_motion_free(m);
    return NULL;
}
