/* diag_internal.h — diagnostics about another file than the log's. */
#ifndef PK_DIAG_INTERNAL_H
#define PK_DIAG_INTERNAL_H

#include "posekit.h"

#include <stdarg.h>

/* pk_log_add with the diagnostic's path given (NULL: no file) instead of
 * the log's: an operation reporting a rule file's line, or a message about
 * no file at all, leaves the caller's path (pk_log_set_path) as it was. */
void pk_log_add_at(pk_log *log, pk_severity sev, const char *path, int64_t offset, int line,
                   int col, const char *fmt, ...) PK_PRINTF(7, 8);
void pk_log_vadd_at(pk_log *log, pk_severity sev, const char *path, int64_t offset, int line,
                    int col, const char *fmt, va_list ap) PK_PRINTF(7, 0);

/* Repeated warnings of one kind summed up into one line (issue 11 item 14):
 * 13 duplicate-morph warnings of one file become "13 morphs ...: 'a',
 * 'b', 'c' and 10 more".  Add each with pk_log_sum_add (its short form for
 * the summary line and its whole message for when it stays alone), then
 * pk_log_sum_end writes one diagnostic: the whole message (at its
 * position) when there was one, else the summary line. */
enum { PK_LOG_SUM_SHOWN = 3 };
typedef struct pk_log_sum {
    size_t count;
    int64_t offset; /* the first one's position */
    int line, col;
    char *one;                     /* the first one's whole message */
    char *shown[PK_LOG_SUM_SHOWN]; /* the first ones' short forms */
} pk_log_sum;

void pk_log_sum_init(pk_log_sum *s);
void pk_log_sum_add(pk_log_sum *s, int64_t offset, int line, int col, const char *item,
                    const char *fmt, ...) PK_PRINTF(6, 7);
/* Writes the sum (nothing when empty) and frees it.  Several: the line is
 * fmt's text, ": ", the first short forms, " and N more" when there were
 * more, then tail (may be NULL); no position (the items carry theirs). */
void pk_log_sum_end(pk_log_sum *s, pk_log *log, pk_severity sev, const char *tail,
                    const char *fmt, ...) PK_PRINTF(5, 6);

#endif
