/* bone_set.h — the bone keys of a motion or of a pose, seen alike (internal).
 *
 * rename, mirror and retarget transform one bone key at a time (its name,
 * translation and rotation in, the same out); each transform is written
 * once against a pki_bone_ref and applied to either model through a
 * pki_bone_set.  What only a motion has (IK names, name padding, camera and
 * light records, frames and curves) stays with the motion's caller. */
#ifndef PKI_OPS_NAMES_BONE_SET_H
#define PKI_OPS_NAMES_BONE_SET_H

#include "posekit.h"

/* One bone key: pointers into the model's record. */
typedef struct pki_bone_ref {
    pk_name_id *name;
    float *pos; /* [3] */
    float *rot; /* [4] x, y, z, w as stored */
} pki_bone_ref;

typedef struct pki_bone_set {
    pk_motion *m; /* exactly one of m and p */
    pk_pose *p;
    pk_names *names;
    size_t name_bytes;  /* the format's bone (and morph) name field: 15 VMD, 19 VPD */
    const char *format; /* "VMD" or "VPD", for messages */
} pki_bone_set;

void pki_bone_set_of_motion(pki_bone_set *s, pk_motion *m);
void pki_bone_set_of_pose(pki_bone_set *s, pk_pose *p);
size_t pki_bone_set_count(const pki_bone_set *s);
pki_bone_ref pki_bone_set_at(const pki_bone_set *s, size_t i);
/* Appends a key of bone `name` at rest (frame 0 and linear curves in a
 * motion); false on out-of-memory. */
bool pki_bone_set_add(pki_bone_set *s, pk_name_id name, pki_bone_ref *out);
/* Morph keys (motion) or morph entries (pose): count and name slot. */
size_t pki_bone_set_morphs(const pki_bone_set *s);
pk_name_id *pki_bone_set_morph_name(const pki_bone_set *s, size_t i);

/* A key at rest: no translation and the identity rotation (stored as all
 * zeros or NaN too: the readers take that as no rotation).  MMD shows a
 * bone whose keys all rest as it shows a bone with no key. */
bool pki_bone_ref_at_rest(pki_bone_ref k);

/* A transform of one bone key; `raw`/`len` is the key's name. */
typedef void (*pki_bone_fn)(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k);

/* Applies fn to every bone key of s in record order; returns how many
 * keys' translation or rotation bytes it changed. */
size_t pki_bone_set_each(pki_bone_set *s, pki_bone_fn fn, void *ctx);

/* Number of keys among the first n of s whose translation or rotation
 * bytes differ from `before` (a copy of those keys, 7 floats each). */
size_t pki_bone_set_changed(const pki_bone_set *s, const float *before, size_t n);
/* Copies the translation and rotation of every key (7 floats each,
 * malloc'd; the caller frees), NULL on out-of-memory. */
float *pki_bone_set_snapshot(const pki_bone_set *s);

#endif
