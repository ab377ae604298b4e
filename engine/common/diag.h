/* diag.h — repeated warnings summed up into one diagnostic. */
#ifndef PKI_COMMON_DIAG_H
#define PKI_COMMON_DIAG_H

#include "posekit.h"

#include <stdarg.h>

/* Repeated warnings of one kind summed up into one line:
 * 13 duplicate-morph warnings of one file become "13 morphs ...: 'a',
 * 'b', 'c' and 10 more".  Add each with pki_log_sum_add (its short form for
 * the summary line and its whole message for when it stays alone), then
 * pki_log_sum_end writes one diagnostic: the whole message (at its
 * position) when there was one, else the summary line. */
enum { PKI_LOG_SUM_SHOWN = 3 };
typedef struct pki_log_sum {
    size_t count;
    int64_t offset; /* the first one's position */
    int line, col;
    char *one;                     /* the first one's whole message */
    char *shown[PKI_LOG_SUM_SHOWN]; /* the first ones' short forms */
} pki_log_sum;

void pki_log_sum_init(pki_log_sum *s);
void pki_log_sum_add(pki_log_sum *s, int64_t offset, int line, int col, const char *item,
                     const char *fmt, ...) PK_PRINTF(6, 7);
/* Writes the sum (nothing when empty), of kind code, and frees it.  Several: the line is
 * fmt's text, ": ", the first short forms, " and N more" when there were
 * more, then tail (may be NULL); no position (the items carry theirs). */
void pki_log_sum_end(pki_log_sum *s, pk_log *log, pk_severity sev, pk_diag_code code,
                     const char *tail, const char *fmt, ...) PK_PRINTF(6, 7);

#endif
