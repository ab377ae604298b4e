/* contacts.h — where a model's hands touch something (internal,
 * ops/skeleton/contacts.c): the other hand, a body part, the floor. */
#ifndef PKI_OPS_SKELETON_CONTACTS_H
#define PKI_OPS_SKELETON_CONTACTS_H

#include "ops/skeleton/figure.h"
#include "ops/skeleton/play.h"

/* ---- contacts on the source model (contacts.c) ---- */

#define PKI_WITH_HAND PKI_PART_COUNT        /* a hand touching the other hand */
#define PKI_WITH_FLOOR (PKI_PART_COUNT + 1) /* a hand touching the floor */
#define PKI_REACH_HANDS 0.10                /* of A's arm length: hand to hand */
#define PKI_REACH_BODY 0.06                 /* of A's arm length: hand to a part, the floor */

typedef struct pki_contact {
    int side;             /* the hand (the hands' contact: 0, the left) */
    int with;             /* a pki_part_kind, PKI_WITH_HAND or PKI_WITH_FLOOR */
    int other;            /* with PKI_WITH_HAND: the other hand's side (a partner's, between
                             two figures) */
    uint32_t first, last; /* rows of the source's play */
    double min_gap;       /* the smallest gap on the source */
    /* set by the sizing's contact step (sizing_hands.c): frames whose
     * target lies beyond the reach of the target model's arm, and by how
     * much at most (units) */
    uint32_t unreachable;
    double short_by;
    /* and by its keeping out of the body (sizing_avoid.c): frames where a
     * hand the contact step placed left it, as its forearm or hand would
     * else pass through the target's body */
    uint32_t blocked;
    /* and frames where it cannot hold together with the hand's other
     * contacts (sizing_hands.c, group_choose), the least gap error (units
     * of B's arm) the search left it on them */
    uint32_t apart;
    double apart_least;
    /* and frames where the solve of a hand of it was refused by the elbow
     * law (sizing_hands.c: the hand left as it was) */
    uint32_t refused;
    uint8_t *beyond; /* per row first..last: PKI_BEYOND_REACH, PKI_BEYOND_BODY, PKI_BEYOND_APART,
                        PKI_BEYOND_REFUSED, PKI_CONTACT_KEPT (the step left the hands as they
                        were there) or 0 (NULL: all 0; owned) */
} pki_contact;

#define PKI_BEYOND_REACH 1
#define PKI_BEYOND_BODY 2
#define PKI_CONTACT_KEPT 4
#define PKI_BEYOND_APART 8
#define PKI_BEYOND_REFUSED 16

typedef struct pki_contacts {
    pki_contact *v; /* by first frame */
    size_t n, cap;
} pki_contacts;

/* What a hand touches at one row: the gap (signed: negative inside a
 * part), where along the hand (at[0], 0 the wrist .. 1 the hand's end;
 * the other hand's in at[1]) and, for a part or the floor, the nearest
 * surface point and its outward normal. */
typedef struct pki_touch {
    double gap;
    double at[2];
    double surf[3], normal[3];
} pki_touch;

/* The hand's wrist and end at a row (the arm must be ok). */
void pki_hand_at(const pki_figure *f, const pki_play *p, uint32_t row, int side, double w[3],
                 double t[3]);
/* The gap between hand `side` and `with` at a row (INFINITY: the figure
 * has no such thing, or it is far); out may be NULL. */
double pki_touch_at(const pki_figure *f, const pki_play *p, uint32_t row, int side, int with,
                    pki_touch *out);
/* The gap between two hands, each from its wrist w to its end t (at: the
 * touching points' fractions along each); out may be NULL. */
double pki_touch_hands(const double w0[3], const double t0[3], const double w1[3],
                       const double t1[3], pki_touch *out);
/* The gap between a hand (wrist w, end t; of any figure) and part `with`
 * of figure f, or the floor, at a row of f's play (INFINITY: f has no such
 * part); out may be NULL. */
double pki_touch_part(const pki_figure *f, const pki_play *p, uint32_t row, int with,
                      const double w[3], const double t[3], pki_touch *out);
/* The same with the hands' wrists w[side] and ends t[side] given (the
 * parts placed from the play). */
double pki_touch_with(const pki_figure *f, const pki_play *p, uint32_t row, int side, int with,
                      const double w[2][3], const double t[2][3], pki_touch *out);
/* Part `part` placed at a row (its bone must exist). */
void pki_part_place(const pki_figure *f, const pki_play *p, uint32_t row, int part,
                    pki_placed *out);
/* The gap below which a hand of figure a touches `with`. */
double pki_reach(const pki_figure *a, int with);
/* "head", "other hand", "floor". */
const char *pki_with_name(int with);
/* Every contact of a's hands over the play.  0, or -1 on OOM (the
 * caller logs it). */
int pki_contacts_find(const pki_figure *a, const pki_play *p, pki_contacts *out);
/* Every contact of a's hands with figure b's parts (the floor left out)
 * and, with hands, b's hands, a and b playing the same frames (the plays'
 * rows side by side): side is a's hand, with b's part or PKI_WITH_HAND
 * (b's hand `other`), at a's reach.  0, or -1 on OOM. */
int pki_contacts_between(const pki_figure *a, const pki_play *pa, const pki_figure *b,
                         const pki_play *pb, bool hands, pki_contacts *out);
void pki_contacts_free(pki_contacts *c);

#endif
