/* diff_groups.c — a diff summed up per bone group (DESIGN: "summary per
 * group"): for each group of the rules that holds at least one compared
 * bone, how many differ and which differs most.
 *
 * Membership is the selection rule of --bones (engine/rules/select.c): names,
 * globs and nested @groups, with MMD's 15/19-byte cut names matching.  The
 * summary only reads the diff; it points into its rows.
 */
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

/* Largest first: by the largest angle, then distance, then the number of
 * differing bones; groups that tie on all three keep definition order. */
static int cmp_group(const void *x, const void *y)
{
    const pk_diff_group *a = x, *b = y;
    double aa = a->top ? a->top->angle_deg : -1.0, ba = b->top ? b->top->angle_deg : -1.0;
    if (aa != ba)
        return aa > ba ? -1 : 1;
    if (a->max_pos != b->max_pos)
        return a->max_pos > b->max_pos ? -1 : 1;
    if (a->bones_differ != b->bones_differ)
        return a->bones_differ > b->bones_differ ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

pk_diff_group *pk_diff_groups(const pk_diff *d, const pk_rules *r, size_t *n, pk_log *log)
{
    *n = 0;
    size_t ng = pk_rules_group_count(r);
    pk_diff_group *g = calloc(ng ? ng : 1, sizeof *g);
    if (!g) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < ng; i++) {
        const char *name = pk_rules_group_name(r, i);
        size_t len = strlen(name);
        char *spec = malloc(len + 2);
        if (!spec) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            free(g);
            return NULL;
        }
        spec[0] = '@';
        memcpy(spec + 1, name, len + 1);
        pk_selection *sel = pk_selection_parse(r, spec, log);
        free(spec);
        if (!sel) {
            free(g);
            return NULL;
        }
        pk_diff_group *o = &g[k];
        o->name = name;
        o->order = i;
        for (size_t b = 0; b < d->nbones; b++) {
            const pk_diff_bone *row = &d->bones[b];
            if (!pk_selection_has(sel, row->raw, row->raw_len))
                continue;
            o->bones++;
            if (row->pos_delta > o->max_pos)
                o->max_pos = row->pos_delta;
            if (!row->differs)
                continue;
            o->bones_differ++;
            if (!o->top || row->angle_deg > o->top->angle_deg)
                o->top = row;
        }
        pk_selection_free(sel);
        if (o->bones)
            k++;
    }
    qsort(g, k, sizeof *g, cmp_group);
    *n = k;
    return g;
}
