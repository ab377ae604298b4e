/*
 * fuzz_pmd.c — the PMD model reader on arbitrary bytes.
 *
 * Beyond "no crash, no leak": a failed read leaves an error in the log; a
 * model that reads has counts the input could hold, every parent, IK
 * target, IK link, display-frame member and rigid body bone inside the
 * model, no parent cycle, and lookups by its own CP932 names find the
 * bones.
 */
#include "fuzz_common.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_pmd_read(data, size, &log);
    pk_log_place(&log, 0, "fuzz.pmd");
    fz_check_log(&log, m == NULL, "pk_pmd_read");
    if (m)
        fz_check_model(m, size);
    pk_model_free(m);
    pk_log_free(&log);
    return 0;
}
