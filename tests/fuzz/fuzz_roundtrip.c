/*
 * fuzz_roundtrip.c — the round-trip laws on arbitrary input.
 *
 * VMD (doc/architecture.md "Round-trip law"): an input that reads writes back to the
 * very same bytes; reading those bytes gives the same model, field by field
 * (floats bit for bit); writing that model again gives the same bytes, and
 * so does the streamed writer (pk_vmd_write_sink) fed to a small sink.
 *
 * VPD: text stores six decimals, so the law is one step later: a pose that
 * reads is written (in the layout it was read in), that text reads back to
 * the same names and the same numbers within rounding, and writing the
 * re-read pose gives exactly the same bytes as the first write.
 *
 * The format is chosen by content, as the CLI does.
 */
#include "fuzz_common.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_bytes(const pk_buf *a, const uint8_t *b, size_t blen, const char *what)
{
    if (a->len != blen)
        fz_fail("%s: %zu bytes vs %zu", what, a->len, blen);
    for (size_t i = 0; i < blen; i++)
        if (a->data[i] != b[i])
            fz_fail("%s: first difference at byte %zu (%02x vs %02x)", what, i, a->data[i], b[i]);
}

static int append_sink(void *ctx, const void *data, size_t len)
{
    pk_buf_append(ctx, data, len);
    return 0;
}

static void roundtrip_vmd(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_motion *m1 = pk_vmd_read(data, size, &log);
    fz_check_log(&log, m1 == NULL, "pk_vmd_read");
    pk_log_free(&log);
    if (!m1)
        return;
    pk_buf b1, b2;
    pk_buf_init(&b1);
    pk_buf_init(&b2);
    pk_log_init(&log);
    int rc = pk_vmd_write(m1, &b1, &log);
    fz_check_log(&log, rc != 0, "pk_vmd_write");
    if (rc == 0) {
        same_bytes(&b1, data, size, "VMD written back differs from the input");
        pk_motion *m2 = pk_vmd_read(b1.data, b1.len, &log);
        if (!m2)
            fz_fail("the VMD writer produced bytes the reader rejects");
        fz_motion_equal(m1, m2);
        if (pk_vmd_write(m2, &b2, &log) != 0)
            fz_fail("writing the re-read motion failed");
        same_bytes(&b2, b1.data, b1.len, "second VMD write differs from the first");
        pk_buf_free(&b2);
        pk_buf_init(&b2);
        if (pk_vmd_write_sink(m2, append_sink, &b2, &log) != 0)
            fz_fail("the streamed VMD write failed");
        same_bytes(&b2, b1.data, b1.len, "streamed VMD write differs from the buffered one");
        pk_motion_free(m2);
    }
    pk_buf_free(&b1);
    pk_buf_free(&b2);
    pk_log_free(&log);
    pk_motion_free(m1);
}

static void roundtrip_vpd(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_pose *p1 = pk_vpd_read(data, size, &log);
    fz_check_log(&log, p1 == NULL, "pk_vpd_read");
    pk_log_free(&log);
    if (!p1)
        return;
    pk_vpd_options opts = {p1->layout, false};
    pk_buf b1, b2;
    pk_buf_init(&b1);
    pk_buf_init(&b2);
    pk_log_init(&log);
    int rc = pk_vpd_write(p1, &opts, &b1, &log);
    fz_check_log(&log, rc != 0, "pk_vpd_write");
    if (rc == 0) {
        pk_pose *p2 = pk_vpd_read(b1.data, b1.len, &log);
        if (!p2)
            fz_fail("the VPD writer produced bytes the reader rejects");
        fz_pose_equal(p1, p2, 1e-6);
        if (pk_vpd_write(p2, &opts, &b2, &log) != 0)
            fz_fail("writing the re-read pose failed");
        same_bytes(&b2, b1.data, b1.len, "second VPD write differs from the first");
        pk_pose_free(p2);
    }
    pk_buf_free(&b1);
    pk_buf_free(&b2);
    pk_log_free(&log);
    pk_pose_free(p1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    switch (pk_format_detect(data, size, NULL)) {
    case PK_FMT_VMD:
        roundtrip_vmd(data, size);
        break;
    case PK_FMT_VPD:
        roundtrip_vpd(data, size);
        break;
    default:
        break;
    }
    return 0;
}
