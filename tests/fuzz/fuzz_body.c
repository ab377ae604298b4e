/*
 * fuzz_body.c — the body reader (a model described as YAML text, the
 * format of rules/bodies/README.md) on arbitrary bytes.
 *
 * Beyond "no crash, no leak": a failed read leaves an error in the log; a
 * body that reads has every parent, IK target, IK link and display-frame
 * member inside the model, no parent cycle, and lookups by its own names
 * find the bones; and it writes as a body that reads back to a model
 * whose body text is the same bytes (what pk_body_write writes loses
 * nothing).
 */
#include "fuzz_common.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A body's bone takes at least its name and place ("{name: a, pos: *p},",
 * 17 bytes with an alias for the place); a morph or a rigid body can be an
 * alias of two bytes and a comma ("[*m,*m]"); a body has no display
 * frames. */
#define BODY_LIMITS(size) {(size) / 9, (size) / 2 + 1, 0, (size) / 2 + 1}

static void written_again(const pk_model *m)
{
    pk_log log;
    pk_log_init(&log);
    pk_buf a, b;
    pk_buf_init(&a);
    pk_buf_init(&b);
    if (pk_body_write(m, NULL, NULL, &a, &log) != 0)
        fz_fail("pk_body_write failed on a body that read");
    pk_model *again = pk_body_read(a.data, a.len, &log);
    if (!again) {
        pk_log_place(&log, 0, "written.yaml");
        fz_check_log(&log, 1, "pk_body_read of pk_body_write's text");
        fz_fail("a written body does not read back");
    }
    if (again->nbones != m->nbones)
        fz_fail("written body: %zu bones read back from %zu", again->nbones, m->nbones);
    if (pk_body_write(again, NULL, NULL, &b, &log) != 0)
        fz_fail("pk_body_write failed on the body read back");
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
        fz_fail("a body read back writes other text (%zu vs %zu bytes)", a.len, b.len);
    pk_model_free(again);
    pk_buf_free(&a);
    pk_buf_free(&b);
    pk_log_free(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_body_read(data, size, &log);
    pk_log_place(&log, 0, "fuzz.yaml");
    fz_check_log(&log, m == NULL, "pk_body_read");
    if (m) {
        fz_model_limits lim = BODY_LIMITS(size);
        fz_check_model_within(m, &lim, size);
        written_again(m);
    }
    pk_model_free(m);
    pk_log_free(&log);
    return 0;
}
