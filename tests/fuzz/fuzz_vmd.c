/*
 * fuzz_vmd.c — the VMD reader on arbitrary bytes.
 *
 * Beyond "no crash, no leak": a failed read leaves an error in the log; a
 * successful read gives a motion whose counts are consistent with the
 * input (every record costs at least its fixed size, so no count can
 * exceed len / record size) and which writes without failing unless the
 * writer says why.
 */
#include "fuzz_common.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_log_set_path(&log, "fuzz.vmd");
    pk_motion *m = pk_vmd_read(data, size, &log);
    fz_check_log(&log, m == NULL, "pk_vmd_read");
    if (m) {
        /* Record sizes from doc/formats.md §3: bone 111, morph 23, camera 61,
         * light 28, shadow 9, IK key at least 9. */
        if (m->nbones > size / 111 || m->nmorphs > size / 23 || m->ncameras > size / 61 ||
            m->nlights > size / 28 || m->nshadows > size / 9 || m->niks > size / 9)
            fz_fail("more records than the %zu input bytes can hold", size);
        if (m->sections < 0 || m->sections > PK_SEC_COUNT)
            fz_fail("sections = %d", m->sections);
        pk_buf out;
        pk_buf_init(&out);
        pk_log_free(&log);
        pk_log_init(&log);
        int rc = pk_vmd_write(m, &out, &log);
        fz_check_log(&log, rc != 0, "pk_vmd_write");
        pk_buf_free(&out);
        uint32_t first, last;
        (void)pk_motion_frame_range(m, &first, &last);
        char *model = pk_motion_model_utf8(m);
        free(model);
    }
    pk_motion_free(m);
    pk_log_free(&log);
    return 0;
}
