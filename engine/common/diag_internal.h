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

#endif
