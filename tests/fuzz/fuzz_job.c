/*
 * fuzz_job.c — the YAML job parser on arbitrary bytes.
 *
 * pk_job_load takes a path, so each input is written to a file in a
 * private temporary folder first.  Only parsing and checking are fuzzed:
 * pk_job_run would read whatever paths the input names (/dev/zero...) and
 * pk_job_write would write them.  Checks: a failed load leaves an error;
 * a loaded job lists outputs with a name and a path.
 */
#include "fuzz_common.h"
#include "posekit_tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_temp_file("job.yaml", data, size);
    pk_log log;
    pk_log_init(&log);
    pk_job *job = pk_job_load(path, &log);
    fz_check_log(&log, job == NULL, "pk_job_load");
    if (job) {
        size_t n = 0;
        const pk_job_output *out = pk_job_outputs(job, &n);
        for (size_t i = 0; i < n; i++)
            if (!out[i].name || !out[i].path)
                fz_fail("job output %zu without a name or a path", i);
    }
    pk_job_free(job);
    pk_log_free(&log);
    return 0;
}
