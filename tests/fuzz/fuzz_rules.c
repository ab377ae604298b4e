/*
 * fuzz_rules.c — the YAML rules loader on arbitrary bytes.
 *
 * pk_rules_load takes a path, so each input is written to a file in a
 * private temporary folder first (includes then resolve inside that
 * folder and are not found, which is an ordinary error).  Checks: a failed
 * load leaves an error; a loaded rule set answers selections.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_temp_file("rules.yaml", data, size);
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_load(path, &log);
    fz_check_log(&log, r == NULL, "pk_rules_load");
    if (r) {
        /* A selection through the loaded groups: an unknown group is an
         * error, anything else must resolve. */
        pk_log_free(&log);
        pk_log_init(&log);
        pk_selection *s = pk_selection_parse(r, "@hand_R,center,*_L", &log);
        fz_check_log(&log, s == NULL, "pk_selection_parse");
        if (s) {
            (void)pk_selection_has(s, "center", 6);
            (void)pk_selection_has(s, "\x89\x45\x8e\xe8\x8e\xf1", 6); /* 右手首 */
        }
        pk_selection_free(s);
    }
    pk_rules_free(r);
    pk_log_free(&log);
    return 0;
}
