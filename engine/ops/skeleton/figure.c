/*
 * figure.c — what sizing knows of one model (figure.h): its arms (the
 * chain from 腕 to 手首, the hand's end), its body parts and their solids,
 * and the geometry of a point against a part.
 *
 * Parts.  Each part follows one bone (head 頭, chest 上半身2, belly
 * 上半身, hips 下半身, thighs 足, shins ひざ).  Its solids are the model's
 * rigid bodies of mode "follow bone" whose bone is the part's bone or
 * hangs from it through bones an animator does not key (not visible and
 * operable, no append, no IK link, not driven by physics: Gene's
 * 上半身補).  A part without such bodies gets stand-ins made from the
 * bones, in proportion to the arm length L (the model's 腕->ひじ->手首):
 *   head   a sphere between 頭 and 頭先 (radius half their distance; no
 *          頭先: 0.19 L above 頭, radius 0.19 L);
 *   chest  a capsule across the chest (along X, half as long as the
 *          shoulders are apart, radius 0.19 L), 30% of the way from
 *          上半身2 to 首 (60% from 上半身 without 上半身2);
 *   belly  an upright capsule from 上半身 to the chest, radius 0.14 L;
 *   hips   a capsule from hip joint to hip joint (足), 0.1 L above them,
 *          radius 0.2 L;
 *   thigh  a capsule 足 -> ひざ, radius 11% of its length;
 *   shin   a capsule ひざ -> 足首, radius 8% of its length.
 * These are Gene's and Mei's proportions, where their rigid bodies give
 * them.  A rigid body's rest rotation is its Euler angles applied Z, then
 * X, then Y (q = qy·qx·qz, as MMD's rigid bodies turn); a capsule's axis
 * is its own Y.
 */
#include "math/quat.h"
#include "model/skeleton.h"
#include "ops/skeleton/figure.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const PART_BONE[PKI_PART_COUNT] = {"頭",   "上半身2", "上半身", "下半身",
                                                      "左足", "右足",    "左ひざ", "右ひざ"};
static const char *const PART_NAME[PKI_PART_COUNT] = {
    "head", "chest", "belly", "hips", "left thigh", "right thigh", "left shin", "right shin"};

const char *pki_part_name(pki_part_kind k)
{
    return k < PKI_PART_COUNT ? PART_NAME[k] : "?";
}

static void vsub(const double a[3], const double b[3], double o[3])
{
    for (int k = 0; k < 3; k++)
        o[k] = a[k] - b[k];
}

static double vdot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double vlen(const double a[3])
{
    return sqrt(vdot(a, a));
}

static void rest(const pk_model *m, int32_t b, double o[3])
{
    for (int k = 0; k < 3; k++)
        o[k] = m->bones[b].pos[k];
}

static double bone_dist(const pk_model *m, int32_t a, int32_t b)
{
    double pa[3], pb[3], d[3];
    rest(m, a, pa);
    rest(m, b, pb);
    vsub(pa, pb, d);
    return vlen(d);
}

static long find_side(const pk_model *m, int side, const char *name)
{
    char buf[64];
    size_t n = strlen(name);
    if (n + 4 > sizeof buf)
        return -1;
    memcpy(buf, side ? "右" : "左", 3);
    memcpy(buf + 3, name, n + 1);
    return pki_model_find_bone_utf8(m, buf);
}

/* ---- arms ---- */

static bool plain_bone(const pk_model *m, int32_t b, const bool *linked)
{
    const pk_model_bone *x = &m->bones[b];
    return !(x->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE | PK_BONE_IK)) && !linked[b];
}

static void arm_init(pki_arm *a, const pk_model *m, int side, const bool *linked)
{
    memset(a, 0, sizeof *a);
    a->twist_up = a->twist_low = -1;
    a->tip = -1;
    a->shoulder = (int32_t)find_side(m, side, "肩");
    long top = find_side(m, side, "腕"), elbow = find_side(m, side, "ひじ");
    long wrist = find_side(m, side, "手首");
    if (top < 0 || elbow < 0 || wrist < 0)
        return;
    long tw_up = find_side(m, side, "腕捩"), tw_low = find_side(m, side, "手捩");
    int32_t up[PKI_CHAIN_MAX];
    int n = 0;
    for (long j = wrist; j >= 0 && n < PKI_CHAIN_MAX; j = m->bones[j].parent) {
        up[n++] = (int32_t)j;
        if (j == top)
            break;
    }
    if (!n || up[n - 1] != top)
        return;
    for (int i = 0; i < n; i++) {
        a->bone[i] = up[n - 1 - i];
        if (!plain_bone(m, a->bone[i], linked))
            return;
        if (a->bone[i] == elbow)
            a->elbow = i;
        if (a->bone[i] == tw_up)
            a->twist_up = i;
        if (a->bone[i] == tw_low)
            a->twist_low = i;
    }
    a->n = n;
    if (a->elbow <= 0 || a->elbow >= n - 1)
        return;
    a->upper = bone_dist(m, (int32_t)top, (int32_t)elbow);
    a->fore = bone_dist(m, (int32_t)elbow, (int32_t)wrist);
    if (!(a->upper > 1e-6) || !(a->fore > 1e-6))
        return;
    static const char *const TIPS[] = {"中指先", "中指３", "中指２", "手先"};
    for (size_t t = 0; t < sizeof TIPS / sizeof *TIPS && a->tip < 0; t++) {
        long b = find_side(m, side, TIPS[t]);
        if (b >= 0 && bone_dist(m, (int32_t)b, (int32_t)wrist) > 1e-6)
            a->tip = (int32_t)b;
    }
    double pw[3], pe[3];
    rest(m, (int32_t)wrist, pw);
    if (a->tip >= 0) {
        double pt[3];
        rest(m, a->tip, pt);
        vsub(pt, pw, a->tip_off);
    } else {
        /* no hand bones: a third of the forearm on from the wrist */
        rest(m, (int32_t)elbow, pe);
        double d[3];
        vsub(pw, pe, d);
        for (int k = 0; k < 3; k++)
            a->tip_off[k] = d[k] / 3.0;
    }
    a->ok = true;
}

bool pki_figure_hand(const pki_figure *f, int side)
{
    return f->arm[side].ok;
}

/* ---- parts ---- */

/* q = qy·qx·qz of Euler angles e (radians). */
static void euler_yxz(const float e[3], double q[4])
{
    double s[3], c[3]; /* pki_sincos: pki_sin's and pki_cos's bits */
    for (int a = 0; a < 3; a++)
        pki_sincos(e[a] / 2.0, &s[a], &c[a]);
    double qx[4] = {s[0], 0, 0, c[0]};
    double qy[4] = {0, s[1], 0, c[1]};
    double qz[4] = {0, 0, s[2], c[2]};
    double t[4];
    pki_qd_mul(qy, qx, t);
    pki_qd_mul(t, qz, q);
}

/* The part a rigid body's bone belongs to, or -1. */
static int part_of(const pki_figure *f, int32_t b, const bool *driven, const bool *linked)
{
    const pk_model *m = f->m;
    for (int d = 0; b >= 0 && d < 64; d++, b = m->bones[b].parent) {
        for (int k = 0; k < PKI_PART_COUNT; k++)
            if (f->part[k].bone == b)
                return k;
        const pk_model_bone *x = &m->bones[b];
        bool keyed = (x->flags & 0x0018) == 0x0018; /* visible and operable */
        if (keyed || driven[b] || !plain_bone(m, b, linked))
            return -1;
    }
    return -1;
}

static void add_body(pki_part *p, uint8_t shape, const double size[3], const double off[3],
                     const double rot[4])
{
    if (p->nbody >= PKI_PART_BODIES)
        return;
    pki_body *b = &p->body[p->nbody++];
    b->shape = shape;
    memcpy(b->size, size, sizeof b->size);
    memcpy(b->off, off, sizeof b->off);
    memcpy(b->rot, rot, sizeof b->rot);
}

/* A capsule from point a to point c (model space, rest) of radius r, as
 * a body of part p. */
static void capsule(pki_part *p, const pk_model *m, const double a[3], const double c[3], double r)
{
    double d[3], mid[3], base[3], q[4] = {0, 0, 0, 1};
    vsub(c, a, d);
    double len = vlen(d);
    rest(m, p->bone, base);
    for (int k = 0; k < 3; k++)
        mid[k] = (a[k] + c[k]) / 2.0 - base[k];
    if (len > 1e-9) {
        /* the shortest arc from +Y to d */
        double u[3] = {d[0] / len, d[1] / len, d[2] / len};
        double w = 1.0 + u[1];
        if (w < 1e-9) {
            q[0] = 1;
            q[3] = 0;
        } else {
            q[0] = u[2];
            q[1] = 0;
            q[2] = -u[0];
            q[3] = w;
            double n = sqrt(q[0] * q[0] + q[2] * q[2] + q[3] * q[3]);
            for (int k = 0; k < 4; k++)
                q[k] /= n;
        }
    }
    double size[3] = {r, len, 0};
    add_body(p, PK_RIGID_CAPSULE, size, mid, q);
}

static void stand_ins(pki_figure *f)
{
    const pk_model *m = f->m;
    double L = f->arm_len > 0 ? f->arm_len : f->leg_len * 0.7;
    if (!(L > 0))
        return;
    long head = pki_model_find_bone_utf8(m, "頭"), head_end = pki_model_find_bone_utf8(m, "頭先");
    long neck = pki_model_find_bone_utf8(m, "首"), up = pki_model_find_bone_utf8(m, "上半身");
    long up2 = pki_model_find_bone_utf8(m, "上半身2");
    pki_part *p = &f->part[PKI_PART_HEAD];
    if (p->bone >= 0 && !p->nbody) {
        double a[3], c[3];
        rest(m, (int32_t)head, a);
        double r = 0.19 * L;
        if (head_end >= 0 && m->bones[head_end].pos[1] > m->bones[head].pos[1]) {
            rest(m, (int32_t)head_end, c);
            double d[3];
            vsub(c, a, d);
            r = vlen(d) / 2.0;
            for (int k = 0; k < 3; k++)
                c[k] = (a[k] + c[k]) / 2.0;
        } else {
            memcpy(c, a, sizeof c);
            c[1] += r;
        }
        double size[3] = {r, 0, 0}, off[3], q[4] = {0, 0, 0, 1};
        vsub(c, a, off);
        add_body(p, PK_RIGID_SPHERE, size, off, q);
    }
    long shl = find_side(m, 0, "腕"), shr = find_side(m, 1, "腕");
    double chest[3] = {0, 0, 0};
    bool has_chest = false;
    long base = up2 >= 0 ? up2 : up;
    if (base >= 0 && neck >= 0) {
        double a[3], b[3];
        rest(m, (int32_t)base, a);
        rest(m, (int32_t)neck, b);
        double t = up2 >= 0 ? 0.3 : 0.6;
        for (int k = 0; k < 3; k++)
            chest[k] = a[k] + t * (b[k] - a[k]);
        has_chest = true;
    }
    p = &f->part[PKI_PART_CHEST];
    if (p->bone >= 0 && !p->nbody && has_chest) {
        double half = 0.5 * L * 0.15;
        if (shl >= 0 && shr >= 0)
            half = 0.25 * fabs((double)m->bones[shl].pos[0] - m->bones[shr].pos[0]);
        double a[3] = {chest[0] - half, chest[1], chest[2]};
        double c[3] = {chest[0] + half, chest[1], chest[2]};
        capsule(p, m, a, c, 0.19 * L);
    }
    p = &f->part[PKI_PART_BELLY];
    if (p->bone >= 0 && !p->nbody && has_chest) {
        double a[3];
        rest(m, p->bone, a);
        capsule(p, m, a, chest, 0.14 * L);
    }
    p = &f->part[PKI_PART_HIPS];
    long hl = f->hip[0], hr = f->hip[1];
    if (p->bone >= 0 && !p->nbody && hl >= 0 && hr >= 0) {
        double a[3], c[3];
        rest(m, (int32_t)hl, a);
        rest(m, (int32_t)hr, c);
        a[1] += 0.1 * L;
        c[1] += 0.1 * L;
        capsule(p, m, a, c, 0.2 * L);
    }
    for (int s = 0; s < 2; s++) {
        p = &f->part[PKI_PART_THIGH_L + s];
        if (p->bone >= 0 && !p->nbody && f->knee[s] >= 0) {
            double a[3], c[3];
            rest(m, p->bone, a);
            rest(m, f->knee[s], c);
            capsule(p, m, a, c, 0.11 * bone_dist(m, p->bone, f->knee[s]));
        }
        p = &f->part[PKI_PART_SHIN_L + s];
        if (p->bone >= 0 && !p->nbody && f->ankle[s] >= 0) {
            double a[3], c[3];
            rest(m, p->bone, a);
            rest(m, f->ankle[s], c);
            capsule(p, m, a, c, 0.08 * bone_dist(m, p->bone, f->ankle[s]));
        }
    }
}

/* The bounding box of a body at rest, relative to its part's bone. */
static void body_box(const pki_body *b, double lo[3], double hi[3])
{
    double ext[3];
    if (b->shape == PK_RIGID_SPHERE) {
        ext[0] = ext[1] = ext[2] = b->size[0];
    } else if (b->shape == PK_RIGID_CAPSULE) {
        double ax[3] = {0, b->size[1] / 2.0, 0}, w[3];
        pki_qd_rotate(b->rot, ax, w);
        for (int k = 0; k < 3; k++)
            ext[k] = fabs(w[k]) + b->size[0];
    } else {
        for (int k = 0; k < 3; k++)
            ext[k] = 0;
        for (int c = 0; c < 3; c++) {
            double e[3] = {0, 0, 0}, w[3];
            e[c] = b->size[c];
            pki_qd_rotate(b->rot, e, w);
            for (int k = 0; k < 3; k++)
                ext[k] += fabs(w[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        lo[k] = b->off[k] - ext[k];
        hi[k] = b->off[k] + ext[k];
    }
}

static void part_box(pki_part *p)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < p->nbody; i++) {
        double l[3], h[3];
        body_box(&p->body[i], l, h);
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], l[k]);
            hi[k] = fmax(hi[k], h[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        p->centre[k] = p->nbody ? (lo[k] + hi[k]) / 2.0 : 0.0;
        p->half[k] = p->nbody ? fmax((hi[k] - lo[k]) / 2.0, 1e-3) : 1e-3;
    }
}

static bool finite_body(const pk_model_rigid *r)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(r->size[k]) || !isfinite(r->pos[k]) || !isfinite(r->rot[k]))
            return false;
    return r->size[0] > 0;
}

void pki_figure_init(pki_figure *f, const pk_model *m)
{
    memset(f, 0, sizeof *f);
    f->m = m;
    size_t nb = m->nbones;
    bool *linked = calloc(nb + 1, sizeof *linked);
    bool *driven = calloc(nb + 1, sizeof *driven);
    if (!linked || !driven) { /* no parts, no arms: the steps skip */
        free(linked);
        free(driven);
        for (int k = 0; k < PKI_PART_COUNT; k++)
            f->part[k].bone = -1;
        f->hip[0] = f->hip[1] = f->knee[0] = f->knee[1] = -1;
        f->ankle[0] = f->ankle[1] = f->toe[0] = f->toe[1] = -1;
        return;
    }
    for (size_t i = 0; i < nb; i++)
        for (size_t k = 0; k < m->bones[i].nik_links; k++) {
            int32_t l = m->bones[i].ik_links[k].bone;
            if (l >= 0 && (size_t)l < nb)
                linked[l] = true;
        }
    pk_model_physics_bones(m, driven);
    int arms = 0;
    for (int s = 0; s < 2; s++) {
        arm_init(&f->arm[s], m, s, linked);
        if (f->arm[s].ok) {
            f->arm_len += f->arm[s].upper + f->arm[s].fore;
            arms++;
        }
        f->hip[s] = (int32_t)find_side(m, s, "足");
        f->knee[s] = (int32_t)find_side(m, s, "ひざ");
        f->ankle[s] = (int32_t)find_side(m, s, "足首");
        f->toe[s] = (int32_t)find_side(m, s, "つま先");
        if (f->ankle[s] >= 0)
            f->ankle_rest_y[s] = m->bones[f->ankle[s]].pos[1];
    }
    if (arms)
        f->arm_len /= arms;
    int legs = 0;
    for (int s = 0; s < 2; s++)
        if (f->hip[s] >= 0 && f->ankle[s] >= 0) {
            f->leg_len += bone_dist(m, f->hip[s], f->ankle[s]);
            legs++;
        }
    if (legs)
        f->leg_len /= legs;
    for (int k = 0; k < PKI_PART_COUNT; k++)
        f->part[k].bone = (int32_t)pki_model_find_bone_utf8(m, PART_BONE[k]);
    if (f->part[PKI_PART_CHEST].bone < 0)
        f->part[PKI_PART_CHEST].bone = f->part[PKI_PART_BELLY].bone;
    for (size_t i = 0; i < m->nrigids; i++) {
        const pk_model_rigid *r = &m->rigids[i];
        if (r->mode != PK_RIGID_FOLLOW_BONE || r->bone < 0 || (size_t)r->bone >= nb ||
            r->shape > PK_RIGID_CAPSULE || !finite_body(r))
            continue;
        int k = part_of(f, r->bone, driven, linked);
        if (k < 0)
            continue;
        /* a model without 上半身2: its 上半身 bodies are the belly's */
        if (k == PKI_PART_CHEST && f->part[PKI_PART_CHEST].bone == f->part[PKI_PART_BELLY].bone)
            k = PKI_PART_BELLY;
        pki_part *p = &f->part[k];
        double size[3] = {r->size[0], r->size[1], r->size[2]}, off[3], q[4], base[3];
        rest(m, p->bone, base);
        for (int c = 0; c < 3; c++)
            off[c] = r->pos[c] - base[c];
        euler_yxz(r->rot, q);
        add_body(p, r->shape, size, off, q);
        p->from_rigids = true;
        f->rigids = true;
    }
    stand_ins(f);
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (!f->part[k].nbody)
            f->part[k].bone = -1;
        part_box(&f->part[k]);
    }
    free(linked);
    free(driven);
}

void pki_figure_watch(const pki_figure *f, bool *watch)
{
    for (int s = 0; s < 2; s++) {
        const pki_arm *a = &f->arm[s];
        if (a->ok) {
            for (int i = 0; i < a->n; i++)
                watch[a->bone[i]] = true;
            int32_t p = f->m->bones[a->bone[0]].parent;
            if (p >= 0)
                watch[p] = true;
            if (a->tip >= 0)
                watch[a->tip] = true;
        }
        int32_t legs[4] = {f->hip[s], f->knee[s], f->ankle[s], f->toe[s]};
        for (int k = 0; k < 4; k++)
            if (legs[k] >= 0)
                watch[legs[k]] = true;
    }
    for (int k = 0; k < PKI_PART_COUNT; k++)
        if (f->part[k].bone >= 0)
            watch[f->part[k].bone] = true;
}

/* ---- geometry ---- */

/* Body b of a placed part: its centre and rotation in the world. */
static void place_body(const pki_placed *pl, const pki_body *b, double c[3], double r[4])
{
    double w[3];
    pki_qd_rotate(pl->rot, b->off, w);
    for (int k = 0; k < 3; k++)
        c[k] = pl->pos[k] + w[k];
    pki_qd_mul(pl->rot, b->rot, r);
}

static double body_distance(const pki_body *b, const double c[3], const double r[4],
                            const double p[3], double surf[3], double nrm[3])
{
    double d[3];
    vsub(p, c, d);
    if (b->shape == PK_RIGID_BOX) {
        double inv[4], l[3], h[3] = {b->size[0], b->size[1], b->size[2]};
        pki_qd_conj(r, inv);
        pki_qd_rotate(inv, d, l);
        double q[3], s[3], n[3] = {0, 0, 0};
        bool inside = true;
        for (int k = 0; k < 3; k++) {
            q[k] = fabs(l[k]) - h[k];
            inside &= q[k] <= 0;
            s[k] = fmax(-h[k], fmin(h[k], l[k]));
        }
        double dist;
        if (inside) {
            int f = 0;
            for (int k = 1; k < 3; k++)
                if (q[k] > q[f])
                    f = k;
            s[f] = l[f] < 0 ? -h[f] : h[f];
            n[f] = l[f] < 0 ? -1 : 1;
            dist = q[f];
        } else {
            double e[3];
            vsub(l, s, e);
            dist = vlen(e);
            for (int k = 0; k < 3; k++)
                n[k] = dist > 0 ? e[k] / dist : 0;
        }
        pki_qd_rotate(r, s, s);
        pki_qd_rotate(r, n, n);
        for (int k = 0; k < 3; k++) {
            surf[k] = c[k] + s[k];
            nrm[k] = n[k];
        }
        return dist;
    }
    double axis[3] = {0, 0, 0}, cp[3];
    memcpy(cp, c, sizeof cp);
    if (b->shape == PK_RIGID_CAPSULE) {
        double y[3] = {0, 1, 0};
        pki_qd_rotate(r, y, axis);
        double h = b->size[1] / 2.0, t = vdot(d, axis);
        t = fmax(-h, fmin(h, t));
        for (int k = 0; k < 3; k++)
            cp[k] = c[k] + t * axis[k];
    }
    double e[3];
    vsub(p, cp, e);
    double len = vlen(e);
    if (len > 1e-12) {
        for (int k = 0; k < 3; k++)
            nrm[k] = e[k] / len;
    } else { /* on the axis: any direction across it */
        double u[3] = {1, 0, 0};
        if (fabs(axis[0]) > 0.9) {
            u[0] = 0;
            u[2] = 1;
        }
        double t = vdot(u, axis);
        for (int k = 0; k < 3; k++)
            nrm[k] = u[k] - t * axis[k];
        double n = vlen(nrm);
        for (int k = 0; k < 3; k++)
            nrm[k] /= n;
    }
    for (int k = 0; k < 3; k++)
        surf[k] = cp[k] + b->size[0] * nrm[k];
    return len - b->size[0];
}

double pki_part_distance(const pki_placed *pl, const double p[3], double surf[3], double normal[3])
{
    double best = INFINITY, bs[3] = {0, 0, 0}, bn[3] = {0, 1, 0};
    for (int i = 0; i < pl->part->nbody; i++) {
        double c[3], r[4], s[3], n[3];
        place_body(pl, &pl->part->body[i], c, r);
        double d = body_distance(&pl->part->body[i], c, r, p, s, n);
        if (d < best) {
            best = d;
            memcpy(bs, s, sizeof bs);
            memcpy(bn, n, sizeof bn);
        }
    }
    if (surf)
        memcpy(surf, bs, sizeof bs);
    if (normal)
        memcpy(normal, bn, sizeof bn);
    return best;
}

void pki_part_carry(const pki_placed *a, const pki_placed *b, const double p[3], double out[3])
{
    double d[3], inv[4], u[3], v[3];
    vsub(p, a->pos, d);
    pki_qd_conj(a->rot, inv);
    pki_qd_rotate(inv, d, u);
    for (int k = 0; k < 3; k++)
        v[k] =
            b->part->centre[k] + (u[k] - a->part->centre[k]) / a->part->half[k] * b->part->half[k];
    pki_qd_rotate(b->rot, v, u);
    for (int k = 0; k < 3; k++)
        out[k] = b->pos[k] + u[k];
}
