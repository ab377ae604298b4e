/*
 * select_model.c — bone selections that name a model's display frames:
 * "@frame:NAME" stands for the bones of the display frame NAME (its
 * Japanese or English name) of a PMX/PMD model, so the model author's own
 * groups (腕, 指, 体(上), ...) work wherever --bones does.
 *
 * The item is replaced by the frame's bone names before the ordinary
 * parser sees the spec, so everything else (exact names, globs, @groups,
 * MMD's cut names) works as before.
 */
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

#define FRAME_PREFIX "@frame:"

static const pk_model_frame *find_frame(const pk_model *m, const char *name)
{
    for (size_t f = 0; f < m->nframes; f++)
        if (strcmp(m->frames[f].name, name) == 0)
            return &m->frames[f];
    for (size_t f = 0; f < m->nframes; f++)
        if (m->frames[f].name_en[0] && strcmp(m->frames[f].name_en, name) == 0)
            return &m->frames[f];
    return NULL;
}

/* Appends the bones of frame `name` to b, comma-separated; -1 (logged)
 * when there is no such frame or it holds no bone. */
static int expand(pk_buf *b, const pk_model *m, const char *name, bool *first, pk_log *log)
{
    const pk_model_frame *fr = find_frame(m, name);
    if (!fr) {
        pk_buf known;
        pk_buf_init(&known);
        for (size_t f = 0; f < m->nframes; f++)
            if (m->frames[f].name[0])
                pk_buf_printf(&known, "%s%s", known.len ? ", " : "", m->frames[f].name);
        pk_buf_putc(&known, 0);
        pk_error(log, PK_E_NOT_FOUND,
                 "@frame:%s: the model has no display frame of that name (it has: %s)", name,
                 known.data ? (const char *)known.data : "");
        pk_buf_free(&known);
        return -1;
    }
    size_t added = 0;
    for (size_t k = 0; k < fr->nitems; k++) {
        if (fr->items[k].kind != 0)
            continue;
        const pk_model_bone *bone = &m->bones[fr->items[k].index];
        if (bone->cp932 == PK_NO_NAME)
            continue; /* no VMD or VPD can key it */
        if (strpbrk(bone->name, ",*") || !bone->name[0] || bone->name[0] == '@') {
            pk_warning(log, PK_E_UNSUPPORTED,
                       "@frame:%s: bone \"%s\" cannot be named in a selection; left out", name,
                       bone->name);
            continue;
        }
        pk_buf_printf(b, "%s%s", *first ? "" : ",", bone->name);
        *first = false;
        added++;
    }
    if (!added) {
        pk_error(log, PK_E_NOT_FOUND, "@frame:%s: the display frame holds no bones", name);
        return -1;
    }
    return 0;
}

pk_selection *pk_selection_parse_model(const pk_rules *r, const pk_model *m, const char *spec,
                                       pk_log *log)
{
    if (!spec) {
        pk_error(log, PK_E_USAGE, "no selection given");
        return NULL;
    }
    char *copy = strdup(spec);
    pk_buf b;
    pk_buf_init(&b);
    if (!copy) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    bool first = true;
    int rc = 0;
    /* item by item, splitting at each comma: an empty item ('a,', ',a',
     * 'a,,b') is a mistake, as in pk_selection_parse */
    for (char *item = copy; item && rc == 0;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        const char *t = item;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!*t) {
            pk_error(log, PK_E_USAGE, "empty name in selection '%s'", spec);
            rc = -1;
        } else if (strncmp(t, FRAME_PREFIX, strlen(FRAME_PREFIX)) == 0) {
            if (!m) {
                pk_error(log, PK_E_USAGE, "%s: a display frame needs a model (--model MODEL)", t);
                rc = -1;
            } else {
                char *name = item + (t - item) + strlen(FRAME_PREFIX);
                size_t n = strlen(name);
                while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
                    name[--n] = '\0';
                rc = expand(&b, m, name, &first, log);
            }
        } else {
            pk_buf_printf(&b, "%s%s", first ? "" : ",", item);
            first = false;
        }
        item = comma ? comma + 1 : NULL;
    }
    free(copy);
    pk_buf_putc(&b, 0);
    pk_selection *s = NULL;
    if (rc == 0 && b.oom)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    else if (rc == 0)
        s = pk_selection_parse(r, (const char *)b.data, log);
    pk_buf_free(&b);
    return s;
}
