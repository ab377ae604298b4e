/*
 * exit_posix.c — how a posekit process ends on POSIX systems
 * (main_posix.c, and each forked run of tests/cli/bad_variants.c).
 *
 * In a build without AddressSanitizer this is exit(status), what returning
 * from main does.  In a build with it, LeakSanitizer looks for leaks at
 * exit by reading every writable segment of every loaded module, the
 * sanitizer's own 5.6 MB of zeroed data among them: about 1,500 page
 * faults and 25 ms of CPU a process, half of what a short sanitized run of
 * posekit costs (doc/testing.md "Where the time goes").  A process that
 * holds, at its end, exactly the bytes it held before its work began
 * (AddressSanitizer's own count, exact: a freed block waiting in its
 * quarantine counts as freed) left nothing of that work allocated, so no
 * leak: it ends without the check.  Any other process ends with the whole
 * check, which reports each leak with where it was allocated.
 *
 * What the C library allocates on first use and keeps for good (standard
 * output's buffer at its first write, iconv's CP932 converters at the
 * first conversion) is made before the count is taken, so that a run
 * which writes a line or reads a Japanese name still ends the short way.
 */
#include "cli.h"

#include <stdlib.h>
#include <unistd.h>

/* AddressSanitizer's count of the bytes allocated and not yet freed (weak:
 * absent, so null, in a build without it). */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

static size_t held; /* the count at cli_exit_begin */

void cli_exit_begin(void)
{
    if (!__sanitizer_get_current_allocated_bytes)
        return;
    static char out_buf[BUFSIZ];
    static bool ready;
    if (!ready) {
        /* the C library's default: a terminal by lines, anything else in
         * blocks; only the buffer is ours */
        setvbuf(stdout, out_buf, isatty(1) ? _IOLBF : _IOFBF, sizeof out_buf);
        /* a name each way through the library: glibc loads its CP932
         * converters and keeps them */
        free(pk_cp932_to_utf8("\x93\xaa", 2, NULL)); /* 頭 */
        uint8_t *raw = NULL;
        size_t n;
        pk_utf8_to_cp932("\xe9\xa0\xad", &raw, &n);
        free(raw); /* NULL when it failed */
        ready = true;
    }
    held = __sanitizer_get_current_allocated_bytes();
}

_Noreturn void cli_exit(int status)
{
    if (__sanitizer_get_current_allocated_bytes &&
        __sanitizer_get_current_allocated_bytes() == held && fflush(NULL) == 0)
        _exit(status); /* nothing of the run left allocated: no leak */
    exit(status);      /* standard I/O flushed, the leak check run */
}
