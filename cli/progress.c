/* progress.c — the progress line of long work: the engine's progress
 * callback (pk_log_set_progress) shown on standard error as one line
 * updated in place, "posekit smooth: writing 45% (3 s)", once the work
 * has taken a second (by time()'s whole seconds; POSEKIT_PROGRESS_DELAY
 * sets how many: 0 draws it at once, which lets the tests of the line
 * use work that does not last), cleared before anything else is printed and at the
 * end.  Only when standard error is a terminal and the command reports
 * progress (pk_step_cli.progress) without --quiet: never in a pipe, a file
 * or a job's report.  Where the system has a receiver of its own
 * (cli_progress_own: a web page's bar), it gets the callback instead. */
#include "cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The engine's callback: the line again when the percentage, the work
 * or the second has changed. */
static void show(void *ctx, double done, const char *what)
{
    cli_progress *p = ctx;
    time_t now = time(NULL);
    double elapsed = difftime(now, p->start);
    int pct = (int)(done * 100.0);
    if (elapsed < p->delay || (pct == p->pct && now == p->at && strcmp(what, p->what) == 0))
        return;
    char line[160];
    int n = snprintf(line, sizeof line, "posekit %s: %s %d%% (%.0f s)", p->cmd, what, pct, elapsed);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    /* spaces over what a longer line before left */
    fprintf(stderr, "\r%s%*s", line, p->width > len ? (int)(p->width - len) : 0, "");
    fflush(stderr);
    p->width = len > p->width ? len : p->width;
    p->pct = pct;
    p->at = now;
    snprintf(p->what, sizeof p->what, "%s", what);
}

/* POSEKIT_PROGRESS_DELAY: a whole number of seconds from 0 to 3600; unset
 * or anything else, 1 (git's GIT_PROGRESS_DELAY is the same knob). */
static double progress_delay(void)
{
    const char *v = getenv("POSEKIT_PROGRESS_DELAY");
    if (!v || *v < '0' || *v > '9')
        return 1.0;
    char *end;
    long s = strtol(v, &end, 10);
    return s <= 3600 && *end == '\0' ? (double)s : 1.0;
}

void cli_progress_start(cli_progress *p, const char *cmd, pk_log *log)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->delay = progress_delay();
    p->start = time(NULL);
    p->pct = -1;
    pk_progress_fn own = cli_progress_own();
    if (own)
        pk_log_set_progress(log, own, (void *)(uintptr_t)cmd);
    else if (pk_stderr_is_terminal())
        pk_log_set_progress(log, show, p);
}

void cli_progress_clear(const pk_log *log)
{
    if (!log || log->progress != show)
        return;
    cli_progress *p = log->progress_ctx;
    if (p->width) {
        fprintf(stderr, "\r%*s\r", (int)p->width, "");
        fflush(stderr);
    }
    p->width = 0;
}
