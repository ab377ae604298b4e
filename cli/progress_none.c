/* progress_none.c — cli_progress_own on systems with a terminal: no
 * receiver of their own, so long work shows the terminal's progress line
 * (progress.c) or nothing. */
#include "cli.h"

pk_progress_fn cli_progress_own(void)
{
    return NULL;
}
