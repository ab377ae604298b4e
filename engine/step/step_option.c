/* step_option.c — a step's option rows as the operations read them: the
 * rows an operation declares plus the one every operation has, found by
 * name ("pos-threshold" or "pos_threshold"), whether one was given, how the
 * caller spells it, and the usage error.  The operations' descriptors and
 * the registry (step.c) both build on this file; it knows neither. */
#include "step/step_option.h"
#include "util/text.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The option every operation has. */
static const pki_option COMMON[] = {
    {"strict", PKI_OPT_BOOL, offsetof(pk_step, strict), 0, 0, NULL, NULL},
};
#define NCOMMON (sizeof COMMON / sizeof COMMON[0])

bool pki_option_is_list(pki_opt_kind k)
{
    return k == PKI_OPT_OFFSET || k == PKI_OPT_SECTIONS || k == PKI_OPT_WITHIN;
}

bool pki_option_is_text(pki_opt_kind k)
{
    return k == PKI_OPT_STRING || k == PKI_OPT_SELECT || k == PKI_OPT_RULES ||
           k == PKI_OPT_MODEL;
}

/* "pos-threshold" and "pos_threshold" are one name. */
static bool same_name(const char *table, const char *key)
{
    for (; *table && *key; table++, key++)
        if (*table != *key && !(*table == '_' && *key == '-'))
            return false;
    return *table == *key;
}

/* The row named key (*row: its index in given[]), or NULL. */
const pki_option *pki_step_find_option(const pk_step *s, const char *key, size_t *row)
{
    const pki_step_def *d = s->def;
    for (size_t i = 0; key && i < d->noptions + NCOMMON; i++) {
        const pki_option *o = i < d->noptions ? &d->options[i] : &COMMON[i - d->noptions];
        if (same_name(o->name, key)) {
            if (row)
                *row = i;
            return o;
        }
    }
    return NULL;
}

const char *pki_frames_hint(const char *value, bool sign)
{
    const char *d = value + (sign && (*value == '-' || *value == '+'));
    if (*d < '0' || *d > '9' || strspn(d, "0123456789") != strlen(d))
        return "";
    return sign ? " (from -4294967295 to 4294967295)" : " (the largest is 4294967295)";
}

const char *pki_step_option_hint(const pk_step *s, const char *key, char *buf, size_t size)
{
    for (const pki_option_hint *h = s->def->hints; key && h && h->key; h++) {
        if (!same_name(h->key, key))
            continue;
        /* each "%s" of the text takes the next option, spelled; the text
         * is no printf format, so it is put together here */
        size_t at = 0, next = 0;
        for (const char *p = h->text; *p && at + 1 < size; p++) {
            if (p[0] == '%' && p[1] == 's' && next < 8 && h->opts[next]) {
                char spelt[64];
                pki_step_spell(s, h->opts[next++], spelt);
                for (const char *q = spelt; *q && at + 1 < size; q++)
                    buf[at++] = *q;
                p++;
                continue;
            }
            buf[at++] = *p;
        }
        buf[at] = '\0';
        return buf;
    }
    /* the command line's own switches, which a job says otherwise: a
     * report's format is its output's extension, quiet the run's */
    if (!key || s->prefix[0])
        return NULL;
    if (same_name("quiet", key)) {
        snprintf(buf, size,
                 "quiet is the run's option (posekit run JOB.yaml --quiet), not a step's");
        return buf;
    }
    if (!same_name("json", key) && !same_name("csv", key) && !same_name("svg", key))
        return NULL;
    if (s->def->report_exts)
        snprintf(buf, size,
                 "in a job, a report's format is the extension of the output its out "
                 "names: %s",
                 s->def->report_exts);
    else
        snprintf(buf, size,
                 "in a job, %s's out is a motion or pose, and its summary its line of the "
                 "run's report",
                 s->def->name);
    return buf;
}

/* Where an option's value lives: the operation's options, or the step. */
char *pki_step_field(const pk_step *s, size_t row)
{
    const pki_step_def *d = s->def;
    if (row < d->noptions)
        return (char *)s->o + d->options[row].offset;
    return (char *)s + COMMON[row - d->noptions].offset;
}

const char *pki_step_near_option(const pk_step *s, const char *key)
{
    const pki_step_def *d = s->def;
    /* "in" is the input of most steps: a step whose input has another
     * name (overlay's base, diff's a, crossfade's first) points to it */
    if (strcmp(key, "in") == 0 && d->operands) {
        size_t len = strcspn(d->operands, ",");
        for (size_t i = 0; i < d->noptions; i++)
            if (strlen(d->options[i].name) == len && strncmp(d->options[i].name, d->operands, len) == 0)
                return d->options[i].name;
    }
    const char *words[128];
    size_t n = 0;
    for (size_t i = 0; i < d->noptions + NCOMMON && n < 128; i++)
        words[n++] = i < d->noptions ? d->options[i].name : COMMON[i - d->noptions].name;
    long near = pki_nearest_word(key, words, n);
    return near >= 0 ? words[near] : NULL;
}

bool pki_step_given(const pk_step *s, const char *name)
{
    size_t row;
    const pki_option *o = pki_step_find_option(s, name, &row);
    if (!o || !s->given[row])
        return false;
    /* a flag said false (--no-morphs=false, no_stance: false) is the same
     * as a flag left out: it never "does nothing" */
    return o->kind != PKI_OPT_BOOL || *(const bool *)pki_step_field(s, row);
}

int pk_step_option(const pk_step *s, const char *key)
{
    const pki_option *o = pki_step_find_option(s, key, NULL);
    return !o ? -1 : o->kind == PKI_OPT_BOOL ? 0 : 1;
}

bool pki_option_repeats(const pki_option *o)
{
    return o->kind == PKI_OPT_INPUTS || pki_option_is_list(o->kind);
}

bool pk_step_option_repeats(const pk_step *s, const char *key)
{
    const pki_option *o = pki_step_find_option(s, key, NULL);
    return o && pki_option_repeats(o);
}

int pk_step_option_need(const pk_step *s, const char *key)
{
    const pki_option *o = pki_step_find_option(s, key, NULL);
    if (!o)
        return -1;
    switch (o->kind) {
    case PKI_OPT_INPUT:
    case PKI_OPT_INPUTS:
        return PK_NEED_DOC;
    case PKI_OPT_RULES:
        return PK_NEED_RULES;
    case PKI_OPT_MODEL:
        return PK_NEED_MODEL;
    default:
        return -1;
    }
}

const char *pki_step_spell(const pk_step *s, const char *name, char buf[64])
{
    size_t n = strlen(s->prefix);
    snprintf(buf, 64, "%s%s", s->prefix, name);
    if (n)
        for (char *p = buf + n; *p; p++)
            if (*p == '_')
                *p = '-';
    return buf;
}

const char *pki_step_check_how(const pk_step *s, const char *input, const char *model_name,
                               char buf[512])
{
    if (s->prefix[0])
        snprintf(buf, 512, "posekit check %s --model %s", input, model_name);
    else
        snprintf(buf, 512, "a check step");
    return buf;
}

int pki_step_fail(pk_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_ERROR, PK_E_USAGE, -1, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}
