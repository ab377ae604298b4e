/*
 * retarget_absent.c — keys of bones the source model lacks and the target
 * has, left out of a retarget between models (posekit.h,
 * pk_retarget_report.dropped).
 *
 * MMD plays a motion's key on the model bone of that name and ignores keys
 * whose bone the model lacks.  A dance made on a Gene-like model keys
 * 親指０ (thumb root); on the classic skeleton, which has no 親指０, those
 * keys do nothing.  Copied to a target that has 親指０ they would act, and
 * the target's thumbs would turn away from what the source shows (16.9° at
 * one frame of samples/dance.vmd).  A retarget promises that the target
 * shows what the source shows, so such a bone's keys are dropped, with a
 * warning naming the bones (a --from model that is not the one the motion
 * was made for is the likely reason).  Users rarely own that model and
 * name a similar one instead: with keep_absent the keys stay, and the
 * report names the bones as kept.  Only a bone with a key off rest
 * counts: a track whose keys all rest shows on the target what no track
 * shows (exporters key every bone of their model at rest, wavefile_v2 the
 * 腕捩1..3 and つま先 that Gene lacks), so it is kept, as are keys of bones
 * neither model has: they change nothing either side shows, and records
 * no step needs stay byte-identical.
 *
 * A name counts as the model's when it is the model's name or, for a name
 * longer than the file's field, that name as MMD cuts it (15 bytes in a
 * VMD, 19 in a VPD: model/names.h), as MMD matches it.
 */
#include "common/grow.h"
#include "model/names.h"
#include "ops/retarget/retarget.h"

#include <stdlib.h>
#include <string.h>

enum { IN_A = 1, IN_B = 2, SEEN = 4, MOVES = 8 };

/* Left out: a bone A lacks and B has, that moves. */
static bool dropped(uint8_t f)
{
    return (f & (IN_A | IN_B | MOVES)) == (IN_B | MOVES);
}

/* Sets bit on every name of `names` that stands for a bone of m. */
static void mark_model(const pk_model *m, const pk_names *names, size_t field, uint8_t *flags,
                       size_t nn, uint8_t bit)
{
    for (size_t i = 0; i < m->nbones; i++) {
        size_t len;
        const uint8_t *raw = pki_model_bone_raw(m, i, &len);
        if (!raw)
            continue;
        pk_name_id id = pk_names_find(names, raw, len);
        if (id != PK_NO_NAME && (size_t)id < nn)
            flags[id] |= bit;
        size_t cuts[4], n = pki_name_cuts(raw, len, cuts);
        for (size_t c = 0; c < n; c++) {
            if (!pki_name_stored_as(raw, len, raw, cuts[c], field))
                continue;
            id = pk_names_find(names, raw, cuts[c]);
            if (id != PK_NO_NAME && (size_t)id < nn)
                flags[id] |= bit;
        }
    }
}

static pk_name_id key_name(const pki_bone_set *s, size_t i)
{
    return s->m ? s->m->bones[i].name : s->p->bones[i].name;
}

/* "2 bones ...: 右親指０, 左親指０ and 3 more" */
static void warn(const pk_retarget_report *rep, const pk_retarget_options *o, pk_log *log)
{
    enum { SHOWN = 6 };
    pk_buf b;
    pk_buf_init(&b);
    size_t shown = rep->ndropped <= SHOWN + 2 ? rep->ndropped : SHOWN;
    for (size_t i = 0; i < shown; i++)
        pk_buf_printf(&b, "%s%s", i ? ", " : "", rep->dropped[i]);
    if (shown < rep->ndropped)
        pk_buf_printf(&b, " and %zu more", rep->ndropped - shown);
    pk_warning(log, PK_E_LOSS,
               "%zu bone%s the source model%s%s%s lacks and the target%s%s%s has %s keyed: %s; "
               "%s %zu key%s left out (MMD ignores them on the source, so on the target they "
               "would show what the source does not; --keep-absent keeps them, for a source "
               "model that stands in for the one the motion was made for)",
               rep->ndropped, rep->ndropped == 1 ? "" : "s", o->from_name ? " (" : "",
               o->from_name ? o->from_name : "", o->from_name ? ")" : "", o->to_name ? " (" : "",
               o->to_name ? o->to_name : "", o->to_name ? ")" : "",
               rep->ndropped == 1 ? "is" : "are", b.data ? (const char *)b.data : "",
               rep->dropped_keys == 1 ? "its" : "their", rep->dropped_keys,
               rep->dropped_keys == 1 ? " is" : "s are");
    pk_buf_free(&b);
}

int pki_retarget_drop_absent(pki_bone_set *s, const pk_retarget_options *o, pk_retarget_report *rep,
                             pk_log *log)
{
    size_t nn = pk_names_count(s->names), n = pki_bone_set_count(s);
    uint8_t *flags = calloc(nn + 1, 1);
    if (!flags) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    mark_model(o->from, s->names, s->name_bytes, flags, nn, IN_A);
    mark_model(o->to, s->names, s->name_bytes, flags, nn, IN_B);
    for (size_t i = 0; i < n; i++) {
        pki_bone_ref k = pki_bone_set_at(s, i);
        if ((size_t)*k.name < nn && !pki_bone_ref_at_rest(k))
            flags[*k.name] |= MOVES;
    }
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        pk_name_id id = key_name(s, i);
        if ((size_t)id >= nn)
            continue;
        bool drop = dropped(flags[id]);
        if (drop)
            rep->dropped_keys++;
        if (flags[id] & SEEN)
            continue;
        flags[id] |= SEEN;
        rep->bones_keyed++;
        rep->bones_on_target += (flags[id] & IN_B) != 0;
        if (!drop)
            continue;
        const char *u = pk_names_utf8(s->names, id);
        char *c = strdup(u ? u : "?");
        ok = c && pki_grow_to(&rep->dropped, rep->ndropped + 1, sizeof *rep->dropped) == 0;
        if (ok)
            rep->dropped[rep->ndropped++] = c;
        else
            free(c);
    }
    if (!ok) {
        free(flags);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (o->keep_absent) { /* the caller's choice: said in the report, not warned */
        rep->absent_kept = rep->dropped_keys > 0;
        free(flags);
        return 0;
    }
    /* Drop them, the others keeping their order. */
    size_t w = 0;
    for (size_t i = 0; i < n && rep->dropped_keys; i++) {
        pk_name_id id = key_name(s, i);
        if ((size_t)id < nn && dropped(flags[id]))
            continue;
        if (s->m)
            s->m->bones[w] = s->m->bones[i];
        else
            s->p->bones[w] = s->p->bones[i];
        w++;
    }
    if (rep->dropped_keys) {
        if (s->m)
            s->m->nbones = w;
        else
            s->p->nbones = w;
        warn(rep, o, log);
    }
    free(flags);
    return 0;
}
