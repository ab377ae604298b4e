/*
 * sanitizer_canary.c — faults that a sanitizer build must catch, one per
 * mode (lib/sanitizer_canary.py runs each and reads the report):
 *   overflow  a signed addition that overflows (UBSan, trapping in build B)
 *   shift     a shift by more than the width (UBSan)
 *   heap      a read past the end of a heap block (ASan)
 *   freed     a read of a block after it was freed (ASan's quarantine)
 *   leak      a block no pointer reaches at exit (LeakSanitizer)
 *   clean     none: a block made and freed (exit status 0, its line out)
 * The program ends as posekit does (cli/exit_posix.c, whose short way out
 * must not hide a leak nor lose what standard output holds).
 * Each fault is on the line marked "canary: MODE", which the report must
 * name.  The values come from the command line, so the compiler cannot
 * fold them away.  Built only in a sanitizer build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;

/* posekit's way to end a process (cli/exit_posix.c) */
void cli_exit_begin(void);
_Noreturn void cli_exit(int status);

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sanitizer_canary overflow|shift|heap|freed|leak N\n");
        return 2;
    }
    cli_exit_begin();
    int n = atoi(argv[2]);
    if (strcmp(argv[1], "overflow") == 0) {
        int big = 2147483647 - n;
        sink = big + n + 1; /* canary: overflow */
    } else if (strcmp(argv[1], "shift") == 0) {
        sink = 1 << (n + 31); /* canary: shift */
    } else if (strcmp(argv[1], "heap") == 0) {
        char *p = malloc((size_t)n + 1);
        if (!p)
            return 2;
        memset(p, 1, (size_t)n + 1);
        sink = p[n + 1]; /* canary: heap */
        free(p);
    } else if (strcmp(argv[1], "freed") == 0) {
        char *p = malloc((size_t)n + 1);
        if (!p)
            return 2;
        memset(p, 1, (size_t)n + 1);
        char *volatile kept = p; /* out of the compiler's sight */
        free(p);
        sink = kept[n]; /* canary: freed */
    } else if (strcmp(argv[1], "leak") == 0) {
        char *p = malloc((size_t)n + 16); /* canary: leak */
        if (!p)
            return 2;
        memset(p, 1, (size_t)n + 16);
        sink = p[n];
        p = NULL;
    } else if (strcmp(argv[1], "clean") == 0) {
        char *p = malloc((size_t)n + 16);
        if (!p)
            return 2;
        memset(p, 1, (size_t)n + 16);
        sink = p[n];
        free(p);
    } else {
        return 2;
    }
    printf("no fault caught\n");
    cli_exit(0);
}
