/* interrupt_shim.c — preloaded (LD_PRELOAD) into posekit by the case
 * cli/interrupt: the first fsync of the process raises the signal whose
 * number PK_INTERRUPT_AT_FSYNC holds.  An output's first fsync is its
 * temporary file's, written in full and not yet renamed: the signal lands
 * at a known point, the moment an interrupt must leave nothing behind,
 * with no timing in the test. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int fsync(int fd)
{
    static int calls;
    const char *sig = getenv("PK_INTERRUPT_AT_FSYNC");
    if (sig && *sig && calls++ == 0)
        raise(atoi(sig));
    return (int)syscall(SYS_fsync, fd);
}
