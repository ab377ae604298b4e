/*
 * retarget_model.c — retarget computed from two models (posekit.h,
 * "retarget between two models"): the stance of every arm segment and the
 * leg scale from the models' rest positions, and the whole run (rename,
 * the keys the source does not play left out (retarget_absent.c), fold,
 * stance, the rules' own steps, scale).
 *
 * Stance.  A segment X→Y (左腕→左ひじ) rests along d_A in model A and d_B
 * in B.  The rules' stance step (retarget.c) turns the keys of X into
 * q·r⁻¹ and those of every bone below X into r·q·r⁻¹ (translations r·t):
 * with r·d = d_B the segment's world direction on B equals A's at every
 * frame.  Segments along one chain are applied top down, and a lower
 * segment's r starts from A's direction as the segments above turned it:
 * r_k turns (r_{k-1}···r_1)·d_A into d_B.  With both corrections applied
 * the forearm's world direction on B is
 *     P·q_1·r_1⁻¹ · r_1·q_2·r_1⁻¹·r_2⁻¹ · e_B = P·q_1·q_2·r_1⁻¹·r_2⁻¹·e_B
 * and r_2⁻¹·e_B = r_1·e_A, so it is P·q_1·q_2·e_A, A's.  Retargeting back
 * (B→A) gives r_1' = r_1⁻¹ and r_2' = r_1⁻¹·r_2⁻¹·r_1 (the shortest arc is
 * unique), which undo the first run exactly.
 *
 * Scale (doc/formats.md §11.3, as VMDSizing does): XZ by the straight
 * 足→足首 distance, Y by the height 足.y − 足首.y, B over A, the mean of
 * both legs: t' = s⊙t, so a translation at rest stays at rest and B's
 * feet rest where B's model puts them.  With feet_from_source the leg IK
 * targets also move: a foot keyed at t (relative to its rest point IK_A)
 * stands at IK_A + t, s⊙(IK_A + t − 足_A) from A's hip; placed as far,
 * scaled, from B's hip it takes
 *     t' = s⊙t + (足_B − IK_B) + s⊙(IK_A − 足_A),
 * the constant part being ik_shift: a model whose ankles rest behind its
 * hips then stands with its feet forward and its knees bent in A's rest
 * pose.  Both are undone exactly by the way back.
 */
#include "common/diag.h"
#include "math/quat.h"
#include "math/vec.h"
#include "model/skeleton.h"
#include "ops/retarget/retarget.h"
#include "ops/retarget/sizing.h"
#include "util/fmath.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- model lookups ---- */

long pki_retarget_bone_of(const pk_model *m, const pk_names *names, pk_name_id id)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(names, id, &len);
    return raw ? pk_model_find_bone(m, raw, len) : -1;
}

/* ---- stance ---- */

static void sub3(const float a[3], const float b[3], double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (double)a[k] - b[k];
}

/* The shortest-arc rotation turning direction u into v (both nonzero). */
static void arc(const double u0[3], const double v0[3], double q[4])
{
    double nu = pki_v3_len(u0), nv = pki_v3_len(v0), u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = u0[k] / nu;
        v[k] = v0[k] / nv;
    }
    double d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    if (d < -1 + 1e-12) {
        /* opposite: half a turn about any axis perpendicular to u */
        double ax[3] = {0, -u[2], u[1]};
        if (pki_v3_len(ax) < 1e-6) {
            ax[0] = u[2];
            ax[1] = 0;
            ax[2] = -u[0];
        }
        double n = pki_v3_len(ax);
        q[0] = ax[0] / n;
        q[1] = ax[1] / n;
        q[2] = ax[2] / n;
        q[3] = 0;
        return;
    }
    q[0] = c[0];
    q[1] = c[1];
    q[2] = c[2];
    q[3] = 1 + d;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

static double quat_deg(const double q[4])
{
    double w = fabs(q[3]);
    return 2.0 * pki_acos(w > 1 ? 1 : w) * (180.0 / 3.14159265358979323846);
}

static void add_segment(pk_stance *out, const pk_model *a, const pk_model *b, const char *x,
                        const char *y, long *bi_of)
{
    long xa = pki_model_find_bone_utf8(a, x), ya = pki_model_find_bone_utf8(a, y);
    long xb = pki_model_find_bone_utf8(b, x), yb = pki_model_find_bone_utf8(b, y);
    if (xa < 0 || ya < 0 || xb < 0 || yb < 0 || out->n >= PK_STANCE_MAX)
        return;
    double da[3], db[3];
    sub3(a->bones[ya].pos, a->bones[xa].pos, da);
    sub3(b->bones[yb].pos, b->bones[xb].pos, db);
    if (pki_v3_len(da) < 1e-6 || pki_v3_len(db) < 1e-6)
        return;
    /* A's direction as the segments above X (in B's tree) turned it:
     * nearest first, so acc = r_near ··· r_top. */
    double acc[4] = {0, 0, 0, 1};
    for (long j = b->bones[xb].parent; j >= 0; j = b->bones[j].parent)
        for (size_t s = 0; s < out->n; s++)
            if (bi_of[s] == j) {
                double t[4];
                pki_qd_mul(acc, out->seg[s].r, t); /* acc·r_s: r_s applied earlier */
                memcpy(acc, t, sizeof t);
            }
    double d2[3];
    pki_qd_rotate(acc, da, d2);
    pk_stance_segment *g = &out->seg[out->n];
    memset(g, 0, sizeof *g);
    snprintf(g->bone, sizeof g->bone, "%s", x);
    snprintf(g->child, sizeof g->child, "%s", y);
    arc(d2, db, g->r);
    g->deg = quat_deg(g->r);
    bi_of[out->n++] = xb;
}

/* An error about one model: at its name (its file, or a job's name for
 * it) when the caller gave one, else the caller's to place.  The motion is
 * not what is wrong. */
static void model_error(pk_log *log, const char *name, const char *fmt, ...) PK_PRINTF(3, 4);
static void model_error(pk_log *log, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (name)
        pk_log_vadd_at(log, PK_ERROR, PK_E_NOT_FOUND, name, -1, 0, 0, fmt, ap);
    else
        pk_log_vadd(log, PK_ERROR, PK_E_NOT_FOUND, -1, 0, 0, fmt, ap);
    va_end(ap);
}

/* Does m have an arm segment (腕→ひじ or ひじ→手首, either side)? */
static bool has_arm(const pk_model *m)
{
    static const char *const ENDS[4][2] = {
        {"左腕", "左ひじ"}, {"左ひじ", "左手首"}, {"右腕", "右ひじ"}, {"右ひじ", "右手首"}};
    for (int i = 0; i < 4; i++)
        if (pki_model_find_bone_utf8(m, ENDS[i][0]) >= 0 &&
            pki_model_find_bone_utf8(m, ENDS[i][1]) >= 0)
            return true;
    return false;
}

static int stance_named(const pk_model *a, const pk_model *b, bool fingers, pk_stance *out,
                        const char *a_name, const char *b_name, pk_log *log)
{
    static const char *const FINGERS[5][4] = {
        {"親指０", "親指１", "親指２", NULL}, {"人指１", "人指２", "人指３", NULL},
        {"中指１", "中指２", "中指３", NULL}, {"薬指１", "薬指２", "薬指３", NULL},
        {"小指１", "小指２", "小指３", NULL},
    };
    memset(out, 0, sizeof *out);
    long bi_of[PK_STANCE_MAX];
    size_t arms = 0;
    for (int side = 0; side < 2; side++) {
        const char *s = side ? "右" : "左";
        char x[64], y[64];
#define SEG(X, Y)                                                                                  \
    do {                                                                                           \
        snprintf(x, sizeof x, "%s%s", s, X);                                                       \
        snprintf(y, sizeof y, "%s%s", s, Y);                                                       \
        add_segment(out, a, b, x, y, bi_of);                                                       \
    } while (0)
        SEG("腕", "ひじ");
        SEG("ひじ", "手首");
        arms = out->n;
        if (!fingers)
            continue;
        SEG("手首", "中指１");
        for (int f = 0; f < 5; f++)
            for (int k = 0; FINGERS[f][k + 1]; k++) {
                /* a missing 親指０: the thumb starts at 親指１ */
                SEG(FINGERS[f][k], FINGERS[f][k + 1]);
            }
#undef SEG
    }
    if (arms == 0) {
        /* name the model that lacks the arm (both when neither has one) */
        bool in_a = has_arm(a), in_b = has_arm(b);
        if (!in_a)
            model_error(log, a_name,
                        "the source model has no arm segment (腕→ひじ, ひじ→手首): cannot "
                        "compute the stance (--no-stance skips it)");
        if (!in_b)
            model_error(log, b_name,
                        "the target model has no arm segment (腕→ひじ, ひじ→手首): cannot "
                        "compute the stance (--no-stance skips it)");
        if (in_a && in_b)
            model_error(log, NULL,
                        "no arm segment (腕→ひじ, ひじ→手首) is in both models%s%s%s%s%s: "
                        "cannot compute the stance (--no-stance skips it)",
                        a_name && b_name ? " (" : "", a_name && b_name ? a_name : "",
                        a_name && b_name ? ", " : "", a_name && b_name ? b_name : "",
                        a_name && b_name ? ")" : "");
        return -1;
    }
    return 0;
}

int pk_retarget_stance(const pk_model *a, const pk_model *b, bool fingers, pk_stance *out,
                       pk_log *log)
{
    return stance_named(a, b, fingers, out, NULL, NULL, log);
}

/* ---- scale ---- */

/* Mean 足→足首 distance and height over the legs model m has. */
static bool leg_of(const pk_model *m, double *len, double *h)
{
    int n = 0;
    *len = *h = 0;
    for (int side = 0; side < 2; side++) {
        long hip = pki_model_find_bone_utf8(m, side ? "右足" : "左足");
        long ank = pki_model_find_bone_utf8(m, side ? "右足首" : "左足首");
        if (hip < 0 || ank < 0)
            continue;
        double d[3];
        sub3(m->bones[hip].pos, m->bones[ank].pos, d);
        *len += pki_v3_len(d);
        *h += d[1];
        n++;
    }
    if (!n || !(*len > 0) || !(*h > 0))
        return false;
    *len /= n;
    *h /= n;
    return true;
}

/* xz: the XZ factor given (a group's shared scale), or 0: B's leg over A's. */
static int scale_named(const pk_model *a, const pk_model *b, double xz, pk_leg_scale *out,
                       const char *a_name, const char *b_name, pk_log *log)
{
    memset(out, 0, sizeof *out);
    if (!leg_of(a, &out->len_a, &out->height_a) || !leg_of(b, &out->len_b, &out->height_b)) {
        bool src = !leg_of(a, &out->len_a, &out->height_a);
        model_error(log, src ? a_name : b_name,
                    "the %s model has no leg (足 above 足首): cannot compute the scale "
                    "(--no-scale skips it)",
                    src ? "source" : "target");
        return -1;
    }
    out->xz = xz > 0 ? xz : out->len_b / out->len_a;
    out->y = out->height_b / out->height_a;
    double s[3] = {out->xz, out->y, out->xz};
    for (int side = 0; side < 2; side++) {
        const char *hip = side ? "右足" : "左足", *ik = side ? "右足ＩＫ" : "左足ＩＫ";
        long ha = pki_model_find_bone_utf8(a, hip), ia = pki_model_find_bone_utf8(a, ik);
        long hb = pki_model_find_bone_utf8(b, hip), ib = pki_model_find_bone_utf8(b, ik);
        if (ha < 0 || ia < 0 || hb < 0 || ib < 0)
            continue;
        for (int k = 0; k < 3; k++)
            out->ik_shift[side][k] = ((double)b->bones[hb].pos[k] - b->bones[ib].pos[k]) +
                                     s[k] * ((double)a->bones[ia].pos[k] - a->bones[ha].pos[k]);
    }
    return 0;
}

int pk_retarget_scale(const pk_model *a, const pk_model *b, pk_leg_scale *out, pk_log *log)
{
    return scale_named(a, b, 0, out, NULL, NULL, log);
}

/* ---- applying stance and scale to a bone set ---- */

typedef struct xform {
    /* per motion name id: what each stance segment does to its keys */
    uint8_t *role; /* [nnames * nseg]: 0 nothing, 1 stance bone, 2 below it */
    size_t nnames, nseg;
    const pk_stance *st;
    const bool *use; /* per segment: applied (not left to the rules) */
    /* scale */
    int8_t *scaled; /* per name id: -1 no, 0 scaled, 1 左足ＩＫ, 2 右足ＩＫ */
    const pk_leg_scale *sc;
} xform;

static void stance_fn(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k)
{
    (void)raw;
    (void)len;
    xform *x = ctx;
    pk_name_id id = *k.name;
    if ((size_t)id >= x->nnames)
        return;
    double q[4];
    bool any = false;
    for (size_t s = 0; s < x->nseg; s++) {
        uint8_t role = x->role[(size_t)id * x->nseg + s];
        if (!role || !x->use[s])
            continue;
        if (!any)
            pki_qd_from_key(k.rot, q);
        any = true;
        const double *r = x->st->seg[s].r;
        double ri[4] = {-r[0], -r[1], -r[2], r[3]}, t[4];
        if (role == 1) {
            pki_qd_mul(q, ri, t);
            memcpy(q, t, sizeof t);
        } else {
            pki_qd_mul(r, q, t);
            pki_qd_mul(t, ri, q);
            double p[3] = {k.pos[0], k.pos[1], k.pos[2]}, po[3];
            pki_qd_rotate(r, p, po);
            for (int j = 0; j < 3; j++)
                k.pos[j] = (float)po[j];
        }
    }
    if (any)
        for (int j = 0; j < 4; j++)
            k.rot[j] = (float)q[j];
}

static void scale_fn(void *ctx, const uint8_t *raw, size_t len, pki_bone_ref k)
{
    (void)raw;
    (void)len;
    xform *x = ctx;
    pk_name_id id = *k.name;
    if ((size_t)id >= x->nnames || x->scaled[id] < 0)
        return;
    double s[3] = {x->sc->xz, x->sc->y, x->sc->xz};
    for (int j = 0; j < 3; j++) {
        double v = k.pos[j] * s[j];
        if (x->scaled[id] > 0)
            v += x->sc->ik_shift[x->scaled[id] - 1][j];
        k.pos[j] = (float)v;
    }
}

static const char *const SCALED[] = {"全ての親", "センター",     "グルーブ",
                                     "左足IK親", "右足IK親",     "左足ＩＫ",
                                     "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ"};

static pk_name_id intern_utf8(pk_names *names, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0)
        return PK_NO_NAME;
    pk_name_id id = pk_names_intern(names, raw, len);
    free(raw);
    return id;
}

/* Per name id of s: the B bone it names (-1: none) and whether s keys it. */
static bool name_map(const pki_bone_set *s, const pk_model *b, long **bi, bool **keyed, size_t *n)
{
    *n = pk_names_count(s->names);
    *bi = malloc((*n + 1) * sizeof **bi);
    *keyed = calloc(*n + 1, sizeof **keyed);
    if (!*bi || !*keyed) {
        free(*bi);
        free(*keyed);
        return false;
    }
    for (size_t id = 0; id < *n; id++)
        (*bi)[id] = pki_retarget_bone_of(b, s->names, (pk_name_id)id);
    for (size_t k = 0; k < pki_bone_set_count(s); k++) {
        pk_name_id id = *pki_bone_set_at(s, k).name;
        if ((size_t)id < *n)
            (*keyed)[id] = true;
    }
    return true;
}

/* Stance (the segments not left to the rules) on s, keys for stance bones
 * without any; counts into rep. */
static int apply_stance(pki_bone_set *s, const pk_model *a, const pk_model *b, const pk_rules *r,
                        pk_retarget_report *rep, pk_log *log)
{
    pk_stance *st = &rep->stance;
    bool use[PK_STANCE_MAX];
    long top[PK_STANCE_MAX];
    for (size_t i = 0; i < st->n; i++) {
        uint8_t *raw;
        size_t len;
        st->seg[i].by_rules = false;
        if (pk_utf8_to_cp932(st->seg[i].bone, &raw, &len) == 0) {
            st->seg[i].by_rules = pki_retarget_rules_stance(r, raw, len);
            free(raw);
        }
        /* a segment the two models already agree on (under 1e-9 degrees:
         * the same skeleton in PMD and PMX) would only round its keys */
        use[i] = !st->seg[i].by_rules && st->seg[i].deg >= 1e-9;
        top[i] = pki_model_find_bone_utf8(b, st->seg[i].bone);
    }
    bool *below = calloc(st->n * b->nbones + 1, sizeof *below);
    long *bi = NULL;
    bool *keyed = NULL;
    size_t nn = 0;
    if (!below || !name_map(s, b, &bi, &keyed, &nn)) {
        free(below);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < st->n; i++)
        for (size_t j = 0; j < b->nbones; j++)
            for (long k = (long)j; k >= 0; k = b->bones[k].parent)
                if (k == top[i]) {
                    below[i * b->nbones + j] = true;
                    break;
                }
    /* Stance bones the set lacks get a key at rest when anything below
     * them moves (their rest orientation must still turn).  Keys at rest
     * do not count, as in the rules' stance (retarget.c): MMD shows them as
     * no key, and a motion renamed to English keeps resting Japanese finger
     * tips below B's 左腕 while its own arm is arm_L. */
    bool *moving = calloc(nn + 1, sizeof *moving);
    if (!moving) {
        free(below);
        free(bi);
        free(keyed);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < pki_bone_set_count(s); k++) {
        pki_bone_ref ref = pki_bone_set_at(s, k);
        if ((size_t)*ref.name < nn && !pki_bone_ref_at_rest(ref))
            moving[*ref.name] = true;
    }
    int rc = 0;
    for (size_t i = 0; i < st->n && !rc; i++) {
        if (!use[i])
            continue;
        bool has = false, chain = false;
        for (size_t id = 0; id < nn; id++) {
            if (!keyed[id] || bi[id] < 0)
                continue;
            if (bi[id] == top[i])
                has = true;
            else if (moving[id] && below[i * b->nbones + (size_t)bi[id]])
                chain = true;
        }
        if (has || !chain)
            continue;
        pk_name_id id = intern_utf8(s->names, st->seg[i].bone);
        pki_bone_ref ref;
        if (id == PK_NO_NAME || !pki_bone_set_add(s, id, &ref)) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
            break;
        }
        rep->stance_added++;
    }
    free(moving);
    free(bi);
    free(keyed);
    xform x = {0};
    if (!rc && !name_map(s, b, &bi, &keyed, &nn)) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    if (rc) {
        free(below);
        return rc;
    }
    free(keyed);
    x.nnames = nn;
    x.nseg = st->n;
    x.st = st;
    x.use = use;
    x.role = calloc(x.nnames * x.nseg + 1, 1);
    if (!x.role) {
        free(below);
        free(bi);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    /* Bones only B has are left alone (as bones only A has are): the
     * chain is what both models have, so B→A undoes A→B. */
    for (size_t i = 0; i < st->n; i++)
        for (size_t id = 0; id < x.nnames; id++)
            if (bi[id] >= 0 && below[i * b->nbones + (size_t)bi[id]] &&
                (bi[id] == top[i] || pki_retarget_bone_of(a, s->names, (pk_name_id)id) >= 0))
                x.role[id * x.nseg + i] = bi[id] == top[i] ? 1 : 2;
    pki_bone_set_each(s, stance_fn, &x);
    free(x.role);
    free(below);
    free(bi);
    return 0;
}

/* Scales the translations of SCALED; with feet, 足ＩＫ also moves by
 * ik_shift (retarget options' feet_from_source). */
static int apply_scale(pki_bone_set *s, const pk_leg_scale *sc, bool feet, pk_log *log)
{
    xform x = {0};
    x.nnames = pk_names_count(s->names);
    x.sc = sc;
    x.scaled = malloc(x.nnames + 1);
    if (!x.scaled) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    memset(x.scaled, -1, x.nnames + 1);
    for (size_t i = 0; i < sizeof SCALED / sizeof *SCALED; i++) {
        uint8_t *raw;
        size_t len;
        if (pk_utf8_to_cp932(SCALED[i], &raw, &len) != 0)
            continue;
        pk_name_id id = pk_names_find(s->names, raw, len);
        free(raw);
        if (id != PK_NO_NAME && (size_t)id < x.nnames)
            x.scaled[id] = (int8_t)(!feet ? 0 : i == 5 ? 1 : i == 6 ? 2 : 0);
    }
    pki_bone_set_each(s, scale_fn, &x);
    free(x.scaled);
    return 0;
}

/* The whole body moved by place (X, Z): the keys of 全ての親 when B has it
 * at its root, else of B's root bones among SCALED; a bone without a key
 * gets one at frame 0. */
static int apply_place(pki_bone_set *s, const pk_model *b, const double place[2], pk_log *log)
{
    bool root = false;
    long top = pki_model_find_bone_utf8(b, SCALED[0]);
    if (top >= 0 && b->bones[top].parent < 0)
        root = true;
    for (size_t i = 0; i < (root ? 1 : sizeof SCALED / sizeof *SCALED); i++) {
        long bone = pki_model_find_bone_utf8(b, SCALED[i]);
        if (bone < 0 || b->bones[bone].parent >= 0)
            continue;
        pk_name_id id = intern_utf8(s->names, SCALED[i]);
        if (id == PK_NO_NAME) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        bool keyed = false;
        for (size_t k = 0; k < pki_bone_set_count(s); k++) {
            pki_bone_ref r = pki_bone_set_at(s, k);
            if (*r.name != id)
                continue;
            r.pos[0] = (float)(r.pos[0] + place[0]);
            r.pos[2] = (float)(r.pos[2] + place[1]);
            keyed = true;
        }
        pki_bone_ref r;
        if (!keyed && !pki_bone_set_add(s, id, &r)) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        if (!keyed) {
            r.pos[0] = (float)place[0];
            r.pos[2] = (float)place[1];
        }
    }
    return 0;
}

void pk_retarget_report_free(pk_retarget_report *r)
{
    if (!r)
        return;
    pk_fold_report_free(&r->fold);
    for (size_t i = 0; i < r->ndropped; i++)
        free(r->dropped[i]);
    free(r->dropped);
    r->dropped = NULL;
    r->ndropped = 0;
    pk_sizing_measure_free(r->measure);
    r->measure = NULL;
}

/* One step on s, counting the keys it changed or added into *keys. */
typedef int (*step_fn)(pki_bone_set *s, const pk_model *a, const pk_model *b, const pk_rules *r,
                       const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log);

static int counted(step_fn fn, pki_bone_set *s, const pk_rules *r, const pk_retarget_options *o,
                   pk_retarget_report *rep, size_t *keys, pk_log *log)
{
    size_t n0 = pki_bone_set_count(s);
    float *before = pki_bone_set_snapshot(s);
    if (!before) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = fn(s, o->from, o->to, r, o, rep, log);
    if (!rc)
        *keys += pki_bone_set_changed(s, before, n0) + (pki_bone_set_count(s) - n0);
    free(before);
    return rc;
}

static int stance_step(pki_bone_set *s, const pk_model *a, const pk_model *b, const pk_rules *r,
                       const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log)
{
    int rc = stance_named(a, b, o->fingers, &rep->stance, o->from_name, o->to_name, log);
    if (!rc)
        rc = apply_stance(s, a, b, r, rep, log);
    rep->stance_done = !rc;
    return rc;
}

static int rules_step(pki_bone_set *s, const pk_model *a, const pk_model *b, const pk_rules *r,
                      const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log)
{
    (void)a;
    (void)b;
    (void)o;
    (void)rep;
    return pki_retarget_rules_apply(s, r, log);
}

static int scale_step(pki_bone_set *s, const pk_model *a, const pk_model *b, const pk_rules *r,
                      const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log)
{
    (void)r;
    int rc = scale_named(a, b, o->scale_xz, &rep->scale, o->from_name, o->to_name, log);
    if (!rc)
        rc = apply_scale(s, &rep->scale, o->feet_from_source, log);
    if (!rc && (o->place[0] != 0 || o->place[1] != 0)) {
        rep->scale.place[0] = o->place[0];
        rep->scale.place[1] = o->place[1];
        rc = apply_place(s, b, o->place, log);
    }
    rep->scale_done = !rc;
    return rc;
}

static int run(pki_bone_set *s, pk_motion *m, pk_pose *p, const pk_rules *r,
               const pk_retarget_options *o, pk_edit_stats *st, pk_retarget_report *rep,
               pk_log *log)
{
    if (!o || !o->from || !o->to) {
        pk_error(log, PK_E_USAGE, "retarget between models needs both models (from and to)");
        return -1;
    }
    size_t before = pki_bone_set_morphs(s), written = st ? st->morph_keys : 0;
    if (r && (m ? pk_motion_rename(m, r, false, st, log) : pk_pose_rename(p, r, false, st, log)))
        return -1;
    pki_retarget_tally_weights(st, before, pki_bone_set_morphs(s), written);
    pki_retarget_tally t;
    if (pki_retarget_tally_begin(&t, s) != 0) {
        pki_retarget_tally_free(&t);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    /* what MMD does not play (duplicates hidden by a later record, keys of
     * bones A lacks) is not A's pose to carry */
    int rc = pki_retarget_drop_duplicates(s, st, log);
    if (!rc)
        rc = pki_retarget_drop_absent(s, o, rep, log);
    /* the sizing steps compare B with A playing the input as it is now */
    bool sizing = !o->no_contacts || !o->no_avoid || !o->no_twist || !o->no_centre ||
                  !o->no_upper || !o->no_shoulders || !o->no_toes || o->feet_apart > 0 ||
                  o->measure;
    pk_motion *in_m = NULL;
    pk_pose *in_p = NULL;
    if (!rc && sizing &&
        !(m ? (in_m = pk_motion_clone(m)) != NULL : (in_p = pk_pose_clone(p)) != NULL)) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    if (!rc && !o->no_fold) {
        rc =
            m ? pki_retarget_fold_motion(m, o->from, o->to, o->max_deg, o->max_pos, &rep->fold, log)
              : pk_pose_fold(p, o->from, o->to, &rep->fold, log);
        rep->fold_done = !rc;
        /* the fold may have moved records: the set views the same model */
    }
    if (!rc && !o->no_stance)
        rc = counted(stance_step, s, r, o, rep, &rep->stance_keys, log);
    if (!rc && r)
        rc = counted(rules_step, s, r, o, rep, &rep->rules_keys, log);
    if (!rc && !o->no_scale && !pki_retarget_rules_scale(r))
        rc = counted(scale_step, s, r, o, rep, &rep->scale_keys, log);
    if (!rc && sizing)
        rc = pki_sizing_run(s, in_m, in_p, o, rep, log);
    pk_motion_free(in_m);
    pk_pose_free(in_p);
    if (!rc && pki_retarget_tally_end(&t, s, st) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    pki_retarget_tally_free(&t);
    return rc;
}

int pk_motion_retarget_models(pk_motion *m, const pk_rules *r, const pk_retarget_options *o,
                              pk_edit_stats *st, pk_retarget_report *rep, pk_log *log)
{
    pk_retarget_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    pk_motion *c = pk_motion_clone(m);
    if (!c) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pki_bone_set s;
    pki_bone_set_of_motion(&s, c);
    int rc = run(&s, c, NULL, r, o, st, rep, log);
    if (rc == 0) {
        pk_motion tmp = *m;
        *m = *c;
        *c = tmp;
    }
    pk_motion_free(c);
    if (rep == &own)
        pk_retarget_report_free(&own);
    return rc;
}

int pk_pose_retarget_models(pk_pose *p, const pk_rules *r, const pk_retarget_options *o,
                            pk_edit_stats *st, pk_retarget_report *rep, pk_log *log)
{
    pk_retarget_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    pk_pose *c = pk_pose_clone(p);
    if (!c) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pki_bone_set s;
    pki_bone_set_of_pose(&s, c);
    int rc = run(&s, NULL, c, r, o, st, rep, log);
    if (rc == 0) {
        pk_pose tmp = *p;
        *p = *c;
        *c = tmp;
    }
    pk_pose_free(c);
    if (rep == &own)
        pk_retarget_report_free(&own);
    return rc;
}
