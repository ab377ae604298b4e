/* main_posix.c — the entry point on POSIX systems: arguments are already
 * the bytes the user typed (UTF-8 on every system posekit supports).
 *
 * An interrupt (SIGINT: Ctrl-C; SIGTERM: a killed job; SIGHUP: a closed
 * terminal; SIGPIPE: a reader gone) leaves no temporary file behind: the
 * handler has the library remove every temporary file still open and undo
 * a group of outputs being put in place (pk_file_interrupted), then dies
 * of the same signal, so the exit status still says how the process ended
 * (128 + the signal in a shell).  A signal the process was started with
 * ignored (nohup, a background job) stays ignored. */
#include "cli.h"

#include <signal.h>
#include <string.h>

static void on_signal(int sig)
{
    /* unlink and rename only: async-signal-safe, nothing allocated */
    pk_file_interrupted();
    /* SA_RESETHAND put the default action back and SA_NODEFER left the
     * signal unblocked: raising it again ends the process here */
    raise(sig);
}

static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigfillset(&sa.sa_mask); /* no second signal inside the handler */
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        /* the mask must not block the signal raised again */
        sigdelset(&sa.sa_mask, sigs[i]);
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
        sigaddset(&sa.sa_mask, sigs[i]);
    }
}

int main(int argc, char **argv)
{
    catch_signals();
    cli_exit_begin();
    cli_exit(cli_main(argc, argv));
}
