/*
 * diff_world.c — two poses or motions compared in the world, each played
 * on its own model (posekit.h, pk_diff_world): what an audience sees of a
 * retarget, without the stance change showing up as the largest
 * "difference" of the keys.
 *
 * Rows are the bones both models have (by name) that MMD shows on the
 * first (visible), that are part of the body (not センター, グルーブ,
 * 全ての親, 操作中心 or an IK bone: handles) and that draw a line on both
 * (a tail bone, or a tail offset): angle_deg is the angle between their
 * lines' world directions (appends, fixed axes and IK evaluated, as draw
 * shows them).  Hands and feet (手首, 中指先, 足首, つま先, each side) also
 * compare positions, as a distance in B's units: a hand from 上半身, A's
 * times B's arm over A's (腕->ひじ->手首); a foot in the world, A's scaled
 * as the retarget scales translations (pk_retarget_scale: XZ by the
 * straight leg, Y by its height; 1 where either model has no leg).
 * A range keeps each row's largest value, its first frame and the mean.
 */
#include "posekit.h"
#include "util/fmath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wrow {
    long a, b;   /* the bone in each model */
    long ta, tb; /* tail bones (-1: an offset) */
    int place;   /* 0: a direction only; 1: a hand; 2: a foot */
} wrow;

static bool has_line(const pk_model *m, long i, long *tail)
{
    const pk_model_bone *b = &m->bones[i];
    *tail = -1;
    if (b->flags & PK_BONE_TAIL_IS_BONE) {
        *tail = b->tail_bone;
        return b->tail_bone >= 0 && (size_t)b->tail_bone < m->nbones && b->tail_bone != i;
    }
    return b->tail[0] != 0.0f || b->tail[1] != 0.0f || b->tail[2] != 0.0f;
}

static void line_end(const pk_model *m, const pk_bone_world *w, long i, long tail, double out[3])
{
    if (tail >= 0) {
        memcpy(out, w[tail].pos, 3 * sizeof *out);
        return;
    }
    const float *t = m->bones[i].tail;
    const double *q = w[i].rot;
    double v[3] = {t[0], t[1], t[2]};
    /* q v q^-1 */
    double tx = 2.0 * (q[1] * v[2] - q[2] * v[1]), ty = 2.0 * (q[2] * v[0] - q[0] * v[2]);
    double tz = 2.0 * (q[0] * v[1] - q[1] * v[0]);
    out[0] = w[i].pos[0] + v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    out[1] = w[i].pos[1] + v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    out[2] = w[i].pos[2] + v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

static double dir_angle(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3])
{
    double u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = a1[k] - a0[k];
        v[k] = b1[k] - b0[k];
    }
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    return pki_atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]),
                 u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) *
           (180.0 / 3.14159265358979323846);
}

/* 1 for a hand (手首, 中指先), 2 for a foot (足首, つま先), else 0. */
static int hand_or_foot(const char *name)
{
    static const char *const ENDS[] = {"手首", "中指先", "足首", "つま先"};
    if (strncmp(name, "左", 3) != 0 && strncmp(name, "右", 3) != 0)
        return 0;
    for (int i = 0; i < 4; i++)
        if (strcmp(name + 3, ENDS[i]) == 0)
            return i < 2 ? 1 : 2;
    return 0;
}

/* A handle rather than a part of the body: its line means nothing. */
static bool control(const pk_model_bone *b)
{
    static const char *const NAMES[] = {"センター", "グルーブ", "全ての親", "操作中心"};
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
        if (strcmp(b->name, NAMES[i]) == 0)
            return true;
    return (b->flags & PK_BONE_IK) != 0;
}

/* The rows: bones of both models, in A's order. */
static wrow *rows_of(const pk_model *ma, const pk_model *mb, size_t *n)
{
    wrow *r = calloc(ma->nbones + 1, sizeof *r);
    *n = 0;
    if (!r)
        return NULL;
    for (size_t i = 0; i < ma->nbones; i++) {
        const pk_model_bone *b = &ma->bones[i];
        if (b->cp932 == PK_NO_NAME || !(b->flags & 0x0008) || control(b))
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(ma->names, b->cp932, &len);
        long j = pk_model_find_bone(mb, raw, len), ta, tb;
        if (j < 0 || !has_line(ma, (long)i, &ta) || !has_line(mb, j, &tb))
            continue;
        r[*n] = (wrow){(long)i, j, ta, tb, hand_or_foot(b->name)};
        ++*n;
    }
    return r;
}

static long find(const pk_model *m, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0)
        return -1;
    long i = pk_model_find_bone(m, raw, len);
    free(raw);
    return i;
}

/* 腕->ひじ->手首 of one side, or 0. */
static double arm_of(const pk_model *m, const char *side)
{
    static const char *const SEG[3] = {"腕", "ひじ", "手首"};
    long b[3];
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s", side, SEG[i]);
        if ((b[i] = find(m, name)) < 0)
            return 0;
    }
    double len = 0;
    for (int i = 0; i < 2; i++) {
        double d = 0;
        for (int k = 0; k < 3; k++) {
            double x = (double)m->bones[b[i + 1]].pos[k] - m->bones[b[i]].pos[k];
            d += x * x;
        }
        len += sqrt(d);
    }
    return len;
}

/* B's arm over A's (the mean of the sides both have), else 1. */
static double arm_ratio(const pk_model *a, const pk_model *b)
{
    double la = arm_of(a, "左") + arm_of(a, "右"), lb = arm_of(b, "左") + arm_of(b, "右");
    return la > 0 && lb > 0 ? lb / la : 1.0;
}

typedef struct side {
    const pk_model *m;
    const pk_doc *doc;
    pk_rig *rig;
    pk_tracks *t;
    pk_bone_local *loc;
    pk_bone_world *w;
    bool *on;
} side;

static bool side_init(side *s, const pk_model *m, const pk_doc *doc, pk_log *log)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->doc = doc;
    s->rig = pk_rig_new(m, log);
    s->loc = calloc(m->nbones + 1, sizeof *s->loc);
    s->w = calloc(m->nbones + 1, sizeof *s->w);
    s->on = calloc(m->nbones + 1, sizeof *s->on);
    if (s->rig && doc->motion)
        s->t = pk_tracks_build(doc->motion, NULL);
    return s->rig && s->loc && s->w && s->on && (!doc->motion || s->t);
}

static void side_free(side *s)
{
    pk_rig_free(s->rig);
    pk_tracks_free(s->t);
    free(s->loc);
    free(s->w);
    free(s->on);
}

static void side_at(side *s, uint32_t frame)
{
    if (s->doc->motion) {
        pk_rig_motion_local(s->rig, s->doc->motion, s->t, frame, s->loc, s->on);
        pk_rig_eval(s->rig, s->loc, s->on, 0, s->w);
    } else {
        pk_rig_pose_local(s->rig, s->doc->pose, s->loc);
        pk_rig_eval(s->rig, s->loc, NULL, 0, s->w);
    }
}

pk_diff *pk_diff_world(const pk_model *ma, const pk_doc *a, const pk_model *mb, const pk_doc *b,
                       uint32_t first, uint32_t last, const pk_diff_options *o, pk_log *log)
{
    if (last < first || last - first >= PK_DIFF_MAX_FRAMES) {
        pk_error(log, PK_E_USAGE, "frames %u-%u: not a range to compare", first, last);
        return NULL;
    }
    double s[3] = {1, 1, 1}, arm = arm_ratio(ma, mb);
    long ua = find(ma, "上半身"), ub = find(mb, "上半身");
    pk_leg_scale sc;
    pk_log quiet;
    pk_log_init(&quiet);
    if (pk_retarget_scale(ma, mb, &sc, &quiet) == 0) {
        s[0] = s[2] = sc.xz;
        s[1] = sc.y;
    }
    pk_log_free(&quiet);
    size_t n = 0;
    wrow *rows = rows_of(ma, mb, &n);
    pk_diff *d = calloc(1, sizeof *d);
    side sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    bool ok = rows && d;
    ok = ok && side_init(&sa, ma, a, log);
    ok = ok && side_init(&sb, mb, b, log);
    if (ok) {
        d->bones = calloc(n + 1, sizeof *d->bones);
        ok = d->bones != NULL;
    }
    for (size_t i = 0; ok && i < n; i++) {
        pk_diff_bone *row = &d->bones[d->nbones++];
        const pk_model_bone *bone = &ma->bones[rows[i].a];
        size_t len;
        const uint8_t *raw = pk_names_raw(ma->names, bone->cp932, &len);
        row->name = malloc(strlen(bone->name) + 1);
        row->raw = malloc(len + 1);
        ok = row->name && row->raw;
        if (ok) {
            memcpy(row->name, bone->name, strlen(bone->name) + 1);
            memcpy(row->raw, raw, len);
            row->raw_len = len;
        }
    }
    if (!ok) {
        free(rows);
        pk_diff_free(d);
        side_free(&sa);
        side_free(&sb);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    d->range = first != last;
    d->first = first;
    d->last = last;
    size_t frames = 0;
    for (uint32_t f = first;; f++) {
        side_at(&sa, f);
        side_at(&sb, f);
        frames++;
        for (size_t i = 0; i < n; i++) {
            const wrow *r = &rows[i];
            pk_diff_bone *row = &d->bones[i];
            double ea[3], eb[3];
            line_end(ma, sa.w, r->a, r->ta, ea);
            line_end(mb, sb.w, r->b, r->tb, eb);
            double ang = dir_angle(sa.w[r->a].pos, ea, sb.w[r->b].pos, eb);
            double dist = 0;
            if (r->place == 2 || (r->place == 1 && (ua < 0 || ub < 0))) {
                for (int k = 0; k < 3; k++) {
                    double x = sb.w[r->b].pos[k] - s[k] * sa.w[r->a].pos[k];
                    dist += x * x;
                }
                dist = sqrt(dist);
            } else if (r->place == 1) {
                for (int k = 0; k < 3; k++) {
                    double x = (sb.w[r->b].pos[k] - sb.w[ub].pos[k]) -
                               arm * (sa.w[r->a].pos[k] - sa.w[ua].pos[k]);
                    dist += x * x;
                }
                dist = sqrt(dist);
            }
            if (ang > row->angle_deg || frames == 1) {
                row->angle_deg = ang;
                row->angle_frame = f;
            }
            if (dist > row->pos_delta || frames == 1) {
                row->pos_delta = dist;
                row->pos_frame = f;
            }
            row->angle_mean += ang;
            row->pos_mean += dist;
        }
        if (f == last)
            break;
    }
    for (size_t i = 0; i < n; i++) {
        pk_diff_bone *row = &d->bones[i];
        row->angle_mean /= (double)frames;
        row->pos_mean /= (double)frames;
        row->differs = row->angle_deg > o->threshold_deg || row->pos_delta > o->pos_threshold;
        d->bones_differ += row->differs;
    }
    free(rows);
    side_free(&sa);
    side_free(&sb);
    return d;
}
