/* step_run.c — the small pieces several operations' runs share
 * (step.h). */
#include "model/skeleton.h"
#include "step/step.h"
#include "step/step_option.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pki_mark(const pk_log *log)
{
    return log ? log->count : 0;
}

static void past_end(const pk_step *s, const pk_doc *d, const char *path, const char *opt,
                     uint32_t first, const uint32_t *last, pk_log *log)
{
    uint32_t lo, hi;
    if (!d->motion || !pk_motion_frame_range(d->motion, &lo, &hi) || first <= hi)
        return;
    char name[64], range[32] = "";
    if (last && *last == first) /* --frames N: one frame */
        last = NULL;
    if (last)
        snprintf(range, sizeof range, "-%u", *last);
    size_t from = pki_mark(log);
    pk_warning(log, PK_E_NO_EFFECT,
               "%s %u%s %s past the motion's last key (frame %u): MMD holds the last key's pose "
               "there",
               pki_step_spell(s, opt, name), first, range, last ? "starts" : "is", hi);
    pk_log_place(log, from, path);
}

void pki_warn_past_end(const pk_step *s, const pk_doc *d, const char *path, const char *opt,
                       uint32_t frame, pk_log *log)
{
    past_end(s, d, path, opt, frame, NULL, log);
}

void pki_warn_range_past_end(const pk_step *s, const pk_doc *d, const char *path, const char *opt,
                             const pki_frames *f, pk_log *log)
{
    if (!f->all)
        past_end(s, d, path, opt, f->first, &f->last, log);
}

void pki_take(pk_doc *to, pk_doc *from)
{
    *to = *from;
    memset(from, 0, sizeof *from);
}

const pk_pose *pki_cut_pose(bool cut, const pk_pose *p, pk_pose **own, pk_log *log)
{
    *own = NULL;
    if (!cut || !p)
        return p;
    *own = pk_pose_clone(p);
    if (!*own) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    if (pk_pose_cut_names(*own, log) < 0) {
        pk_pose_free(*own);
        *own = NULL;
        return NULL;
    }
    return *own;
}

const char *pki_plural(size_t n)
{
    return n == 1 ? "" : "s";
}

bool pki_motion_same_bytes(const pk_motion *a, const pk_motion *b)
{
    size_t size = pk_vmd_size(a);
    if (size == 0 || pk_vmd_size(b) != size)
        return false;
    pk_buf x, y;
    pk_buf_init(&x);
    pk_buf_init(&y);
    bool same = pk_vmd_write(a, &x, NULL) == 0 && pk_vmd_write(b, &y, NULL) == 0 &&
                x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
    pk_buf_free(&x);
    pk_buf_free(&y);
    return same;
}

int pki_drop_duplicates(pk_doc *d, pk_step_result *res, pk_log *log)
{
    size_t n = 0;
    int rc = d->motion ? pk_motion_drop_duplicates(d->motion, &n, log)
             : d->pose ? pk_pose_drop_duplicates(d->pose, &n, log)
                       : 0;
    res->duplicates += n;
    return rc;
}

size_t pki_motion_duplicates(const pk_motion *m)
{
    pk_tracks *t = pk_tracks_build(m, NULL);
    size_t n = t ? t->duplicates : 0;
    pk_tracks_free(t);
    return n;
}

void pki_duplicates_summary(const pk_step_result *res, pk_buf *out)
{
    if (res->duplicates)
        pk_buf_printf(out,
                      "; %zu duplicate key%s dropped (of two records of one key the later wins, "
                      "as MMD reads them)",
                      res->duplicates, pki_plural(res->duplicates));
}

void pki_frame_span(const pk_doc *docs, size_t n, uint32_t *first, uint32_t *last)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        uint32_t lo, hi;
        if (docs[i].motion && pk_motion_frame_range(docs[i].motion, &lo, &hi)) {
            *first = any && *first < lo ? *first : lo;
            *last = any && *last > hi ? *last : hi;
            any = true;
        }
    }
    if (!any)
        *first = *last = 0;
}

bool pki_selection_filter(void *sel, const uint8_t *raw, size_t len)
{
    return pk_selection_has(sel, raw, len);
}

bool pki_model_holds_none(const pk_model *m, const pk_doc *d)
{
    const pk_names *names = d->motion ? d->motion->names : d->pose ? d->pose->names : NULL;
    size_t n = d->motion ? d->motion->nbones : d->pose ? d->pose->nbones : 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(
            names, d->motion ? d->motion->bones[i].name : d->pose->bones[i].name, &len);
        if (raw && pk_model_find_bone(m, raw, len) >= 0)
            return false;
    }
    return n > 0;
}

/* Whether the document's bone names look like another model's for m (a
 * dance renamed to English, or made for a model that names its bones its
 * own way): none of the standard skeleton's main bones (全ての親, センター,
 * 上半身, 下半身, 頭, 腕, 足) that m has is among the bones it moves, and
 * most of those it moves (8 or more) are not on m.  A dance made for a
 * richer model moves its main bones by their standard names, a hand pose
 * has its fingers on m: neither is.  A model without most of the main
 * bones is the odd one, not the names: false.  *missing and *moving count
 * the bones it moves that m lacks and all it moves.  false on OOM. */
static bool names_elsewhere(const pk_model *m, const pk_doc *d, size_t *missing, size_t *moving)
{
    static const char *const MAIN[] = {"全ての親", "センター", "上半身", "下半身", "頭",
                                       "左腕",     "右腕",     "左足",   "右足"};
    *missing = *moving = 0;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_check_report *r =
        d->motion ? pk_check_motion(m, d->motion, &quiet) : pk_check_pose(m, d->pose, &quiet);
    pk_log_free(&quiet);
    if (!r)
        return false;
    size_t standard = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        if (it->morph || !it->moving)
            continue;
        ++*moving;
        *missing += it->status == PK_CHECK_MISSING;
        for (size_t k = 0; k < sizeof MAIN / sizeof *MAIN; k++)
            standard += it->status != PK_CHECK_MISSING && strcmp(it->name, MAIN[k]) == 0;
    }
    pk_check_free(r);
    size_t has = 0;
    for (size_t k = 0; k < sizeof MAIN / sizeof *MAIN; k++)
        has += pki_model_find_bone_utf8(m, MAIN[k]) >= 0;
    return !standard && 2 * has >= sizeof MAIN / sizeof *MAIN && *missing >= 8 &&
           2 * *missing > *moving;
}

bool pki_warn_names_elsewhere(const pk_model *m, const pk_doc *d, const char *on, const char *then,
                              const char *how, pk_log *log)
{
    size_t missing, moving;
    if (!names_elsewhere(m, d, &missing, &moving))
        return false;
    pk_warning(log, PK_E_CONFLICT,
               "%zu of the %zu bones the %s moves are not on %s, and none of センター, 上半身, "
               "腕 and 足 by those names: %sare its bone names another model's? (%sEnglish "
               "names get their Japanese ones back from rename --rules ja-en.yaml --reverse)",
               missing, moving, d->motion ? "motion" : "pose", on, then, how);
    return true;
}

pk_selection *pki_body(const pk_rules *rules, pk_rules **own)
{
    pk_log quiet;
    pk_log_init(&quiet);
    *own = rules ? NULL : pk_rules_default(&quiet);
    const pk_rules *r = rules ? rules : *own;
    pk_selection *body =
        r ? pk_selection_parse(r, "@root,@trunk,@head,@arms,@hands,@legs,@ik", &quiet) : NULL;
    pk_log_free(&quiet);
    return body;
}

pk_format pki_makes_input(const pk_step *s, pk_format in)
{
    (void)s;
    return in;
}

pk_format pki_makes_motion(const pk_step *s, pk_format in)
{
    (void)s;
    (void)in;
    return PK_FMT_VMD;
}

pk_format pki_makes_report(const pk_step *s, pk_format in)
{
    (void)s;
    (void)in;
    return PK_FMT_UNKNOWN;
}

void *pki_result_new(pk_step_result *res, size_t size, pk_log *log)
{
    res->own = calloc(1, size);
    if (!res->own)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return res->own;
}

int pki_need_motion(const pk_step *s, const pk_doc *in, const char *why, pk_log *log)
{
    if (in->motion)
        return 0;
    /* about the file: "posekit: FILE: ...", as every message about one */
    pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s->inputs[0], -1, 0, 0,
                  "%s works on a VMD motion (%s)", s->def->name, why);
    return -1;
}
