/* progress_web.c — cli_progress_own in a browser (Emscripten): long work
 * reports to Module.onProgress(command, done, what), which web/worker.js
 * sets to post the page its progress messages.  There is no terminal. */
#include "cli.h"

#include <emscripten.h>

/* clang-format off */
EM_JS(void, web_progress, (const char *cmd, double done, const char *what), {
    if (Module.onProgress)
        Module.onProgress(UTF8ToString(cmd), done, UTF8ToString(what));
})
/* clang-format on */

static void progress(void *ctx, double done, const char *what)
{
    web_progress(ctx, done, what);
}

pk_progress_fn cli_progress_own(void)
{
    return progress;
}
