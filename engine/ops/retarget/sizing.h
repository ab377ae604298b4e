/* sizing.h — what the sizing steps of a retarget between two models share
 * (internal): the state of B's arms, the steps (sizing_hands.c, sizing_avoid.c,
 * sizing_twist.c), the arm solver (sizing_arm.c), the elbow law and the measures
 * of a sizing (sizing_measure.c).  The figures of the models, their plays and
 * the contacts are ops/skeleton's (figure.h, play.h, contacts.h).
 *
 * Names: "A" is the model the motion was made for, "B" the one it is
 * sized for.  Sides: 0 left (左), 1 right (右).  Every position is in
 * model units, world space (MMD's axes: Y up, the model faces -Z). */
#ifndef PKI_OPS_RETARGET_SIZING_H
#define PKI_OPS_RETARGET_SIZING_H

#include "ops/skeleton/contacts.h"
#include "ops/skeleton/play.h"
#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- one sizing (sizing.c) ---- */

/* The state of the arms of B through the steps: per row of the play, the
 * local rotation of every chain bone (what the evaluator composes, not
 * the keys), each bone's offset from the one above in that one's frame,
 * the world rotation of the chain's parent and the position of its top,
 * and the hand's end in the wrist's frame. */
typedef struct pki_arm_state {
    uint32_t n;
    int nb;                         /* chain bones (pki_arm.n) */
    double (*q)[PKI_CHAIN_MAX][4];  /* now */
    double (*q0)[PKI_CHAIN_MAX][4]; /* before the steps */
    double (*d)[PKI_CHAIN_MAX][3];
    double (*par)[4];
    double (*top)[3];
    double (*tip)[3];
    bool *twisted; /* per row: the twist step moved a twist (the hand then written within
                      PKI_HAND_DEG) */
    /* 肩, where the chain hangs from it and it is plain (-1: none): its
     * world position per row, and the turn the steps gave it in its own
     * frame (its local rotation is then the track's times this) */
    int32_t shoulder;
    double (*sh)[3];
    double (*dsh)[4];
} pki_arm_state;

/* World rotations and positions of the chain at a row (of q, or q0). */
void pki_arm_fk(const pki_arm_state *st, uint32_t r, bool before, double w[][4], double p[][3]);

/* How far an elbow or knee is bent past its rest bend plane (sizing_measure.c):
 * the plane holds the upper segment's rest direction u and is square to
 * f, the side the joint bends to (an elbow's rest forearm leans to it,
 * else the front; a knee's the back); the angle in degrees of the lower
 * segment (in the frame of the bone it hangs from) behind the plane,
 * negative in front of it. */
typedef struct pki_bend_axes {
    double u[3], f[3];
} pki_bend_axes;
void pki_bend_axes_init(pki_bend_axes *ax, const pk_model *m, int32_t top, int32_t joint,
                        int32_t end, double front_z);
double pki_bend_at(const double parent_rot[4], const double joint[3], const double end[3],
                   const pki_bend_axes *ax);

typedef struct pki_sizing {
    pki_figure a, b;
    pki_play pa;           /* A playing the input */
    pki_play pb;           /* B playing the output of stance and scale */
    pki_contacts contacts; /* on A */
    double k;              /* B's arm over A's */
    double scale_xz, scale_y;
    pki_arm_state arm[2];     /* B's arms (n 0: not sized) */
    bool *held[2];            /* per row: the contact step placed the hand (NULL: none) */
    const pk_motion *input;   /* the input A plays (NULL: a pose) */
    const pk_motion *output;  /* B's motion as stance and scale left it (NULL: a pose) */
    double stance_hand[2][4]; /* per side: B's hand = A's hand times this (the stance's r) */
    pki_bend_axes elbow[2];   /* B's */
    pki_bend_axes elbow_a[2]; /* A's */
    /* the body steps (sizing_body.c) */
    const struct pki_torso *ta, *tb;
    pki_play pb0;                /* B before them (n 0: they changed nothing; pb is it) */
    /* pb watches only what the upper step reads (pki_torso_watch_upper):
     * B is played in full after that step (pki_body_run) */
    bool pb_upper;
    bool pb_steps; /* pb is B's during the steps: updated in place */
    bool *a_off;                 /* per row of A's play: A off its 足ＩＫ (sizing_body.c) */
    pk_body_measure body_before; /* their measures before them */
    /* per row of A's play: A's centre-of-gravity offset from its feet
     * (pki_torso_cog_offset), once known (cog_a_known 1; 2: none) */
    double (*cog_a)[2];
    uint8_t *cog_a_known;
} pki_sizing;

/* B before every sizing step (stance and scale alone): what the measures
 * compare with. */
static inline const pki_play *pki_before(const pki_sizing *z)
{
    return z->pb0.n ? &z->pb0 : &z->pb;
}

/* ---- the steps (sizing_hands.c, sizing_avoid.c, sizing_twist.c) and the solver (sizing_arm.c)
 * ---- */

/* The arm of side s at row r moved so its wrist lands on w (the elbow in
 * the plane it was in, the hand's world rotation kept).  0, 1 when out
 * of reach (the arm stretched towards it), 2 when nearer the shoulder
 * than the arm folds (folded its most), -1 refused: the elbow would
 * be past its rest bend plane by more than a degree beyond both where it
 * was and where A's is (left as it was). */
int pki_arm_reach(pki_sizing *z, int s, uint32_t r, const double w[3]);
/* The same, and where w lies beyond the reach of 腕 and ひじ, 肩 turns
 * first (up to PKI_SHOULDER_DEG) to bring the arm nearer to it. */
#define PKI_SHOULDER_DEG 20.0
int pki_arm_reach_far(pki_sizing *z, int s, uint32_t r, const double w[3]);
/* One row of an arm's state, to put back (the chain and 肩). */
typedef struct pki_arm_row {
    double q[PKI_CHAIN_MAX][4], par[4], top[3], dsh[4];
} pki_arm_row;
void pki_arm_save(const pki_arm_state *st, uint32_t r, pki_arm_row *out);
void pki_arm_load(pki_arm_state *st, uint32_t r, const pki_arm_row *row);
/* Row r as before the steps: the chain's locals and 肩's turn undone. */
void pki_arm_reset(pki_arm_state *st, uint32_t r);
/* How far the wrist's target w lies out of the reach of B's arm s at row
 * r (0: within it): beyond the stretched arm (腕->ひじ + ひじ->手首), 肩
 * turned up to PKI_SHOULDER_DEG towards it where the arm has one, or
 * nearer its top than the folded arm (|腕->ひじ - ひじ->手首|), each limit
 * moved the fraction `spare` of the whole arm inwards; the top of the arm
 * (腕), so turned, into top, and into *to (may be NULL) how far from it
 * the nearest point within reach lies along top->w. */
double pki_arm_short(const pki_sizing *z, int s, uint32_t r, const double w[3], double spare,
                     double top[3], double *to);
/* The elbow law every step keeps: at row r, B's elbow (side s, as the
 * state has it now) may be past its rest bend plane (pki_bend_at) by
 * PKI_PAST_DEG beyond A's at the same frame only where it was so before
 * the step (`before`, its past then) within PKI_STEP; pki_elbow_worse
 * says when it is not.  The measures count the same (sizing_measure.c). */
#define PKI_PAST_DEG 1.0
#define PKI_PAST_STEP 0.25
double pki_elbow_past(const pki_sizing *z, int s, uint32_t r);
bool pki_elbow_worse(const pki_sizing *z, int s, uint32_t r, double before);
/* The contact step: fills rep's contact fields. */
int pki_hands_step(pki_sizing *z, pk_sizing_report *rep, pk_log *log);
/* Keeping out of the body. */
int pki_avoid_step(pki_sizing *z, pk_sizing_report *rep, pk_log *log);
/* Twist distribution: the twist moved is chosen at the keys of the bone
 * it comes from and blended by that bone's curves, as far as that bone
 * then stays within PKI_TWIST_KEYED_DEG of what its own keys give. */
#define PKI_TWIST_KEYED_DEG 0.003
/* keep (or NULL): where it succeeds, the output motion's tracks it built
 * (the caller frees them), for a write that follows with no edit between. */
int pki_twist_step(pki_sizing *z, pk_sizing_report *rep, pk_tracks **keep, pk_log *log);

/* The gap a contact of A (its gap gap_a) asks of B: A's times k, and 0
 * where A's hand lies inside A's part or below the floor (a touch on B's
 * surface, not a hand through B's body). */
static inline double pki_gap_goal(const pki_sizing *z, double gap_a)
{
    return z->k * (gap_a > 0 ? gap_a : 0.0);
}

/* ---- measures (sizing_measure.c) ---- */

/* Whether no point of the polyline e -> w -> t (a forearm and hand) can
 * be inside the placed part: the polyline stays outside the sphere
 * about the part's bounding box. */
bool pki_part_far(const pki_placed *pl, const double e[3], const double w[3], const double t[3]);
/* How deep point i (0..8: 0 the elbow, 4 the wrist, 8 the hand's end) of
 * A's forearm and hand of side s is inside A's part k at row r (negative:
 * outside). */
double pki_depth_a(const pki_sizing *z, int s, uint32_t r, int i, int k);
/* How deep a figure's forearm and hand (side s, row r) are inside its
 * parts (rigid_only: only parts made of rigid bodies); which point (0..8)
 * and part when where/part are not NULL. */
double pki_arm_depth(const pki_figure *f, const pki_play *p, uint32_t r, int s, bool rigid_only,
                     int *where, int *part);
/* Whether a point of B's forearm or hand (played by pb) is more than 1%
 * of B's arm inside one of B's parts made of rigid bodies while A's same
 * point is not as deep (1% of A's arm) in A's same part; the deepest such
 * depth into *depth (may be NULL). */
bool pki_penetrates(const pki_sizing *z, const pki_play *pb, uint32_t r, int s, double *depth);
/* The measures of B playing `after` against A and B before. */
pk_sizing_measure *pki_measure(const pki_sizing *z, const pki_play *after, pk_log *log);

/* The sizing steps (contacts, avoid, twist) and the measures, after
 * stance and scale, on the bone keys of s; A plays in_m (or in_p), the
 * input as A shows it.  0, or -1 (logged). */
struct pki_bone_set;
int pki_sizing_run(struct pki_bone_set *s, const pk_motion *in_m, const pk_pose *in_p,
                   const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log);

/* A sizing opened for steps run from outside the retarget (the contacts
 * between dancers, troupe.c): the figures, A playing `in` and B playing
 * `out` at frames f0 .. f0 + n - 1, B's arm states; no contact found.
 * pki_sizing_write then writes B's arms as the steps left them into m
 * (out's keys, sizing.c's rules: only where they changed, fitted within
 * o's tolerances), counting keys into rep.  0, or -1 (logged; open frees
 * what it made).  Close with pki_sizing_close. */
int pki_sizing_open(pki_sizing *z, const pk_model *from, const pk_model *to, const pk_motion *in,
                    const pk_motion *out, uint32_t f0, uint32_t n, pk_log *log);
int pki_sizing_write(pki_sizing *z, pk_motion *m, const pk_retarget_options *o,
                     pk_sizing_report *rep, pk_log *log);
void pki_sizing_close(pki_sizing *z);
/* The offsets of a hand between and around the rows of its contacts
 * (has[r]: d[r] is set): eased in over a few frames before, out after,
 * linear across short gaps (sizing_hands.c); moved[r]: d[r] is set now. */
void pki_hands_blend(uint32_t n, double (*d)[3], bool *has, bool *moved);

#endif
