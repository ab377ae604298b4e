/*
 * legs_fit.h — one leg's FK tracks (hip, knee, ankle) fitted against the
 * world positions they must hold, for legs.c's IK to FK (internal).
 *
 * A reducer's fit holds each rotation within an angle; what the legs must
 * hold is where the joints are: at every frame the ankle within `ankle`
 * and the knee within `knee` (world units), the toe within `toe` of the
 * ankle and the foot's roll about its ankle-to-toe line within
 * `roll_deg` (no toe: the foot's rotation within `roll_deg`): the joint
 * check.  Each leg is fitted two ways and keeps the one with fewer keys:
 *  - one by one: the knee alone, holding the hip-to-ankle length (the
 *    only thing it decides for the ankle; the hip aims the rest) within
 *    `reach` and its place as the hip's new aim moves it within `bend`;
 *    the hip with the fitted knee, its target at each frame re-aimed so
 *    that the knee's ankle lands where the input's is; the ankle (足首)
 *    under both;
 *  - together: hip, knee and ankle keyed on the same frames (the input's
 *    rotations there), each segment fitted as above with the knee's
 *    length within `ankle` (at most PKI_LEG_OPTIMAL_MAX frames; longer,
 *    the knee of the fit one by one is fitted twice instead, the second
 *    time each key's value also moved along its arc within its frame's
 *    bound, and the fewer kept; and the toe is held within `toe` of the
 *    path the input's toe sweeps within `toe_lag` of a frame).
 * Keys go where the greedy search ends each segment: the longest run of
 * frames (from the last key) one grid curve between the two end values
 * holds within the bounds (frame by frame; past 64 frames of ends that
 * hold, ahead by doubling steps and back by halves: O(L log L) frame
 * checks for a run of L frames, not O(L^2)); the key values are the targets themselves
 * (rounded to float, as a VMD stores them) or, one by one, where the
 * target does not hold, the target turned toward the run's frame furthest
 * from the arc.  Between keys MMD slerps along the great arc with the
 * key's curve: each frame's bound is an interval of progress along that
 * arc, and the curve search (pki_curve_fit_progress_ex) finds a curve
 * through every interval.  Then each key of either fit is tried away: it
 * goes when the joint check still holds every frame it spans, the
 * neighbours' segment fitted again; a track's first key goes when the
 * next key's value holds every frame before it, and a track of one key
 * that the rest rotation holds throughout gets the rest rotation (legs.c
 * writes no key then).  A motion of at most PKI_LEG_OPTIMAL_MAX frames
 * is fitted three more ways, each track's key frames the fewest whose
 * segments hold (a shortest path over the frames, layer by layer):
 *  - one by one, the targets as values;
 *  - from the hip down: the hip holding only the knee's place, the knee
 *    (under the fitted hip) only the ankle's, then the ankle; a key may
 *    be turned about the bone's length (the arc's circle nearest the
 *    places between) where the bone below undoes it;
 *  - the best of these, each track fitted again with the fewest keys
 *    against the other two as fitted, under the joint check, kept where
 *    every frame holds (a hip's or knee's that turns only a foot off
 *    kept with the ankle fitted again under it, where the two together
 *    have fewer keys);
 * and with `full` the curves past each layer's farthest reach are
 * searched in full (PKI_FIT_FULL: costly).  The joint check and the
 * fits from the hip down also hold the thigh and the shin within
 * `twist_deg` of the input's turn about their own lengths.
 */
#ifndef PKI_OPS_SKELETON_LEGS_FIT_H
#define PKI_OPS_SKELETON_LEGS_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frames at most for the fewest-keys fits (O(n^2) segments). */
#define PKI_LEG_OPTIMAL_MAX 64

/* One frame of a leg as the input evaluates it. */
typedef struct pki_leg_frame {
    double parent[4];         /* the hip's parent's world rotation */
    double hip[3];            /* the hip's world position */
    double d1[3];             /* the knee less the hip, in the hip's frame */
    double d2[3];             /* the ankle less the knee, in the knee's frame */
    double d3[3];             /* the toe less the ankle, in the ankle's frame */
    double knee[3], ankle[3]; /* world positions to hold */
    double foot[4];           /* the ankle's world rotation */
    double q[3][4];           /* hip, knee, ankle local rotations */
} pki_leg_frame;

typedef struct pki_leg_tols {
    double ankle, knee;   /* world units, the hip's fit */
    double reach, bend;   /* world units, the knee's fit */
    double toe, roll_deg; /* the ankle's fit */
    double twist_deg;     /* thigh and shin turned about their lengths */
    double toe_lag;       /* the toe held within `toe` of where the input's
                             is within this share of a frame of each frame
                             (0: at the frame) */
    size_t *checked;      /* when not NULL, the frames the segment
                             checks looked at are added to it (tests) */
    bool has_toe;         /* d3 is meaningful */
    bool full;            /* short motions: curves searched in full too */
} pki_leg_tols;

typedef struct pki_leg_key {
    uint32_t frame;
    float rot[4];
    uint8_t cp[4]; /* the rotation curve of the segment ending here */
} pki_leg_key;

typedef struct pki_leg_track {
    pki_leg_key *keys;
    size_t n, cap;
} pki_leg_track;

/* Fits out[0] hip, out[1] knee, out[2] ankle over frames 0..n-1 (n >= 1;
 * frame i is fr[i]); false on out of memory (out freed).  Free each
 * track's keys with free(). */
bool pki_leg_fit(const pki_leg_frame *fr, size_t n, const pki_leg_tols *t, pki_leg_track out[3]);

/* The inner frames f (0 < f < n - 1) at which every fit that holds the
 * knee within `tol` of fr[].knee and the thigh's turn about its length
 * within `twist_deg` of the input's (fr[].q[0]) at every frame keys the
 * hip: a proof, not an estimate.  Were f no key, the hip's rotations at
 * f - 1, f and f + 1 would lie in that order on one great arc (MMD's
 * slerp, progress never going back).  Each end is the input's turned by
 * a twist within twist_deg and a swing that moves the knee within tol
 * (at most the angle alpha); the arc between two such ends lies within
 * 4 |d1| sin(alpha / 4) / cos(L / 2) of the arc between the twisted
 * input's ends (L: the ends' largest angle on the unit quaternions; the
 * points (1 - s) a + s b move by at most the ends' chord and are at least
 * cos(L / 2) long).  Both ends turned by one twist turn the arc on the
 * right, which moves no knee: only their difference counts.  So f is
 * counted when, for every difference of end twists, the exact least
 * distance from the knee at f to the twisted arc's circle exceeds tol
 * and that move: a search over intervals of the difference, each proven
 * by its centre (the interval moving the arc by at most the same law)
 * or split.  A frame the search cannot settle within its budget, or whose
 * ends lie too far apart for the law, counts as not forced (*undecided
 * gets their count when not NULL; at, when not NULL, n flags: the frames
 * counted).  For bench_legs. */
size_t pki_leg_hip_forced(const pki_leg_frame *fr, size_t n, double tol, double twist_deg,
                          size_t *undecided, bool *at);

/* Why a fitted leg's key stays (bench_legs).  Key i of track `bone` (0
 * hip, 1 knee, 2 ankle) of tr (pki_leg_fit's, over fr[0..n-1]) removed,
 * the other two tracks as fitted, under the joint check: an inner key's
 * neighbours' segment with the frames' least errors on the arc (sampled,
 * then refined) and one MMD curve through their intervals, searched in
 * full; a first or last key, its neighbour's value held.  The same with
 * each of the fit's own bounds lifted alone and with all four lifted (the
 * ankle's `law` alone).  Short motions (the curve search is costly). */
typedef struct pki_leg_why {
    int how;        /* 0: the key goes; 1: a frame no place on the arc (or
                       the held value) holds; 2: every frame has one, no
                       curve passes them */
    uint32_t frame; /* how 1: the frame furthest off */
    double off;     /* ... its least error, in units of its bounds */
    unsigned goes;  /* the bounds each of which lifted alone lets the key
                       go (PKI_LEG_WHY_KNEE ...), PKI_LEG_WHY_LAW: all */
} pki_leg_why;
enum {
    PKI_LEG_WHY_KNEE = 1,
    PKI_LEG_WHY_TWIST = 2,
    PKI_LEG_WHY_TOE = 4,
    PKI_LEG_WHY_ROLL = 8,
    PKI_LEG_WHY_LAW = 16
};
bool pki_leg_key_why(const pki_leg_frame *fr, size_t n, const pki_leg_tols *t, double law,
                     const pki_leg_track tr[3], int bone, size_t i, pki_leg_why *out);

#endif
