/* figure.h — what posekit knows of a model's body (internal,
 * ops/skeleton/figure.c): its arms (the chain from 腕 to 手首, the hand's
 * end), its body parts and their solids (follow-bone rigid bodies or
 * stand-ins), and the geometry of a point against a part.  Used by
 * retarget's sizing steps (ops/retarget/sizing.c) and by draw's contacts.
 * Sides: 0 left (左), 1 right (右); positions in model units, world space
 * (MMD's axes: Y up, the model faces -Z). */
#ifndef PKI_OPS_SKELETON_FIGURE_H
#define PKI_OPS_SKELETON_FIGURE_H

#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the figure of a model (figure.c) ---- */

/* The body parts a hand can touch, each led by one bone. */
typedef enum pki_part_kind {
    PKI_PART_HEAD,    /* 頭 */
    PKI_PART_CHEST,   /* 上半身2 (上半身 when the model has no 上半身2) */
    PKI_PART_BELLY,   /* 上半身 */
    PKI_PART_HIPS,    /* 下半身 */
    PKI_PART_THIGH_L, /* 左足 */
    PKI_PART_THIGH_R, /* 右足 */
    PKI_PART_SHIN_L,  /* 左ひざ */
    PKI_PART_SHIN_R,  /* 右ひざ */
    PKI_PART_COUNT
} pki_part_kind;

/* One solid of a part: a sphere (size[0] radius), a box (half extents) or
 * a capsule (radius, height of the cylinder along its own Y), placed
 * relative to the part's bone at rest. */
typedef struct pki_body {
    uint8_t shape; /* PK_RIGID_SPHERE, PK_RIGID_BOX, PK_RIGID_CAPSULE */
    double size[3];
    double off[3]; /* centre minus the bone's rest position (model axes) */
    double rot[4]; /* rest rotation (unit quaternion) */
} pki_body;

#define PKI_PART_BODIES 8
typedef struct pki_part {
    int32_t bone; /* the bone it follows; -1: the model has no such part */
    pki_body body[PKI_PART_BODIES];
    int nbody;
    bool from_rigids; /* the model's follow-bone rigid bodies (else stand-ins) */
    double centre[3]; /* the bodies' bounding box at rest, relative to the bone */
    double half[3];   /* its half extents (each at least 1e-3) */
} pki_part;

#define PKI_CHAIN_MAX 8
/* One arm: the bones from 腕 down to 手首 (腕捩, ひじ, 手捩 between them
 * where the model has them), each the parent of the next. */
typedef struct pki_arm {
    bool ok;                     /* the chain exists and is plain (no append, no IK) */
    int32_t bone[PKI_CHAIN_MAX]; /* model bones, 腕 first, 手首 last */
    int n;
    int elbow;               /* the index of ひじ in bone[] */
    int twist_up, twist_low; /* of 腕捩 / 手捩 in bone[] (-1: none) */
    int32_t shoulder;        /* 肩 (-1) */
    int32_t tip;             /* the hand's end: 中指先, 中指３, 手先 (-1: none) */
    double tip_off[3];       /* the hand's end from the wrist at rest */
    double upper, fore;      /* rest lengths 腕->ひじ, ひじ->手首 */
} pki_arm;

typedef struct pki_figure {
    const pk_model *m;
    pki_arm arm[2];
    pki_part part[PKI_PART_COUNT];
    bool rigids;                               /* some part is made of the model's rigid bodies */
    double arm_len;                            /* mean of upper + fore over the arms it has */
    double leg_len;                            /* mean 足->足首 distance (0: no legs) */
    int32_t hip[2], knee[2], ankle[2], toe[2]; /* -1 when absent */
    double ankle_rest_y[2];
} pki_figure;

/* The figure of m (m must outlive it).  Always succeeds; a model without
 * arms has ok false on both. */
void pki_figure_init(pki_figure *f, const pk_model *m);
/* Whether a hand exists on both figures (the arm chains). */
bool pki_figure_hand(const pki_figure *f, int side);
/* Marks in watch[nbones] every bone the figure's steps read. */
void pki_figure_watch(const pki_figure *f, bool *watch);
/* The part's kind as a word for reports ("head", "chest", ...). */
const char *pki_part_name(pki_part_kind k);

/* ---- geometry (figure.c) ---- */

/* A part's bodies placed by the world transform of its bone. */
typedef struct pki_placed {
    const pki_part *part;
    double rot[4], pos[3]; /* the bone's world transform */
} pki_placed;
/* The signed distance from point p to the part's surface (negative
 * inside), and the nearest surface point and outward normal (either may
 * be NULL). */
double pki_part_distance(const pki_placed *pl, const double p[3], double surf[3], double normal[3]);
/* A point of part a (placed) carried to part b (placed): in the parts'
 * bounding boxes, the same place relative to the box. */
void pki_part_carry(const pki_placed *a, const pki_placed *b, const double p[3], double out[3]);

#endif
