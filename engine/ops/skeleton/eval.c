/*
 * eval.c — a model's skeleton evaluated as MMD does (posekit.h, "Skeleton
 * evaluation"): local pose -> world transform of every bone.
 *
 *  1. every bone's local transform from the pose: translation = rest offset
 *     from the parent + the key's translation, rotation = the key's (a
 *     fixed-axis bone keeps only the twist about its axis);
 *  2. world transforms down the parent chain (parents first, whatever the
 *     file order: a topological order made once by pk_rig_new);
 *  3. in MMD's order (deform layer, then model order, after-physics bones
 *     last): a bone with append/inherit takes `ratio` of its append
 *     parent's rotation and/or translation, and an IK bone runs MMD's CCD
 *     solver on its links; each change is carried down the bone's subtree
 *     (contiguous in the topological order).
 *
 * No physics: bones driven by rigid bodies follow their parents as keyed.
 * Every number is a double; nothing here allocates after pk_rig_new.
 *
 * A solve remembered (eval.h, pki_rig_eval_memo, for plays again of an
 * edited motion): what a chain's solve reads (the IK bone's and target's
 * positions, the world above each subtree its links turn, the locals in
 * them, the links' rotations) is kept with what it leaves (the links' IK rotations and
 * locals); the same inputs at the same frame of a later evaluation take
 * those and refresh the subtrees' worlds, the bits a solve gives.
 */
#include "posekit.h"
#include "math/quat.h"
#include "ops/skeleton/eval.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* A CCD step's helpers, inlined into the step (a solve calls them for
 * every link of every pass). */
#if defined(__GNUC__) || defined(__clang__)
#define STEP static inline __attribute__((always_inline))
#else
#define STEP static inline
#endif

typedef struct ik_link {
    int32_t bone;
    bool limited, plane; /* plane: only one axis may turn (knees) */
    int axis;            /* plane: 0 x, 1 y, 2 z */
    double min[3], max[3];
    double plane_angle; /* plane: the angle so far in this solve */
    /* plane: sin and cos of half of plane_angle (kept beside it by the
     * half-angle sum), and of half of the range's ends */
    double plane_half[2], lo_half[2], hi_half[2];
    size_t path_at;     /* its place in the chain's path (npath: not on it) */
    double saved[4];    /* best ik rotation so far */
    bool turned;        /* turned in this solve: its local translation recomputed */
} ik_link;

typedef struct ik_chain {
    int32_t bone, target;
    int loops;
    double limit;   /* per-step angle limit (radians) */
    /* a free link's step turns by the limit where its cosine is below
     * cos_limit (-2: no limit below pi); by then by half_limit = (sin,
     * cos) of limit / 2 */
    double cos_limit, half_limit[2];
    ik_link *links; /* nlinks */
    size_t nlinks;
    int32_t *path; /* topological order: the top link down to the target */
    size_t npath;
    bool has_triangle; /* a plane link right below the next link (a knee) */
    bool target_pos;   /* no link below the target: the passes need its position alone */
    double reach;      /* the path's length from the top link to the target */
    int32_t *subtrees; /* bones whose subtree is refreshed after the solve */
    size_t nsubtrees;
} ik_chain;

struct pk_rig {
    const pk_model *m;
    size_t n;
    int32_t *parent;
    double (*off)[3]; /* rest offset from the parent (root: rest position) */
    int32_t *topo;    /* parents before children, subtrees contiguous */
    size_t *topo_at;  /* bone -> place in topo */
    size_t *topo_end; /* bone -> end of its subtree in topo */
    int32_t *order;   /* MMD's evaluation order */
    int32_t *ik_of;   /* bone -> chain index, or -1 */
    ik_chain *chains;
    size_t nchains;
    bool *is_link;     /* bone is an IK link: its ik rotation counts for append */
    double (*axis)[3]; /* a fixed-axis bone's unit axis */
    bool *twists;      /* the bone keeps the twist about axis[] alone */
    int32_t *acts;     /* in MMD's order, the bones that append or solve a chain */
    size_t nacts;
    int32_t *resets; /* the bones whose IK rotation or append an evaluation sets */
    size_t nresets;
    bool *resets_it; /* bone -> in resets */
    /* The last evaluation's locals (seen: there was one with locals): a
     * bone not in resets whose local is the same bits keeps its locals. */
    pk_bone_local *last;
    bool seen;
    size_t *memo_at; /* chain -> its place in a memo row */
    size_t *memo_n;  /* chain -> the doubles its solve reads */
    /* Scratch of one evaluation. */
    double (*anim_rot)[4], (*anim_pos)[3];
    double (*ik_rot)[4], (*app_rot)[4], (*app_pos)[3];
    double (*loc_rot)[4], (*loc_pos)[3];
    pk_bone_world *w; /* the caller's output, during pk_rig_eval */
    bool *has_app_rot, *has_app_pos;
};

/* ---- small double quaternion helpers (x, y, z, w) ---- */

static inline void qident(double q[4])
{
    q[0] = q[1] = q[2] = 0.0;
    q[3] = 1.0;
}

static inline bool qis_ident(const double q[4])
{
    return q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0;
}

static void qnorm(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-30) || !isfinite(n)) {
        qident(q);
        return;
    }
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

static void qaxis(const double axis[3], double angle, double o[4])
{
    double s, c;
    pki_sincos(angle / 2.0, &s, &c);
    o[0] = axis[0] * s;
    o[1] = axis[1] * s;
    o[2] = axis[2] * s;
    o[3] = c;
}

/* q^t: the rotation q scaled to t times its angle (the short way round;
 * MMD's slerp(identity, q, t), t may be negative or above 1). */
/* ---- building ---- */

#define CALLOC(p, n) ((p) = calloc((n) ? (n) : 1, sizeof *(p)))

void pk_rig_free(pk_rig *r)
{
    if (!r)
        return;
    for (size_t c = 0; c < r->nchains; c++) {
        free(r->chains[c].links);
        free(r->chains[c].path);
        free(r->chains[c].subtrees);
    }
    free(r->chains);
    free(r->parent);
    free(r->off);
    free(r->topo);
    free(r->topo_at);
    free(r->topo_end);
    free(r->order);
    free(r->ik_of);
    free(r->is_link);
    free(r->axis);
    free(r->twists);
    free(r->acts);
    free(r->resets);
    free(r->resets_it);
    free(r->last);
    free(r->memo_at);
    free(r->memo_n);
    free(r->anim_rot);
    free(r->anim_pos);
    free(r->ik_rot);
    free(r->app_rot);
    free(r->app_pos);
    free(r->loc_rot);
    free(r->loc_pos);
    free(r->has_app_rot);
    free(r->has_app_pos);
    free(r);
}

/* MMD's evaluation order as one sortable number: after-physics bones
 * last, then by deform layer, then by index (a bone count fits 31 bits:
 * PMX counts are int32).  No comparator state, so pk_rig_new may run on
 * several threads at once. */
static uint64_t mmd_order_key(const pk_model_bone *b, size_t i)
{
    uint64_t after = (b->flags & PK_BONE_AFTER_PHYSICS) != 0;
    uint64_t layer = (uint32_t)b->layer ^ 0x80000000u; /* signed order as unsigned */
    return after << 63 | layer << 31 | (uint64_t)(i & 0x7fffffff);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* The knee rule: a link named ひざ (PMD models have no limits at all)
 * without limits of its own turns about X only, between -180 and -0.5
 * degrees (MMD's coordinates: a knee bends backwards with positive X). */
static bool is_knee(const char *name)
{
    return strstr(name, "ひざ") != NULL || strstr(name, "膝") != NULL;
}

static bool in_subtree(const pk_rig *r, int32_t root, int32_t b)
{
    return r->topo_at[b] >= r->topo_at[root] && r->topo_at[b] < r->topo_end[root];
}

static int build_chain(pk_rig *r, int32_t bone, ik_chain *c)
{
    const pk_model_bone *b = &r->m->bones[bone];
    c->bone = bone;
    c->target = b->ik_target;
    c->loops = b->ik_loops > 0 ? b->ik_loops : 0;
    if (c->loops > 1000)
        c->loops = 1000;
    c->limit = b->ik_limit > 0.0f && isfinite(b->ik_limit) ? (double)b->ik_limit : PI;
    c->cos_limit = c->limit < PI ? pki_cos(c->limit) : -2.0;
    pki_sincos(c->limit / 2.0, &c->half_limit[0], &c->half_limit[1]);
    c->nlinks = b->nik_links;
    if (!CALLOC(c->links, c->nlinks) || !CALLOC(c->path, r->n) || !CALLOC(c->subtrees, c->nlinks))
        return -1;
    for (size_t k = 0; k < c->nlinks; k++) {
        const pk_model_ik_link *l = &b->ik_links[k];
        ik_link *d = &c->links[k];
        d->bone = l->bone;
        r->is_link[l->bone] = true;
        if (l->limited) {
            d->limited = true;
            for (int a = 0; a < 3; a++) {
                d->min[a] = fmin(l->min[a], l->max[a]);
                d->max[a] = fmax(l->min[a], l->max[a]);
            }
        } else if (is_knee(r->m->bones[l->bone].name)) {
            d->limited = true;
            d->min[0] = -PI;
            d->max[0] = -0.5 * PI / 180.0;
        }
        if (d->limited) {
            int turning = 0, axis = 0;
            for (int a = 0; a < 3; a++)
                if (d->min[a] != 0.0 || d->max[a] != 0.0) {
                    turning++;
                    axis = a;
                }
            d->plane = turning == 1;
            d->axis = axis;
            pki_sincos(d->min[axis] / 2.0, &d->lo_half[0], &d->lo_half[1]);
            pki_sincos(d->max[axis] / 2.0, &d->hi_half[0], &d->hi_half[1]);
        }
    }
    for (size_t k = 0; k + 1 < c->nlinks; k++)
        if (c->links[k].plane && r->parent[c->links[k].bone] == c->links[k + 1].bone)
            c->has_triangle = true;
    /* The path: the target's parent chain up to the highest link on it. */
    if (c->target >= 0 && (size_t)c->target < r->n) {
        size_t top = 0, len = 0;
        int32_t *up = c->path; /* filled leaf-first, reversed below */
        for (int32_t j = c->target; j >= 0 && len < r->n; j = r->parent[j]) {
            up[len++] = j;
            for (size_t k = 0; k < c->nlinks; k++)
                if (c->links[k].bone == j)
                    top = len;
        }
        c->npath = top;
        for (size_t i = 0; i < top / 2; i++) {
            int32_t t = up[i];
            up[i] = up[top - 1 - i];
            up[top - 1 - i] = t;
        }
    }
    for (size_t k = 0; k < c->nlinks; k++) {
        c->links[k].path_at = c->npath;
        for (size_t i = 0; i < c->npath; i++)
            if (c->path[i] == c->links[k].bone)
                c->links[k].path_at = i;
    }
    c->target_pos = c->npath > 0;
    for (size_t k = 0; k < c->nlinks && c->target_pos; k++)
        c->target_pos =
            !(c->links[k].bone != c->target && in_subtree(r, c->target, c->links[k].bone));
    for (size_t i = 1; i < c->npath; i++) {
        const double *o = r->off[c->path[i]];
        c->reach += sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    }
    /* After the solve: the subtrees of the links that no other link holds. */
    for (size_t k = 0; k < c->nlinks; k++) {
        int32_t lb = c->links[k].bone;
        bool held = false;
        for (size_t q = 0; q < c->nlinks && !held; q++)
            held = q != k && c->links[q].bone != lb && in_subtree(r, c->links[q].bone, lb);
        for (size_t q = 0; q < c->nsubtrees && !held; q++)
            held = c->subtrees[q] == lb;
        if (!held)
            c->subtrees[c->nsubtrees++] = lb;
    }
    return 0;
}

static size_t memo_chain(const pk_rig *r, const ik_chain *c);
static size_t memo_in(const pk_rig *r, const ik_chain *c);

/* Whether bone i takes an append parent's rotation or translation. */
static bool appends(const pk_rig *r, size_t i)
{
    const pk_model_bone *b = &r->m->bones[i];
    return (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) && b->append_parent >= 0 &&
           (size_t)b->append_parent < r->n && (size_t)b->append_parent != i;
}

/* What every evaluation reads the model for, once: the fixed axes, the
 * bones that act after the first world pass (in MMD's order), the bones
 * whose IK and append state an evaluation resets (every other bone's stays
 * the identity set here), and the chains' places in a memo row. */
static int plan_eval(pk_rig *r)
{
    size_t n = r->n;
    if (!CALLOC(r->axis, n) || !CALLOC(r->twists, n) || !CALLOC(r->acts, n) ||
        !CALLOC(r->resets, n) || !CALLOC(r->resets_it, n) || !CALLOC(r->last, n) ||
        !CALLOC(r->memo_at, r->nchains) || !CALLOC(r->memo_n, r->nchains))
        return -1;
    for (size_t i = 0; i < n; i++) {
        const pk_model_bone *b = &r->m->bones[i];
        if (b->flags & PK_BONE_FIXED_AXIS) {
            for (int a = 0; a < 3; a++)
                r->axis[i][a] = b->fixed_axis[a];
            r->twists[i] = pki_qd_unit3(r->axis[i]);
        }
        qident(r->ik_rot[i]);
        qident(r->app_rot[i]);
        if (r->is_link[i] || appends(r, i)) {
            r->resets[r->nresets++] = (int32_t)i;
            r->resets_it[i] = true;
        }
    }
    for (size_t o = 0; o < n; o++) {
        int32_t i = r->order[o];
        if (appends(r, (size_t)i) || r->ik_of[i] >= 0)
            r->acts[r->nacts++] = i;
    }
    for (size_t c = 0, at = 0; c < r->nchains; c++) {
        r->memo_at[c] = at;
        r->memo_n[c] = memo_in(r, &r->chains[c]);
        at += memo_chain(r, &r->chains[c]);
    }
    return 0;
}

pk_rig *pk_rig_new(const pk_model *m, pk_log *log)
{
    pk_rig *r = calloc(1, sizeof *r);
    size_t n = m ? m->nbones : 0;
    bool ok = r != NULL;
    if (ok) {
        r->m = m;
        r->n = n;
        ok = CALLOC(r->parent, n) && CALLOC(r->off, n) && CALLOC(r->topo, n) &&
             CALLOC(r->topo_at, n) && CALLOC(r->topo_end, n) && CALLOC(r->order, n) &&
             CALLOC(r->ik_of, n) && CALLOC(r->is_link, n) && CALLOC(r->anim_rot, n) &&
             CALLOC(r->anim_pos, n) && CALLOC(r->ik_rot, n) && CALLOC(r->app_rot, n) &&
             CALLOC(r->app_pos, n) && CALLOC(r->loc_rot, n) && CALLOC(r->loc_pos, n) &&
             CALLOC(r->has_app_rot, n) && CALLOC(r->has_app_pos, n);
    }
    int32_t *first = NULL, *next = NULL, *stack = NULL;
    ok = ok && CALLOC(first, n) && CALLOC(next, n) && CALLOC(stack, n + 1);
    if (ok) {
        /* Children lists (by index), then a depth-first walk from each
         * root: parents first and every subtree contiguous.  pki_model_finish
         * has refused parent cycles and parents outside the model. */
        for (size_t i = 0; i < n; i++) {
            first[i] = -1;
            r->ik_of[i] = -1;
        }
        for (size_t i = n; i-- > 0;) {
            int32_t p = m->bones[i].parent;
            r->parent[i] = p >= 0 && (size_t)p < n && (size_t)p != i ? p : -1;
            if (r->parent[i] >= 0) {
                next[i] = first[p];
                first[p] = (int32_t)i;
            }
        }
        size_t t = 0;
        for (size_t root = 0; root < n; root++) {
            if (r->parent[root] != -1)
                continue;
            /* iterative preorder; topo_end set when a subtree closes */
            size_t sp = 0;
            stack[sp++] = (int32_t)root;
            r->topo_at[root] = t;
            r->topo[t++] = (int32_t)root;
            while (sp) {
                int32_t b = stack[sp - 1];
                int32_t c = first[b];
                if (c >= 0) {
                    first[b] = next[c]; /* consume the child */
                    r->topo_at[c] = t;
                    r->topo[t++] = c;
                    stack[sp++] = c;
                } else {
                    r->topo_end[b] = t;
                    sp--;
                }
            }
        }
        ok = t == n;
        for (size_t i = 0; i < n; i++) {
            const pk_model_bone *b = &m->bones[i];
            int32_t p = r->parent[i];
            for (int a = 0; a < 3; a++)
                r->off[i][a] = (double)b->pos[a] - (p >= 0 ? (double)m->bones[p].pos[a] : 0.0);
        }
        uint64_t *keys = ok ? malloc((n ? n : 1) * sizeof *keys) : NULL;
        ok = ok && keys;
        for (size_t i = 0; ok && i < n; i++)
            keys[i] = mmd_order_key(&m->bones[i], i);
        if (ok)
            qsort(keys, n, sizeof *keys, cmp_u64);
        for (size_t i = 0; ok && i < n; i++)
            r->order[i] = (int32_t)(keys[i] & 0x7fffffff);
        free(keys);
        for (size_t i = 0; i < n; i++) {
            const pk_model_bone *b = &m->bones[i];
            if ((b->flags & PK_BONE_IK) && b->ik_target >= 0 && (size_t)b->ik_target < n &&
                b->nik_links > 0)
                r->nchains++;
        }
        ok = ok && CALLOC(r->chains, r->nchains);
        size_t c = 0;
        for (size_t i = 0; ok && i < n; i++) {
            const pk_model_bone *b = &m->bones[i];
            if ((b->flags & PK_BONE_IK) && b->ik_target >= 0 && (size_t)b->ik_target < n &&
                b->nik_links > 0) {
                r->ik_of[i] = (int32_t)c;
                ok = build_chain(r, (int32_t)i, &r->chains[c++]) == 0;
            }
        }
        ok = ok && plan_eval(r) == 0;
    }
    free(first);
    free(next);
    free(stack);
    if (!ok) {
        pk_rig_free(r);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    return r;
}

const pk_model *pk_rig_model(const pk_rig *r)
{
    return r->m;
}

/* ---- evaluation ---- */

/* local_of's rotation alone (its translation does not depend on the IK
 * rotation). */
static inline void local_rot_of(pk_rig *r, int32_t i)
{
    double t[4];
    pki_qd_mul(r->ik_rot[i], r->anim_rot[i], t);
    if (r->has_app_rot[i])
        pki_qd_mul(t, r->app_rot[i], r->loc_rot[i]);
    else
        memcpy(r->loc_rot[i], t, sizeof t);
}

static inline void local_of(pk_rig *r, int32_t i)
{
    local_rot_of(r, i);
    for (int a = 0; a < 3; a++)
        r->loc_pos[i][a] = r->off[i][a] + r->anim_pos[i][a] + r->app_pos[i][a];
}

static inline void world_of(pk_rig *r, int32_t i)
{
    int32_t p = r->parent[i];
    if (p < 0) {
        memcpy(r->w[i].rot, r->loc_rot[i], sizeof r->w[i].rot);
        memcpy(r->w[i].pos, r->loc_pos[i], sizeof r->w[i].pos);
        return;
    }
    pki_qd_mul(r->w[p].rot, r->loc_rot[i], r->w[i].rot);
    double v[3];
    pki_qd_rotate(r->w[p].rot, r->loc_pos[i], v);
    for (int a = 0; a < 3; a++)
        r->w[i].pos[a] = r->w[p].pos[a] + v[a];
}

/* world_of's position alone (an IK target's during the passes). */
static inline void world_pos_of(pk_rig *r, int32_t i)
{
    int32_t p = r->parent[i];
    if (p < 0) {
        memcpy(r->w[i].pos, r->loc_pos[i], sizeof r->w[i].pos);
        return;
    }
    double v[3];
    pki_qd_rotate(r->w[p].rot, r->loc_pos[i], v);
    for (int a = 0; a < 3; a++)
        r->w[i].pos[a] = r->w[p].pos[a] + v[a];
}

static void subtree(pk_rig *r, int32_t b)
{
    for (size_t t = r->topo_at[b]; t < r->topo_end[b]; t++)
        world_of(r, r->topo[t]);
}

static void append_of(pk_rig *r, int32_t i)
{
    const pk_model_bone *b = &r->m->bones[i];
    int32_t ap = b->append_parent;
    bool local = (b->flags & PK_BONE_LOCAL_APPEND) != 0;
    double ratio = (double)b->append_ratio;
    if (b->flags & PK_BONE_APPEND_ROTATE) {
        double q[4];
        if (!local && r->has_app_rot[ap])
            memcpy(q, r->app_rot[ap], sizeof q);
        else
            memcpy(q, r->anim_rot[ap], sizeof q);
        if (r->is_link[ap])
            pki_qd_mul(r->ik_rot[ap], q, q);
        pki_qd_pow(q, ratio, r->app_rot[i]);
        r->has_app_rot[i] = !qis_ident(r->app_rot[i]);
    }
    if (b->flags & PK_BONE_APPEND_MOVE) {
        const double *v = !local && r->has_app_pos[ap] ? r->app_pos[ap] : r->anim_pos[ap];
        for (int a = 0; a < 3; a++)
            r->app_pos[i][a] = v[a] * ratio;
        r->has_app_pos[i] =
            r->app_pos[i][0] != 0.0 || r->app_pos[i][1] != 0.0 || r->app_pos[i][2] != 0.0;
    }
}

/* q as X, Y, Z angles with q = qx·qy·qz. */
static void to_euler(const double q[4], double e[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r02 = 2.0 * (x * z + y * w);
    double r12 = 2.0 * (y * z - x * w), r22 = 1.0 - 2.0 * (x * x + y * y);
    double r01 = 2.0 * (x * y - z * w), r00 = 1.0 - 2.0 * (y * y + z * z);
    e[1] = pki_asin(r02 > 1.0 ? 1.0 : r02 < -1.0 ? -1.0 : r02);
    e[0] = pki_atan2(-r12, r22);
    e[2] = pki_atan2(-r01, r00);
}

static void from_euler(const double e[3], double q[4])
{
    static const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    double a[4], b[4], c[4];
    qaxis(X, e[0], a);
    qaxis(Y, e[1], b);
    qaxis(Z, e[2], c);
    pki_qd_mul(a, b, q);
    pki_qd_mul(q, c, q);
}

static void local_point(const pk_rig *r, int32_t j, const double p[3], double o[3])
{
    double d[3] = {p[0] - r->w[j].pos[0], p[1] - r->w[j].pos[1], p[2] - r->w[j].pos[2]}, inv[4];
    pki_qd_conj(r->w[j].rot, inv);
    pki_qd_rotate(inv, d, o);
}

/* local_point of the IK bone (iv) and of the target (tv) in link j's
 * frame, each made unit (pki_qd_unit3's bits): false where either is no
 * longer than 1e-12. */
STEP bool local_pair(const pk_rig *r, const ik_chain *c, int32_t j, double iv[3], double tv[3])
{
    const double *o = r->w[j].pos, *p = r->w[c->bone].pos, *t = r->w[c->target].pos;
    double inv[4], d[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]},
                   e[3] = {t[0] - o[0], t[1] - o[1], t[2] - o[2]};
    pki_qd_conj(r->w[j].rot, inv);
    return pki_qd_rotate2_unit(inv, d, e, iv, tv);
}

/* The worlds down the path from its place i to the target; of the target
 * its position alone where no link lies below it (nothing the passes read
 * follows from its rotation, and the solve refreshes the subtrees). */
STEP void path_from(pk_rig *r, const ik_chain *c, size_t i)
{
    size_t end = c->target_pos ? c->npath - 1 : c->npath;
    for (; i < end; i++)
        world_of(r, c->path[i]);
    if (c->target_pos)
        world_pos_of(r, c->path[end]);
}

/* After link k's ik rotation changed: its local, and the worlds from it
 * down the path to the target (or its whole subtree off the path).  A
 * link's turn leaves its own world position: from its second turn in a
 * solve on, when local_of has given its local translation the bits it
 * gives again, its world rotation alone. */
STEP void link_changed(pk_rig *r, const ik_chain *c, ik_link *l)
{
    int32_t j = l->bone, p = r->parent[j];
    if (l->turned) /* its translation as its first turn left it */
        local_rot_of(r, j);
    else
        local_of(r, j);
    if (l->path_at == c->npath) {
        l->turned = true;
        subtree(r, j);
        return;
    }
    if (!l->turned) {
        l->turned = true;
        path_from(r, c, l->path_at);
        return;
    }
    if (p < 0)
        memcpy(r->w[j].rot, r->loc_rot[j], sizeof r->w[j].rot);
    else
        pki_qd_mul(r->w[p].rot, r->loc_rot[j], r->w[j].rot);
    path_from(r, c, l->path_at + 1);
}

static double dist(const pk_rig *r, const ik_chain *c)
{
    const double *a = r->w[c->target].pos, *b = r->w[c->bone].pos;
    double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

/* A plane link (a knee) whose next link is above it (the hip): the angle
 * that puts the target as far from the hip as the IK bone is (the
 * triangle thigh, shin, hip-to-goal), nearest to the angle so far within
 * the limits; false when the geometry gives none.  CCD's own knee step
 * crawls when the leg is nearly straight (a tenth of the gap per loop);
 * this one lands in a step, and the hip's CCD step then aims the leg. */
static bool knee_triangle(pk_rig *r, const ik_chain *c, const ik_link *l, int32_t hip, double *out)
{
    static const double AX[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int32_t j = l->bone;
    double frot[4], inv[4], v0[3], h[3], d[3];
    /* the hip in the knee's frame without its own rotation */
    pki_qd_conj(r->loc_rot[j], inv);
    pki_qd_mul(r->w[j].rot, inv, frot);
    pki_qd_conj(frot, inv);
    /* the target in the knee's own frame (it turns with the knee) */
    local_point(r, j, r->w[c->target].pos, v0);
    for (int a = 0; a < 3; a++)
        d[a] = r->w[hip].pos[a] - r->w[j].pos[a];
    pki_qd_rotate(inv, d, h);
    double g2 = 0, vv = 0, hh = 0;
    for (int a = 0; a < 3; a++) {
        double e = r->w[c->bone].pos[a] - r->w[hip].pos[a];
        g2 += e * e;
        vv += v0[a] * v0[a];
        hh += h[a] * h[a];
    }
    const double *u = AX[l->axis];
    double along = v0[0] * u[0] + v0[1] * u[1] + v0[2] * u[2];
    double vp[3] = {v0[0] - along * u[0], v0[1] - along * u[1], v0[2] - along * u[2]};
    double ux[3] = {u[1] * vp[2] - u[2] * vp[1], u[2] * vp[0] - u[0] * vp[2],
                    u[0] * vp[1] - u[1] * vp[0]};
    double A = along * (h[0] * u[0] + h[1] * u[1] + h[2] * u[2]);
    double B = h[0] * vp[0] + h[1] * vp[1] + h[2] * vp[2];
    double C = h[0] * ux[0] + h[1] * ux[1] + h[2] * ux[2];
    double R = sqrt(B * B + C * C);
    if (!(R > 1e-12))
        return false;
    double k = ((vv + hh - g2) / 2.0 - A) / R;
    k = k > 1.0 ? 1.0 : k < -1.0 ? -1.0 : k;
    double phi = pki_atan2(C, B), delta = pki_acos(k);
    double lo = l->min[l->axis], hi = l->max[l->axis], best = 0.0, err = INFINITY;
    for (int s = -1; s <= 1; s += 2) {
        double t = phi + s * delta;
        for (int w = -1; w <= 1; w++) { /* the same angle a turn away */
            double a = t + w * 2.0 * PI;
            double cl = a < lo ? lo : a > hi ? hi : a;
            double e = fabs(cl - a) * 1e3 + fabs(cl - l->plane_angle);
            if (e < err) {
                err = e;
                best = cl;
            }
        }
    }
    *out = best;
    return true;
}

/* Which turn about the unit axis brings tv nearer to iv (both unit), +angle
 * or -angle (0 <= angle <= pi), where that is sure without the turns: the
 * dot products of iv with tv turned both ways differ by exactly 2
 * sin(angle) m, m = iv.(axis x tv), and sin(angle) >= 2/pi min(angle,
 * pi - angle); the products a plane step computes are within 1e-14 of
 * theirs, so where |2 sin(angle) m| is surely beyond 1e-11 they compare as
 * m's sign says (*plus).  False elsewhere: the step turns and compares. */
static bool side_of(const double axis[3], const double iv[3], const double tv[3], double angle,
                    bool *plus)
{
    double x[3] = {axis[1] * tv[2] - axis[2] * tv[1], axis[2] * tv[0] - axis[0] * tv[2],
                   axis[0] * tv[1] - axis[1] * tv[0]};
    double m = iv[0] * x[0] + iv[1] * x[1] + iv[2] * x[2];
    double low = (angle < PI - angle ? angle : PI - angle) * (2.0 / PI); /* NaN: not sure */
    if (!(low * fabs(m) > 1e-11))
        return false;
    *plus = m > 0.0;
    return true;
}

/* One step of a plane link; true when the per-step limit cut it. */
static bool solve_plane(pk_rig *r, const ik_chain *c, ik_link *l, int iteration, bool triangle)
{
    static const double AX[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int32_t j = l->bone;
    double iv[3], tv[3];
    if (!local_pair(r, c, j, iv, tv))
        return false;
    const double *axis = AX[l->axis];
    double a, q[4], inv[4];
    bool cut = false;
    size_t k = (size_t)(l - c->links);
    if (triangle && k + 1 < c->nlinks && r->parent[l->bone] == c->links[k + 1].bone &&
        knee_triangle(r, c, l, c->links[k + 1].bone, &a)) {
        qaxis(axis, a, q);
        l->plane_half[0] = q[l->axis];
        l->plane_half[1] = q[3];
        goto set;
    }
    double d = iv[0] * tv[0] + iv[1] * tv[1] + iv[2] * tv[2];
    double angle = pki_acos(d > 1.0 ? 1.0 : d < -1.0 ? -1.0 : d), sh, ch;
    /* the half angle's sine and cosine from the cosine, as a free link's */
    if (angle > c->limit) {
        angle = c->limit;
        sh = c->half_limit[0];
        ch = c->half_limit[1];
        cut = true;
    } else {
        pki_half_from_cos(d, &sh, &ch);
    }
    /* the turn by -angle is q1's conjugate */
    double q1[4] = {0.0, 0.0, 0.0, ch};
    q1[l->axis] = sh;
    bool plus;
    if (!side_of(axis, iv, tv, angle, &plus)) {
        double q2[4], t1[3], t2[3];
        pki_qd_conj(q1, q2);
        pki_qd_rotate(q1, tv, t1);
        pki_qd_rotate(q2, tv, t2);
        double d1 = t1[0] * iv[0] + t1[1] * iv[1] + t1[2] * iv[2];
        double d2 = t2[0] * iv[0] + t2[1] * iv[1] + t2[2] * iv[2];
        plus = d1 > d2;
    }
    a = l->plane_angle + (plus ? angle : -angle);
    /* the half of a: the half-angle sum (the same turn as qaxis of a but
     * for rounding) */
    double hs, hc;
    pki_half_add(l->plane_half[0], l->plane_half[1], plus ? sh : -sh, ch, &hs, &hc);
    double lo = l->min[l->axis], hi = l->max[l->axis];
    if (iteration == 0 && (a < lo || a > hi)) {
        /* MMD's first step may take the mirror angle to enter the range */
        if (-a > lo && -a < hi) {
            a = -a;
            hs = -hs;
        } else {
            double half = (lo + hi) / 2.0;
            if (fabs(half - a) > fabs(half + a)) {
                a = -a;
                hs = -hs;
            }
        }
    }
    if (a < lo) {
        a = lo;
        hs = l->lo_half[0];
        hc = l->lo_half[1];
    } else if (a > hi) {
        a = hi;
        hs = l->hi_half[0];
        hc = l->hi_half[1];
    }
    q[0] = q[1] = q[2] = 0.0;
    q[l->axis] = hs;
    q[3] = hc;
    l->plane_half[0] = hs;
    l->plane_half[1] = hc;
set:
    l->plane_angle = a;
    pki_qd_conj(r->anim_rot[j], inv);
    pki_qd_mul(q, inv, r->ik_rot[j]);
    link_changed(r, c, l);
    return cut;
}

/* A link's turn below STILL_RAD (a thousandth of a degree) is left out:
 * a free link's step compares its cosine with COS_STILL, cos(STILL_RAD)
 * (1 - x^2 / 2 is it within x^4 / 24 = 4e-21, far below an ulp of 1). */
#define STILL_RAD (1e-3 * PI / 180.0)
#define COS_STILL (1.0 - STILL_RAD * STILL_RAD / 2.0)

/* A free link's turn (unit quaternion, axis times sin(angle / 2) and
 * cos(angle / 2)) by the angle between the unit vectors whose dot product
 * is d, at most the chain's limit: the half angle's sine and cosine from
 * the cosine (pki_half_from_cos), as MMD's acos-then-sin/cos gives them
 * but for rounding, and the limit's where
 * the cosine is below its cosine (the angle above it).  True when the
 * limit cut the turn. */
STEP bool free_half(const ik_chain *c, double d, double *s, double *co)
{
    if (d < c->cos_limit) {
        *s = c->half_limit[0];
        *co = c->half_limit[1];
        return true;
    }
    pki_half_from_cos(d, s, co);
    return false;
}

/* One pass over the links, effector end first; true when the per-step
 * limit cut any link's turn (the chain is still turning towards the goal). */
static bool solve_core(pk_rig *r, ik_chain *c, int iteration, bool triangle)
{
    bool cut = false;
    for (size_t k = 0; k < c->nlinks; k++) {
        ik_link *l = &c->links[k];
        int32_t j = l->bone;
        if (j == c->target)
            continue;
        if (l->plane) {
            cut |= solve_plane(r, c, l, iteration, triangle);
            continue;
        }
        double iv[3], tv[3];
        if (!local_pair(r, c, j, iv, tv))
            continue;
        double d = iv[0] * tv[0] + iv[1] * tv[1] + iv[2] * tv[2];
        if (d > COS_STILL) /* the turn below STILL_RAD */
            continue;
        double sh, ch, step[4], rot[4], inv[4];
        cut |= free_half(c, d, &sh, &ch);
        double axis[3] = {tv[1] * iv[2] - tv[2] * iv[1], tv[2] * iv[0] - tv[0] * iv[2],
                          tv[0] * iv[1] - tv[1] * iv[0]};
        if (!pki_qd_unit3(axis))
            continue;
        step[0] = axis[0] * sh;
        step[1] = axis[1] * sh;
        step[2] = axis[2] * sh;
        step[3] = ch;
        /* from its second turn in a solve on, local_of left ik_rot x
         * anim_rot as its local rotation, bit for bit, where no append
         * follows it */
        if (l->turned && !r->has_app_rot[j])
            memcpy(rot, r->loc_rot[j], sizeof rot);
        else
            pki_qd_mul(r->ik_rot[j], r->anim_rot[j], rot);
        pki_qd_mul(rot, step, rot);
        if (l->limited) {
            double e[3];
            to_euler(rot, e);
            for (int a = 0; a < 3; a++)
                e[a] = e[a] < l->min[a] ? l->min[a] : e[a] > l->max[a] ? l->max[a] : e[a];
            from_euler(e, rot);
        }
        qnorm(rot);
        pki_qd_conj(r->anim_rot[j], inv);
        pki_qd_mul(rot, inv, r->ik_rot[j]);
        link_changed(r, c, l);
    }
    return cut;
}

/* Whether every limited link's keyed rotation is within its limits (a
 * solve would keep it), so that a target already reached can be left. */
static bool keyed_within_limits(const pk_rig *r, const ik_chain *c)
{
    for (size_t k = 0; k < c->nlinks; k++) {
        const ik_link *l = &c->links[k];
        if (!l->limited)
            continue;
        double e[3];
        to_euler(r->anim_rot[l->bone], e);
        for (int a = 0; a < 3; a++)
            if (e[a] < l->min[a] - 1e-9 || e[a] > l->max[a] + 1e-9)
                return false;
    }
    return true;
}

/* MMD's CCD: up to `loops` passes over the links (effector end first),
 * each turn at most `limit`; stops when a pass no longer brings the
 * target closer and keeps the best pass.  A target already on the IK bone
 * is left as keyed. */
static void keep_best(pk_rig *r, ik_chain *c)
{
    for (size_t k = 0; k < c->nlinks; k++)
        memcpy(c->links[k].saved, r->ik_rot[c->links[k].bone], sizeof c->links[k].saved);
}

/* Back to the best pass: the links' locals and the path to the target. */
static void restore_best(pk_rig *r, ik_chain *c)
{
    for (size_t k = 0; k < c->nlinks; k++) {
        memcpy(r->ik_rot[c->links[k].bone], c->links[k].saved, sizeof c->links[k].saved);
        local_of(r, c->links[k].bone);
    }
    path_from(r, c, 0);
}

/* After the passes: the worlds of the links' subtrees but for the path's
 * bones above the target (and the target where the passes computed all of
 * its world), which every link's turn and restore_best brought up to date
 * from the bone it turned down. */
static void refresh(pk_rig *r, const ik_chain *c)
{
    size_t kept = c->target_pos ? c->npath - 1 : c->npath;
    for (size_t s = 0; s < c->nsubtrees; s++) {
        int32_t b = c->subtrees[s];
        size_t at = 0; /* the path in topological order */
        for (size_t t = r->topo_at[b]; t < r->topo_end[b]; t++) {
            while (at < kept && r->topo_at[c->path[at]] < t)
                at++;
            if (at < kept && r->topo_at[c->path[at]] == t)
                continue;
            world_of(r, r->topo[t]);
        }
    }
}

static void solve(pk_rig *r, ik_chain *c)
{
    if (c->npath == 0 && c->nlinks == 0)
        return;
    const double reached = 1e-6, close = 1e-4;
    if (dist(r, c) < reached && keyed_within_limits(r, c))
        return;
    double best = INFINITY;
    for (size_t k = 0; k < c->nlinks; k++) {
        c->links[k].plane_angle = 0.0;
        c->links[k].plane_half[0] = 0.0;
        c->links[k].plane_half[1] = 1.0;
        c->links[k].turned = false;
        qident(c->links[k].saved);
    }
    /* MMD's passes: stop when a pass no longer brings the target closer.
     * A goal within the leg's reach that MMD's knee step only crawls
     * towards (less than a quarter closer per pass), or leaves behind a
     * knee turned straight (CCD cannot bend a straight knee: the target
     * and the goal lie on one line from it), is handed to the passes
     * below, which set each knee by its triangle (knee_triangle): the
     * first passes still choose how the leg turns, as in MMD.  The knee
     * lands in one step but the hip turns at most `limit` a pass (a
     * PMD's 0.1 x 4 = 0.4 radians on Mei), so a pass that ends further
     * from the goal while a turn was still cut by the limit does not
     * stop them: the hip is still on its way. */
    bool within = false;
    if (c->has_triangle && c->npath > 0) {
        const double *a = r->w[c->path[0]].pos, *b = r->w[c->bone].pos;
        double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
        within = sqrt(d0 * d0 + d1 * d1 + d2 * d2) < c->reach * (1.0 - 1e-9);
    }
    for (int it = 0; it < c->loops; it++) {
        solve_core(r, c, it, false);
        double d = dist(r, c), before = best;
        if (d < best) {
            best = d;
            keep_best(r, c);
            if (d < reached || (within && it > 0 && d > 0.75 * before))
                break;
        } else {
            break;
        }
    }
    if (dist(r, c) > best)
        restore_best(r, c);
    if (within && best > close) {
        for (int it = 0; it < c->loops; it++) {
            bool turning = solve_core(r, c, 1, true);
            double d = dist(r, c);
            if (d < best) {
                best = d;
                keep_best(r, c);
                if (d < reached)
                    break;
            } else if (!turning) {
                break;
            }
        }
        if (dist(r, c) > best)
            restore_best(r, c);
    }
    refresh(r, c);
}

/* ---- a chain's solve remembered ---- */

#define MEMO_MAX 1024 /* doubles a chain's inputs may take; a larger one is solved */

/* The doubles of what chain c's solve reads: the IK bone's and the
 * target's positions (the target's follows from the rest where the links
 * turn it); per subtree the links turn, its root's parent's world and
 * every bone's local (the worlds below follow from them); per link its
 * keyed, appended and IK rotation and its keyed and appended translation. */
static size_t memo_in(const pk_rig *r, const ik_chain *c)
{
    size_t n = 6;
    for (size_t s = 0; s < c->nsubtrees; s++) {
        int32_t b = c->subtrees[s];
        n += 7 + 7 * (r->topo_end[b] - r->topo_at[b]);
    }
    return n + 19 * c->nlinks;
}

/* ... and what it leaves: each link's IK rotation and local. */
static size_t memo_out(const ik_chain *c)
{
    return 11 * c->nlinks;
}

static size_t memo_chain(const pk_rig *r, const ik_chain *c)
{
    size_t in = memo_in(r, c);
    return 1 + (in <= MEMO_MAX ? in + memo_out(c) : 0);
}

size_t pki_rig_memo_size(const pk_rig *r)
{
    return r->nchains ? r->memo_at[r->nchains - 1] + memo_chain(r, &r->chains[r->nchains - 1]) : 0;
}

static double *put(double *d, const double *v, size_t n)
{
    memcpy(d, v, n * sizeof *d);
    return d + n;
}

static void memo_read(const pk_rig *r, const ik_chain *c, double *d)
{
    static const double none[7] = {0, 0, 0, 0, 0, 0, 0};
    d = put(d, r->w[c->bone].pos, 3);
    d = put(d, r->w[c->target].pos, 3);
    for (size_t s = 0; s < c->nsubtrees; s++) {
        int32_t b = c->subtrees[s], p = r->parent[b];
        d = put(d, p >= 0 ? r->w[p].pos : none, 3);
        d = put(d, p >= 0 ? r->w[p].rot : none, 4);
        for (size_t t = r->topo_at[b]; t < r->topo_end[b]; t++) {
            d = put(d, r->loc_rot[r->topo[t]], 4);
            d = put(d, r->loc_pos[r->topo[t]], 3);
        }
    }
    for (size_t k = 0; k < c->nlinks; k++) {
        int32_t j = c->links[k].bone;
        double has = r->has_app_rot[j] ? 1.0 : 0.0;
        d = put(d, r->anim_rot[j], 4);
        d = put(d, r->app_rot[j], 4);
        d = put(d, r->ik_rot[j], 4);
        d = put(d, &has, 1);
        d = put(d, r->anim_pos[j], 3);
        d = put(d, r->app_pos[j], 3);
    }
}

static void memo_left(const pk_rig *r, const ik_chain *c, double *d)
{
    for (size_t k = 0; k < c->nlinks; k++) {
        int32_t j = c->links[k].bone;
        d = put(d, r->ik_rot[j], 4);
        d = put(d, r->loc_rot[j], 4);
        d = put(d, r->loc_pos[j], 3);
    }
}

/* The links as an earlier solve left them, and the worlds below them. */
static void memo_take(pk_rig *r, const ik_chain *c, const double *d)
{
    for (size_t k = 0; k < c->nlinks; k++) {
        int32_t j = c->links[k].bone;
        memcpy(r->ik_rot[j], d, 4 * sizeof *d);
        memcpy(r->loc_rot[j], d + 4, 4 * sizeof *d);
        memcpy(r->loc_pos[j], d + 8, 3 * sizeof *d);
        d += 11;
    }
    for (size_t s = 0; s < c->nsubtrees; s++)
        subtree(r, c->subtrees[s]);
}

/* Whether the memo entry m (a chain's place in a memo row, or NULL) holds
 * a solve from the inputs `in` (the `n` doubles memo_read wrote). */
static bool memo_holds(const double *m, const double *in, size_t n)
{
    return m && m[0] == 1.0 && memcmp(m + 1, in, n * sizeof *in) == 0;
}

/* Chain c solved, or its solve taken from prev or near (earlier memos
 * of the rig: the last play's row, this play's row before); memo (prev,
 * near) point at the chain's place in a memo row. */
static size_t solve_memo(pk_rig *r, ik_chain *c, const double *prev, const double *near,
                         double *memo)
{
    size_t in = r->memo_n[c - r->chains];
    if (in > MEMO_MAX) {
        memo[0] = 0.0;
        solve(r, c);
        return 1;
    }
    memo_read(r, c, memo + 1);
    memo[0] = 1.0;
    const double *from = memo_holds(prev, memo + 1, in)   ? prev
                         : memo_holds(near, memo + 1, in) ? near
                                                          : NULL;
    if (from) {
        memo_take(r, c, from + 1 + in);
        memcpy(memo + 1 + in, from + 1 + in, memo_out(c) * sizeof *memo);
        return 0;
    }
    solve(r, c);
    memo_left(r, c, memo + 1 + in);
    return 1;
}

static size_t eval_core(pk_rig *r, const pk_bone_local *local, const bool *ik_on, unsigned flags,
                        pk_bone_world *out, const double *prev, const double *near, double *memo);

size_t pki_rig_eval_memo(pk_rig *r, const pk_bone_local *local, const bool *ik_on,
                         pk_bone_world *out, const double *prev, const double *near, double *memo)
{
    return eval_core(r, local, ik_on, 0, out, prev, near, memo);
}

void pk_rig_eval(pk_rig *r, const pk_bone_local *local, const bool *ik_on, unsigned flags,
                 pk_bone_world *out)
{
    eval_core(r, local, ik_on, flags, out, NULL, NULL, NULL);
}

static size_t eval_core(pk_rig *r, const pk_bone_local *local, const bool *ik_on, unsigned flags,
                        pk_bone_world *out, const double *prev, const double *near, double *memo)
{
    size_t solved = 0;
    size_t n = r->n;
    r->w = out;
    for (size_t i = 0; i < n; i++) {
        double *q = r->anim_rot[i], *v = r->anim_pos[i];
        if (local) {
            /* only links and append bones change their locals after this */
            if (r->seen && !r->resets_it[i] && memcmp(&r->last[i], &local[i], sizeof *local) == 0)
                continue;
            r->last[i] = local[i];
            for (int a = 0; a < 4; a++)
                q[a] = (double)local[i].rot[a];
            double s = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
            if (!(s > 1e-60) || !(s < INFINITY)) {
                qident(q);
            } else if (s != 1.0) {
                double k = 1.0 / sqrt(s);
                for (int a = 0; a < 4; a++)
                    q[a] *= k;
            }
            for (int a = 0; a < 3; a++)
                v[a] = (double)local[i].pos[a];
            double t = v[0] + v[1] + v[2];
            if (!(t - t == 0.0)) /* one NaN or infinity test for the three */
                v[0] = v[1] = v[2] = 0.0;
        } else {
            qident(q);
            v[0] = v[1] = v[2] = 0.0;
        }
        if (r->twists[i]) /* the twist about the axis: what the axis lets the bone do */
            pki_qd_twist(q, r->axis[i], q);
        memcpy(r->loc_rot[i], q, sizeof r->loc_rot[i]);
        for (int a = 0; a < 3; a++)
            r->loc_pos[i][a] = r->off[i][a] + v[a];
    }
    r->seen = local != NULL;
    for (size_t k = 0; k < r->nresets; k++) {
        int32_t i = r->resets[k];
        qident(r->ik_rot[i]);
        r->has_app_rot[i] = r->has_app_pos[i] = false;
        qident(r->app_rot[i]);
        r->app_pos[i][0] = r->app_pos[i][1] = r->app_pos[i][2] = 0.0;
    }
    for (size_t t = 0; t < n; t++)
        world_of(r, r->topo[t]);
    bool do_app = !(flags & PK_EVAL_NO_APPEND), do_ik = !(flags & PK_EVAL_NO_IK);
    if (do_app || do_ik) {
        for (size_t o = 0; o < r->nacts; o++) {
            int32_t i = r->acts[o];
            if (do_app && appends(r, (size_t)i)) {
                append_of(r, i);
                if (r->has_app_rot[i] || r->has_app_pos[i]) {
                    local_of(r, i);
                    subtree(r, i);
                }
            }
            if (do_ik && r->ik_of[i] >= 0 && memo) {
                size_t at = r->memo_at[r->ik_of[i]];
                if (!ik_on || ik_on[i])
                    solved += solve_memo(r, &r->chains[r->ik_of[i]], prev ? prev + at : NULL,
                                         near ? near + at : NULL, memo + at);
                else
                    memo[at] = 0.0;
            } else if (do_ik && r->ik_of[i] >= 0 && (!ik_on || ik_on[i])) {
                solve(r, &r->chains[r->ik_of[i]]);
            }
        }
    }
    r->w = NULL;
    return solved;
}

/* ---- the local pose from a pose or a motion ---- */

void pk_rig_rest(const pk_rig *r, pk_bone_local *local)
{
    for (size_t i = 0; i < r->n; i++) {
        memset(local[i].pos, 0, sizeof local[i].pos);
        local[i].rot[0] = local[i].rot[1] = local[i].rot[2] = 0.0f;
        local[i].rot[3] = 1.0f;
    }
}

/* The id in `names` of model bone i's name, or of its first `cut` bytes
 * (MMD's cut of a longer name: 15 in VMD, 19 in VPD). */
static pk_name_id name_in(const pk_model *m, size_t i, const pk_names *names, size_t cut)
{
    size_t len;
    if (m->bones[i].cp932 == PK_NO_NAME)
        return PK_NO_NAME;
    const uint8_t *raw = pk_names_raw(m->names, m->bones[i].cp932, &len);
    pk_name_id id = pk_names_find(names, raw, len);
    if (id == PK_NO_NAME && len > cut)
        id = pk_names_find(names, raw, pk_cp932_boundary(raw, cut));
    return id;
}

size_t pk_rig_pose_local(const pk_rig *r, const pk_pose *p, pk_bone_local *local)
{
    pk_rig_rest(r, local);
    size_t found = 0;
    for (size_t i = 0; i < r->n; i++) {
        pk_name_id id = name_in(r->m, i, p->names, PK_VPD_NAME_BYTES);
        long k = id == PK_NO_NAME ? -1 : pk_pose_find_bone(p, id);
        if (k < 0)
            continue;
        memcpy(local[i].pos, p->bones[k].pos, sizeof local[i].pos);
        memcpy(local[i].rot, p->bones[k].rot, sizeof local[i].rot);
        found++;
    }
    return found;
}

size_t pk_rig_motion_local(const pk_rig *r, const pk_motion *mo, const pk_tracks *t, double frame,
                           pk_bone_local *local, bool *ik_on)
{
    pk_rig_rest(r, local);
    size_t found = 0;
    for (size_t i = 0; i < r->n; i++) {
        pk_name_id id = name_in(r->m, i, mo->names, PK_VMD_NAME_BYTES);
        const pk_track *tr = id == PK_NO_NAME ? NULL : pk_tracks_bone(t, id);
        if (!tr)
            continue;
        pk_sample_bone(mo, tr, frame, local[i].pos, local[i].rot);
        found++;
    }
    if (ik_on) {
        for (size_t i = 0; i < r->n; i++)
            ik_on[i] = true;
        /* The IK section holds states, not curves: the last record at or
         * before the frame decides. */
        const pk_ik_key *at = NULL;
        for (size_t k = 0; k < t->niks; k++) {
            const pk_ik_key *key = &mo->iks[t->iks[k]];
            if ((double)key->frame <= frame)
                at = key;
            else
                break;
        }
        for (uint32_t s = 0; at && s < at->count; s++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(mo->names, at->ik[s].name, &len);
            long b = pk_model_find_bone(r->m, raw, len);
            if (b >= 0)
                ik_on[b] = at->ik[s].enabled != 0;
        }
    }
    return found;
}
