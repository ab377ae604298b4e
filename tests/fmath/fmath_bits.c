/* fmath_bits.c — prints the digest of posekit's elementary functions over
 * tests/fmath/fmath_cases.h, one line per function: built for Linux,
 * WebAssembly (tests/web/web.sh, under node) and Windows
 * (tests/windows/wine.sh, under Wine) it prints tests/fmath/bits.txt, the
 * same bits on every platform.  With -v it prints every case instead
 * (function, arguments and result as hex), to find where two platforms
 * part. */
#include "../fmath/fmath_cases.h"

#include <stdio.h>

static void print_case(const fmath_fn *fn, double x, double y, double r, void *ctx)
{
    (void)ctx;
    if (fn->arity == 1)
        printf("%s %a = %a\n", fn->name, x, r);
    else
        printf("%s %a %a = %a\n", fn->name, x, y, r);
}

int main(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    for (size_t i = 0; i < FMATH_NFNS; i++) {
        if (verbose)
            fmath_cases(i, print_case, NULL);
        else
            printf("%s %016llx\n", FMATH_FNS[i].name, (unsigned long long)fmath_digest(i));
    }
    return 0;
}
