/*
 * legs.c — a motion's legs from IK to FK and back on a model (posekit.h,
 * "Legs: IK to FK and back").
 *
 * A leg is an IK bone whose chain is hip (足), knee (ひざ), ankle (足首):
 * two links, the target's parent the first link, whose parent is the
 * second.  Its toe IK is an IK bone whose one link is that ankle.
 *
 * IK to FK: every integer frame from 0 to the motion's last bone key or
 * IK record is evaluated as MMD shows it (pk_rig_eval, the motion's IK
 * switches); each hip, knee and ankle gets its rotation relative to its
 * parent's world rotation (its keyed translation kept).  The leg and toe
 * IKs are switched off from frame 0 in the IK section (a record at frame
 * 0, every later record saying off too) and their own keys dropped: off,
 * they move nothing.  They stay when asked (keep_ik: switching the IKs
 * back on gives the input) and when another bone follows an IK (its
 * child, or appending from it), which the keys still move.
 * FK to IK: each leg IK bone is keyed where the evaluated ankle is, turned
 * as the ankle is (every bone's rest frame is the model's), and each toe
 * IK where the evaluated toe target is, and every IK record switches the
 * leg and toe IKs on.  The chain's keys are the solver's start: they go
 * (or are reduced) where a rougher start gives the same legs
 * (rough_start), and stay otherwise.
 *
 * The written tracks are IK to FK's chains fitted by legs_fit.c (when no
 * chain bone's translation moves; otherwise, and FK to IK, the dense
 * tracks reduced by pk_motion_reduce), then checked: every frame is
 * evaluated again and each ankle compared with the input's.  While an
 * ankle moves more than the goal, the tolerances are halved and the fit
 * made again (eight times at most); past that the dense tracks are
 * written as they are (exact to float).
 */
#include "common/diag.h"
#include "math/curve.h"
#include "math/quat.h"
#include "ops/skeleton/legs_fit.h"
#include "util/fmath.h"
#include "posekit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FIT_TRIES = 8 };
/* IK to FK: the share of the goal the fitted hip holds ankles and knees
 * within, and the share the knee's reach and bend take. */
#define LEGS_HOLD 0.95
#define LEGS_REACH 0.7
#define LEGS_BEND 1.0
/* IK to FK of a short motion still over 1.5 times the input's leg keys:
 * the knee's place held within these multiples of LEGS_HOLD * goal in
 * the fits tried again (the ankle's stays: the only hard law). */
static const double LEGS_KNEE_LOOSE[] = {2.0, 3.0};
/* Then (the knee's bound as usual) the toe's place and the foot's roll
 * held within these multiples of the options' max_pos and max_deg, each
 * fit kept only where it writes at most 1.5 times the input's leg keys
 * (a foot held looser for fewer keys still over would be lost twice:
 * FK to IK of mmd4unity_IK_Test on SD Mei, 13 keys from the 23 of the
 * feet as usual, 33 from the 19 of the feet held looser). */
static const struct {
    double toe, roll;
} LEGS_FOOT_LOOSE[] = {{2.0, 1.0}, {2.0, 5.0}};
/* FK to IK still over 1.5 times the input's leg keys: the chain's keys
 * tried away again with the knees held within these multiples of the
 * goal of where the solve from the FK keys puts them, kept only where
 * that writes at most 1.5 times the input's leg keys (the stand on
 * nanoem Miku: every chain key goes with the knees within 0.006). */
static const double LEGS_FK_KNEE_LOOSE[] = {3.0, 10.0};
/* A rung of the foot held looser: its full curve search is skipped where
 * the fast one wrote more than this many keys past those it could keep
 * (the full search takes off a key or two there; SD Mei's mmd4unity_IK_Test
 * 21 -> 21 and 20 -> 19 past 16, never kept: 4.2 -> 2.2 s of CPU). */
enum { LEGS_FULL_GAIN = 2 };
/* IK to FK: degrees the thigh and the shin may turn about their own
 * lengths from the input's (the knee and the ankle in place, a leg so
 * turned would not look the same). */
#define LEGS_TWIST_DEG 1.0
/* IK to FK of a motion past PKI_LEG_OPTIMAL_MAX frames: the toe's place
 * is held within its bound of the path the input's toe sweeps (about the
 * ankle) within this share of a frame of each frame: a foot off by less
 * is the input's foot that much of a frame early or late.  WAVEFILE's
 * 足首 keys 1284 -> 1147 on Mei. */
#define LEGS_TOE_LAG 0.5
/* Frames evaluated at most (bake's limit on a track's span). */
#define LEGS_SPAN_MAX (1u << 22)

typedef struct leg {
    int32_t ik, toe_ik;       /* bones (toe_ik: -1 when none) */
    int32_t hip, knee, ankle; /* the chain */
    int32_t toe;              /* the toe IK's target (-1 when none) */
} leg;

typedef struct legs_run {
    const pk_model *m;
    pk_rig *rig;
    leg *legs;
    size_t nlegs;
    int32_t *bones; /* the bones whose tracks are rewritten */
    size_t nbones;
    int32_t *ikbones; /* leg and toe IK bones (the IK section) */
    size_t nikbones;
    int32_t *all; /* every leg bone: the chains and their IKs (key counts) */
    size_t nall;
    pk_bone_local *loc;
    pk_bone_world *w;
    bool *on;
    uint32_t last;        /* frames 0..last */
    uint32_t worst_frame; /* of the last check */
    double *ref;          /* ankle positions: frames x legs x 3 */
    double *kref;         /* FK to IK: knee positions, frames x legs x 3, and */
    double *fref;         /* ankle world rotations, x 4, of the solve from the FK keys */
    pki_leg_frame *lf;    /* IK to FK: frames x legs, for legs_fit.c */
    float *pos0;          /* IK to FK: legs x chain x 3, the translations at frame 0 */
    bool moved;           /* IK to FK: a chain bone's translation changes */
    double knee_tol;      /* FK to IK: the knees' bound of rough_start's check */
    pk_log *log;          /* the caller's: progress */
} legs_run;

void pk_legs_options_init(pk_legs_options *o)
{
    memset(o, 0, sizeof *o);
    o->way = PK_LEGS_IK_TO_FK;
    o->goal = PK_LEGS_GOAL;
    o->max_deg = PK_REDUCE_DEG;
    o->max_pos = PK_REDUCE_POS;
}

static void legs_free(legs_run *r)
{
    pk_rig_free(r->rig);
    free(r->legs);
    free(r->bones);
    free(r->ikbones);
    free(r->all);
    free(r->loc);
    free(r->w);
    free(r->on);
    free(r->ref);
    free(r->kref);
    free(r->fref);
    free(r->lf);
    free(r->pos0);
}

static bool add_bone(int32_t *list, size_t *n, int32_t b)
{
    for (size_t i = 0; i < *n; i++)
        if (list[i] == b)
            return false;
    list[(*n)++] = b;
    return true;
}

/* The model's legs; false when it has none (error logged). */
static bool find_legs(legs_run *r, pk_log *log)
{
    const pk_model *m = r->m;
    size_t n = m->nbones;
    r->legs = calloc(n ? n : 1, sizeof *r->legs);
    r->bones = calloc(3 * n + 1, sizeof *r->bones);
    r->ikbones = calloc(2 * n + 1, sizeof *r->ikbones);
    r->all = calloc(5 * n + 1, sizeof *r->all);
    if (!r->legs || !r->bones || !r->ikbones || !r->all) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK) || b->nik_links != 2 || b->ik_target < 0 ||
            (size_t)b->ik_target >= n)
            continue;
        int32_t knee = b->ik_links[0].bone, hip = b->ik_links[1].bone;
        if (knee < 0 || hip < 0 || (size_t)knee >= n || (size_t)hip >= n ||
            m->bones[b->ik_target].parent != knee || m->bones[knee].parent != hip)
            continue;
        leg *l = &r->legs[r->nlegs++];
        l->ik = (int32_t)i;
        l->hip = hip;
        l->knee = knee;
        l->ankle = b->ik_target;
        l->toe_ik = l->toe = -1;
    }
    if (r->nlegs == 0) {
        pk_error(log, PK_E_NOT_FOUND,
                 "%s has no leg IK (an IK bone whose chain is hip, knee and ankle, as 足ＩＫ's is)",
                 m->name && *m->name ? m->name : "the model");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK) || b->nik_links != 1 || b->ik_target < 0 ||
            (size_t)b->ik_target >= n)
            continue;
        for (size_t k = 0; k < r->nlegs; k++)
            if (b->ik_links[0].bone == r->legs[k].ankle && r->legs[k].toe_ik < 0) {
                r->legs[k].toe_ik = (int32_t)i;
                r->legs[k].toe = b->ik_target;
            }
    }
    return true;
}

/* A model bone's name in a motion's name table (NULL: the raw bytes). */
static const uint8_t *bone_raw(const pk_model *m, int32_t b, size_t *len)
{
    if (m->bones[b].cp932 == PK_NO_NAME) {
        *len = 0;
        return NULL;
    }
    return pk_names_raw(m->names, m->bones[b].cp932, len);
}

/* The model bone a motion name is, among list (-1: none). */
static int32_t listed_bone(const legs_run *r, const pk_motion *mo, pk_name_id id,
                           const int32_t *list, size_t n)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(mo->names, id, &len);
    for (size_t i = 0; i < n; i++) {
        size_t bl;
        const uint8_t *br = bone_raw(r->m, list[i], &bl);
        if (br && bl == len && memcmp(br, raw, len) == 0)
            return list[i];
    }
    return -1;
}

/* Evaluates motion mo (tracks t) at frame f into r->w. */
static void eval_at(legs_run *r, const pk_motion *mo, const pk_tracks *t, uint32_t f)
{
    pk_rig_motion_local(r->rig, mo, t, (double)f, r->loc, r->on);
    pk_rig_eval(r->rig, r->loc, r->on, 0, r->w);
}

static void local_rot(const pk_bone_world *w, int32_t parent, int32_t b, double q[4])
{
    if (parent < 0) {
        memcpy(q, w[b].rot, sizeof w[b].rot);
        return;
    }
    double inv[4];
    pki_qd_conj(w[parent].rot, inv);
    pki_qd_mul(inv, w[b].rot, q);
}

/* World point p in bone `parent`'s frame, less bone b's rest offset: the
 * translation key that puts b's origin at p. */
static void local_pos(const legs_run *r, int32_t parent, int32_t b, const double p[3], float o[3])
{
    const pk_model *m = r->m;
    double d[3], v[3] = {p[0], p[1], p[2]};
    if (parent >= 0) {
        double inv[4];
        pki_qd_conj(r->w[parent].rot, inv);
        for (int a = 0; a < 3; a++)
            d[a] = p[a] - r->w[parent].pos[a];
        pki_qd_rotate(inv, d, v);
    }
    for (int a = 0; a < 3; a++) {
        double rest =
            (double)m->bones[b].pos[a] - (parent >= 0 ? (double)m->bones[parent].pos[a] : 0.0);
        o[a] = (float)(v[a] - rest);
    }
}

/* v (world) in bone b's frame, less the world point o. */
static void in_frame(const pk_bone_world *w, int32_t b, const double p[3], const double o[3],
                     double out[3])
{
    double inv[4], d[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]};
    pki_qd_conj(w[b].rot, inv);
    pki_qd_rotate(inv, d, out);
}

/* The legs at frame f as legs_fit.c wants them (r->w evaluated at f), and
 * whether a chain bone's translation differs from frame 0's. */
static void leg_frames(legs_run *r, uint32_t f)
{
    const pk_bone_world *w = r->w;
    for (size_t k = 0; k < r->nlegs; k++) {
        const leg *l = &r->legs[k];
        pki_leg_frame *lf = &r->lf[(size_t)f * r->nlegs + k];
        int32_t p = r->m->bones[l->hip].parent;
        if (p >= 0)
            memcpy(lf->parent, w[p].rot, sizeof lf->parent);
        else
            memcpy(lf->parent, (double[4]){0.0, 0.0, 0.0, 1.0}, sizeof lf->parent);
        memcpy(lf->hip, w[l->hip].pos, sizeof lf->hip);
        memcpy(lf->knee, w[l->knee].pos, sizeof lf->knee);
        memcpy(lf->ankle, w[l->ankle].pos, sizeof lf->ankle);
        memcpy(lf->foot, w[l->ankle].rot, sizeof lf->foot);
        in_frame(w, l->hip, w[l->knee].pos, w[l->hip].pos, lf->d1);
        in_frame(w, l->knee, w[l->ankle].pos, w[l->knee].pos, lf->d2);
        if (l->toe >= 0)
            in_frame(w, l->ankle, w[l->toe].pos, w[l->ankle].pos, lf->d3);
        local_rot(w, p, l->hip, lf->q[0]);
        local_rot(w, l->hip, l->knee, lf->q[1]);
        local_rot(w, l->knee, l->ankle, lf->q[2]);
        const int32_t chain[3] = {l->hip, l->knee, l->ankle};
        for (int c = 0; c < 3 && f > 0; c++) {
            const float *a = r->loc[chain[c]].pos;
            if (a[0] != r->pos0[(k * 3 + (size_t)c) * 3] ||
                a[1] != r->pos0[(k * 3 + (size_t)c) * 3 + 1] ||
                a[2] != r->pos0[(k * 3 + (size_t)c) * 3 + 2])
                r->moved = true;
        }
        for (int c = 0; c < 3 && f == 0; c++)
            memcpy(&r->pos0[(k * 3 + (size_t)c) * 3], r->loc[chain[c]].pos, 3 * sizeof(float));
    }
}

/* The dense tracks of the rewritten bones, one key per frame, into s
 * (track by track: bone i's keys at [i * frames, (i + 1) * frames)). */
static bool dense_tracks(legs_run *r, const pk_motion *in, const pk_tracks *t, bool to_fk,
                         pk_motion *s)
{
    const pk_model *m = r->m;
    size_t frames = (size_t)r->last + 1;
    pk_name_id *ids = calloc(r->nbones + 1, sizeof *ids);
    pk_bone_key *keys = calloc(frames * r->nbones + 1, sizeof *keys);
    bool ok = ids && keys;
    for (size_t i = 0; ok && i < r->nbones; i++) {
        size_t len;
        const uint8_t *raw = bone_raw(m, r->bones[i], &len);
        ids[i] = raw ? pk_names_intern(s->names, raw, len) : PK_NO_NAME;
        ok = ids[i] != PK_NO_NAME;
    }
    for (uint32_t f = 0; ok && f <= r->last; f++) {
        if (f % 256 == 0)
            pk_progress(r->log, (double)f / (double)frames, "evaluating");
        eval_at(r, in, t, f);
        for (size_t k = 0; k < r->nlegs; k++) {
            size_t at = (size_t)f * r->nlegs + k;
            memcpy(&r->ref[at * 3], r->w[r->legs[k].ankle].pos, 3 * sizeof(double));
        }
        if (to_fk)
            leg_frames(r, f);
        for (size_t i = 0; i < r->nbones; i++) {
            int32_t b = r->bones[i], p = m->bones[b].parent;
            pk_bone_key *k = &keys[i * frames + f];
            const pk_bone_key *prev = f ? k - 1 : NULL;
            double q[4], sgn = 1.0;
            k->name = ids[i];
            k->frame = f;
            pk_interp_linear(k->interp);
            if (to_fk) {
                local_rot(r->w, p, b, q);
                memcpy(k->pos, r->loc[b].pos, sizeof k->pos);
            } else {
                /* b is a leg IK (on its ankle) or a toe IK (on its toe) */
                const leg *l = NULL;
                bool toe = false;
                for (size_t j = 0; j < r->nlegs && !l; j++)
                    if (r->legs[j].ik == b || r->legs[j].toe_ik == b) {
                        l = &r->legs[j];
                        toe = r->legs[j].toe_ik == b;
                    }
                if (!l) {
                    continue; /* every rewritten bone is a leg's IK */
                } else if (!toe) {
                    local_rot(r->w, p, l->ankle, q);
                    local_pos(r, p, b, r->w[l->ankle].pos, k->pos);
                } else {
                    /* the toe IK's parent as it will be: its own world
                     * evaluated again with the leg IK's new key */
                    memcpy(q,
                           (double[4]){r->loc[b].rot[0], r->loc[b].rot[1], r->loc[b].rot[2],
                                       r->loc[b].rot[3]},
                           sizeof q);
                    double goal[3];
                    memcpy(goal, r->w[l->toe].pos, sizeof goal);
                    const pk_bone_key *ik = NULL;
                    for (size_t j = 0; j < i && !ik; j++)
                        if (r->bones[j] == l->ik)
                            ik = &keys[j * frames + f];
                    if (ik) {
                        memcpy(r->loc[l->ik].pos, ik->pos, sizeof ik->pos);
                        memcpy(r->loc[l->ik].rot, ik->rot, sizeof ik->rot);
                    }
                    pk_rig_eval(r->rig, r->loc, r->on, PK_EVAL_NO_IK, r->w);
                    local_pos(r, p, b, goal, k->pos);
                    eval_at(r, in, t, f);
                }
                double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
                if (!(n > 1e-12)) {
                    q[0] = q[1] = q[2] = 0.0;
                    q[3] = n = 1.0;
                }
                for (int a = 0; a < 4; a++)
                    q[a] /= n;
            }
            if (prev && prev->rot[0] * q[0] + prev->rot[1] * q[1] + prev->rot[2] * q[2] +
                                prev->rot[3] * q[3] <
                            0.0)
                sgn = -1.0;
            for (int a = 0; a < 4; a++)
                k->rot[a] = (float)(sgn * q[a]);
        }
    }
    for (size_t i = 0; ok && i < frames * r->nbones; i++) {
        pk_bone_key *k = pk_motion_push_bone(s);
        if ((ok = k != NULL))
            *k = keys[i];
    }
    free(ids);
    free(keys);
    return ok;
}

/* The bone bone b follows through slot k: 0 its parent, 1 the bone it
 * appends from (-1: none). */
static int32_t followed_bone(const pk_model *m, size_t b, int k)
{
    const pk_model_bone *x = &m->bones[b];
    int32_t f = k == 0                                                     ? x->parent
                : x->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE) ? x->append_parent
                                                                           : -1;
    return f >= 0 && (size_t)f < m->nbones ? f : -1;
}

/* Does a bone other than the leg and toe IKs follow one of them (a
 * descendant, or appending from one or from such a bone)?  An invisible
 * bone nothing follows (the "先" tip a model ends an IK with) does not
 * count: it shows nothing. */
static bool ik_followed(const legs_run *r)
{
    const pk_model *m = r->m;
    size_t n = m->nbones;
    uint8_t *dep = calloc(n + 1, 1), *led = calloc(n + 1, 1);
    if (!dep || !led) {
        free(dep);
        free(led);
        return true; /* keeping the keys is always right */
    }
    for (size_t j = 0; j < r->nikbones; j++)
        dep[r->ikbones[j]] = 2;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (followed_bone(m, i, k) >= 0)
                led[followed_bone(m, i, k)] = 1;
    bool changed = true, followed = false;
    for (size_t pass = 0; changed && pass <= n; pass++) {
        changed = false;
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 2 && !dep[i]; k++) {
                int32_t f = followed_bone(m, i, k);
                if (f >= 0 && dep[f]) {
                    dep[i] = 1;
                    changed = true;
                    followed = followed || (m->bones[i].flags & PK_BONE_VISIBLE) || led[i];
                }
            }
    }
    free(dep);
    free(led);
    return followed;
}

/* out: the input without the rewritten bones' keys (and the dropped IKs'
 * keys: drop_ik; and the keys of the nx bones x), then the keys of s. */
static pk_motion *assemble(const legs_run *r, const pk_motion *in, const pk_motion *s, bool drop_ik,
                           const int32_t *x, size_t nx)
{
    pk_motion *out = pk_motion_clone(in);
    if (!out)
        return NULL;
    size_t kept = 0;
    for (size_t i = 0; i < out->nbones; i++)
        if (listed_bone(r, out, out->bones[i].name, r->bones, r->nbones) < 0 &&
            !(drop_ik && listed_bone(r, out, out->bones[i].name, r->ikbones, r->nikbones) >= 0) &&
            listed_bone(r, out, out->bones[i].name, x, nx) < 0)
            out->bones[kept++] = out->bones[i];
    out->nbones = kept;
    for (size_t i = 0; i < s->nbones; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(s->names, s->bones[i].name, &len);
        pk_name_id id = pk_names_intern(out->names, raw, len);
        pk_bone_key *k = id == PK_NO_NAME ? NULL : pk_motion_push_bone(out);
        if (!k) {
            pk_motion_free(out);
            return NULL;
        }
        *k = s->bones[i];
        k->name = id;
        k->pad = 0;
    }
    return out;
}

/* The IK section: the leg and toe IKs on or off in every record, and a
 * record at frame 0 when switching them off and none is there. */
static bool set_ik(const legs_run *r, pk_motion *out, bool enabled)
{
    if (!enabled && (out->niks == 0 || out->iks[0].frame != 0)) {
        /* the earliest record first: records are kept in frame order */
        size_t first = 0;
        for (size_t i = 0; i < out->niks; i++)
            if (out->iks[i].frame < out->iks[first].frame)
                first = i;
        if (out->niks == 0 || out->iks[first].frame != 0) {
            pk_ik_key *k = pk_motion_push_ik(out, 0);
            if (!k)
                return false;
            k->frame = 0;
            k->show = 1;
            pk_ik_key nk = *k;
            memmove(out->iks + 1, out->iks, (out->niks - 1) * sizeof *out->iks);
            out->iks[0] = nk;
        }
    }
    for (size_t i = 0; i < out->niks; i++) {
        pk_ik_key *k = &out->iks[i];
        for (size_t j = 0; j < r->nikbones; j++) {
            int32_t b = r->ikbones[j];
            bool found = false;
            for (uint32_t s = 0; s < k->count; s++)
                if (listed_bone(r, out, k->ik[s].name, &b, 1) >= 0) {
                    k->ik[s].enabled = enabled;
                    found = true;
                }
            if (found || enabled)
                continue; /* a switch not listed is on */
            size_t len;
            const uint8_t *raw = bone_raw(r->m, b, &len);
            if (!raw || len > PK_VMD_IK_BYTES)
                continue;
            pk_ik_state *st = calloc((size_t)k->count + 1, sizeof *st);
            if (!st)
                return false;
            if (k->count)
                memcpy(st, k->ik, k->count * sizeof *st);
            free(k->ik);
            k->ik = st;
            memset(&st[k->count], 0, sizeof *st);
            st[k->count].name = pk_names_intern(out->names, raw, len);
            if (st[k->count].name == PK_NO_NAME)
                return false;
            st[k->count++].enabled = 0;
        }
    }
    return true;
}

/* Largest ankle move of out against the input's, over every frame; when
 * same is not NULL, whether every knee stays within tol and every foot
 * turns within deg of r->kref's and r->fref's too, and whether the ankles
 * stay within tol, the frames after the first that does not left out;
 * keep: out's knees and feet kept there instead. */
static double check(legs_run *r, const pk_motion *out, pk_log *log, bool *ok, double tol,
                    double deg, bool *same, bool keep)
{
    /* out is a candidate holding the input's other records: their
     * duplicate keys were told reading the input, and the step drops and
     * counts them in what it writes */
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *t = pk_tracks_build(out, &quiet);
    pk_log_free(&quiet);
    if (!t) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        *ok = false;
        return INFINITY;
    }
    double worst = 0.0;
    r->worst_frame = 0;
    /* a candidate (same) is done at its first frame beyond tol */
    for (uint32_t f = 0; f <= r->last && !(same && (!*same || worst > tol)); f++) {
        eval_at(r, out, t, f);
        for (size_t k = 0; k < r->nlegs; k++) {
            const double *a = r->w[r->legs[k].ankle].pos,
                         *b = &r->ref[((size_t)f * r->nlegs + k) * 3];
            double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
            double d = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
            if (d > worst) {
                worst = d;
                r->worst_frame = f;
            }
            size_t at = (size_t)f * r->nlegs + k;
            if (keep) {
                memcpy(&r->kref[at * 3], r->w[r->legs[k].knee].pos, 3 * sizeof(double));
                memcpy(&r->fref[at * 4], r->w[r->legs[k].ankle].rot, 4 * sizeof(double));
            }
            if (same && *same) {
                const double *kn = r->w[r->legs[k].knee].pos, *kr = &r->kref[at * 3];
                const double *q = r->w[r->legs[k].ankle].rot, *qr = &r->fref[at * 4];
                double e0 = kn[0] - kr[0], e1 = kn[1] - kr[1], e2 = kn[2] - kr[2];
                double c = fabs(q[0] * qr[0] + q[1] * qr[1] + q[2] * qr[2] + q[3] * qr[3]);
                double turn = 2.0 * pki_acos(c > 1.0 ? 1.0 : c) * (180.0 / 3.14159265358979323846);
                *same = sqrt(e0 * e0 + e1 * e1 + e2 * e2) <= tol && turn <= deg;
            }
        }
    }
    pk_tracks_free(t);
    return worst;
}

static size_t count_keys(const legs_run *r, const pk_motion *mo)
{
    size_t n = 0;
    for (size_t i = 0; i < mo->nbones; i++)
        n += listed_bone(r, mo, mo->bones[i].name, r->all, r->nall) >= 0;
    return n;
}

/* The last frame that matters: the last bone key or IK record. */
static uint32_t last_frame(const pk_motion *m)
{
    uint32_t last = 0;
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].frame > last)
            last = m->bones[i].frame;
    for (size_t i = 0; i < m->niks; i++)
        if (m->iks[i].frame > last)
            last = m->iks[i].frame;
    return last;
}

static double rest_dist(const pk_model *m, int32_t a, int32_t b)
{
    double d0 = (double)m->bones[a].pos[0] - m->bones[b].pos[0];
    double d1 = (double)m->bones[a].pos[1] - m->bones[b].pos[1];
    double d2 = (double)m->bones[a].pos[2] - m->bones[b].pos[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

/* The classes of rewritten tracks, each reduced with its own tolerances:
 * IK to FK: hips, knees, ankles; FK to IK: leg IKs, toe IKs. */
enum { NCLASS = 3 };

/* A selection of the class's bones by name (NULL: none in it, or error). */
static pk_selection *class_sel(const legs_run *r, bool to_fk, int c, pk_log *log, bool *ok)
{
    pk_buf b;
    pk_buf_init(&b);
    for (size_t k = 0; k < r->nlegs; k++) {
        const leg *l = &r->legs[k];
        int32_t bone = to_fk ? (c == 0   ? l->hip
                                : c == 1 ? l->knee
                                         : l->ankle)
                             : (c == 0   ? l->ik
                                : c == 1 ? l->toe_ik
                                         : -1);
        if (bone >= 0)
            pk_buf_printf(&b, "%s%s", b.len ? "," : "", r->m->bones[bone].name);
    }
    pk_selection *sel = NULL;
    bool any = b.len > 0;
    pk_buf_putc(&b, 0);
    if (b.oom)
        *ok = false;
    else if (any && !(sel = pk_selection_parse(NULL, (const char *)b.data, log)))
        *ok = false;
    pk_buf_free(&b);
    return sel;
}

/* The tolerances of class c at scale s (halved on every retry): rotations
 * of hips and knees such that the ankle moves at most s * goal from each
 * (the hip-to-ankle and knee-to-ankle lengths at rest, the longest leg's),
 * a leg IK's translation s * goal; what moves no ankle (ankle rotations,
 * IK rotations, toe IKs) the options' max_deg and max_pos. */
static void class_tol(const legs_run *r, const pk_legs_options *o, bool to_fk, int c, double s,
                      pk_reduce_options *ro)
{
    ro->max_deg = o->max_deg;
    ro->max_pos = o->max_pos;
    if (to_fk && c < 2) {
        double len = 0.0;
        for (size_t k = 0; k < r->nlegs; k++)
            len = fmax(
                len, rest_dist(r->m, c == 0 ? r->legs[k].hip : r->legs[k].knee, r->legs[k].ankle));
        if (len > 1e-6)
            ro->max_deg = s * o->goal / len * (180.0 / 3.14159265358979323846);
    } else if (!to_fk && c == 0) {
        ro->max_pos = s * o->goal;
    }
}

/* The multiples of the usual bounds a fit held the knee's place, the
 * toe's place and the foot's roll within (1: as usual). */
typedef struct legs_loose {
    double knee, toe, roll;
} legs_loose;

/* The chain bones' tracks fitted by legs_fit.c with every bound at scale
 * sc (full: curves searched in full too; the knee's place, the toe's and
 * the foot's roll held within lo's multiples of their usual bounds), as a
 * motion of their keys (NULL: out of memory). */
static pk_motion *fit_chains(const legs_run *r, const pk_legs_options *o, double sc, bool full,
                             const legs_loose *lo, size_t cap, bool *refused)
{
    size_t frames = (size_t)r->last + 1;
    pki_leg_frame *one = calloc(frames, sizeof *one);
    pk_motion *red = pk_motion_new();
    bool ok = one && red;
    pki_leg_tols t = {
        .ankle = LEGS_HOLD * sc * o->goal,
        .knee = lo->knee * LEGS_HOLD * sc * o->goal,
        .reach = LEGS_REACH * sc * o->goal,
        .bend = LEGS_BEND * sc * o->goal,
        .toe = lo->toe * o->max_pos,
        .roll_deg = lo->roll * o->max_deg,
        .full = full,
        .twist_deg = LEGS_TWIST_DEG,
        .toe_lag = LEGS_TOE_LAG,
    };
    for (size_t k = 0; ok && k < r->nlegs; k++) {
        const leg *l = &r->legs[k];
        pk_progress(r->log, (double)k / (double)r->nlegs, "fitting");
        for (size_t f = 0; f < frames; f++)
            one[f] = r->lf[f * r->nlegs + k];
        t.has_toe = l->toe >= 0;
        pki_leg_track tr[3];
        if (!(ok = pki_leg_fit(one, frames, &t, tr)))
            break;
        const int32_t chain[3] = {l->hip, l->knee, l->ankle};
        for (int c = 0; c < 3; c++) {
            size_t len;
            const uint8_t *raw = bone_raw(r->m, chain[c], &len);
            pk_name_id id = raw ? pk_names_intern(red->names, raw, len) : PK_NO_NAME;
            ok = ok && id != PK_NO_NAME;
            /* one key at the rest pose: no key says the same */
            static const float rest[4] = {0.0f, 0.0f, 0.0f, 1.0f}, zero[3] = {0.0f, 0.0f, 0.0f};
            if (tr[c].n == 1 && memcmp(tr[c].keys[0].rot, rest, sizeof rest) == 0 &&
                memcmp(&r->pos0[(k * 3 + (size_t)c) * 3], zero, sizeof zero) == 0)
                tr[c].n = 0;
            for (size_t i = 0; ok && i < tr[c].n; i++) {
                pk_bone_key *bk = pk_motion_push_bone(red);
                if (!(ok = bk != NULL))
                    break;
                memset(bk, 0, sizeof *bk);
                bk->name = id;
                bk->frame = tr[c].keys[i].frame;
                memcpy(bk->pos, &r->pos0[(k * 3 + (size_t)c) * 3], sizeof bk->pos);
                memcpy(bk->rot, tr[c].keys[i].rot, sizeof bk->rot);
                uint8_t cp[4][4];
                for (int a = 0; a < 3; a++)
                    memcpy(cp[a], pki_curve_linear, 4);
                memcpy(cp[3], tr[c].keys[i].cp, 4);
                pk_interp_set(bk->interp, (const uint8_t(*)[4])cp, false);
            }
            free(tr[c].keys);
        }
        /* keys only add up leg by leg: past cap, the legs left are not fitted */
        if (ok && red->nbones > cap) {
            *refused = true;
            break;
        }
    }
    free(one);
    if (!ok) {
        pk_motion_free(red);
        return NULL;
    }
    return red;
}

/* FK to IK: cand (taken; its IK switched on here) replaces *out when
 * every ankle stays within the goal, every knee and foot as check holds
 * them, and it has fewer keys.  1: replaced, 0: kept *out (cand freed),
 * -1: cand could not be made or its IK set. */
static int fewer_keys(legs_run *r, pk_motion *cand, const pk_legs_options *o, pk_motion **out,
                      double *worst, pk_log *log, bool *ok)
{
    if (!cand || !set_ik(r, cand, true)) {
        pk_motion_free(cand);
        return -1;
    }
    cand->duplicates_told = false;
    bool same = true;
    uint32_t at = r->worst_frame;
    double w = check(r, cand, log, ok, r->knee_tol, o->max_deg, &same, false);
    if (*ok && same && w <= o->goal && count_keys(r, cand) < count_keys(r, *out)) {
        pk_motion_free(*out);
        *out = cand;
        *worst = w;
        return 1;
    }
    r->worst_frame = at;
    pk_motion_free(cand);
    return 0;
}

/* FK to IK: out with the IK tracks of red that are one key each
 * dropped, when the legs stay as rough_start holds them (a leg the rest
 * pose holds: its IK at rest puts it there). */
static pk_motion *lone_keys_dropped(legs_run *r, const pk_motion *base, const pk_motion *red,
                                    const pk_legs_options *o, pk_motion *out, double *worst,
                                    pk_log *log, bool *ok)
{
    pk_motion *lone = pk_motion_clone(red);
    if (!lone)
        return out;
    size_t kept = 0;
    for (size_t i = 0; i < lone->nbones; i++) {
        size_t same_bone = 0;
        for (size_t j = 0; j < lone->nbones; j++)
            same_bone += lone->bones[j].name == lone->bones[i].name;
        if (same_bone > 1)
            lone->bones[kept++] = lone->bones[i];
    }
    bool fewer = kept < lone->nbones;
    lone->nbones = kept;
    pk_motion *cand = fewer ? assemble(r, base, lone, false, NULL, 0) : NULL;
    pk_motion_free(lone);
    fewer_keys(r, cand, o, &out, worst, log, ok);
    return out;
}

/* FK to IK: the chain bones' keys are the solver's start.  Where it
 * reaches the same legs from a rougher start, out (the input with the IK
 * keys of red) keeps fewer of them: the keys of all three chain bones of
 * every leg dropped, else of one class at a time (ankles, knees, hips)
 * dropped or reduced within 8, then 2 degrees; a change stays when every
 * ankle is within the goal, every knee within the goal and every foot
 * within max_deg of the input's at every frame; then the IK tracks of
 * one key tried away (lone_keys_dropped).  *worst follows out. */
static pk_motion *rough_start(legs_run *r, const pk_motion *in, const pk_motion *red,
                              const pk_legs_options *o, pk_motion *out, double *worst, pk_log *log,
                              bool *ok)
{
    static const struct {
        int mask;   /* 1 hip, 2 knee, 4 ankle */
        double deg; /* 0: dropped */
    } tries[] = {{7, 0.0}, {4, 0.0}, {2, 0.0}, {1, 0.0}, {4, 8.0},
                 {2, 8.0}, {1, 8.0}, {4, 2.0}, {2, 2.0}, {1, 2.0}};
    int32_t *x = calloc(3 * r->nlegs + 1, sizeof *x);
    pk_motion *base = pk_motion_clone(in);
    int dropped = 0, reduced = 0;
    for (size_t i = 0; x && base && *ok && i < sizeof tries / sizeof *tries; i++) {
        int m = tries[i].mask;
        if (dropped & m || (tries[i].deg > 0.0 && reduced & m))
            continue;
        size_t nx = 0, keyed = 0;
        for (size_t k = 0; k < r->nlegs; k++) {
            const int32_t chain[3] = {r->legs[k].hip, r->legs[k].knee, r->legs[k].ankle};
            for (int c = 0; c < 3; c++)
                if (m & (1 << c))
                    x[nx++] = chain[c];
        }
        for (size_t j = 0; j < base->nbones; j++)
            keyed += listed_bone(r, base, base->bones[j].name, x, nx) >= 0;
        if (keyed == 0)
            continue;
        if (tries[i].deg > 0.0)
            nx = 0;
        pk_motion *b = NULL;
        if (tries[i].deg > 0.0) {
            pk_selection *sel = class_sel(r, true, m == 1 ? 0 : m == 2 ? 1 : 2, log, ok);
            pk_reduce_options ro;
            pk_reduce_options_init(&ro);
            ro.morphs = false;
            ro.bones = sel;
            ro.max_deg = tries[i].deg;
            b = sel ? pk_motion_reduce(base, &ro, NULL, log) : NULL;
            pk_selection_free(sel);
        }
        int took =
            fewer_keys(r, assemble(r, b ? b : base, red, false, x, nx), o, &out, worst, log, ok);
        if (took < 0) {
            pk_motion_free(b);
            break;
        }
        if (took) {
            if (b) {
                pk_motion_free(base);
                base = b;
                b = NULL;
                reduced |= m;
            } else {
                pk_motion *none = pk_motion_new();
                b = none ? assemble(r, base, none, false, x, nx) : NULL;
                pk_motion_free(none);
                if (b) {
                    pk_motion_free(base);
                    base = b;
                    b = NULL;
                    dropped |= m;
                }
            }
        }
        pk_motion_free(b);
    }
    if (base && *ok)
        out = lone_keys_dropped(r, base, red, o, out, worst, log, ok);
    pk_motion_free(base);
    free(x);
    return out;
}

/* IK to FK of a short motion over 1.5 times the input's leg keys (the
 * goal): the chains fitted again at scale s with the curves searched in
 * full (costly, so only there) or with the knee's place, the toe's or the
 * foot's roll held within lo's multiples of their usual bounds, kept
 * (and *kept set to lo) where every ankle stays within the goal with
 * fewer keys (and, within, at most 1.5 times the input's leg keys). */
static pk_motion *searched_in_full(legs_run *r, const pk_motion *in, const pk_legs_options *o,
                                   double s, bool drop_ik, pk_motion *out, double *worst,
                                   pk_log *log, bool *ok, bool full, legs_loose lo,
                                   legs_loose *kept, bool within, size_t *over)
{
    /* the most keys cand may write to be kept, less those it keeps from
     * in (the chains' fitted leg by leg stop past the rest) */
    size_t nout = count_keys(r, out), nin = count_keys(r, in), most = nout ? nout - 1 : 0;
    if (nout == 0)
        return out;
    if (within && 3 * nin / 2 < most)
        most = 3 * nin / 2;
    pk_motion *none = pk_motion_new();
    pk_motion *base = none ? assemble(r, in, none, drop_ik, NULL, 0) : NULL;
    size_t fixed = base ? count_keys(r, base) : 0;
    pk_motion_free(none);
    pk_motion_free(base);
    if (!base) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        *ok = false;
        return out;
    }
    *over = fixed > most ? fixed - most : 0;
    if (fixed > most)
        return out;
    bool refused = false;
    pk_motion *red = fit_chains(r, o, s, full, &lo, most - fixed, &refused);
    if (red && refused) {
        *over = red->nbones + fixed - most;
        pk_motion_free(red);
        return out;
    }
    pk_motion *cand = red ? assemble(r, in, red, drop_ik, NULL, 0) : NULL;
    pk_motion_free(red);
    if (!cand || !set_ik(r, cand, false)) {
        pk_motion_free(cand);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        *ok = false;
        return out;
    }
    cand->duplicates_told = false;
    uint32_t at = r->worst_frame;
    size_t nc = count_keys(r, cand);
    *over = nc > most ? nc - most : 0;
    if (nc > most) { /* cannot be kept: not checked */
        pk_motion_free(cand);
        return out;
    }
    double w = check(r, cand, log, ok, 0.0, 0.0, NULL, false);
    if (*ok && w <= o->goal && nc < count_keys(r, out) &&
        (!within || 2 * nc <= 3 * nin)) {
        pk_motion_free(out);
        *worst = w;
        *kept = lo;
        return cand;
    }
    r->worst_frame = at;
    pk_motion_free(cand);
    return out;
}

static pk_motion *fit(legs_run *r, const pk_motion *in, const pk_motion *dense,
                      const pk_legs_options *o, bool to_fk, pk_legs_stats *st, pk_log *log)
{
    pk_selection *sel[NCLASS];
    bool ok = true, drop_ik = to_fk && !o->keep_ik && !ik_followed(r);
    for (int c = 0; c < NCLASS; c++)
        sel[c] = class_sel(r, to_fk, c, log, &ok);
    pk_motion *result = NULL;
    double s = 1.0;
    for (int tries = 0; ok && tries <= FIT_TRIES; tries++, s /= 2.0) {
        bool baked = tries == FIT_TRIES, chains = to_fk && !r->moved && !baked;
        static const legs_loose usual = {1.0, 1.0, 1.0};
        bool no = false;
        pk_motion *red = chains ? fit_chains(r, o, s, false, &usual, SIZE_MAX, &no)
                                : pk_motion_clone(dense);
        pk_reduce_options ro[NCLASS];
        for (int c = 0; red && !baked && !chains && c < NCLASS; c++) {
            if (!sel[c])
                continue;
            pk_reduce_options_init(&ro[c]);
            ro[c].morphs = false;
            ro[c].bones = sel[c];
            class_tol(r, o, to_fk, c, s, &ro[c]);
            pk_motion *next = pk_motion_reduce(red, &ro[c], NULL, log);
            pk_motion_free(red);
            red = next;
        }
        pk_motion *out = red ? assemble(r, in, red, drop_ik, NULL, 0) : NULL;
        legs_loose loose = usual; /* the fit kept's bounds, in their usual ones */
        if (!out || !set_ik(r, out, !to_fk)) {
            pk_motion_free(red);
            pk_motion_free(out);
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            break;
        }
        out->duplicates_told = false;
        double worst = check(r, out, log, &ok, 0.0, 0.0, NULL, !to_fk);
        double fk_knee = 1.0; /* FK to IK: rough_start's knees, in goals */
        r->knee_tol = o->goal;
        if (ok && !to_fk && worst <= o->goal)
            out = rough_start(r, in, red, o, out, &worst, log, &ok);
        for (size_t i = 0; i < sizeof LEGS_FK_KNEE_LOOSE / sizeof *LEGS_FK_KNEE_LOOSE; i++) {
            if (!ok || to_fk || worst > o->goal || 2 * count_keys(r, out) <= 3 * count_keys(r, in))
                break;
            pk_motion *again = pk_motion_clone(out);
            double w2 = worst;
            r->knee_tol = LEGS_FK_KNEE_LOOSE[i] * o->goal;
            again = again ? rough_start(r, in, red, o, again, &w2, log, &ok) : NULL;
            if (ok && again && 2 * count_keys(r, again) <= 3 * count_keys(r, in)) {
                pk_motion_free(out);
                out = again;
                worst = w2;
                fk_knee = LEGS_FK_KNEE_LOOSE[i];
            } else {
                pk_motion_free(again);
            }
        }
        size_t over0 = 0;
        for (size_t i = 0; i < sizeof LEGS_KNEE_LOOSE / sizeof *LEGS_KNEE_LOOSE; i++)
            if (ok && chains && worst <= o->goal && r->last < PKI_LEG_OPTIMAL_MAX &&
                2 * count_keys(r, out) > 3 * count_keys(r, in))
                out = searched_in_full(r, in, o, s, drop_ik, out, &worst, log, &ok, false,
                                       (legs_loose){LEGS_KNEE_LOOSE[i], 1.0, 1.0}, &loose, false,
                                       &over0);
        if (ok && chains && worst <= o->goal && r->last < PKI_LEG_OPTIMAL_MAX &&
            2 * count_keys(r, out) > 3 * count_keys(r, in))
            out = searched_in_full(r, in, o, s, drop_ik, out, &worst, log, &ok, true, usual, &loose,
                                   false, &over0);
        size_t over = 0; /* keys the last fit wrote past those it could keep */
        for (size_t i = 0; i < 2 * (sizeof LEGS_FOOT_LOOSE / sizeof *LEGS_FOOT_LOOSE); i++)
            if (ok && chains && worst <= o->goal && r->last < PKI_LEG_OPTIMAL_MAX &&
                2 * count_keys(r, out) > 3 * count_keys(r, in) &&
                !(i % 2 && over > LEGS_FULL_GAIN))
                out = searched_in_full(
                    r, in, o, s, drop_ik, out, &worst, log, &ok, i % 2,
                    (legs_loose){1.0, LEGS_FOOT_LOOSE[i / 2].toe, LEGS_FOOT_LOOSE[i / 2].roll},
                    &loose, true, &over);
        pk_motion_free(red);
        if (ok && (worst <= o->goal || baked)) {
            st->worst = worst;
            st->worst_frame = r->worst_frame;
            st->baked = baked;
            st->tries = (size_t)tries + 1;
            for (int c = 0; c < 2 && !baked; c++)
                st->tol[c] = chains  ? (c ? LEGS_REACH : LEGS_HOLD) * s * o->goal
                             : to_fk ? s * o->goal
                                     : ro[c].max_pos;
            st->tol_knee = baked   ? 0.0
                           : to_fk ? st->tol[0] * (chains ? loose.knee : 1.0)
                                   : fk_knee * o->goal;
            st->tol_toe = to_fk && !baked ? o->max_pos * (chains ? loose.toe : 1.0) : 0.0;
            st->tol_roll = to_fk && !baked ? o->max_deg * (chains ? loose.roll : 1.0) : 0.0;
            result = out;
            break;
        }
        pk_motion_free(out);
    }
    for (int c = 0; c < NCLASS; c++)
        pk_selection_free(sel[c]);
    return result;
}

pk_motion *pk_motion_legs(const pk_motion *m, const pk_model *model, const pk_legs_options *o,
                          pk_legs_stats *st, pk_log *log)
{
    pk_legs_stats none;
    if (!st)
        st = &none;
    memset(st, 0, sizeof *st);
    legs_run r;
    memset(&r, 0, sizeof r);
    r.m = model;
    r.log = log;
    bool to_fk = o->way == PK_LEGS_IK_TO_FK;
    if (m->nbones == 0 && m->niks == 0) {
        pk_error(log, PK_E_USAGE,
                 "the motion keys no bone and switches no IK: there are no legs to turn %s",
                 to_fk ? "into FK" : "into IK");
        return NULL;
    }
    if (!find_legs(&r, log)) {
        legs_free(&r);
        return NULL;
    }
    for (size_t k = 0; k < r.nlegs; k++) {
        const leg *l = &r.legs[k];
        add_bone(r.ikbones, &r.nikbones, l->ik);
        if (l->toe_ik >= 0)
            add_bone(r.ikbones, &r.nikbones, l->toe_ik);
        const int32_t every[5] = {l->hip, l->knee, l->ankle, l->ik, l->toe_ik};
        for (int e = 0; e < 5; e++)
            if (every[e] >= 0)
                add_bone(r.all, &r.nall, every[e]);
        if (to_fk) {
            add_bone(r.bones, &r.nbones, l->hip);
            add_bone(r.bones, &r.nbones, l->knee);
            add_bone(r.bones, &r.nbones, l->ankle);
        } else {
            add_bone(r.bones, &r.nbones, l->ik);
            if (l->toe_ik >= 0)
                add_bone(r.bones, &r.nbones, l->toe_ik);
        }
    }
    size_t n = model->nbones;
    r.last = last_frame(m);
    if (r.last >= LEGS_SPAN_MAX) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "the motion reaches frame %u: the legs are evaluated at every frame, up to "
                 "%u",
                 r.last, LEGS_SPAN_MAX - 1);
        legs_free(&r);
        return NULL;
    }
    size_t frames = (size_t)r.last + 1;
    r.rig = pk_rig_new(model, log);
    r.loc = calloc(n + 1, sizeof *r.loc);
    r.w = calloc(n + 1, sizeof *r.w);
    r.on = calloc(n + 1, sizeof *r.on);
    r.ref = calloc(frames * r.nlegs * 3, sizeof *r.ref);
    r.kref = calloc(frames * r.nlegs * 3, sizeof *r.kref);
    r.fref = calloc(frames * r.nlegs * 4, sizeof *r.fref);
    r.lf = to_fk ? calloc(frames * r.nlegs, sizeof *r.lf) : NULL;
    r.pos0 = calloc(r.nlegs * 9 + 1, sizeof *r.pos0);
    pk_tracks *t = r.rig ? pk_tracks_build(m, log) : NULL;
    pk_motion *dense = pk_motion_new();
    pk_motion *out = NULL;
    if (!r.rig || !t || !r.loc || !r.w || !r.on || !r.ref || !r.kref || !r.fref || !dense ||
        (to_fk && !r.lf) || !r.pos0 || !dense_tracks(&r, m, t, to_fk, dense)) {
        if (r.rig && t)
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
    } else {
        st->legs = r.nlegs;
        st->frames = frames;
        st->keys_before = count_keys(&r, m);
        out = fit(&r, m, dense, o, to_fk, st, log);
        if (out)
            st->keys_after = count_keys(&r, out);
        if (out && st->worst > o->goal)
            pk_warning(log, PK_E_LOSS,
                       "an ankle ends %.3g units from the input's at frame %u (more than %g even "
                       "with a key per frame: %s)",
                       st->worst, st->worst_frame, o->goal,
                       to_fk ? "the legs evaluate differently with the IKs off"
                             : "MMD's IK cannot hold that leg, a knee straighter than the knee "
                               "rule's 0.5 degrees or a goal out of reach");
    }
    pk_tracks_free(t);
    pk_motion_free(dense);
    legs_free(&r);
    return out;
}
