/* retarget.h — what retarget.c (the rules' steps) shares with
 * retarget_model.c and retarget_fold.c (steps computed from two models).
 * Not public API. */
#ifndef PKI_OPS_RETARGET_RETARGET_H
#define PKI_OPS_RETARGET_RETARGET_H

#include "ops/names/bone_set.h"
#include "posekit.h"

/* The rules' stance corrections, then their translation scale, on the
 * bone keys of s (retarget.c).  0 or -1 (logged). */
int pki_retarget_rules_apply(pki_bone_set *s, const pk_rules *r, pk_log *log);
/* Whether a rules `stance` entry names the bone raw[0..len). */
bool pki_retarget_rules_stance(const pk_rules *r, const uint8_t *raw, size_t len);
/* Whether the rules scale translations (a `scale` key). */
bool pki_retarget_rules_scale(const pk_rules *r);

/* Leaves out the keys of bones o->from lacks and o->to has (MMD plays
 * them on the target, not on the source), with a warning naming them;
 * counts into rep (dropped, bones_keyed, bones_on_target).  0, or -1 on
 * OOM (logged). */
int pki_retarget_drop_absent(pki_bone_set *s, const pk_retarget_options *o, pk_retarget_report *rep,
                             pk_log *log);

/* pk_motion_fold with the reduction's tolerances (degrees, units; 0: the
 * PK_REDUCE_* defaults). */
int pki_retarget_fold_motion(pk_motion *m, const pk_model *a, const pk_model *b, double max_deg,
                             double max_pos, pk_fold_report *rep, pk_log *log);

/* What pki_fit_track did: the largest error at an integer frame (the
 * sampler's: degrees; units as a distance) and the pieces given a key at
 * every frame. */
typedef struct pki_fit_out {
    double worst_deg, worst_pos;
    size_t refitted;
} pki_fit_out;
struct pki_curve_cache;
/* Keys for one track given at every frame f0 .. fr[nf-1] (pos[i], rot[i]
 * at frame f0 + i): the fewest a greedy search over the candidate frames
 * fr[0..nf) (ascending, f0 first) finds whose curves, fitted by the
 * keyframe reducer's fitter, stay within tol_deg and tol_pos at every
 * frame (checked with the sampler; a piece out of tolerance gets a key at
 * every frame), appended to out under `name` in frame order, the first
 * with linear curves (retarget_fit.c).  0, or -1 on OOM (not logged). */
int pki_fit_track(const float (*pos)[3], const float (*rot)[4], uint32_t f0, const uint32_t *fr,
                  size_t nf, pk_name_id name, double tol_deg, double tol_pos,
                  struct pki_curve_cache *cache, pk_motion *out, pki_fit_out *res);
/* pki_fit_track where the samples came from the keys ref[0..nref) (one
 * track, ascending frames; NULL or 0: none) and were then changed: ref's
 * keys with the samples' values at their frames, their frames and curves
 * kept, stay on every stretch between two of them (and before the first,
 * after the last) that they give within 0.9 of the tolerances at every
 * frame (a stretch left as it was; one moved or turned as a whole); each
 * run of the other stretches is fitted alone, from the key that starts
 * it to the one that ends it, over the candidates fr[] inside it (its
 * keys take the samples' values: the kept keys next to it are the same).
 * The same as pki_fit_track when no stretch keeps its keys. */
int pki_fit_track_keep(const float (*pos)[3], const float (*rot)[4], uint32_t f0,
                       const uint32_t *fr, size_t nf, const pk_bone_key *ref, size_t nref,
                       pk_name_id name, double tol_deg, double tol_pos,
                       struct pki_curve_cache *cache, pk_motion *out, pki_fit_out *res);

/* A copy of a set's bone keys before the steps, to count what they did
 * (retarget_tally.c). */
typedef struct pki_retarget_tally {
    pk_bone_key *bones; /* a motion's */
    pk_pose_bone *pose; /* a pose's */
    size_t n;           /* bone keys */
    size_t other;       /* records of the other sections */
} pki_retarget_tally;
/* 0, or -1 on OOM (the caller logs it). */
int pki_retarget_tally_begin(pki_retarget_tally *t, const pki_bone_set *s);
/* Adds keys in, out, changed, added and removed (s against the copy) to
 * st (may be NULL); 0, or -1 on OOM. */
int pki_retarget_tally_end(const pki_retarget_tally *t, const pki_bone_set *s, pk_edit_stats *st);
void pki_retarget_tally_free(pki_retarget_tally *t);
/* Counts the records the rename step's weighted morph rules replaced as
 * removed and the keys they wrote as added (the tally begins after the
 * rename): `before` morph records before the rename, `after` after it,
 * `written` st->morph_keys before it.  st may be NULL. */
void pki_retarget_tally_weights(pk_edit_stats *st, size_t before, size_t after, size_t written);
/* The set's duplicate keys dropped (pk_motion_drop_duplicates), counted
 * into st->duplicates (st may be NULL); 0, or -1 (logged). */
int pki_retarget_drop_duplicates(pki_bone_set *s, pk_edit_stats *st, pk_log *log);

/* The model bone a motion's name id stands for (-1: none); names are
 * matched by their CP932 bytes. */
long pki_retarget_bone_of(const pk_model *m, const pk_names *names, pk_name_id id);

/* Where MMD's camera cam shows point p (model space): s in screen heights
 * from the centre, x to the right, y up (retarget_camera.c); false when p is not
 * in front of the eye. */
bool pki_camera_screen(const pk_camera_key *cam, const double p[3], double s[2]);

/* One frame as the camera's measure sees it (retarget_camera.c): the
 * points A shows on the screen, A's screen points (screen heights from the
 * centre, x right, y up) and B's points (model space). */
#define PKI_CERT_POINTS 5
typedef struct pki_cert_frame {
    int n; /* 0: the frame is not measured (A's head off the screen) */
    double sa[PKI_CERT_POINTS][2], pb[PKI_CERT_POINTS][3];
} pki_cert_frame;

/* The frames 0 .. *nframes − 1 of the camera's measure for o (the
 * camera's and the dances' span, as pk_motion_retarget_camera sees
 * them): *out (free() it).  0, or -1 (logged). */
int pki_camera_frames(const pk_motion *camera, const pk_camera_options *o, pki_cert_frame **out,
                      uint32_t *nframes, pk_log *log);

/* The least change of camera cam (its eye and angles, each scaled to
 * screen heights: the eye's move over the points' depth, the angles',
 * both over 2·tan(fov/2); the view angle and the distance kept) that puts
 * every point of fr within 1.75% of the screen height of A's, from cam
 * (a local solve: the nearest such camera, not the frame's best): *out;
 * false when the solve does not get within PK_CAMERA_GOAL less a margin
 * (retarget_camera.c). */
bool pki_camera_least_change(const pki_cert_frame *fr, const pk_camera_key *cam,
                             pk_camera_key *out);

/* Whether any camera frames fr's points within goal (retarget_certify.c):
 * PKI_CERT_OUT proves none does (every view angle from fov_min to fov_max
 * degrees, every rotation, every eye with the points NEAR in front, within
 * the disc of radius goal around each of A's points); PKI_CERT_REACH gives
 * a camera (its view angle a whole degree) within goal on the disc;
 * PKI_CERT_OPEN: neither within budget cells of rotations. */
enum { PKI_CERT_OUT, PKI_CERT_REACH, PKI_CERT_OPEN };
#define PKI_CERT_DEEP 8
typedef struct pki_cert_result {
    int verdict;
    long cells, open_cells; /* cubes of rotations looked at; left undecided */
    long disc_cells;        /* cubes the disc proved empty where the squares did not */
    double Q[3][3];         /* the witness: world to camera (rows right, up, forward) */
    double eye[3], fov, worst;
    /* the deepest cubes not ruled out: the last PKI_CERT_DEEP of them
     * (ndeep counts them all), their centres' rotations, their level */
    double deep_Q[PKI_CERT_DEEP][3][3];
    long ndeep;
    int deep_level;
} pki_cert_result;
int pki_camera_certify(const pki_cert_frame *fr, double goal, double fov_min, double fov_max,
                       long budget, pki_cert_result *res);
/* Frame fr's best camera as the camera's report searches for it
 * (retarget_camera.c, the bound: every parameter free, from start, the
 * closed form and the extra starts, the view angle a whole degree, then
 * polished where still above the goal): a search, not a proof.  res: the
 * camera (Q, eye, fov) and its largest distance; verdict PKI_CERT_REACH
 * when within PK_CAMERA_GOAL, else PKI_CERT_OPEN.  0, or -1 (no points or
 * too many). */
int pki_camera_search(const pki_cert_frame *fr, const pk_camera_key *start, pki_cert_result *res);
/* The same from a start at rotation Q (world to camera, rows right, up,
 * forward; the eye and view angle a weak-perspective fit of the points
 * at that rotation) alone, the search's rounds and polish: where the
 * certified bound's cubes left a frame open, the search from the
 * deepest cube not ruled out. */
int pki_camera_search_at(const pki_cert_frame *fr, const double Q[3][3], pki_cert_result *res);
/* The same with the squares only (disc false: the squares of side 2·goal
 * around A's points, which hold the disc, and no cone; what
 * pki_camera_certify did before the disc; for comparison). */
int pki_camera_certify_shape(const pki_cert_frame *fr, double goal, double fov_min,
                             double fov_max, long budget, bool disc, pki_cert_result *res);

#endif
