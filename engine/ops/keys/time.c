/* time.c — a motion's time edited (posekit.h, "time"): trimmed to a frame
 * range with curve-exact edges, shifted, stretched or compressed.
 *
 * Trim [A, B]: every track that has keys samples as the input at every
 * integer frame of A..B and holds its value at B after it.
 *  - bones and morphs: rebuild.c (pki_rb_trim): a segment an edge crosses
 *    is cut there, a bone's curve split (de Casteljau, rounded to MMD's
 *    grid, checked at every frame; else fitted within PK_OVERLAY_FIT_*),
 *    a morph's exactly (weights blend linearly);
 *  - camera: the same split per channel (centre X/Y/Z, rotation, distance,
 *    fov), checked with the sampler; a piece no grid curve reproduces is
 *    baked (a key per frame, keys one frame apart being a cut in MMD);
 *  - light: linear, cut exactly;
 *  - shadow and IK hold their value until the next record: the last record
 *    at or before A is copied to A, records after B dropped.
 * A key made at A gets linear curves (no segment ends there any more).
 *
 * Shift N then scale S: a key at frame f goes to round((f + N) * S).  The
 * curves stay with their keys, so each segment plays the same shape over
 * its new length.  Two rules keep what frame rounding would break:
 *  - a CUT, two keys one frame apart with no key one frame before or after
 *    the pair, stays one frame apart (a camera cut, a snap of a bone), the
 *    later key placed right after the earlier;
 *  - keys landing on one frame: the latest keeps it, the one just before
 *    it moves one frame back when that frame is free (so a held value
 *    still ends right before a jump), any other is dropped and counted.
 * Records keep their order and bytes except the frame (and the keys made
 * or dropped); a run that changes nothing gives the input back.
 */
#include "ops/keys/rebuild.h"
#include "math/curve.h"
#include "model/names.h"
#include "posekit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG 57.29577951308232 /* degrees per radian */

/* ---- the trim ---- */

typedef struct plans {
    pki_rb_plan *v[2]; /* [0] bones, [1] morphs */
    size_t n[2];
} plans;

static void plans_free(plans *p)
{
    for (int k = 0; k < 2; k++)
        pki_rb_plans_free(p->v[k], p->n[k]);
}

/* Bone and morph tracks trimmed in out (a clone of m); -1 on OOM, -2 on a
 * piece too long (logged). */
static int trim_tracks(const pk_motion *m, const pk_tracks *t, pk_motion *out, uint32_t a,
                       uint32_t b, pk_time_stats *st, pk_log *log)
{
    pk_overlay_stats ost;
    memset(&ost, 0, sizeof ost);
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, a, b, 0, false};
    pki_rb_env env = {m, &o, &ost, pki_rb_scratch_new(), pki_curve_cache_new(), true};
    plans p;
    memset(&p, 0, sizeof p);
    p.v[0] = calloc(t->nbones + 1, sizeof *p.v[0]);
    p.v[1] = calloc(t->nmorphs + 1, sizeof *p.v[1]);
    int rc = 0;
    if (!env.scratch || !env.cache || !p.v[0] || !p.v[1])
        rc = -1;
    for (int morph = 0; morph < 2 && rc == 0; morph++) {
        size_t n = morph ? t->nmorphs : t->nbones;
        for (size_t i = 0; i < n && rc == 0; i++) {
            const pk_track *tr = morph ? &t->morphs[i] : &t->bones[i];
            if (tr->count == 0)
                continue;
            pki_rb c;
            pki_rb_init(&c, &env, tr, morph);
            pki_rb_trim(&c, a, b);
            p.v[morph][p.n[morph]].name = tr->name;
            p.v[morph][p.n[morph]++].keys = c.out;
            if (c.oom)
                rc = -1;
            else if (c.too_long) {
                pk_error(log, PK_E_UNSUPPORTED,
                         "bone '%s': a segment crossed by the edges of frames %u-%u is longer than "
                         "%u frames; it cannot be checked frame by frame",
                         pk_names_utf8(m->names, tr->name), a, b, PKI_RB_PIECE_MAX);
                rc = -2;
            }
        }
    }
    if (rc == 0 && (pki_rb_apply(out, p.v[0], p.n[0], false, &ost) != 0 ||
                    pki_rb_apply(out, p.v[1], p.n[1], true, &ost) != 0))
        rc = -1;
    st->split += ost.split;
    st->fitted += ost.fitted;
    st->baked += ost.baked;
    plans_free(&p);
    pk_motion_free(env.scratch);
    pki_curve_cache_free(env.cache);
    return rc;
}

/* Camera curve cp of channel g (x1, y1, x2, y2) from its stored order
 * (x1, x2, y1, y2). */
static void cam_cp(const uint8_t ip[24], int g, uint8_t cp[4])
{
    const uint8_t *c = ip + 4 * g;
    cp[0] = c[0];
    cp[1] = c[2];
    cp[2] = c[1];
    cp[3] = c[3];
}

static void cam_set(uint8_t ip[24], int g, const uint8_t cp[4])
{
    uint8_t *c = ip + 4 * g;
    c[0] = cp[0];
    c[2] = cp[1];
    c[1] = cp[2];
    c[3] = cp[3];
}

/* How far camera channel g moves between two keys (units; degrees for the
 * rotation, the largest of its three angles). */
static double cam_span(const pk_camera_key *x, const pk_camera_key *y, int g)
{
    if (g < 3)
        return fabs((double)y->pos[g] - x->pos[g]);
    if (g == 3) {
        double d = 0;
        for (int a = 0; a < 3; a++)
            d = fmax(d, fabs((double)y->rot[a] - x->rot[a]) * DEG);
        return d;
    }
    if (g == 4)
        return fabs((double)y->distance - x->distance);
    return fabs((double)y->fov - (double)x->fov);
}

/* Do two camera values agree (the trim's tolerances; the fov, stored in
 * whole degrees, within the one degree a cut key's rounded value may
 * shift it; the perspective switch exactly)? */
static bool cam_same(const pk_camera_key *x, const pk_camera_key *y)
{
    for (int a = 0; a < 3; a++)
        if (fabs((double)x->pos[a] - y->pos[a]) > PK_OVERLAY_FIT_POS ||
            fabs((double)x->rot[a] - y->rot[a]) * DEG > PK_OVERLAY_FIT_DEG)
            return false;
    long dfov = (long)x->fov - (long)y->fov;
    return fabs((double)x->distance - y->distance) <= PK_OVERLAY_FIT_POS && dfov >= -1 &&
           dfov <= 1 && x->perspective == y->perspective;
}

/* The key ending the piece [u, v] of camera segment (k0, k1): value `end`,
 * curves the sub-curves of k1's.  Checked at every frame strictly inside
 * against the input m (t: its tracks); false when some channel has no
 * grid curve within tolerance. */
static bool cam_piece(const pk_motion *m, const pk_tracks *t, const pk_camera_key *k0,
                      const pk_camera_key *k1, const pk_camera_key *start, uint32_t u, uint32_t v,
                      pk_camera_key *end)
{
    double f0 = k0->frame, f1 = k1->frame;
    double su = (u - f0) / (f1 - f0), sv = (v - f0) / (f1 - f0);
    for (int g = 0; g < 6; g++) {
        uint8_t cp[4], q[4];
        cam_cp(k1->interp, g, cp);
        double span = cam_span(start, end, g);
        double tol = g == 3 ? PK_OVERLAY_FIT_DEG : g == 5 ? 1.0 : PK_OVERLAY_FIT_POS;
        if (pki_curve_is_linear(cp) || span <= tol * 0.5 || v - u < 2) {
            memcpy(q, pki_curve_linear, 4);
        } else {
            double n[4];
            if (!pki_curve_sub(cp, su, sv, n))
                return false;
            size_t nf = (size_t)(v - u) - 1;
            double *want = malloc(nf * sizeof *want);
            if (!want)
                return false;
            double yu = pki_curve_progress(cp, su), yv = pki_curve_progress(cp, sv);
            for (size_t i = 0; i < nf; i++)
                want[i] = (pki_curve_progress(cp, (u + (double)(i + 1) - f0) / (f1 - f0)) - yu) /
                          (yv - yu);
            /* the sub-curve rounded to the grid; else the grid curve the
             * fitter finds for the same progress */
            bool ok = pki_curve_round(n, want, nf, span, tol * 0.5, q) ||
                      pki_curve_fit_progress_ex(want, v - u, span, NULL, tol * 0.9, PKI_FIT_FULL,
                                                NULL, q, NULL) == 1;
            free(want);
            if (!ok)
                return false;
        }
        cam_set(end->interp, g, q);
    }
    /* the two keys alone, sampled */
    pk_motion *s = pk_motion_new();
    bool ok = s != NULL;
    pk_camera_key *a = ok ? pk_motion_push_camera(s) : NULL;
    pk_camera_key *b = a ? pk_motion_push_camera(s) : NULL;
    if (!b) {
        pk_motion_free(s);
        return false;
    }
    a = &s->cameras[0];
    *a = *start;
    a->frame = u;
    *b = *end;
    b->frame = v;
    uint32_t idx[2] = {0, 1};
    pk_tracks st;
    memset(&st, 0, sizeof st);
    st.cameras = idx;
    st.ncameras = 2;
    for (uint32_t f = u + 1; f < v && ok; f++) {
        pk_camera_key got, want;
        pk_sample_camera(s, &st, f, &got);
        pk_sample_camera(m, t, f, &want);
        ok = cam_same(&got, &want);
    }
    pk_motion_free(s);
    return ok;
}

/* Appends the camera key(s) ending the piece [u, v] of segment (k0, k1)
 * to out: one split key, or a key at every frame u+1..v.  `orig`: v
 * is k1 itself, this record (re-curved in place; left as it is when
 * the piece is baked). */
static int cam_emit(const pk_motion *m, const pk_tracks *t, pk_motion *out, const pk_camera_key *k0,
                    const pk_camera_key *k1, const pk_camera_key *start, uint32_t u, uint32_t v,
                    pk_camera_key *orig, pk_time_stats *st)
{
    pk_camera_key end;
    if (orig) {
        end = *orig;
    } else {
        pk_sample_camera(m, t, v, &end);
        end.frame = v;
    }
    if (cam_piece(m, t, k0, k1, start, u, v, &end)) {
        st->split++;
        if (orig)
            *orig = end;
        else {
            pk_camera_key *k = pk_motion_push_camera(out);
            if (!k)
                return -1;
            *k = end;
        }
        return 0;
    }
    st->baked++;
    for (uint32_t f = u + 1; f <= v; f++) {
        if (f == v && orig)
            break; /* the original key stays as it is */
        pk_camera_key *k = pk_motion_push_camera(out);
        if (!k)
            return -1;
        pk_sample_camera(m, t, f, k);
        k->frame = f;
        pk_camera_interp_linear(k->interp);
    }
    return 0;
}

/* The camera trimmed to [a, b] in out (its records: those of m). */
static int trim_camera(const pk_motion *m, const pk_tracks *t, pk_motion *out, uint32_t a,
                       uint32_t b, pk_time_stats *st)
{
    size_t n = t->ncameras;
    if (n == 0)
        return 0;
    /* out's camera records are m's in file order: index r of m is r of out */
    pk_camera_key *keep = malloc(n * sizeof *keep);
    if (!keep)
        return -1;
    size_t nb = 0;
    for (size_t i = 0; i < n; i++)
        nb += m->cameras[t->cameras[i]].frame < a;
    /* the key at a */
    pk_camera_key at;
    pk_sample_camera(m, t, a, &at);
    bool key_at_a = nb < n && m->cameras[t->cameras[nb]].frame == a;
    at.frame = a;
    if (!key_at_a)
        pk_camera_interp_linear(at.interp);
    /* rewritten records: the first key after a re-curved, keys inside kept */
    size_t first = nb + key_at_a;
    pk_camera_key prev = at;
    uint32_t prev_f = a;
    int rc = 0;
    pk_motion *adds = pk_motion_new();
    if (!adds)
        rc = -1;
    if (rc == 0 && !key_at_a) {
        pk_camera_key *k = pk_motion_push_camera(adds);
        if (!k)
            rc = -1;
        else
            *k = at;
    }
    size_t i = first;
    for (; rc == 0 && i < n && m->cameras[t->cameras[i]].frame <= b; i++) {
        const pk_camera_key *k = &m->cameras[t->cameras[i]];
        keep[i] = *k;
        if (i == first && !key_at_a && nb > 0 && k->frame - m->cameras[t->cameras[i - 1]].frame > 1)
            rc = cam_emit(m, t, adds, &m->cameras[t->cameras[i - 1]], k, &prev, a, k->frame,
                          &keep[i], st);
        prev = keep[i];
        prev_f = k->frame;
    }
    if (rc == 0 && prev_f != b && i < n && i > 0) {
        const pk_camera_key *k0 = &m->cameras[t->cameras[i - 1]], *k1 = &m->cameras[t->cameras[i]];
        if (k1->frame - k0->frame > 1)
            rc = cam_emit(m, t, adds, k0, k1, &prev, prev_f, b, NULL, st);
    }
    /* out: m's records inside [a, b] (the first after a re-curved), then the adds */
    if (rc == 0) {
        size_t w = 0;
        for (size_t r = 0; r < m->ncameras; r++) {
            uint32_t f = m->cameras[r].frame;
            if (f < a || f > b)
                continue;
            /* only the first key after a may be re-curved */
            out->cameras[w++] = first < i && t->cameras[first] == r ? keep[first] : m->cameras[r];
        }
        out->ncameras = w;
        for (size_t j = 0; j < adds->ncameras && rc == 0; j++) {
            pk_camera_key *k = pk_motion_push_camera(out);
            if (!k)
                rc = -1;
            else
                *k = adds->cameras[j];
        }
    }
    pk_motion_free(adds);
    free(keep);
    return rc;
}

/* Light (linear: exact at any frame), shadow and IK (held values). */
static int trim_others(const pk_motion *m, const pk_tracks *t, pk_motion *out, uint32_t a,
                       uint32_t b)
{
    pk_light_key la, lb;
    bool has_l = pk_sample_light(m, t, a, &la) && pk_sample_light(m, t, b, &lb);
    bool l_at_a = false, l_cross_b = false;
    for (size_t i = 0; i < t->nlights; i++) {
        uint32_t f = m->lights[t->lights[i]].frame;
        l_at_a = l_at_a || f == a;
        l_cross_b =
            l_cross_b || (f < b && i + 1 < t->nlights && m->lights[t->lights[i + 1]].frame > b);
    }
    const pk_shadow_key *sa = NULL;
    for (size_t i = 0; i < t->nshadows; i++)
        if (m->shadows[t->shadows[i]].frame <= a)
            sa = &m->shadows[t->shadows[i]];
    const pk_ik_key *ia = NULL;
    for (size_t i = 0; i < t->niks; i++)
        if (m->iks[t->iks[i]].frame <= a)
            ia = &m->iks[t->iks[i]];
    pk_shadow_key sav = sa ? *sa : (pk_shadow_key){0};
    pk_ik_key iav = ia ? *ia : (pk_ik_key){0};
    /* drop what is outside [a, b] */
    size_t w = 0;
    for (size_t r = 0; r < out->nlights; r++)
        if (out->lights[r].frame >= a && out->lights[r].frame <= b)
            out->lights[w++] = out->lights[r];
    out->nlights = w;
    w = 0;
    for (size_t r = 0; r < out->nshadows; r++)
        if (out->shadows[r].frame >= a && out->shadows[r].frame <= b)
            out->shadows[w++] = out->shadows[r];
    out->nshadows = w;
    pk_ik_state *keep_states = NULL;
    if (ia && ia->frame < a) { /* copied before the records are freed */
        keep_states = malloc((ia->count ? ia->count : 1) * sizeof *keep_states);
        if (!keep_states)
            return -1;
        memcpy(keep_states, ia->ik, ia->count * sizeof *keep_states);
    }
    w = 0;
    for (size_t r = 0; r < out->niks; r++) {
        if (out->iks[r].frame >= a && out->iks[r].frame <= b)
            out->iks[w++] = out->iks[r];
        else
            free(out->iks[r].ik);
    }
    out->niks = w;
    if (has_l && !l_at_a) {
        pk_light_key *k = pk_motion_push_light(out);
        if (!k)
            goto oom;
        *k = la;
        k->frame = a;
    }
    if (has_l && l_cross_b && b > a) {
        pk_light_key *k = pk_motion_push_light(out);
        if (!k)
            goto oom;
        *k = lb;
        k->frame = b;
    }
    if (sa && sav.frame < a) {
        pk_shadow_key *k = pk_motion_push_shadow(out);
        if (!k)
            goto oom;
        *k = sav;
        k->frame = a;
    }
    if (keep_states) {
        pk_ik_key *k = pk_motion_push_ik(out, iav.count);
        if (!k)
            goto oom;
        k->frame = a;
        k->show = iav.show;
        memcpy(k->ik, keep_states, iav.count * sizeof *keep_states);
    }
    free(keep_states);
    return 0;
oom:
    free(keep_states);
    return -1;
}

/* ---- shift and scale ---- */

/* One track's records: frames in time order and where they live. */
typedef struct tkey {
    uint32_t frame;
    size_t rec; /* record index in its section */
} tkey;

/* New frames for one track's keys k[0..n) in time order: out[i] is the
 * new frame, or -1 for a key dropped.  false when a frame passes the last
 * frame number. */
static bool place(const tkey *k, size_t n, int64_t shift, double scale, int64_t *out,
                  pk_time_stats *st)
{
    for (size_t i = 0; i < n; i++) {
        double x = ((double)k[i].frame + (double)shift) * scale;
        double r = floor(x + 0.5);
        if (r > (double)UINT32_MAX)
            return false;
        out[i] = (int64_t)r;
        if (fabs(r - x) > 1e-9) {
            st->rounded++;
            st->max_round = fmax(st->max_round, fabs(r - x));
        }
    }
    if (scale != 1.0) /* cuts stay one frame apart */
        for (size_t i = 0; i + 1 < n; i++) {
            bool pair = k[i + 1].frame == k[i].frame + 1;
            bool alone = (i == 0 || k[i - 1].frame + 1 < k[i].frame) &&
                         (i + 2 >= n || k[i + 2].frame > k[i + 1].frame + 1);
            if (!pair || !alone)
                continue;
            if (scale > 1.0) {
                if (out[i + 1] != out[i] + 1)
                    st->cuts_kept++;
                out[i + 1] = out[i] + 1;
            } else {
                if (out[i] != out[i + 1] - 1)
                    st->cuts_kept++;
                out[i] = out[i + 1] - 1;
            }
        }
    /* collisions: the latest key keeps its frame */
    size_t *stack = malloc((n ? n : 1) * sizeof *stack), top = 0;
    if (!stack)
        return false;
    for (size_t i = 0; i < n; i++) {
        size_t last_popped = SIZE_MAX;
        while (top > 0 && out[stack[top - 1]] >= out[i]) {
            last_popped = stack[--top];
            out[last_popped] = -1;
            st->merged++;
        }
        int64_t before = top > 0 ? out[stack[top - 1]] : -1;
        if (last_popped != SIZE_MAX && out[i] - 1 > before) {
            out[last_popped] = out[i] - 1;
            st->merged--;
            stack[top++] = last_popped;
        }
        if (out[i] < 0) { /* a cut pushed before frame 0 */
            out[i] = -1;
            st->merged++;
            continue;
        }
        stack[top++] = i;
    }
    free(stack);
    return true;
}

static int cmp_tkey(const void *x, const void *y)
{
    const tkey *a = x, *b = y;
    return a->frame < b->frame ? -1 : a->frame > b->frame ? 1 : a->rec < b->rec ? -1 : 1;
}

/* Sets the frame of every record of one section (records of `size`
 * bytes, name at name_off or none when name_off == SIZE_MAX, frame at
 * frame_off): drop[r] marks records to drop.  false on OOM or a frame too
 * large (*too_big). */
static bool move_section(uint8_t *base, size_t n, size_t size, size_t name_off, size_t frame_off,
                         int64_t shift, double scale, bool *drop, pk_time_stats *st, bool *too_big)
{
    if (n == 0)
        return true;
    tkey *k = malloc(n * sizeof *k);
    int64_t *nf = malloc(n * sizeof *nf);
    size_t *name = malloc(n * sizeof *name);
    bool ok = k && nf && name;
    if (ok) {
        for (size_t r = 0; r < n; r++) {
            pk_name_id id = 0;
            if (name_off != SIZE_MAX)
                memcpy(&id, base + r * size + name_off, sizeof id);
            name[r] = id;
            memcpy(&k[r].frame, base + r * size + frame_off, sizeof k[r].frame);
            k[r].rec = r;
        }
        /* sort by (name, frame): one track after another */
        tkey *all = k;
        {
            /* counting by name: tracks grouped, then each sorted by frame */
            size_t maxn = 0;
            for (size_t r = 0; r < n; r++)
                maxn = name[r] + 1 > maxn ? name[r] + 1 : maxn;
            size_t *start = calloc(maxn + 1, sizeof *start);
            ok = start != NULL;
            if (ok) {
                for (size_t r = 0; r < n; r++)
                    start[name[r] + 1]++;
                for (size_t i = 0; i < maxn; i++)
                    start[i + 1] += start[i];
                tkey *grouped = malloc(n * sizeof *grouped);
                ok = grouped != NULL;
                if (ok) {
                    size_t *fill = calloc(maxn + 1, sizeof *fill);
                    ok = fill != NULL;
                    for (size_t r = 0; ok && r < n; r++)
                        grouped[start[name[r]] + fill[name[r]]++] = all[r];
                    for (size_t t = 0; ok && t < maxn; t++) {
                        size_t s0 = start[t], cnt = start[t + 1] - s0;
                        if (!cnt)
                            continue;
                        qsort(grouped + s0, cnt, sizeof *grouped, cmp_tkey);
                        if (!place(grouped + s0, cnt, shift, scale, nf + s0, st)) {
                            ok = false;
                            *too_big = true;
                        }
                    }
                    for (size_t i = 0; ok && i < n; i++) {
                        size_t r = grouped[i].rec;
                        if (nf[i] < 0) {
                            drop[r] = true;
                        } else {
                            uint32_t f = (uint32_t)nf[i];
                            memcpy(base + r * size + frame_off, &f, sizeof f);
                        }
                    }
                    free(fill);
                }
                free(grouped);
            }
            free(start);
        }
    }
    free(k);
    free(nf);
    free(name);
    return ok;
}

#define COMPACT(arr, n, drop)                                                                      \
    do {                                                                                           \
        size_t w_ = 0;                                                                             \
        for (size_t r_ = 0; r_ < (n); r_++)                                                        \
            if (!(drop)[r_])                                                                       \
                (arr)[w_++] = (arr)[r_];                                                           \
        (n) = w_;                                                                                  \
    } while (0)

static int move_all(pk_motion *m, int64_t shift, double scale, pk_time_stats *st, pk_log *log)
{
    size_t most = m->nbones;
    size_t counts[] = {m->nmorphs, m->ncameras, m->nlights, m->nshadows, m->niks};
    for (size_t i = 0; i < 5; i++)
        most = counts[i] > most ? counts[i] : most;
    bool *drop = calloc(most ? most : 1, sizeof *drop);
    if (!drop) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    bool big = false, ok = true;
#define MOVE(arr, n, T, name_off)                                                                  \
    do {                                                                                           \
        memset(drop, 0, most * sizeof *drop);                                                      \
        ok = ok && move_section((uint8_t *)(arr), (n), sizeof(T), name_off, offsetof(T, frame),    \
                                shift, scale, drop, st, &big);                                     \
    } while (0)
    MOVE(m->bones, m->nbones, pk_bone_key, offsetof(pk_bone_key, name));
    if (ok)
        COMPACT(m->bones, m->nbones, drop);
    MOVE(m->morphs, m->nmorphs, pk_morph_key, offsetof(pk_morph_key, name));
    if (ok)
        COMPACT(m->morphs, m->nmorphs, drop);
    MOVE(m->cameras, m->ncameras, pk_camera_key, SIZE_MAX);
    if (ok)
        COMPACT(m->cameras, m->ncameras, drop);
    MOVE(m->lights, m->nlights, pk_light_key, SIZE_MAX);
    if (ok)
        COMPACT(m->lights, m->nlights, drop);
    MOVE(m->shadows, m->nshadows, pk_shadow_key, SIZE_MAX);
    if (ok)
        COMPACT(m->shadows, m->nshadows, drop);
    MOVE(m->iks, m->niks, pk_ik_key, SIZE_MAX);
    if (ok) {
        size_t w = 0;
        for (size_t r = 0; r < m->niks; r++) {
            if (drop[r])
                free(m->iks[r].ik);
            else
                m->iks[w++] = m->iks[r];
        }
        m->niks = w;
    }
#undef MOVE
    free(drop);
    if (big) {
        pk_error(log, PK_E_USAGE, "a key would move past the last frame number (4294967295)");
        return -1;
    }
    if (!ok) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

/* ---- the operation ---- */

void pk_time_options_init(pk_time_options *o)
{
    memset(o, 0, sizeof *o);
    o->last = UINT32_MAX;
    o->scale = 1.0;
}

pk_motion *pk_motion_time(const pk_motion *m, const pk_time_options *o, pk_time_stats *stats,
                          pk_log *log)
{
    pk_time_stats local;
    pk_time_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    for (int i = 0; i < PK_SEC_COUNT; i++)
        st->keys_before[i] = pk_motion_count(m, (pk_section)i);
    if (!(o->scale > 0.0) || !isfinite(o->scale)) {
        pk_error(log, PK_E_USAGE, "the time scale must be a positive number");
        return NULL;
    }
    uint32_t a = o->first, b = o->last;
    if (o->shift < 0 && (uint64_t)-o->shift > a) /* frames below 0 are cut */
        a = -o->shift > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)-o->shift;
    if (a > b) {
        pk_error(log, PK_E_USAGE,
                 "nothing is left: frames %u-%u are empty (a shift of %lld cuts every frame "
                 "before %u)",
                 o->first, o->last, (long long)o->shift, a);
        return NULL;
    }
    pk_motion *out = pk_motion_clone(m);
    if (!out) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    size_t dropped = 0;
    if (pk_motion_drop_duplicates(out, &dropped, log) != 0) {
        pk_motion_free(out);
        return NULL;
    }
    st->duplicates = dropped;
    uint32_t lo, hi;
    bool any = pk_motion_frame_range(out, &lo, &hi);
    if (any && (a > lo || b < hi)) { /* the trim cuts something */
        pk_log quiet;
        pk_log_init(&quiet);
        pk_motion *src = out;
        pk_tracks *t = pk_tracks_build(src, &quiet);
        pk_log_free(&quiet);
        pk_motion *cut = t ? pk_motion_clone(src) : NULL;
        int rc = cut ? 0 : -1;
        if (rc == 0)
            rc = trim_tracks(src, t, cut, a, b, st, log);
        if (rc == 0)
            rc = trim_camera(src, t, cut, a, b, st);
        if (rc == 0)
            rc = trim_others(src, t, cut, a, b);
        pk_tracks_free(t);
        if (rc != 0) {
            if (rc == -1)
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
            pk_motion_free(cut);
            pk_motion_free(out);
            return NULL;
        }
        pk_motion_free(out);
        out = cut;
        st->trimmed = true;
        st->first = a;
        st->last = b;
    }
    if ((o->shift != 0 || o->scale != 1.0) && move_all(out, o->shift, o->scale, st, log) != 0) {
        pk_motion_free(out);
        return NULL;
    }
    for (int i = 0; i < PK_SEC_COUNT; i++)
        st->keys_after[i] = pk_motion_count(out, (pk_section)i);
    return out;
}
