/* main_win32.c — the entry point on Windows (linked with -municode).
 *
 *  - Arguments arrive as UTF-16 (wmain): they are converted to UTF-8, the
 *    one encoding posekit uses inside; the library's platform edge turns
 *    paths back into UTF-16 for the file API, so ダンス.vmd works.
 *  - The console is switched to UTF-8 output so Japanese bone names print
 *    as text, and switched back on the way out: the code page belongs to
 *    the console, not to the process, so a cmd.exe at code page 932 left
 *    at UTF-8 would show the next program's Shift-JIS text as mojibake.
 *    Standard input and output are in binary mode (no CRLF translation of
 *    VMD bytes or of a VPD's own line ends).
 *  - Drag and drop: files dropped on posekit.exe arrive as arguments with
 *    no command (the first names an existing file or folder; a mistyped
 *    command is not a drop).  Then posekit prints `info` for each, and
 *    when the console is its own (it was started by Explorer, not from a
 *    prompt) waits for Enter so the window does not vanish before it is
 *    read.  So does posekit double-clicked (no arguments, its own
 *    console): the usage, and how to use a command-line program.
 *    tests/windows/wine.sh checks these cases under Wine.
 *  - Ctrl-C, Ctrl-Break, a closed console window, a logoff or a shutdown
 *    leave no temporary file: the console control handler (run by Windows
 *    on a thread of its own) has the library delete every temporary file
 *    still open and undo a group of outputs being put in place
 *    (pk_file_interrupted).  Ctrl-C and Ctrl-Break then end the process
 *    with STATUS_CONTROL_C_EXIT (0xC000013A), as Windows' default handler
 *    does; the other events go on to the default handler, which exits.
 */
#include "cli.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static char *to_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0)
        return NULL;
    char *s = malloc((size_t)n);
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) <= 0) {
        free(s);
        s = NULL;
    }
    return s;
}

/* True when this process is the only one attached to its console: it was
 * given a fresh console (double-click, drag and drop), not run from cmd. */
static bool owns_console(void)
{
    DWORD ids[2];
    return GetConsoleProcessList(ids, 2) == 1;
}

/* The console's output code page when posekit started (0: no console or
 * already UTF-8, nothing to give back). */
static UINT console_cp;

/* Gives the console its code page back.  What is still buffered is
 * written first, while the console still reads it as UTF-8. */
static void restore_console_cp(void)
{
    if (!console_cp)
        return;
    fflush(stdout);
    fflush(stderr);
    SetConsoleOutputCP(console_cp);
}

/* The last words in a console window of posekit's own (Explorer's): what
 * was printed stays until Enter is pressed. */
static void wait_for_enter(FILE *to, const char *words)
{
    fflush(stdout);
    fflush(stderr);
    fprintf(to, "%s\nPress Enter to close this window.\n", words);
    fflush(to);
    (void)getchar();
}

static BOOL WINAPI on_console_event(DWORD event)
{
    /* every event ends the process: the undo is the same for all */
    pk_file_interrupted();
    /* the default handler ends the process without the atexit functions */
    if (console_cp)
        SetConsoleOutputCP(console_cp);
    /* Ctrl-C and Ctrl-Break end with the status Windows' own handler
     * gives them, whatever the host's handler does (Wine 8's exits 0, which
     * a batch file takes for success) */
    if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT)
        ExitProcess(STATUS_CONTROL_C_EXIT);
    return FALSE; /* the next handler: the default one, which exits */
}

int wmain(int argc, wchar_t **wargv); /* the entry point (-municode) */

int wmain(int argc, wchar_t **wargv)
{
    SetConsoleCtrlHandler(on_console_event, TRUE);
    console_cp = GetConsoleOutputCP(); /* 0 without a console */
    if (console_cp == CP_UTF8 || !SetConsoleOutputCP(CP_UTF8))
        console_cp = 0;
    else
        atexit(restore_console_cp);
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    /* A console gets whole lines, not single bytes: written one byte at a
     * time (stdio leaves a console unbuffered), each byte of a UTF-8
     * character arrives alone and shows as U+FFFD.  Flushed at exit and
     * before the drag-and-drop prompt. */
    if (GetFileType(GetStdHandle(STD_OUTPUT_HANDLE)) == FILE_TYPE_CHAR)
        setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    if (GetFileType(GetStdHandle(STD_ERROR_HANDLE)) == FILE_TYPE_CHAR)
        setvbuf(stderr, NULL, _IOFBF, 1 << 12);

    /* argv: room for an inserted "info" and the terminating NULL. */
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv) {
        fputs("posekit: out of memory\n", stderr);
        return EXIT_ERROR;
    }
    int n = 0;
    argv[n++] = to_utf8(wargv[0]);
    /* A drop: the first argument names an existing file or folder (Explorer
     * passes full paths) and is not a command.  Anything else, such as a
     * mistyped command, goes to the CLI and gets its usual error. */
    bool dropped = argc > 1 && wargv[1][0] != L'-' &&
                   GetFileAttributesW(wargv[1]) != INVALID_FILE_ATTRIBUTES;
    for (int i = 1; i < argc; i++) {
        argv[i] = to_utf8(wargv[i]);
        if (!argv[i]) {
            fputs("posekit: an argument is not valid UTF-16\n", stderr);
            return EXIT_ERROR;
        }
        n++;
    }
    dropped = dropped && !cli_is_command(argv[1]) && strcmp(argv[1], "help") != 0 &&
              strcmp(argv[1], "version") != 0;
    int status;
    if (dropped) {
        /* posekit FILE... -> posekit info FILE... */
        memmove(argv + 2, argv + 1, (size_t)(n - 1) * sizeof *argv);
        argv[1] = (char *)"info";
        status = cli_main(n + 1, argv);
        if (owns_console())
            wait_for_enter(stdout, "");
    } else {
        status = cli_main(n, argv);
        /* double-clicked in Explorer: no arguments, and the usage (on
         * standard error) in a window of its own that would close before
         * it is read; from a prompt nothing waits */
        if (argc == 1 && owns_console())
            wait_for_enter(stderr, "\nposekit is a command-line program: run it from cmd or PowerShell\n"
                                   "(posekit help), or drop motion, pose and model files on\n"
                                   "posekit.exe to see what they hold.\n");
    }
    return status;
}
