/* main_web.c — the entry point in a browser (Emscripten; web/worker.js).
 *
 * The page's worker calls main once per command, through the module's
 * callMain, with the command's files in the current folder of an
 * in-memory file system, so a command runs exactly as at a prompt.
 * Standard output and error are flushed before main returns: the runtime
 * stays alive between commands and does not flush at exit, and the
 * worker collects every byte when main returns.  New files get the
 * permissions a shell's umask 022 gives.  (Progress:
 * progress_web.c; the rule files and built-in bodies are embedded at the
 * installed place by cli/meson.build.)
 */
#include "cli.h"

#include <stdio.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
    /* Emscripten starts a program with the umask 0777, so new files would
     * get no permissions at all; 022, as a shell gives. */
    umask(022);
    int status = cli_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    return status;
}
