/*
 * fuzz_vpd_hybrid.c — the VPD reader, hybrid layout (30-byte NUL-padded
 * signature, 20-byte model name, uint32 bone count, per bone a 15-byte
 * name and a text line; doc/formats.md §2).
 *
 * Inputs that do not start with the NUL-terminated signature get the
 * 30-byte signature field prepended, so every input reaches the hybrid
 * path.  Checks as for the text target, writing back in hybrid layout.
 */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char sig[] = "Vocaloid Pose Data file"; /* + NUL */
    const size_t siglen = sizeof sig;                    /* 24, NUL included */
    uint8_t *owned = NULL;
    if (size < siglen || memcmp(data, sig, siglen) != 0) {
        owned = calloc(1, 30 + size);
        if (!owned)
            return 0;
        memcpy(owned, sig, siglen);
        if (size)
            memcpy(owned + 30, data, size);
        data = owned;
        size += 30;
    }
    pk_log log;
    pk_log_init(&log);
    pk_pose *p = pk_vpd_read(data, size, &log);
    pk_log_place(&log, 0, "fuzz.vpd");
    fz_check_log(&log, p == NULL, "pk_vpd_read (hybrid)");
    if (p) {
        pk_buf out;
        pk_buf_init(&out);
        pk_log_free(&log);
        pk_log_init(&log);
        pk_vpd_options opts = {PK_VPD_HYBRID, false};
        int rc = pk_vpd_write(p, &opts, &out, &log);
        fz_check_log(&log, rc != 0, "pk_vpd_write (hybrid)");
        pk_buf_free(&out);
    }
    pk_pose_free(p);
    pk_log_free(&log);
    free(owned);
    return 0;
}
