/* diag.c — the diagnostic log: errors and warnings with a position. */
#include "common/grow.h"
#include "posekit.h"
#include "common/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pk_log_init(pk_log *log)
{
    memset(log, 0, sizeof *log);
}

void pk_log_free(pk_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->count; i++) {
        free(log->items[i].path);
        free(log->items[i].msg);
    }
    free(log->items);
    memset(log, 0, sizeof *log);
}

void pk_log_set_progress(pk_log *log, pk_progress_fn fn, void *ctx)
{
    log->progress = fn;
    log->progress_ctx = ctx;
}

void pk_progress(pk_log *log, double done, const char *what)
{
    if (log && log->progress)
        log->progress(log->progress_ctx, done < 0.0 ? 0.0 : done > 1.0 ? 1.0 : done, what);
}

/* Appends one diagnostic; placed: path is its file (NULL: none). */
static void add(pk_log *log, pk_severity sev, pk_diag_code code, bool placed, const char *path,
                int64_t offset, int line, int col, const char *fmt, va_list ap) PK_PRINTF(9, 0);
static void add(pk_log *log, pk_severity sev, pk_diag_code code, bool placed, const char *path,
                int64_t offset, int line, int col, const char *fmt, va_list ap)
{
    if (!log)
        return;
    /* Counters first: a caller must learn of an error even when memory for
     * its text is gone. */
    if (sev == PK_ERROR)
        log->errors++;
    else
        log->warnings++;
    if (pki_grow_reserve(&log->items, &log->cap, log->count + 1, sizeof *log->items) != 0)
        return;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    char *msg = malloc((size_t)n + 1);
    if (!msg)
        return;
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    pk_diag *d = &log->items[log->count++];
    d->severity = sev;
    d->code = code;
    d->path = path ? strdup(path) : NULL;
    d->offset = line > 0 ? -1 : offset;
    d->line = line > 0 ? line : 0;
    d->col = line > 0 ? col : 0;
    d->msg = msg;
    d->placed = placed;
}

void pk_log_vadd_at(pk_log *log, pk_severity sev, pk_diag_code code, const char *path,
                    int64_t offset, int line, int col, const char *fmt, va_list ap)
{
    add(log, sev, code, true, path, offset, line, col, fmt, ap);
}

void pk_log_vadd(pk_log *log, pk_severity sev, pk_diag_code code, int64_t offset, int line, int col,
                 const char *fmt, va_list ap)
{
    add(log, sev, code, false, NULL, offset, line, col, fmt, ap);
}

void pk_log_place(pk_log *log, size_t from, const char *path)
{
    if (!log || !path)
        return;
    for (size_t i = from; i < log->count; i++) {
        pk_diag *d = &log->items[i];
        if (d->placed)
            continue;
        d->path = strdup(path); /* out of memory: the message stays, without its file */
        d->placed = true;
    }
}

void pk_log_add_at(pk_log *log, pk_severity sev, pk_diag_code code, const char *path,
                   int64_t offset, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd_at(log, sev, code, path, offset, line, col, fmt, ap);
    va_end(ap);
}

void pk_log_add(pk_log *log, pk_severity sev, pk_diag_code code, int64_t offset, int line, int col,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, sev, code, offset, line, col, fmt, ap);
    va_end(ap);
}

void pk_error(pk_log *log, pk_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_ERROR, code, -1, 0, 0, fmt, ap);
    va_end(ap);
}

void pk_warning(pk_log *log, pk_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_WARNING, code, -1, 0, 0, fmt, ap);
    va_end(ap);
}

const char *pk_diag_code_name(pk_diag_code code)
{
    switch (code) {
    case PK_E_DAMAGED:
        return "damaged";
    case PK_E_IO:
        return "io";
    case PK_E_NOT_FOUND:
        return "not-found";
    case PK_E_USAGE:
        return "usage";
    case PK_E_UNSUPPORTED:
        return "unsupported";
    case PK_E_NO_MEMORY:
        return "no-memory";
    case PK_E_CONFLICT:
        return "conflict";
    case PK_E_NO_EFFECT:
        return "no-effect";
    case PK_E_LOSS:
        return "loss";
    }
    return "?";
}

int pk_diag_format(const pk_diag *d, char *buf, size_t size)
{
    const char *w = d->severity == PK_WARNING ? "warning: " : "";
    const char *m = d->msg ? d->msg : "(message lost: out of memory)";
    if (!d->path)
        return snprintf(buf, size, "%s%s", w, m);
    if (d->line > 0)
        return snprintf(buf, size, "%s:%d:%d: %s%s", d->path, d->line, d->col, w, m);
    if (d->offset >= 0)
        return snprintf(buf, size, "%s:%" PRId64 ": %s%s", d->path, d->offset, w, m);
    return snprintf(buf, size, "%s: %s%s", d->path, w, m);
}

/* ------------------------------------------------------------- sums */

void pki_log_sum_init(pki_log_sum *s)
{
    memset(s, 0, sizeof *s);
}

static char *vformat(const char *fmt, va_list ap) PK_PRINTF(1, 0);
static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *msg = n < 0 ? NULL : malloc((size_t)n + 1);
    if (msg)
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
    return msg;
}

void pki_log_sum_add(pki_log_sum *s, int64_t offset, int line, int col, const char *item,
                     const char *fmt, ...)
{
    if (s->count == 0) {
        va_list ap;
        va_start(ap, fmt);
        s->one = vformat(fmt, ap);
        va_end(ap);
        s->offset = offset;
        s->line = line;
        s->col = col;
    }
    if (s->count < PKI_LOG_SUM_SHOWN)
        s->shown[s->count] = strdup(item);
    s->count++;
}

void pki_log_sum_end(pki_log_sum *s, pk_log *log, pk_severity sev, pk_diag_code code,
                     const char *tail, const char *fmt, ...)
{
    if (s->count == 1) {
        pk_log_add(log, sev, code, s->offset, s->line, s->col, "%s",
                   s->one ? s->one : "(message lost: out of memory)");
    } else if (s->count > 1) {
        va_list ap;
        va_start(ap, fmt);
        char *head = vformat(fmt, ap);
        va_end(ap);
        char names[512];
        size_t o = 0;
        names[0] = '\0';
        size_t shown = s->count < PKI_LOG_SUM_SHOWN ? s->count : PKI_LOG_SUM_SHOWN;
        for (size_t i = 0; i < shown && o < sizeof names; i++)
            o += (size_t)snprintf(names + o, sizeof names - o, "%s%s",
                                  i == 0                                ? ""
                                  : i + 1 == shown && shown == s->count ? " and "
                                                                        : ", ",
                                  s->shown[i] ? s->shown[i] : "?");
        if (s->count > shown && o < sizeof names)
            snprintf(names + o, sizeof names - o, " and %zu more", s->count - shown);
        pk_log_add(log, sev, code, -1, 0, 0, "%s: %s%s", head ? head : "several warnings", names,
                   tail ? tail : "");
        free(head);
    }
    free(s->one);
    for (size_t i = 0; i < PKI_LOG_SUM_SHOWN; i++)
        free(s->shown[i]);
    pki_log_sum_init(s);
}
