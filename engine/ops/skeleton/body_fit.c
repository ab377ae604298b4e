/*
 * body_fit.c — which model a motion or pose was made for (posekit.h,
 * "bodies"), among candidates (the built-in bodies): for each, how many
 * of the bones the document keys it has, by check's own matching (CP932
 * names, MMD's cut included).  Keys at rest count: MMD saves a key for
 * every bone of the model a dance is made on, so the bones keyed are that
 * model's.
 *
 * A candidate that has every bone the document keys fits it (the first
 * such when several do: the built-in list starts with the classic
 * skeleton, which the document then cannot tell from the others).
 * Otherwise the best overlaps most: the bones both have over the bones
 * either has (the Jaccard index), so that the pick is neither missing
 * much of the dance nor much bigger than it (a dance saved on a rich
 * semi-standard model keys hundreds of that model's own bones).  The
 * caller decides what a pick that has none of the bones means.
 */
#include "posekit.h"

static double overlap(const pk_body_fit *f)
{
    size_t either = f->keyed + f->bones - f->has;
    return either ? (double)f->has / (double)either : 0.0;
}

long pk_body_fit_doc(const pk_model *const *models, size_t n, const pk_doc *doc, pk_body_fit *fit,
                     pk_log *log)
{
    long best = -1, whole = -1;
    for (size_t i = 0; i < n; i++) {
        pk_check_report *r = doc->motion ? pk_check_motion(models[i], doc->motion, log)
                                         : pk_check_pose(models[i], doc->pose, log);
        if (!r)
            return -1;
        pk_body_fit *f = &fit[i];
        f->keyed = f->has = 0;
        f->bones = models[i]->nbones;
        for (size_t k = 0; k < r->nitems; k++) {
            if (r->items[k].morph)
                continue;
            f->keyed++;
            f->has += r->items[k].status != PK_CHECK_MISSING;
        }
        pk_check_free(r);
        f->overlap = overlap(f);
        if (whole < 0 && f->keyed && f->has == f->keyed)
            whole = (long)i;
        if (best < 0 || f->overlap > fit[best].overlap)
            best = (long)i;
    }
    if (n && fit[0].keyed == 0) {
        /* a camera given for its dance: the dance is what has a body */
        if (doc->motion && doc->motion->ncameras)
            pk_error(log, PK_E_USAGE,
                     "the motion keys no bone: there is nothing to fit a body to (a camera, "
                     "%zu camera key%s: the dance it frames keys the bones)",
                     doc->motion->ncameras, doc->motion->ncameras == 1 ? "" : "s");
        else
            pk_error(log, PK_E_USAGE, "the %s keys no bone: there is nothing to fit a body to",
                     doc->motion ? "motion" : "pose");
        return -1;
    }
    return whole >= 0 ? whole : best;
}
