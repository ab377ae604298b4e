/* sizing_body.h — the body steps of a sizing (internal, sizing_body.c):
 * centre of gravity (センター XZ, センター/グルーブ Y for the feet), upper
 * body (上半身), shoulders (肩) and toes (つま先ＩＫ), run on B before the
 * arm steps (sizing.c), and their measures (head direction from the hips,
 * centre of gravity over the feet, toes below the floor, shoulder
 * direction).  Names as in sizing.h: A the model the motion was made
 * for, B the one it is sized for. */
#ifndef PKI_OPS_RETARGET_SIZING_BODY_H
#define PKI_OPS_RETARGET_SIZING_BODY_H

#include "ops/retarget/sizing.h"
#include "posekit.h"

#include <stdbool.h>
#include <stdint.h>

/* The bones the body steps read and write, found by their standard names
 * (-1: absent); sides 0 left, 1 right. */
typedef struct pki_torso {
    const pk_model *m;
    int32_t centre, groove, upper, neck, head, lower;
    int32_t shoulder[2], arm[2], elbow[2], wrist[2];
    int32_t hip[2], knee[2], ankle[2], toe[2], leg_ik[2], toe_ik[2];
    double leg_len;       /* mean 足->足首 (0: no legs) */
    double head_up[3];    /* the head's centre from 頭, in 頭's frame (rest 首->頭) */
    double toe_rest_y[2]; /* rest heights */
    double ankle_rest_y[2];
    double cog_rest[3];  /* the centre of gravity at rest minus the feet's (XZ; Y: height) */
    pk_bone_world *rest; /* every bone as MMD shows the model with no key (IK solved;
                            owned; NULL on OOM: the rest positions) */
} pki_torso;

/* "At rest" is the model as MMD shows it with no key: IK solved, so an
 * ankle resting off its 足ＩＫ stands where the IK puts it. */
void pki_torso_init(pki_torso *t, const pk_model *m);
void pki_torso_free(pki_torso *t);
/* Marks in watch[nbones] every bone the body steps and measures read
 * (and the parents of the bones they write). */
void pki_torso_watch(const pki_torso *t, bool *watch);
/* The bones the upper step reads (上半身, 首, 肩, 腕 and their parents)
 * set in watch. */
void pki_torso_watch_upper(const pki_torso *t, bool *watch);

/* The centre of gravity of the torso's model playing p at row r (p NULL:
 * at rest), from its segments (sizing_body.c), into g. */
void pki_torso_cog(const pki_torso *t, const pki_play *p, uint32_t r, double g[3]);
/* The ground offset of that centre of gravity from the mean of the
 * ankles, less the rest offset turned by the body's heading (下半身's,
 * else 上半身's world X): x, z in o[0], o[1].  What the centre step holds
 * to A's, scaled by the legs; false without both ankles. */
bool pki_torso_cog_offset(const pki_torso *t, const pki_play *p, uint32_t r, double o[2]);

/* The body steps on the bone keys of s (a motion or a pose) that B plays
 * as z->pb: each unless o turns it off; z->pb is played again after any
 * of them but the toes changed a key and the play before them kept in
 * z->pb0 (the toes' rows are left as they were: no step after them reads
 * B's ankles' turns or toes, and the measures' play takes only the rows
 * whose inputs are the same from z->pb).  Where z->pb_upper (z->pb
 * watches only what the upper step reads), B is played in full after
 * that step and nothing of B before the steps is kept.  With
 * o->measure the body measures of z->pb before the steps go into
 * z->body_before.  0, or -1 (logged). */
struct pki_bone_set;
int pki_body_run(pki_sizing *z, struct pki_bone_set *s, const pk_retarget_options *o,
                 pk_body_report *rep, pk_log *log);

/* The body measures of B playing `after` against A (m->... of before
 * copied from z->body_before). */
void pki_body_measure(const pki_sizing *z, const pki_play *after, pk_body_measure *m);

#endif
