/*
 * draw.c — pictures of poses (posekit.h, "Pictures of poses"): every
 * figure is evaluated (engine/ops/skeleton/eval.c) into a drawing that owns all
 * it needs (names, world positions, line ends, differences), so it can be
 * written as SVG or JSON after the models are gone.
 *
 * SVG: hand-written SVG 1.1 (<line>, <circle>, <path>, <text>), sized to
 * what it holds.  One panel per figure and view, all at one scale (units
 * to pixels), the ground (y = 0) as a dashed line, a scale bar, a legend
 * for every colour drawn.  Views: front (the model faces the viewer, its right
 * side on the viewer's left), side (seen from its left, front to the
 * right), top (from above, front down).  SVG numbers are printed with
 * %.1f, which does not depend on the locale (posekit never calls
 * setlocale); JSON numbers as every engine JSON (pki_json_num: null for
 * NaN).
 */
#include "posekit.h"
#include "math/quat.h"
#include "model/names.h"
#include "util/json.h"
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/skeleton/contacts.h"
#include "util/fmath.h"

enum { MAX_FIGURES = 60, STRIP_COLUMNS = 6 };

typedef struct dbone {
    char *name;     /* UTF-8 */
    char *name_en;  /* may be "" */
    int32_t parent; /* -1: a root */
    int side;       /* 0 centre, 1 left (左), 2 right (右) */
    bool chosen;    /* in --bones (every bone without one): in the JSON */
    bool drawn;     /* chosen and visible: a line (or a dot) in the picture */
    bool other;     /* not a body bone: light grey */
    bool control;   /* a handle, not body (control_bones): a mark, no line */
    bool ik;        /* an IK bone: drawn as its goal's marker */
    bool limb_goal; /* ik: its chain moves body bones (legs); else hair, clothes */
    long match;     /* the other model's bone of the same name, or -1 */
} dbone;

typedef struct dmodel {
    char *label; /* the model's file name */
    dbone *bones;
    size_t nbones;
} dmodel;

/* A contact of the figure drawn: the point of the hand that touches and
 * the nearest point of what it touches, the gap as a fraction of the
 * model's arm (and, on the vs figure, the gap the pose's contact has). */
typedef struct dmark {
    int side, with;
    double hand[3], on[3];
    double gap, gap_a; /* of the arm */
} dmark;

typedef struct dfig {
    int who; /* 0: the pose, 1: --vs */
    dmark marks[8];
    int nmarks;
    uint32_t frame; /* motions: the frame */
    bool motion;
    double (*pos)[3], (*end)[3], (*rot)[4];
    bool *has_end, *ik_on;
    double *diff; /* who 0 with a vs: the keys' difference (as diff), degrees, NaN: none */
    double *dir;  /* who 0 with a vs: the difference as drawn (drawn_diff), degrees */
} dfig;

struct pk_drawing {
    dmodel m[2]; /* m[1] used with a vs */
    bool vs;
    char *name[2];
    dfig *figs;
    size_t nfigs;
    pk_draw_view view;
    bool range;
    uint32_t first, last, every, frame;
    bool any_motion;
    double max_diff;
};

static char *dup(const char *s)
{
    char *d = malloc(strlen(s ? s : "") + 1);
    if (d)
        strcpy(d, s ? s : "");
    return d;
}

void pk_drawing_free(pk_drawing *d)
{
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < d->m[k].nbones; i++) {
            free(d->m[k].bones[i].name);
            free(d->m[k].bones[i].name_en);
        }
        free(d->m[k].bones);
        free(d->m[k].label);
        free(d->name[k]);
    }
    for (size_t f = 0; f < d->nfigs; f++) {
        free(d->figs[f].pos);
        free(d->figs[f].end);
        free(d->figs[f].rot);
        free(d->figs[f].has_end);
        free(d->figs[f].ik_on);
        free(d->figs[f].diff);
        free(d->figs[f].dir);
    }
    free(d->figs);
    free(d);
}

static int side_of(const char *name)
{
    if (strncmp(name, "左", strlen("左")) == 0)
        return 1;
    if (strncmp(name, "右", strlen("右")) == 0)
        return 2;
    return 0;
}

static int32_t named(const pk_model *m, const char *name)
{
    for (size_t i = 0; i < m->nbones; i++)
        if (strcmp(m->bones[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

/* Bones that are handles, not body: MMD draws a line from each to its
 * tail, but those lines are not limbs (センター's tail is an 8-unit pole
 * down through the floor, 全ての親's runs from the origin to センター, an
 * IK parent's along the floor).  They are, among the body bones that are
 * not IK bones:
 *  - the bone where the upper and lower body part (the nearest common
 *    ancestor of 上半身 and 下半身: グルーブ, 腰 or センター) and every
 *    bone above it (センター, 全ての親);
 *  - a bone whose children are all IK bones or handles (足IK親);
 *  - a root without children (操作中心);
 *  - by name, in a model without 上半身 or 下半身: 全ての親, 操作中心,
 *    センター, グルーブ. */
static void control_bones(dmodel *dm, const pk_model *m)
{
    static const char *const HANDLES[] = {"全ての親", "操作中心", "センター", "グルーブ"};
    size_t n = m->nbones;
    int32_t up = named(m, "上半身"), low = named(m, "下半身");
    if (up < 0 || low < 0)
        for (size_t k = 0; k < sizeof HANDLES / sizeof HANDLES[0]; k++) {
            int32_t h = named(m, HANDLES[k]);
            if (h >= 0 && !dm->bones[h].ik && !dm->bones[h].other)
                dm->bones[h].control = true;
        }
    if (up >= 0 && low >= 0) {
        int32_t lca = -1;
        for (int32_t a = m->bones[low].parent, d = 0; a >= 0 && lca < 0 && (size_t)d < n;
             a = m->bones[a].parent, d++)
            for (int32_t b = m->bones[up].parent, e = 0; b >= 0 && (size_t)e < n;
                 b = m->bones[b].parent, e++)
                if (a == b) {
                    lca = a;
                    break;
                }
        for (int32_t a = lca, d = 0; a >= 0 && (size_t)d < n; a = m->bones[a].parent, d++)
            dm->bones[a].control = true;
    }
    /* handles above handles: repeat until nothing changes (a chain of IK
     * parents is as long as the model allows) */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            dbone *db = &dm->bones[i];
            if (db->control || db->ik || db->other)
                continue;
            size_t kids = 0, handles = 0;
            for (size_t c = 0; c < n; c++)
                if (c != i && m->bones[c].parent == (int32_t)i) {
                    kids++;
                    handles += dm->bones[c].ik || dm->bones[c].control;
                }
            if ((kids && handles == kids) || (!kids && m->bones[i].parent < 0)) {
                db->control = true;
                changed = true;
            }
        }
    }
    /* an IK goal of a body chain (legs, toes) or of hair and clothes */
    for (size_t i = 0; i < n; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!dm->bones[i].ik)
            continue;
        bool body = b->ik_target >= 0 && (size_t)b->ik_target < n &&
                    !dm->bones[b->ik_target].other && !dm->bones[b->ik_target].control;
        for (size_t k = 0; k < b->nik_links && !body; k++) {
            int32_t l = b->ik_links[k].bone;
            body = l >= 0 && (size_t)l < n && !dm->bones[l].other && !dm->bones[l].control;
        }
        dm->bones[i].limb_goal = body;
    }
}

static bool copy_model(dmodel *dm, const pk_model *m, const char *label, const pk_selection *sel,
                       const pk_selection *body)
{
    dm->label = dup(label);
    dm->nbones = m->nbones;
    dm->bones = calloc(m->nbones ? m->nbones : 1, sizeof *dm->bones);
    if (!dm->label || !dm->bones)
        return false;
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        dbone *db = &dm->bones[i];
        db->name = dup(b->name);
        db->name_en = dup(b->name_en);
        if (!db->name || !db->name_en)
            return false;
        db->side = side_of(b->name);
        db->parent = b->parent >= 0 && (size_t)b->parent < m->nbones ? b->parent : -1;
        db->ik = (b->flags & PK_BONE_IK) != 0;
        db->match = -1;
        size_t len = 0;
        const uint8_t *raw = b->cp932 == PK_NO_NAME ? NULL : pk_names_raw(m->names, b->cp932, &len);
        db->chosen = !sel || (raw && pk_selection_has(sel, raw, len));
        db->other = body && !(raw && pk_selection_has(body, raw, len));
        db->drawn = db->chosen && (b->flags & PK_BONE_VISIBLE) != 0;
    }
    control_bones(dm, m);
    return true;
}

static bool fig_alloc(dfig *f, size_t n, bool diff)
{
    n = n ? n : 1;
    f->pos = calloc(n, sizeof *f->pos);
    f->end = calloc(n, sizeof *f->end);
    f->rot = calloc(n, sizeof *f->rot);
    f->has_end = calloc(n, sizeof *f->has_end);
    f->ik_on = calloc(n, sizeof *f->ik_on);
    f->diff = diff ? calloc(n, sizeof *f->diff) : NULL;
    f->dir = diff ? calloc(n, sizeof *f->dir) : NULL;
    return f->pos && f->end && f->rot && f->has_end && f->ik_on && (!diff || (f->diff && f->dir));
}

/* A selection that leaves nothing to draw is an error, as in diff: an
 * empty frame saying "1 figure drawn" looks like success.  Selected bones
 * that MMD hides (not visible) are named apart: the name was right. */
static bool selection_drawn(const pk_drawing *d, const pk_draw_options *o, pk_log *log)
{
    if (!o->bones && !o->vs_bones)
        return true;
    size_t chosen = 0;
    for (int k = 0; k < (d->vs ? 2 : 1); k++) {
        const pk_model *m = k == 0 ? o->a.model : o->b.model;
        const pk_selection *sel = k == 0 ? o->bones : o->vs_bones;
        for (size_t i = 0; i < d->m[k].nbones; i++) {
            if (d->m[k].bones[i].drawn)
                return true;
            size_t len;
            const uint8_t *raw = pki_model_bone_raw(m, i, &len);
            chosen += !sel || (raw && pk_selection_has(sel, raw, len));
        }
    }
    char models[512];
    snprintf(models, sizeof models, "%s", d->m[0].label);
    if (d->vs && strcmp(d->m[0].label, d->m[1].label) != 0)
        snprintf(models + strlen(models), sizeof models - strlen(models), " or %s", d->m[1].label);
    const char *spec = o->bones_spec ? o->bones_spec : "";
    if (chosen)
        pk_error(log, PK_E_NOT_FOUND,
                 "the selection '%s' matches %zu bone%s of %s, none of them visible (MMD "
                 "hides them): nothing to draw",
                 spec, chosen, chosen == 1 ? "" : "s", models);
    else
        pk_error(log, PK_E_NOT_FOUND, "the selection '%s' matches no bone of %s: nothing to draw",
                 spec, models);
    return false;
}

/* Where a bone whose file names no tail (PMD writes 0 for none) points:
 * its one visible child, or nowhere (-1: a dot) when it has none or
 * several (a knee's foot and helper bones: a guess would draw a wrong
 * line). */
static int32_t only_visible_child(const pk_model *m, size_t i)
{
    int32_t found = -1;
    for (size_t c = 0; c < m->nbones; c++) {
        if (c == i || m->bones[c].parent != (int32_t)i || !(m->bones[c].flags & PK_BONE_VISIBLE))
            continue;
        if (found >= 0)
            return -1;
        found = (int32_t)c;
    }
    return found;
}

/* One figure: the local pose of doc at frame, evaluated. */
static bool figure(dfig *f, pk_rig *r, const pk_model *m, const pk_doc *doc, const pk_tracks *t,
                   uint32_t frame, pk_bone_local *loc, pk_bone_world *w)
{
    bool *on = f->ik_on;
    if (doc->motion) {
        pk_rig_motion_local(r, doc->motion, t, frame, loc, on);
    } else {
        pk_rig_pose_local(r, doc->pose, loc);
        for (size_t i = 0; i < m->nbones; i++)
            on[i] = true;
    }
    f->frame = frame;
    f->motion = doc->motion != NULL;
    pk_rig_eval(r, loc, on, 0, w);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        memcpy(f->pos[i], w[i].pos, sizeof f->pos[i]);
        memcpy(f->rot[i], w[i].rot, sizeof f->rot[i]);
        if (b->flags & PK_BONE_TAIL_IS_BONE) {
            int32_t tb = b->tail_bone >= 0 ? b->tail_bone : only_visible_child(m, i);
            f->has_end[i] = tb >= 0 && (size_t)tb < m->nbones && (size_t)tb != i;
            if (f->has_end[i])
                memcpy(f->end[i], w[tb].pos, sizeof f->end[i]);
        } else {
            double v[3] = {b->tail[0], b->tail[1], b->tail[2]}, o[3];
            f->has_end[i] = v[0] != 0.0 || v[1] != 0.0 || v[2] != 0.0;
            pki_qd_rotate(w[i].rot, v, o);
            for (int a = 0; a < 3; a++)
                f->end[i][a] = w[i].pos[a] + o[a];
        }
    }
    return true;
}

/* ---- contacts (ops/skeleton/contacts.c): where the pose's hands touch
 * something, and the same gap on the vs figure ---- */

static void world_of_fig(const dfig *g, size_t n, pk_bone_world *w)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(w[i].pos, g->pos[i], sizeof w[i].pos);
        memcpy(w[i].rot, g->rot[i], sizeof w[i].rot);
    }
}

/* The mark of a touch on one figure. */
static void mark_of(const pki_figure *f, const pki_play *p, int side, int with, const pki_touch *t,
                    dmark *m)
{
    double w[2][3] = {{0}}, e[2][3] = {{0}};
    for (int s = 0; s < 2; s++)
        if (f->arm[s].ok)
            pki_hand_at(f, p, 0, s, w[s], e[s]);
    m->side = side;
    m->with = with;
    for (int k = 0; k < 3; k++) {
        m->hand[k] = w[side][k] + t->at[0] * (e[side][k] - w[side][k]);
        m->on[k] = with == PKI_WITH_HAND ? w[!side][k] + t->at[1] * (e[!side][k] - w[!side][k])
                                         : t->surf[k];
    }
    m->gap = t->gap / f->arm_len;
}

/* The pose's contacts at a frame (fa on figure ga) and, on the vs figure
 * gb (fb), the gap of each; w holds room for either model's bones. */
static void mark_contacts(const pki_figure *fa, const pki_figure *fb, dfig *ga, dfig *gb,
                          pk_bone_world *wa, pk_bone_world *wb, int32_t *slot)
{
    size_t na = fa->m->nbones, nb = fb->m->nbones;
    world_of_fig(ga, na, wa);
    world_of_fig(gb, nb, wb);
    for (size_t i = 0; i < (na > nb ? na : nb); i++)
        slot[i] = (int32_t)i;
    pki_play pa = {.m = fa->m, .n = 1, .nwatch = na, .slot = slot, .w = wa};
    pki_play pb = {.m = fb->m, .n = 1, .nwatch = nb, .slot = slot, .w = wb};
    ga->nmarks = gb->nmarks = 0;
    for (int side = 0; side < 2; side++)
        for (int with = 0; with <= PKI_WITH_FLOOR; with++) {
            if ((with == PKI_WITH_HAND && side) || !fa->arm[side].ok || !fb->arm[side].ok ||
                ga->nmarks >= (int)(sizeof ga->marks / sizeof *ga->marks))
                continue;
            pki_touch ta, tb;
            double reach = pki_reach(fa, with), g = pki_touch_at(fa, &pa, 0, side, with, &ta);
            if (!(g < reach) || g < -reach)
                continue;
            if (!isfinite(pki_touch_at(fb, &pb, 0, side, with, &tb)))
                continue;
            mark_of(fa, &pa, side, with, &ta, &ga->marks[ga->nmarks++]);
            dmark *m = &gb->marks[gb->nmarks++];
            mark_of(fb, &pb, side, with, &tb, m);
            m->gap_a = g / fa->arm_len;
        }
}

/* How differently bone i of figure a and bone j of figure b are drawn,
 * in degrees: the angle between their lines (world directions, after IK:
 * a knee the IK bends differently shows although both keys are at rest),
 * or between their world rotations where either has no line. */
static double drawn_diff(const dfig *a, size_t i, const dfig *b, size_t j)
{
    double u[3], v[3], uu = 0, vv = 0, uv = 0;
    for (int k = 0; k < 3; k++) {
        u[k] = a->end[i][k] - a->pos[i][k];
        v[k] = b->end[j][k] - b->pos[j][k];
        uu += u[k] * u[k];
        vv += v[k] * v[k];
        uv += u[k] * v[k];
    }
    double c;
    if (a->has_end[i] && b->has_end[j] && uu > 1e-18 && vv > 1e-18) {
        c = uv / sqrt(uu * vv);
        c = c > 1 ? 1 : c < -1 ? -1 : c;
        return pki_acos(c) * 180.0 / 3.14159265358979323846;
    }
    const double *p = a->rot[i], *q = b->rot[j];
    c = fabs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
    return 2.0 * pki_acos(c > 1 ? 1 : c) * 180.0 / 3.14159265358979323846;
}

/* The frames a drawing shows: one, or first..last every `every`. */
typedef struct span {
    bool range;
    uint32_t frame, first, last, every;
    bool to_end; /* about 8 figures: the range's last frame is one of them */
} span;

/* The frames to draw: one, or first..last every k. */
static size_t frame_list(const span *sp, uint32_t *out)
{
    if (!sp->range) {
        out[0] = sp->frame;
        return 1;
    }
    size_t n = 0;
    for (uint64_t f = sp->first; f <= sp->last && n < MAX_FIGURES + 1; f += sp->every)
        out[n++] = (uint32_t)f;
    if (sp->to_end && n && out[n - 1] != sp->last && n < MAX_FIGURES + 1)
        out[n++] = sp->last;
    return n;
}

/* A range that runs past the last key: after it a motion holds its last
 * pose (as in MMD), so every figure there would be the same picture (a
 * user who types 0-10000 for "to the end" would get copies of the last
 * pose and none of the dance).  The range stops at the last key of the
 * longer motion, with a warning; a range that starts after it holds no
 * frame of the motion and is an error.  Poses hold at every frame and
 * set no end.  false (logged) on error. */
static bool fit_range(const pk_draw_options *o, span *sp, pk_log *log)
{
    const pk_draw_input *in[2] = {&o->a, &o->b};
    const char *who = NULL;
    uint32_t end = 0;
    for (int k = 0; k < 2; k++) {
        uint32_t lo, hi;
        const pk_motion *m = in[k]->doc ? in[k]->doc->motion : NULL;
        if (m && pk_motion_frame_range(m, &lo, &hi) && (!who || hi > end)) {
            end = hi;
            who = in[k]->name ? in[k]->name : "the motion";
        }
    }
    if (!sp->range || !who || sp->last <= end)
        return true;
    if (sp->first > end) {
        pk_error(log, PK_E_USAGE,
                 "frames %u-%u lie after the last key of %s (frame %u): a motion holds its "
                 "last pose there, so every figure would be that pose (--frame %u draws it once)",
                 sp->first, sp->last, who, end, sp->first);
        return false;
    }
    pk_warning(log, PK_E_LOSS,
               "frames %u-%u run past the last key of %s (frame %u), after which a motion "
               "holds its last pose: drawing frames %u-%u",
               sp->first, sp->last, who, end, sp->first, end);
    sp->last = end;
    return true;
}

pk_drawing *pk_draw(const pk_draw_options *o, pk_log *log)
{
    const pk_draw_input *in[2] = {&o->a, &o->b};
    bool vs = o->b.doc != NULL;
    if (!o->a.model || !o->a.doc || (vs && !o->b.model)) {
        pk_error(log, PK_E_USAGE, "a pose and a model are needed");
        return NULL;
    }
    span sp = {o->range, o->frame, o->first, o->last, o->every, o->every == 0};
    if (!fit_range(o, &sp, log))
        return NULL;
    if (sp.every == 0) { /* about 8 figures, the last at the range's end */
        uint64_t span_len = (uint64_t)sp.last - sp.first;
        sp.every = (uint32_t)(span_len ? (span_len + 6) / 7 : 1);
    }
    uint32_t frames[MAX_FIGURES + 1];
    size_t nframes = frame_list(&sp, frames);
    if (nframes > MAX_FIGURES) {
        uint64_t n = (uint64_t)sp.last - sp.first + 1;
        pk_error(log, PK_E_USAGE,
                 "frames %u-%u every %u would make more than %d figures: take every %llu", sp.first,
                 sp.last, sp.every, MAX_FIGURES,
                 (unsigned long long)((n + MAX_FIGURES - 1) / MAX_FIGURES));
        return NULL;
    }
    pk_drawing *d = calloc(1, sizeof *d);
    if (!d) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    d->vs = vs;
    d->view = o->view;
    d->range = sp.range;
    d->first = sp.first;
    d->last = sp.last;
    d->every = sp.every;
    d->frame = sp.frame;
    bool ok = true;
    for (int k = 0; k < (vs ? 2 : 1) && ok; k++) {
        d->name[k] = dup(in[k]->name);
        ok = d->name[k] && copy_model(&d->m[k], in[k]->model, in[k]->model_name,
                                      k == 0 ? o->bones : o->vs_bones, o->body);
        d->any_motion = d->any_motion || in[k]->doc->motion;
    }
    if (ok && !selection_drawn(d, o, log)) {
        pk_drawing_free(d);
        return NULL;
    }
    /* the same bone in the other model, by CP932 name */
    for (size_t i = 0; vs && ok && i < o->a.model->nbones; i++) {
        const pk_model_bone *b = &o->a.model->bones[i];
        size_t len = 0;
        const uint8_t *raw =
            b->cp932 == PK_NO_NAME ? NULL : pk_names_raw(o->a.model->names, b->cp932, &len);
        long j = raw ? pk_model_find_bone(o->b.model, raw, len) : -1;
        d->m[0].bones[i].match = j;
        if (j >= 0)
            d->m[1].bones[j].match = (long)i;
    }
    /* a pose holds at every frame: one figure for it */
    bool a_motion = o->a.doc->motion != NULL, b_motion = vs && o->b.doc->motion;
    size_t nfig = (a_motion || b_motion) ? nframes : 1;
    d->figs = calloc(nfig * (vs ? 2 : 1), sizeof *d->figs);
    ok = ok && d->figs;
    pk_rig *rig[2] = {NULL, NULL};
    pk_tracks *tr[2] = {NULL, NULL};
    pk_bone_local *loc[2] = {NULL, NULL};
    pk_bone_world *w = NULL;
    size_t wn = o->a.model->nbones;
    if (vs && o->b.model->nbones > wn)
        wn = o->b.model->nbones;
    w = calloc(wn ? wn : 1, sizeof *w);
    ok = ok && w;
    /* contacts: with a vs on a model of its own, both models' figures */
    pki_figure *fig = NULL;
    pk_bone_world *cw = NULL;
    int32_t *slot = NULL;
    bool contacts = vs && o->a.model != o->b.model;
    if (ok && contacts) {
        fig = calloc(2, sizeof *fig);
        cw = calloc(2 * wn + 1, sizeof *cw);
        slot = calloc(wn + 1, sizeof *slot);
        ok = fig && cw && slot;
        if (ok) {
            pki_figure_init(&fig[0], o->a.model);
            pki_figure_init(&fig[1], o->b.model);
            contacts = fig[0].arm_len > 0 && fig[1].arm_len > 0;
        }
    }
    for (int k = 0; k < (vs ? 2 : 1) && ok; k++) {
        rig[k] = pk_rig_new(in[k]->model, log);
        loc[k] = calloc(in[k]->model->nbones ? in[k]->model->nbones : 1, sizeof *loc[k]);
        ok = rig[k] && loc[k];
        if (ok && in[k]->doc->motion)
            ok = (tr[k] = pk_tracks_build(in[k]->doc->motion, log)) != NULL;
    }
    for (size_t fi = 0; ok && fi < nfig; fi++) {
        uint32_t frame = frames[fi];
        for (int k = 0; k < (vs ? 2 : 1) && ok; k++) {
            dfig *f = &d->figs[d->nfigs];
            f->who = k;
            ok = fig_alloc(f, in[k]->model->nbones, vs && k == 0);
            d->nfigs++;
            if (ok)
                figure(f, rig[k], in[k]->model, in[k]->doc, tr[k], frame, loc[k], w);
        }
        if (ok && vs && contacts)
            mark_contacts(&fig[0], &fig[1], &d->figs[d->nfigs - 2], &d->figs[d->nfigs - 1], cw,
                          cw + wn, slot);
        if (ok && vs) {
            /* the keys' geodesic angle (the degrees diff reports), and the
             * difference as drawn, which the shading shows */
            dfig *f = &d->figs[d->nfigs - 2];
            for (size_t i = 0; i < o->a.model->nbones; i++) {
                const dbone *db = &d->m[0].bones[i];
                long j = db->match;
                f->diff[i] = j < 0 ? NAN : pk_quat_angle_deg(loc[0][i].rot, loc[1][j].rot);
                f->dir[i] = j < 0 ? NAN : drawn_diff(f, i, f + 1, (size_t)j);
                if (j >= 0 && db->drawn && !db->other && !db->ik && !db->control &&
                    f->dir[i] > d->max_diff)
                    d->max_diff = f->dir[i];
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        pk_rig_free(rig[k]);
        pk_tracks_free(tr[k]);
        free(loc[k]);
    }
    free(w);
    free(fig);
    free(cw);
    free(slot);
    if (!ok) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pk_drawing_free(d);
        return NULL;
    }
    return d;
}

size_t pk_drawing_figures(const pk_drawing *d)
{
    return d->vs ? d->nfigs / 2 : d->nfigs;
}

/* ---- JSON ---- */

static void json_nums(pk_buf *b, const double *v, int n)
{
    pk_buf_putc(b, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            pk_buf_putc(b, ',');
        pki_json_num(b, v[i]);
    }
    pk_buf_putc(b, ']');
}

int pk_draw_json(const pk_drawing *d, pk_buf *out)
{
    pk_buf_puts(out, "{\"figures\":[");
    for (size_t f = 0; f < d->nfigs; f++) {
        const dfig *g = &d->figs[f];
        const dmodel *m = &d->m[g->who];
        pk_buf_puts(out, f ? ",\n{" : "\n{");
        pk_buf_puts(out, "\"input\":");
        pki_json_str(out, d->name[g->who]);
        pk_buf_puts(out, ",\"model\":");
        pki_json_str(out, m->label);
        if (g->motion)
            pk_buf_printf(out, ",\"frame\":%u", g->frame);
        pk_buf_puts(out, ",\"bones\":[");
        bool first = true;
        for (size_t i = 0; i < m->nbones; i++) {
            if (!m->bones[i].chosen) /* --bones: only the bones it names */
                continue;
            pk_buf_puts(out, first ? "\n " : ",\n ");
            first = false;
            pk_buf_puts(out, "{\"name\":");
            pki_json_str(out, m->bones[i].name);
            /* a bone under a NaN rest position has none: null, as dump
             * writes such numbers (nan is no JSON) */
            pk_buf_puts(out, ",\"pos\":");
            json_nums(out, g->pos[i], 3);
            pk_buf_puts(out, ",\"rot\":");
            json_nums(out, g->rot[i], 4);
            if (m->bones[i].ik)
                pk_buf_printf(out, ",\"ik\":%s", g->ik_on[i] ? "true" : "false");
            if (g->diff && !isnan(g->diff[i]))
                pk_buf_printf(out, ",\"diff_deg\":%.6f,\"drawn_diff_deg\":%.6f", g->diff[i],
                              g->dir[i]);
            pk_buf_putc(out, '}');
        }
        pk_buf_putc(out, ']');
        if (g->nmarks) {
            pk_buf_puts(out, ",\"contacts\":[");
            for (int k = 0; k < g->nmarks; k++) {
                const dmark *mk = &g->marks[k];
                pk_buf_puts(out, k ? ",\n {\"hand\":" : "\n {\"hand\":");
                pki_json_str(out, mk->with == PKI_WITH_HAND ? "both" : mk->side ? "right" : "left");
                pk_buf_puts(out, ",\"with\":");
                pki_json_str(out,
                             mk->with == PKI_WITH_HAND ? "each other" : pki_with_name(mk->with));
                pk_buf_puts(out, ",\"point\":");
                json_nums(out, mk->hand, 3);
                pk_buf_puts(out, ",\"on\":");
                json_nums(out, mk->on, 3);
                pk_buf_printf(out, ",\"gap\":%.6f", mk->gap);
                if (g->who == 1)
                    pk_buf_printf(out, ",\"gap_pose\":%.6f", mk->gap_a);
                pk_buf_putc(out, '}');
            }
            pk_buf_putc(out, ']');
        }
        pk_buf_putc(out, '}');
    }
    pk_buf_puts(out, "\n]}\n");
    return out->oom ? -1 : 0;
}

/* ---- SVG ---- */

static const char *const SIDE_COLOUR[3] = {"#444444", "#1f77b4", "#d62728"};
static const char *const SIDE_NAME[3] = {"centre", "left (左)", "right (右)"};
static const char *const OTHER_COLOUR = "#c8c8c8";
static const char *const VIEW_NAME[3] = {"front", "side", "top"};

/* Screen coordinates (x right, y down) of a model point in a view. */
static void project(int view, const double p[3], double *x, double *y)
{
    switch (view) {
    case 0: /* front: viewer on -Z looking +Z */
        *x = p[0];
        *y = -p[1];
        break;
    case 1: /* side: from the model's left, its front (-Z) to the right */
        *x = -p[2];
        *y = -p[1];
        break;
    default: /* top: from above, front (-Z) down */
        *x = p[0];
        *y = -p[2];
        break;
    }
}

/* The vs figure's colour: its side's colour (centre, left, right), light
 * where the two poses are drawn alike (u = 0), full where they differ
 * most (u = 1). */
static void tint(int side, double u, char out[16])
{
    static const int RGB[3][3] = {{68, 68, 68}, {31, 119, 180}, {214, 39, 40}};
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double t = 0.18 + 0.82 * u;
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(255 + (RGB[side][k] - 255) * t);
    snprintf(out, 16, "#%02x%02x%02x", c[0], c[1], c[2]);
}

typedef struct box {
    double x0, y0, x1, y1;
} box;

static void grow(box *b, double x, double y)
{
    b->x0 = fmin(b->x0, x);
    b->y0 = fmin(b->y0, y);
    b->x1 = fmax(b->x1, x);
    b->y1 = fmax(b->y1, y);
}

/* A point the picture can place: a model's NaN or infinite rest position
 * (warned when it was read) spreads to every bone under it, and "nan" is
 * no SVG number.  Such joints and lines are left out (the legend counts
 * them), and they do not stretch the panels. */
static bool placed(const double p[3])
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

/* Everything a view shows, over every figure (ground included). */
static box bounds(const pk_drawing *d, int view)
{
    box b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (size_t f = 0; f < d->nfigs; f++) {
        const dfig *g = &d->figs[f];
        const dmodel *m = &d->m[g->who];
        for (size_t i = 0; i < m->nbones; i++) {
            if (!m->bones[i].drawn || !placed(g->pos[i]))
                continue;
            double x, y;
            project(view, g->pos[i], &x, &y);
            grow(&b, x, y);
            if (g->has_end[i] && !m->bones[i].ik && !m->bones[i].control && placed(g->end[i])) {
                project(view, g->end[i], &x, &y);
                grow(&b, x, y);
            }
        }
    }
    if (!(b.x0 <= b.x1)) {
        b.x0 = b.y0 = -1;
        b.x1 = b.y1 = 1;
    }
    if (view != 2) { /* the ground */
        b.y1 = fmax(b.y1, 0.0);
        b.y0 = fmin(b.y0, 0.0);
    }
    return b;
}

typedef struct canvas {
    pk_buf *b;
    double w, h;
} canvas;

static void text_at(canvas *c, double x, double y, const char *anchor, double size,
                    const char *attrs, const char *s)
{
    pk_buf_printf(c->b, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
    if (strcmp(anchor, "start") != 0)
        pk_buf_printf(c->b, " text-anchor=\"%s\"", anchor);
    if (size != 12)
        pk_buf_printf(c->b, " font-size=\"%g\"", size);
    if (attrs && *attrs)
        pk_buf_printf(c->b, " %s", attrs);
    pk_buf_putc(c->b, '>');
    pki_buf_puts_xml(c->b, s);
    pk_buf_puts(c->b, "</text>\n");
    double w = pki_text_width(s, size, attrs && strstr(attrs, "bold"));
    double right = strcmp(anchor, "start") == 0    ? x + w
                   : strcmp(anchor, "middle") == 0 ? x + w / 2
                                                   : x;
    c->w = fmax(c->w, right + 10);
    c->h = fmax(c->h, y + 6);
}

static void bone_title(pk_buf *b, const dbone *db, const dfig *g, size_t i, const char *extra)
{
    pk_buf_puts(b, "<title>");
    pki_buf_puts_xml(b, db->name);
    if (db->name_en[0]) {
        pk_buf_puts(b, " (");
        pki_buf_puts_xml(b, db->name_en);
        pk_buf_putc(b, ')');
    }
    if (g && g->diff && !isnan(g->diff[i]))
        pk_buf_printf(b, ": %.2f deg apart as drawn (keys %.2f deg)", g->dir[i], g->diff[i]);
    if (extra)
        pki_buf_puts_xml(b, extra);
    pk_buf_puts(b, "</title>");
}

/* The stroke of bone i of figure g: its side's colour (grey for other
 * bones); in the vs figure (under) tinted by how differently the two
 * poses draw it (grey where the pose's model lacks the bone). */
static void stroke_of(const pk_drawing *d, const dfig *g, size_t i, bool under, char out[16])
{
    const dbone *db = &d->m[g->who].bones[i];
    snprintf(out, 16, "%s", db->other ? OTHER_COLOUR : SIDE_COLOUR[db->side]);
    if (!under || db->other)
        return;
    const dfig *a = g - 1; /* its pose's figure */
    double deg = db->match >= 0 ? a->dir[db->match] : NAN;
    if (isnan(deg))
        snprintf(out, 16, "#cccccc");
    else
        tint(db->side, d->max_diff > 0 ? deg / d->max_diff : 0, out);
}

/* Whether bone i draws as body: a line or a dot in its side's colour. */
static bool body_bone(const dbone *db)
{
    return db->drawn && !db->other && !db->control && !db->ik;
}

/* Where a body bone's origin is not on its parent's line (a parent
 * without a tail, as PMD's 上半身2 with three children; or one whose tail
 * points elsewhere, as 下半身's down between the legs, which hang from
 * its sides): a thin connector from the nearest point of the parent's
 * line (or its joint) to the bone's joint, so the figure holds together. */
static void draw_links(canvas *c, const pk_drawing *d, const dfig *g, int view, double ox,
                       double oy, double scale, bool under)
{
    const dmodel *m = &d->m[g->who];
    for (size_t i = 0; i < m->nbones; i++) {
        const dbone *db = &m->bones[i];
        int32_t p = db->parent;
        if (!body_bone(db) || p < 0 || !body_bone(&m->bones[p]) || !placed(g->pos[i]) ||
            !placed(g->pos[p]))
            continue;
        const double *a = g->pos[p], *q = g->pos[i];
        double seg[3] = {0, 0, 0}, ss = 0, t = 0, near[3], gap = 0;
        bool line = g->has_end[p] && placed(g->end[p]);
        for (int k = 0; line && k < 3; k++) {
            seg[k] = g->end[p][k] - a[k];
            ss += seg[k] * seg[k];
        }
        if (ss > 0) {
            for (int k = 0; k < 3; k++)
                t += (q[k] - a[k]) * seg[k];
            t = t / ss < 0 ? 0 : t / ss > 1 ? 1 : t / ss;
        }
        for (int k = 0; k < 3; k++) {
            near[k] = a[k] + t * seg[k];
            gap += (q[k] - near[k]) * (q[k] - near[k]);
        }
        if (!(sqrt(gap) > fmax(0.02 * sqrt(ss), 1e-6)))
            continue;
        double x1, y1, x2, y2;
        project(view, near, &x1, &y1);
        project(view, q, &x2, &y2);
        char colour[16];
        stroke_of(d, g, i, under, colour);
        pk_buf_printf(c->b,
                      "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                      "stroke=\"%s\" stroke-width=\"%s\" stroke-linecap=\"round\"%s>",
                      under ? "vslink" : "link", ox + x1 * scale, oy + y1 * scale, ox + x2 * scale,
                      oy + y2 * scale, colour, under ? "2.5" : "1",
                      under ? " stroke-opacity=\"0.75\"" : "");
        pk_buf_puts(c->b, "<title>");
        pki_buf_puts_xml(c->b, m->bones[p].name);
        pk_buf_puts(c->b, " - ");
        pki_buf_puts_xml(c->b, db->name);
        pk_buf_puts(c->b, under ? " (vs)</title></line>\n" : "</title></line>\n");
    }
}

/* A percentage as printed to one decimal: a value that prints as zero
 * without its sign (a gap of -0.001% is no penetration to show). */
static double pct1(double fraction)
{
    double v = 100.0 * fraction;
    return fabs(v) < 0.05 ? 0.0 : v;
}

/* The label of a vs figure's contact: its gap and the pose's. */
static void mark_label(const dmark *m, char label[64])
{
    snprintf(label, 64, "gap %.1f%% (%.1f%%)", pct1(m->gap), pct1(m->gap_a));
}

/* How far right of the view's left bound x0 the contact labels reach, in
 * pixels at scale (0: none): a panel is made that wide, else the labels of
 * a narrow one (the top view's) run over the next panel or the legend. */
static double marks_reach(const pk_drawing *d, int view, double x0, double scale)
{
    double reach = 0;
    for (size_t f = 1; d->vs && f < d->nfigs; f += 2) { /* the vs figures: labelled */
        const dfig *g = &d->figs[f];
        for (int k = 0; k < g->nmarks; k++) {
            char label[64];
            double x, y;
            mark_label(&g->marks[k], label);
            project(view, g->marks[k].hand, &x, &y);
            reach = fmax(reach, (x - x0) * scale + 5 + pki_text_width(label, 9, false));
        }
    }
    return reach;
}

/* A figure's contacts: the touching point of the hand and the nearest
 * point of what it touches, joined; the pose's in green, the vs figure's
 * in orange with its gap and the pose's, as fractions of each one's arm. */
static void draw_marks(canvas *c, const dfig *g, int view, double ox, double oy, double scale,
                       bool under)
{
    const char *colour = under ? "#ff7f0e" : "#2ca02c";
    /* the labels placed so far (left, right, baseline): two hands that
     * touch each other or one place land their labels on one line, drawn
     * over each other; a label that would overlap one goes a line lower */
    double placed_l[sizeof g->marks / sizeof *g->marks],
        placed_r[sizeof placed_l / sizeof *placed_l], placed_y[sizeof placed_l / sizeof *placed_l];
    int nplaced = 0;
    for (int k = 0; k < g->nmarks; k++) {
        const dmark *m = &g->marks[k];
        double x1, y1, x2, y2;
        project(view, m->hand, &x1, &y1);
        project(view, m->on, &x2, &y2);
        x1 = ox + x1 * scale;
        y1 = oy + y1 * scale;
        x2 = ox + x2 * scale;
        y2 = oy + y2 * scale;
        const char *with = m->with == PKI_WITH_HAND ? "the other hand" : pki_with_name(m->with);
        pk_buf_printf(c->b, "<g class=\"%s\"><title>%s hand on %s: gap %.1f%% of the arm",
                      under ? "vscontact" : "contact",
                      m->with == PKI_WITH_HAND ? "each"
                      : m->side                ? "right"
                                               : "left",
                      with, pct1(m->gap));
        if (under)
            pk_buf_printf(c->b, " (the pose: %.1f%%)", pct1(m->gap_a));
        pk_buf_printf(c->b,
                      "</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                      "stroke=\"%s\" stroke-width=\"1.2\" stroke-dasharray=\"2 2\"/>"
                      "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"%s\" "
                      "stroke-width=\"1.5\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" "
                      "fill=\"%s\"/>",
                      x1, y1, x2, y2, colour, x1, y1, colour, x2, y2, colour);
        if (under) {
            char label[64], attrs[32];
            mark_label(m, label);
            snprintf(attrs, sizeof attrs, "fill=\"%s\"", colour);
            double lx = x1 + 5, ly = y1 - 4, lw = pki_text_width(label, 9, false);
            /* each step down clears the label it met; a line of 9-pixel
             * text is 11 pixels */
            for (bool clear = false; !clear;) {
                clear = true;
                for (int p = 0; p < nplaced; p++)
                    if (lx < placed_r[p] && placed_l[p] < lx + lw &&
                        fabs(ly - placed_y[p]) < 10.5) {
                        ly = placed_y[p] + 11.0;
                        clear = false;
                    }
            }
            placed_l[nplaced] = lx;
            placed_r[nplaced] = lx + lw;
            placed_y[nplaced++] = ly;
            text_at(c, lx, ly, "start", 9, attrs, label);
        }
        pk_buf_puts(c->b, "</g>\n");
    }
}

/* One figure in one view, its origin at (ox, oy) in pixels. */
static void draw_figure(canvas *c, const pk_drawing *d, const dfig *g, int view, double ox,
                        double oy, double scale, bool under)
{
    const dmodel *m = &d->m[g->who];
    pk_buf *b = c->b;
    /* lines: centre first, then the sides (the near side last in the side
     * view: the left, seen from the left) */
    static const int ORDER[3][3] = {{0, 1, 2}, {2, 0, 1}, {0, 1, 2}};
    for (int pass = 0; pass < 6; pass++) {
        int side = ORDER[view][pass % 3];
        bool others = pass < 3; /* the grey bones first, underneath */
        for (size_t i = 0; i < m->nbones; i++) {
            const dbone *db = &m->bones[i];
            if (!db->drawn || db->ik || db->control || !g->has_end[i] || db->side != side ||
                db->other != others || !placed(g->pos[i]) || !placed(g->end[i]))
                continue;
            double x1, y1, x2, y2;
            project(view, g->pos[i], &x1, &y1);
            project(view, g->end[i], &x2, &y2);
            char colour[16];
            stroke_of(d, g, i, under, colour);
            const char *width = db->other ? (under ? "2.5" : "1") : under ? "5" : "1.8";
            pk_buf_printf(b,
                          "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                          "stroke=\"%s\" stroke-width=\"%s\" stroke-linecap=\"round\"%s>",
                          under ? "vsbone" : "bone", ox + x1 * scale, oy + y1 * scale,
                          ox + x2 * scale, oy + y2 * scale, colour, width,
                          under ? " stroke-opacity=\"0.75\"" : "");
            bone_title(b, db, under ? NULL : g, i, under ? " (vs)" : NULL);
            pk_buf_puts(b, "</line>\n");
        }
    }
    draw_links(c, d, g, view, ox, oy, scale, under);
    draw_marks(c, g, view, ox, oy, scale, under);
    if (under)
        return;
    for (size_t i = 0; i < m->nbones; i++) {
        const dbone *db = &m->bones[i];
        if (!db->drawn || !placed(g->pos[i]))
            continue;
        double x, y;
        project(view, g->pos[i], &x, &y);
        x = ox + x * scale;
        y = oy + y * scale;
        if (db->ik) {
            /* the IK goal: a diamond, hollow when the VMD turns it off; a
             * goal of hair or clothes small and grey */
            bool on = g->ik_on[i], limb = db->limb_goal;
            const char *colour = limb ? "#2ca02c" : "#999999";
            pk_buf_printf(b,
                          "<path class=\"%s\" d=\"M%.1f %.1fl%d %dl-%d %dl-%d -%dz\" fill=\"%s\" "
                          "stroke=\"%s\" stroke-width=\"1.2\">",
                          limb ? "ik" : "ik-other", x, y - (limb ? 4 : 3), limb ? 4 : 3,
                          limb ? 4 : 3, limb ? 4 : 3, limb ? 4 : 3, limb ? 4 : 3, limb ? 4 : 3,
                          on ? colour : "white", colour);
            bone_title(b, db, NULL, i, on ? " (IK goal)" : " (IK goal, IK off)");
            pk_buf_puts(b, "</path>\n");
            continue;
        }
        if (db->control) {
            /* a handle (センター, 全ての親, an IK parent): where it is, no line */
            pk_buf_printf(b,
                          "<rect class=\"control\" x=\"%.1f\" y=\"%.1f\" width=\"5\" "
                          "height=\"5\" fill=\"none\" stroke=\"#888888\" stroke-width=\"1\">",
                          x - 2.5, y - 2.5);
            bone_title(b, db, NULL, i, " (control bone: its place)");
            pk_buf_puts(b, "</rect>\n");
            continue;
        }
        pk_buf_printf(b, "<circle class=\"joint\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\">", x,
                      y, db->other ? "1.2" : "2", db->other ? OTHER_COLOUR : SIDE_COLOUR[db->side]);
        bone_title(b, db, g, i, NULL);
        pk_buf_puts(b, "</circle>\n");
    }
}

/* Selected bones some figure cannot place (placed), counted once each;
 * the first three named in names. */
static size_t unplaced(const pk_drawing *d, char *names, size_t cap)
{
    size_t n = 0;
    names[0] = '\0';
    for (int k = 0; k < (d->vs ? 2 : 1); k++) {
        for (size_t i = 0; i < d->m[k].nbones; i++) {
            if (!d->m[k].bones[i].drawn)
                continue;
            bool out = false;
            for (size_t f = 0; f < d->nfigs && !out; f++)
                out = d->figs[f].who == k && !placed(d->figs[f].pos[i]);
            if (!out)
                continue;
            size_t l = strlen(names);
            if (n < 3)
                snprintf(names + l, cap - l, "%s%s", n ? ", " : "", d->m[k].bones[i].name);
            else if (n == 3)
                snprintf(names + l, cap - l, ", ...");
            n++;
        }
    }
    return n;
}

static void frame_label(char *buf, size_t cap, const pk_drawing *d, const dfig *g, int view,
                        bool views)
{
    char fr[32] = "";
    if (g->motion || (d->vs && (g + 1)->motion))
        snprintf(fr, sizeof fr, "frame %u", g->motion ? g->frame : (g + 1)->frame);
    snprintf(buf, cap, "%s%s%s", views ? VIEW_NAME[view] : "", views && fr[0] ? ", " : "", fr);
}

/* A file's name without its folders, for titles (the JSON keeps the
 * path as given). */
static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return *b ? b : path;
}

/* Text in lines no wider than maxw (estimated, pki_text_width): broken at spaces,
 * and inside a word (between characters) only when the word alone is
 * wider; the first line's baseline at y, the next ones step further.
 * Returns the last line's baseline. */
static double text_wrap(canvas *c, double x, double y, double size, const char *attrs,
                        const char *s, double maxw, double step)
{
    bool bold = attrs && strstr(attrs, "bold");
    char line[1024];
    size_t n = 0, len = strlen(s), i = 0;
    bool first = true;
    while (i < len) {
        /* the next word and the spaces after it */
        size_t j = i;
        while (j < len && s[j] != ' ')
            j++;
        while (j < len && s[j] == ' ')
            j++;
        char word[1024];
        size_t wl = j - i < sizeof word - 1 ? j - i : sizeof word - 1;
        memcpy(word, s + i, wl);
        word[wl] = '\0';
        line[n] = '\0';
        char trial[2048];
        snprintf(trial, sizeof trial, "%s%s", line, word);
        if (n == 0 || pki_text_width(trial, size, bold) <= maxw) {
            if (n == 0 && pki_text_width(word, size, bold) > maxw) {
                /* a word wider than a line: as many characters as fit */
                size_t k = 0, fit = 0;
                while (k < wl) {
                    size_t e = k + 1;
                    while (e < wl && ((unsigned char)word[e] & 0xC0) == 0x80)
                        e++;
                    char part[1024];
                    memcpy(part, word, e);
                    part[e] = '\0';
                    if (fit && pki_text_width(part, size, bold) > maxw)
                        break;
                    fit = e;
                    k = e;
                }
                memcpy(line, word, fit);
                line[fit] = '\0';
                if (!first)
                    y += step;
                text_at(c, x, y, "start", size, attrs, line);
                first = false;
                n = 0;
                i += fit;
                continue;
            }
            size_t add = strlen(word) < sizeof line - 1 - n ? strlen(word) : sizeof line - 1 - n;
            memcpy(line + n, word, add);
            n += add;
            i = j;
            continue;
        }
        while (n && line[n - 1] == ' ')
            n--;
        line[n] = '\0';
        if (!first)
            y += step;
        text_at(c, x, y, "start", size, attrs, line);
        first = false;
        n = 0;
    }
    while (n && line[n - 1] == ' ')
        n--;
    line[n] = '\0';
    if (n) {
        if (!first)
            y += step;
        text_at(c, x, y, "start", size, attrs, line);
    }
    return y;
}

/* A legend entry's place: after the one before it, or on a new row when
 * it would pass the right edge. */
typedef struct flow {
    double x, y, right;
} flow;

static double flow_at(flow *f, double w)
{
    if (f->x > 10 && f->x + w > f->right) {
        f->x = 10;
        f->y += 16;
    }
    double at = f->x;
    f->x += w;
    return at;
}

/* A legend entry of a line's colour: a short line, then its name. */
static void legend_line(canvas *c, flow *fl, const char *name, const char *colour)
{
    double lx = flow_at(fl, 30 + pki_text_width(name, 11, false));
    pk_buf_printf(c->b,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                  "stroke-width=\"2\"/>\n",
                  lx, fl->y - 4, lx + 18, fl->y - 4, colour);
    text_at(c, lx + 22, fl->y, "start", 11, "", name);
}

int pk_draw_svg(const pk_drawing *d, pk_buf *out)
{
    pk_buf body;
    pk_buf_init(&body);
    canvas c = {&body, 0, 0};
    int views[3], nviews = 0;
    if (d->view == PK_VIEW_ALL)
        for (int v = 0; v < 3; v++)
            views[nviews++] = v;
    else
        views[nviews++] = (int)d->view;
    size_t per = d->vs ? 2 : 1, nf = d->nfigs / per;
    box bx[3];
    double ext = 0;
    for (int k = 0; k < nviews; k++) {
        bx[k] = bounds(d, views[k]);
        ext = fmax(ext, fmax(bx[k].x1 - bx[k].x0, bx[k].y1 - bx[k].y0));
    }
    /* a figure of no size (every bone of a bare test model at the
     * origin, on the ground) drawn at the scale of one 2 units across, as
     * an empty one is: stretched to fill the panel, its scale bar read
     * "2e-10 units (440000000000.00 px per unit)" */
    if (!(ext > 1e-3))
        ext = 2.0;
    /* one scale for every panel: the largest extent fills `size` pixels */
    double size = nf == 1 && nviews == 1 ? 440 : nf == 1 ? 300 : 170;
    double scale = size / ext, pad = 14, label_h = 18;
    /* panels: a row per figure group (strip: STRIP_COLUMNS figures a row
     * for one view; all views: one figure a row); their widths first, so
     * that the title and the legend fit the drawing, not the other way */
    size_t cols = nviews > 1 ? 1 : (nf < STRIP_COLUMNS ? nf : STRIP_COLUMNS);
    double pws[3], drawing_w = 0;
    for (int k = 0; k < nviews; k++)
        pws[k] = fmax(fmax((bx[k].x1 - bx[k].x0) * scale + 2 * pad, 90),
                      pad + marks_reach(d, views[k], bx[k].x0, scale) + 6);
    for (size_t col = 0; col < (nviews > 1 ? 1 : cols); col++)
        for (int k = 0; k < nviews; k++)
            drawing_w += pws[k] + 8;
    /* text runs as wide as the drawing, and no narrower than a legend
     * line needs to read well */
    double text_right = 10 + fmax(drawing_w - 8, 400);
    /* title: file names without their folders, wrapped to the drawing */
    char title[1024], line[1024];
    snprintf(title, sizeof title, "%s%s%s on %s", base_name(d->name[0]), d->vs ? " vs " : "",
             d->vs ? base_name(d->name[1]) : "", base_name(d->m[0].label));
    if (d->vs && strcmp(d->m[0].label, d->m[1].label) != 0)
        snprintf(title + strlen(title), sizeof title - strlen(title), " (%s on %s)",
                 base_name(d->name[1]), base_name(d->m[1].label));
    if (d->any_motion && d->range)
        snprintf(title + strlen(title), sizeof title - strlen(title), ", frames %u-%u every %u",
                 d->first, d->last, d->every);
    else if (d->any_motion)
        snprintf(title + strlen(title), sizeof title - strlen(title), ", frame %u", d->frame);
    double y = text_wrap(&c, 10, 24, 15, "font-weight=\"bold\"", title, text_right - 10, 19);
    y += 14;
    double x = 10, row_h = 0, top = y;
    size_t col = 0;
    for (size_t fi = 0; fi < nf; fi++) {
        const dfig *g = &d->figs[fi * per];
        for (int k = 0; k < nviews; k++) {
            int v = views[k];
            double pw = pws[k];
            double ph = (bx[k].y1 - bx[k].y0) * scale + 2 * pad + label_h;
            double ox = x + pad - bx[k].x0 * scale, oy = top + label_h + pad - bx[k].y0 * scale;
            pk_buf_printf(&body,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"none\" stroke=\"#e0e0e0\"/>\n",
                          x, top, pw, ph);
            frame_label(line, sizeof line, d, g, v, nviews > 1);
            if (line[0])
                text_at(&c, x + 6, top + 14, "start", 11, "fill=\"#555\"", line);
            if (v != 2)
                pk_buf_printf(&body,
                              "<line class=\"ground\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                              "y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
                              x + 4, oy, x + pw - 4, oy);
            if (d->vs)
                draw_figure(&c, d, g + 1, v, ox, oy, scale, true);
            draw_figure(&c, d, g, v, ox, oy, scale, false);
            x += pw + 8;
            c.w = fmax(c.w, x + 2);
            row_h = fmax(row_h, ph);
        }
        if (++col == cols || fi + 1 == nf) {
            col = 0;
            x = 10;
            top += row_h + 8;
            row_h = 0;
        }
    }
    y = top + 8;
    /* scale bar: a round number of units near 80 pixels */
    double units = pki_pow(10.0, floor(pki_log10(80.0 / scale)));
    if (units * scale * 5 <= 120)
        units *= 5;
    else if (units * scale * 2 <= 120)
        units *= 2;
    pk_buf_printf(&body,
                  "<line x1=\"10\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                  "stroke-width=\"2\"/>\n",
                  y, 10 + units * scale, y);
    snprintf(line, sizeof line, "%g units (%.2f px per unit)", units, scale);
    text_at(&c, 16 + units * scale, y + 4, "start", 11, "", line);
    y += 22;
    /* legend: every colour and mark the pose's figure uses (the vs figure
     * is tinted, its own legend below); an entry for something not drawn
     * (an IK goal under --bones 右腕) would promise what is not there */
    bool side_used[3] = {false, false, false}, any_other = false, any_ik = false;
    bool any_other_ik = false, any_control = false;
    for (size_t i = 0; i < d->m[0].nbones; i++) {
        const dbone *db = &d->m[0].bones[i];
        if (!db->drawn)
            continue;
        if (db->ik && db->limb_goal)
            any_ik = true;
        else if (db->ik)
            any_other_ik = true;
        else if (db->control)
            any_control = true;
        else if (db->other)
            any_other = true;
        else
            side_used[db->side] = true;
    }
    flow fl = {10, y, text_right};
    for (int s = 0; s < 3; s++) {
        if (!side_used[s])
            continue;
        legend_line(&c, &fl, SIDE_NAME[s], SIDE_COLOUR[s]);
    }
    if (any_other) {
        static const char OTHER[] = "other bones (hair, clothes, helpers)";
        legend_line(&c, &fl, OTHER, OTHER_COLOUR);
    }
    if (any_ik) {
        static const char IK[] = "IK goal (hollow: IK off at this frame)";
        double lx = flow_at(&fl, 22 + pki_text_width(IK, 11, false));
        pk_buf_printf(&body,
                      "<path class=\"legend-ik\" d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\" fill=\"#2ca02c\" "
                      "stroke=\"#2ca02c\"/>\n",
                      lx + 4, fl.y - 8);
        text_at(&c, lx + 12, fl.y, "start", 11, "", IK);
    }
    if (any_other_ik) {
        static const char OTHER_IK[] = "IK goal of hair or clothes";
        double lx = flow_at(&fl, 22 + pki_text_width(OTHER_IK, 11, false));
        pk_buf_printf(&body,
                      "<path class=\"legend-ik-other\" d=\"M%.1f %.1fl3 3l-3 3l-3 -3z\" "
                      "fill=\"#999999\" stroke=\"#999999\"/>\n",
                      lx + 4, fl.y - 7);
        text_at(&c, lx + 12, fl.y, "start", 11, "", OTHER_IK);
    }
    if (any_control) {
        static const char CONTROL[] = "control bone (センター, 全ての親, IK parent): its place";
        double lx = flow_at(&fl, 22 + pki_text_width(CONTROL, 11, false));
        pk_buf_printf(&body,
                      "<rect class=\"legend-control\" x=\"%.1f\" y=\"%.1f\" width=\"5\" "
                      "height=\"5\" fill=\"none\" stroke=\"#888888\"/>\n",
                      lx + 1.5, fl.y - 6.5);
        text_at(&c, lx + 12, fl.y, "start", 11, "", CONTROL);
    }
    y = fl.y + 18;
    y = text_wrap(&c, 10, y, 11, "fill=\"#555\"",
                  "dashed: the ground (y = 0); thin lines join a bone to its parent where the "
                  "parent's line does not reach it; no physics (bones moved by rigid bodies "
                  "follow their parents)",
                  text_right - 10, 14);
    char names[256];
    size_t nout = unplaced(d, names, sizeof names);
    if (nout) {
        snprintf(line, sizeof line,
                 "left out: %zu bone%s without a position (a NaN or infinite rest position in "
                 "the model, or under one): %s",
                 nout, nout == 1 ? "" : "s", names);
        y = text_wrap(&c, 10, y + 18, 11, "fill=\"#b00\"", line, text_right - 10, 14);
    }
    if (d->vs) {
        snprintf(line, sizeof line,
                 "thin: %s; thick underneath: %s, in its side's colour, the darker the more "
                 "differently the two poses draw the bone (the angle between its lines, IK "
                 "included):",
                 base_name(d->name[0]), base_name(d->name[1]));
        y = text_wrap(&c, 10, y + 20, 11, "", line, text_right - 10, 14);
        y += 6;
        for (int s = 0; s < 3; s++) {
            for (int k = 0; k < 10; k++) {
                char shade[16];
                tint(s, k / 9.0, shade);
                pk_buf_printf(&body,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" "
                              "fill=\"%s\"/>\n",
                              10.0 + 18 * k, y + 13.0 * s, shade);
            }
            text_at(&c, 196, y + 13.0 * s + 9, "start", 10, "", SIDE_NAME[s]);
        }
        y += 39;
        text_at(&c, 10, y + 10, "start", 10, "", "0");
        snprintf(line, sizeof line, "%.2f deg", d->max_diff);
        text_at(&c, 190, y + 10, "end", 10, "", line);
        y += 18;
        pk_buf_printf(
            &body, "<rect x=\"10\" y=\"%.1f\" width=\"18\" height=\"10\" fill=\"#cccccc\"/>\n", y);
        text_at(&c, 32, y + 9, "start", 10, "", "bone absent from the pose's model");
        y += 12;
        bool marks = false;
        for (size_t f = 0; f < d->nfigs && !marks; f++)
            marks = d->figs[f].nmarks > 0;
        if (marks)
            y = text_wrap(&c, 10, y + 20, 11, "fill=\"#555\"",
                          "contacts: where a hand of the pose touches the other hand, the body "
                          "or the floor (green, the point and what it touches), and the same on "
                          "the figure underneath (orange): its gap and, in brackets, the pose's, "
                          "each of its own arm's length",
                          text_right - 10, 14);
    }
    c.h = fmax(c.h, y + 10);
    c.w = fmax(c.w, text_right + 10);
    int W = (int)ceil(c.w), H = (int)ceil(c.h);
    pk_buf_printf(out,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"12\">\n"
                  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                  W, H, W, H, PKI_SVG_FONTS);
    pk_buf_append(out, body.data, body.len);
    pk_buf_puts(out, "</svg>\n");
    bool oom = body.oom || out->oom;
    pk_buf_free(&body);
    return oom ? -1 : 0;
}
