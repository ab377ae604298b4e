/* test_job_each.c — one job over many files (pk_job_batch_*, doc/jobs.md
 * "Many files at once"): how outputs are named from each file ({stem}),
 * file patterns (pki_os_name_match, pki_os_glob), clashes refused before
 * anything runs (two files writing one output, an output over another
 * file of the batch), failure isolation (a broken file fails alone, the
 * others are written, the callback comes in input order), and the
 * platform's worker pool (pki_os_parallel). */
#include "testutil.h"
#include "job/job.h"
#include "platform/platform.h"
#include "posekit_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
    tu_write_file(path, text, strlen(text));
}

/* path = dir/name, in buf. */
static const char *at(char *buf, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(buf, cap, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < cap);
    return buf;
}

/* Copies the sample dance to dir/name. */
static void copy_dance(const char *dir, const char *name)
{
    const char *src = getenv("PK_SOURCE");
    assert_non_null(src);
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/samples/dance.vmd", src);
    size_t len;
    uint8_t *data = tu_read_file(from, &len);
    assert_non_null(data);
    tu_write_file(at(to, sizeof to, dir, name), data, len);
    free(data);
}

static void test_stem_and_names(void **state)
{
    (void)state;
    char *s = pki_job_stem("dances/a.b.vmd");
    assert_string_equal(s, "a.b");
    free(s);
    s = pki_job_stem("x");
    assert_string_equal(s, "x");
    free(s);
    s = pki_job_stem("d/.vmd"); /* all extension: kept whole */
    assert_string_equal(s, ".vmd");
    free(s);
    s = pki_job_stem("踊り/ダンス.vmd");
    assert_string_equal(s, "ダンス");
    free(s);
    s = pki_job_name_output("out/{stem}/{stem}-light.vmd", "ダンス");
    assert_string_equal(s, "out/ダンス/ダンス-light.vmd");
    free(s);
    s = pki_job_name_output("out/{stemx}.vmd", "a"); /* only "{stem}" is replaced */
    assert_string_equal(s, "out/{stemx}.vmd");
    free(s);
    s = pki_job_name_output("out/same.vmd", "a");
    assert_string_equal(s, "out/same.vmd");
    free(s);
}

static void test_name_match(void **state)
{
    (void)state;
    assert_true(pki_os_name_match("*.vmd", "a.vmd", false));
    assert_false(pki_os_name_match("*.vmd", "a.vmdx", false));
    assert_false(pki_os_name_match("*.vmd", "a.VMD", false));
    assert_true(pki_os_name_match("*.vmd", "a.VMD", true));
    assert_false(pki_os_name_match("*.vmd", ".hidden.vmd", false));
    assert_true(pki_os_name_match(".*.vmd", ".hidden.vmd", false));
    assert_true(pki_os_name_match("?.vmd", "ダ.vmd", false)); /* one character, three bytes */
    assert_false(pki_os_name_match("??.vmd", "ダ.vmd", false));
    assert_true(pki_os_name_match("a*b*c", "axxbyybc", false));
    assert_false(pki_os_name_match("a*b*c", "axxbyy", false));
    assert_true(pki_os_name_match("*", "x", false));
    assert_true(pki_os_name_match("a.vmd", "a.vmd", false));
    assert_false(pki_os_name_match("a.vmd", "b.vmd", false));
}

static void test_glob(void **state)
{
    (void)state;
    char dir[256], p[4096], pat[4096];
    snprintf(dir, sizeof dir, "%s", tu_tmpdir());
    write_text(at(p, sizeof p, dir, "b.vmd"), "x");
    write_text(at(p, sizeof p, dir, "a.vmd"), "x");
    write_text(at(p, sizeof p, dir, "c.txt"), "x");
    write_text(at(p, sizeof p, dir, ".h.vmd"), "x");
    assert_int_equal(mkdir(at(p, sizeof p, dir, "d.vmd"), 0700), 0); /* a folder */
    pk_log log;
    pk_log_init(&log);
    char **paths;
    size_t n;
    assert_int_equal(pki_os_glob(at(pat, sizeof pat, dir, "*.vmd"), &paths, &n, &log), 0);
    assert_int_equal(n, 2); /* files only, no hidden one, sorted */
    assert_string_equal(paths[0], at(p, sizeof p, dir, "a.vmd"));
    assert_string_equal(paths[1], at(p, sizeof p, dir, "b.vmd"));
    pki_os_free_list(paths, n);
    assert_int_equal(pki_os_glob(at(pat, sizeof pat, dir, "*.pmx"), &paths, &n, &log), 0);
    assert_int_equal(n, 0);
    pki_os_free_list(paths, n);
    assert_int_equal(log.errors, 0);
    /* wildcards in folder names are refused, a missing folder is an error */
    assert_int_equal(pki_os_glob(at(pat, sizeof pat, dir, "*/a.vmd"), &paths, &n, &log), -1);
    tu_assert_log_has(&log, "file name only");
    assert_int_equal(pki_os_glob(at(pat, sizeof pat, dir, "none/*.vmd"), &paths, &n, &log), -1);
    tu_assert_log_has(&log, "cannot read the folder");
    pk_log_free(&log);
}

/* A job over dir/dances/ with the given outputs section; returns its
 * path in buf. */
static const char *write_job(char *buf, size_t cap, const char *dir, const char *inputs,
                             const char *outputs)
{
    char text[4096];
    snprintf(text, sizeof text, "inputs:\n%ssteps:\n  - mirror: {in: dance, out: m}\noutputs:\n%s",
             inputs, outputs);
    write_text(at(buf, cap, dir, "job.yaml"), text);
    return buf;
}

static const char EACH[] = "  dance: \"{each}\"\n";

static void test_clashes_refused(void **state)
{
    (void)state;
    char dir[256], job[4096], pat[4096], d[4096];
    snprintf(dir, sizeof dir, "%s", tu_tmpdir());
    assert_int_equal(mkdir(at(d, sizeof d, dir, "dances"), 0700), 0);
    copy_dance(d, "a.vmd");
    copy_dance(d, "b.vmd");
    pk_log log;
    pk_log_init(&log);
    /* no {stem}: both files would write one output */
    write_job(job, sizeof job, dir, EACH, "  m: out/m.vmd\n");
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log));
    tu_assert_log_has(&log, "for both");
    tu_assert_log_has(&log, "job.yaml:6:6");
    pk_log_free(&log);
    /* one file's output is another file of the batch */
    pk_log_init(&log);
    copy_dance(d, "a-m.vmd");
    write_job(job, sizeof job, dir, EACH, "  m: dances/{stem}-m.vmd\n");
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log));
    tu_assert_log_has(&log, "another file of --each");
    pk_log_free(&log);
    /* two files of one stem */
    pk_log_init(&log);
    copy_dance(d, "b.VMD");
    write_job(job, sizeof job, dir, EACH, "  m: out/{stem}.vmd\n");
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "b.*"), &log));
    tu_assert_log_has(&log, "for both");
    pk_log_free(&log);
    /* nothing was written by any of them */
    assert_false(exists(at(pat, sizeof pat, dir, "out")));
    /* with {stem} the same files load */
    pk_log_init(&log);
    pk_job_batch *b = pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log);
    assert_non_null(b);
    assert_int_equal(pk_job_batch_count(b), 3);
    pk_job_batch_free(b);
    /* a pattern that names nothing is an error */
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vpd"), &log));
    tu_assert_log_has(&log, "names no file");
    pk_log_free(&log);
    /* {each} and {stem} belong to --each; --each needs an {each} input */
    pk_log_init(&log);
    assert_null(pk_job_load(job, &log));
    tu_assert_log_has(&log, "job.yaml:2:10: input 'dance' is {each}");
    write_job(job, sizeof job, dir, "  dance: dances/a.vmd\n", "  m: out/{stem}.vmd\n");
    assert_null(pk_job_load(job, &log));
    tu_assert_log_has(&log, "{stem} names the file of a run of many");
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log));
    tu_assert_log_has(&log, "no input is {each}");
    write_job(job, sizeof job, dir, "  dance: \"{each}\"\n  other: \"{each}\"\n",
              "  m: out/{stem}.vmd\n");
    assert_null(pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log));
    tu_assert_log_has(&log, "only one input can be {each}");
    pk_log_free(&log);
}

/* pk_job_batch_run's callback: what each file said, in call order. */
typedef struct seen {
    size_t calls, order[8];
    bool ok[8];
    size_t bytes[8];
    char first_error[8][512];
} seen;

static void remember(void *ctx, const pk_job_batch_file *f)
{
    seen *s = ctx;
    assert_true(s->calls < 8);
    s->order[s->calls] = f->index;
    s->ok[s->calls] = f->ok;
    s->bytes[s->calls] = f->nouts == 1 ? f->bytes[0] : 0;
    s->first_error[s->calls][0] = '\0';
    for (size_t i = 0; i < f->log->count; i++)
        if (f->log->items[i].severity == PK_ERROR) {
            pk_diag_format(&f->log->items[i], s->first_error[s->calls], 512);
            break;
        }
    s->calls++;
}

static void run_isolation(unsigned threads, bool dry)
{
    char dir[256], job[4096], pat[4096], d[4096], p[4096];
    snprintf(dir, sizeof dir, "%s", tu_tmpdir());
    assert_int_equal(mkdir(at(d, sizeof d, dir, "dances"), 0700), 0);
    copy_dance(d, "a.vmd");
    copy_dance(d, "b.vmd");
    write_text(at(p, sizeof p, d, "c.vmd"), "not a motion");
    copy_dance(d, "d.vmd");
    write_job(job, sizeof job, dir, EACH, "  m: out/{stem}-m.vmd\n");
    pk_log log;
    pk_log_init(&log);
    pk_job_batch *b = pk_job_batch_load(job, at(pat, sizeof pat, d, "*.vmd"), &log);
    assert_non_null(b);
    assert_int_equal(log.errors, 0);
    seen s = {0};
    pk_job_batch_options o = {threads, dry, false, NULL, NULL};
    assert_int_equal(pk_job_batch_run(b, &o, remember, &s), 1);
    pk_job_batch_free(b);
    assert_int_equal(s.calls, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(s.order[i], i); /* in input order, whatever finished first */
        assert_int_equal(s.ok[i], i != 2);
    }
    /* the broken file's error names it; the others have none */
    assert_non_null(strstr(s.first_error[2], "dances/c.vmd"));
    assert_string_equal(s.first_error[0], "");
    assert_int_equal(exists(at(p, sizeof p, dir, "out/a-m.vmd")), !dry);
    assert_int_equal(exists(at(p, sizeof p, dir, "out/b-m.vmd")), !dry);
    assert_int_equal(exists(at(p, sizeof p, dir, "out/d-m.vmd")), !dry);
    assert_false(exists(at(p, sizeof p, dir, "out/c-m.vmd")));
    /* each written file's size, told after its bytes were released */
    size_t len = 0;
    free(tu_read_file(at(p, sizeof p, dir, dry ? "dances/a.vmd" : "out/a-m.vmd"), &len));
    assert_int_equal(s.bytes[0], len); /* mirror keeps the sample's size */
    assert_int_equal(s.bytes[2], 0);
    pk_log_free(&log);
}

static void test_failure_isolation(void **state)
{
    (void)state;
    run_isolation(1, false);
    run_isolation(3, false);
    run_isolation(2, true);
}

/* pki_os_parallel: every index worked once, done once after it. */
typedef struct tally {
    int worked[200], done[200];
    int in_done;
} tally;

static void work(void *ctx, size_t i)
{
    tally *t = ctx;
    t->worked[i]++;
}

static void done(void *ctx, size_t i)
{
    tally *t = ctx;
    assert_int_equal(t->in_done++, 0); /* never two at once */
    assert_int_equal(t->worked[i], 1);
    t->done[i]++;
    t->in_done--;
}

static void test_parallel(void **state)
{
    (void)state;
    for (unsigned w = 0; w <= 5; w++) {
        tally *t = calloc(1, sizeof *t);
        assert_non_null(t);
        pki_os_parallel(200, w, work, done, t);
        for (size_t i = 0; i < 200; i++) {
            assert_int_equal(t->worked[i], 1);
            assert_int_equal(t->done[i], 1);
        }
        free(t);
    }
    assert_true(pki_os_cpu_count() >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stem_and_names),
        cmocka_unit_test(test_name_match),
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_clashes_refused),
        cmocka_unit_test(test_failure_isolation),
        cmocka_unit_test(test_parallel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
