/*
 * fuzz_vpd_text.c — the VPD reader, text layout.
 *
 * Inputs that do not start with the signature get one prepended, so the
 * fuzzer spends its time past the first line (an input that does start
 * with it is used as is, so the signature line itself is fuzzed too).
 * Checks: a failed read leaves an error; a pose read is written in MMD's
 * text layout without failing unless the writer says why.
 */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char sig[] = "Vocaloid Pose Data file";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t siglen = sizeof sig - 1;
    uint8_t *owned = NULL;
    if (size < siglen || memcmp(data, sig, siglen) != 0) {
        owned = malloc(siglen + 2 + size);
        if (!owned)
            return 0;
        memcpy(owned, sig, siglen);
        memcpy(owned + siglen, "\r\n", 2);
        if (size)
            memcpy(owned + siglen + 2, data, size);
        data = owned;
        size += siglen + 2;
    }
    pk_log log;
    pk_log_init(&log);
    pk_pose *p = pk_vpd_read(data, size, &log);
    pk_log_place(&log, 0, "fuzz.vpd");
    fz_check_log(&log, p == NULL, "pk_vpd_read");
    if (p) {
        pk_buf out;
        pk_buf_init(&out);
        pk_log_free(&log);
        pk_log_init(&log);
        pk_vpd_options opts = {PK_VPD_TEXT, false};
        int rc = pk_vpd_write(p, &opts, &out, &log);
        fz_check_log(&log, rc != 0, "pk_vpd_write");
        pk_buf_free(&out);
    }
    pk_pose_free(p);
    pk_log_free(&log);
    free(owned);
    return 0;
}
