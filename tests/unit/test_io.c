/* test_io.c — the file edge (engine/format/io.c): whole-file reads and atomic
 * writes.  The atomic-write promise: the target is either the old file or
 * the complete new one, never a mix, and no temporary file stays behind.
 *
 * Failures are provoked in ways that also work as root (root ignores file
 * permissions): a folder that does not exist, a folder as target, /dev/full
 * (every write fails with ENOSPC) and RLIMIT_FSIZE (writes past the limit
 * fail with EFBIG) — the last one fails *after* the temporary file was
 * created, which is the case that matters for "target untouched".
 */
#include "testutil.h"
#include "format/io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---- */

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    assert_non_null(p);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static void put_file(const char *path, const char *text)
{
    tu_write_file(path, text, strlen(text));
}

/* Asserts that path holds exactly `text`. */
static void assert_file_is(const char *path, const void *text, size_t len)
{
    size_t got_len;
    uint8_t *got = tu_read_file(path, &got_len);
    assert_int_equal(got_len, len);
    assert_memory_equal(got, text, len);
    free(got);
}

/* Number of entries in dir besides "." and ".."; *hidden counts the ones
 * whose name starts with '.' (the atomic writer's ".NAME.XXXXXX"). */
static size_t count_entries(const char *dir, size_t *hidden)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0, h = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        if (e->d_name[0] == '.')
            h++;
    }
    closedir(d);
    if (hidden)
        *hidden = h;
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = path_in(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

static int setup_dir(void **state)
{
    char *dir = strdup(tu_tmpdir());
    if (!dir)
        return -1;
    *state = dir;
    return 0;
}

static int teardown_dir(void **state)
{
    remove_tree(*state);
    free(*state);
    return 0;
}

/* ---- atomic write: success ---- */

static void write_new_file(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "out.vmd");
    pk_log log;
    pk_log_init(&log);
    static const char data[] = "Vocaloid Motion Data 0002\0bytes";
    assert_int_equal(pk_file_write_atomic(target, data, sizeof data, &log), 0);
    assert_int_equal(log.errors, 0);
    assert_file_is(target, data, sizeof data);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    /* A new file gets the usual 0666 & ~umask mode, like fopen would. */
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
    pk_log_free(&log);
    free(target);
}

/* The two halves: after pk_file_stage the target still holds its old
 * bytes and the new ones wait in one hidden temporary file; commit puts
 * them in place, discard removes them. */
static void stage_then_commit_or_discard(void **state)
{
    const char *dir = *state;
    char *a = path_in(dir, "a.vmd"), *b = path_in(dir, "b.vpd");
    put_file(a, "old a");
    pk_log log;
    pk_log_init(&log);
    pk_staged *sa = pk_file_stage(a, "new a", 5, &log);
    pk_staged *sb = pk_file_stage(b, "new b", 5, &log);
    assert_non_null(sa);
    assert_non_null(sb);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 3); /* a.vmd and two temporaries */
    assert_int_equal(hidden, 2);
    assert_file_is(a, "old a", 5);
    assert_int_equal(access(b, F_OK), -1);
    assert_int_equal(pk_file_commit(sa, &log), 0);
    pk_file_discard(sb);
    assert_file_is(a, "new a", 5);
    assert_int_equal(access(b, F_OK), -1);
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    assert_int_equal(log.errors, 0);
    /* A failed stage returns NULL and leaves nothing. */
    assert_null(pk_file_stage(dir, "x", 1, &log));
    assert_int_equal(log.errors, 1);
    assert_int_equal(count_entries(dir, &hidden), 1);
    pk_log_free(&log);
    free(a);
    free(b);
}

/* What a signal handler calls (pk_file_interrupted, called here directly):
 * every temporary file still open goes, the targets stay as they were, a
 * committed output stays; the handles are still freed as usual after. */
static void interrupted_removes_temporaries(void **state)
{
    const char *dir = *state;
    char *a = path_in(dir, "a.vmd"), *b = path_in(dir, "b.vpd"), *c = path_in(dir, "c.vpd");
    put_file(a, "old a");
    pk_log log;
    pk_log_init(&log);
    pk_staged *sc = pk_file_stage(c, "new c", 5, &log);
    assert_int_equal(pk_file_commit(sc, &log), 0); /* in place before the signal */
    pk_staged *sa = pk_file_stage(a, "new a", 5, &log);
    pk_staged *sb = pk_file_stage(b, "new b", 5, &log);
    assert_non_null(sa);
    assert_non_null(sb);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 4);
    assert_int_equal(hidden, 2);
    pk_file_interrupted();
    assert_int_equal(count_entries(dir, &hidden), 2); /* a.vmd and c.vpd */
    assert_int_equal(hidden, 0);
    assert_file_is(a, "old a", 5);
    assert_file_is(c, "new c", 5);
    assert_int_equal(access(b, F_OK), -1);
    pk_file_interrupted(); /* again: those files are gone, nothing else is touched */
    assert_int_equal(count_entries(dir, &hidden), 2);
    pk_file_discard(sa);
    pk_file_discard(sb);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    free(a);
    free(b);
    free(c);
}

/* Removes the temporary file staged for `name` in dir (".NAME.*"): its
 * rename then fails, as when something took it away in between. */
static void remove_temp_of(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = strlen(name);
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] == '.' && strncmp(e->d_name + 1, name, n) == 0 &&
            e->d_name[1 + n] == '.' && strstr(e->d_name + 1 + n, ".old") == NULL) {
            char *p = path_in(dir, e->d_name);
            assert_int_equal(unlink(p), 0);
            free(p);
            removed++;
        }
    closedir(d);
    assert_int_equal(removed, 1);
}

/* pk_file_commit_all, a group all or none (a rename failing after
 * others must not leave them replaced): each replaced target gets its old
 * file back, a new one goes again, no second name or temporary file is
 * left; with nothing failing, every target is new and nothing else is
 * there. */
static void commit_all_or_none(void **state)
{
    const char *dir = *state;
    char *a = path_in(dir, "a.vmd"), *b = path_in(dir, "b.vpd"), *c = path_in(dir, "c.txt");
    pk_log log;
    pk_log_init(&log);
    put_file(a, "old a");
    for (int broken = 1; broken < 3; broken++) { /* b, then c cannot be renamed */
        pk_staged *st[3] = {pk_file_stage(a, "new a", 5, &log), pk_file_stage(b, "new b", 5, &log),
                            pk_file_stage(c, "new c", 5, &log)};
        assert_true(st[0] && st[1] && st[2]);
        remove_temp_of(dir, broken == 1 ? "b.vpd" : "c.txt");
        assert_int_equal(pk_file_commit_all(st, 3, &log), -1);
        tu_assert_log_has(&log, "cannot replace the file");
        assert_file_is(a, "old a", 5);
        assert_int_equal(access(b, F_OK), -1);
        assert_int_equal(access(c, F_OK), -1);
        size_t hidden;
        assert_int_equal(count_entries(dir, &hidden), 1);
        assert_int_equal(hidden, 0);
    }
    pk_staged *st[3] = {pk_file_stage(a, "new a", 5, &log), pk_file_stage(b, "new b", 5, &log),
                        pk_file_stage(c, "new c", 5, &log)};
    assert_int_equal(pk_file_commit_all(st, 3, &log), 0);
    assert_file_is(a, "new a", 5);
    assert_file_is(b, "new b", 5);
    assert_file_is(c, "new c", 5);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 3);
    assert_int_equal(hidden, 0);
    pk_log_free(&log);
    free(a);
    free(b);
    free(c);
}

/* pk_file_stage_from: bytes from a producer, in pieces, into the
 * temporary file; a producer that fails half-way (after writing) leaves
 * the old target and no temporary file. */
static int produce_abc(void *ctx, pk_sink sink, void *sink_ctx, pk_log *log)
{
    int fail = *(const int *)ctx;
    if (sink(sink_ctx, "new ", 4) != 0 || sink(sink_ctx, "bytes", 5) != 0)
        return -1;
    if (fail) {
        pk_error(log, PK_E_USAGE, "producer gave up");
        return -1;
    }
    return 0;
}

static void stage_from_producer(void **state)
{
    const char *dir = *state;
    char *a = path_in(dir, "a.vmd");
    put_file(a, "old a");
    pk_log log;
    pk_log_init(&log);
    int fail = 1;
    assert_null(pk_file_stage_from(a, produce_abc, &fail, &log));
    tu_assert_log_has(&log, "producer gave up");
    assert_file_is(a, "old a", 5);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    fail = 0;
    pk_staged *s = pk_file_stage_from(a, produce_abc, &fail, &log);
    assert_non_null(s);
    assert_file_is(a, "old a", 5);
    assert_int_equal(pk_file_commit(s, &log), 0);
    assert_file_is(a, "new bytes", 9);
    assert_int_equal(count_entries(dir, &hidden), 1);
    /* a target that cannot be renamed over gets the bytes at commit */
    s = pk_file_stage_from("/dev/null", produce_abc, &fail, &log);
    assert_non_null(s);
    assert_int_equal(pk_file_commit(s, &log), 0);
    assert_int_equal(log.errors, 1);
    pk_log_free(&log);
    free(a);
}

/* Resident pages of this process (/proc/self/statm), in bytes. */
static size_t resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    assert_non_null(f);
    unsigned long size = 0, res = 0;
    assert_int_equal(fscanf(f, "%lu %lu", &size, &res), 2);
    fclose(f);
    return (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
}

/* pki_bytes_drop_prefix: the dropped pages of a mapped file leave the
 * process, and reading them again still gives the file's bytes. */
static void drop_prefix_releases_pages(void **state)
{
    const char *dir = *state;
    char *path = path_in(dir, "big.bin");
    size_t len = 16u << 20;
    uint8_t *want = malloc(len);
    assert_non_null(want);
    for (size_t i = 0; i < len; i++)
        want[i] = (uint8_t)(i * 2654435761u >> 24);
    tu_write_file(path, want, len);
    pk_log log;
    pk_log_init(&log);
    pk_bytes b;
    assert_int_equal(pk_file_read(path, &b, &log), 0);
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < len; i += 4096)
        sum ^= b.data[i]; /* every page resident */
    (void)sum;
    size_t before = resident_bytes();
    pki_bytes_drop_prefix(&b, 12u << 20);
    size_t after = resident_bytes();
    if (!(before > after + (10u << 20)))
        fail_msg("resident %zu bytes before, %zu after dropping 12 MB", before, after);
    assert_memory_equal(b.data, want, len); /* read back from the file */
    pk_bytes_free(&b);
    /* bytes read into memory (not a mapping) are left alone */
    pki_bytes_drop_prefix(NULL, 1);
    pk_log_free(&log);
    free(want);
    unlink(path);
    free(path);
}

static void replace_keeps_mode(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "pose.vpd");
    put_file(target, "old content that is longer than the new one");
    assert_int_equal(chmod(target, 0640), 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_file_write_atomic(target, "new", 3, &log), 0);
    assert_file_is(target, "new", 3);
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    pk_log_free(&log);
    free(target);
}

/* -o naming the input: the input is still mapped (pk_file_read mmaps)
 * while it is replaced; rename swaps the directory entry, so the mapped
 * bytes stay valid and the result is complete. */
static void write_over_own_input(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "same.vmd");
    char big[100000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    big[sizeof big - 1] = '\0';
    put_file(target, big);
    pk_log log;
    pk_log_init(&log);
    pk_bytes in;
    assert_int_equal(pk_file_read(target, &in, &log), 0);
    assert_int_equal(in.len, sizeof big - 1);
    /* Write the input back, reversed halves, from the mapped bytes. */
    uint8_t *out = malloc(in.len);
    assert_non_null(out);
    size_t half = in.len / 2;
    memcpy(out, in.data + half, in.len - half);
    memcpy(out + (in.len - half), in.data, half);
    assert_int_equal(pk_file_write_atomic(target, out, in.len, &log), 0);
    /* The old mapping still shows the old bytes. */
    assert_memory_equal(in.data, big, in.len);
    pk_bytes_free(&in);
    assert_file_is(target, out, sizeof big - 1);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    free(out);
    pk_log_free(&log);
    free(target);
}

static void write_relative_path(void **state)
{
    const char *dir = *state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_write_atomic("rel.vpd", "x", 1, &log);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(rc, 0);
    char *target = path_in(dir, "rel.vpd");
    assert_file_is(target, "x", 1);
    pk_log_free(&log);
    free(target);
}

static void write_stdout(void **state)
{
    const char *dir = *state;
    char *capture = path_in(dir, "stdout.txt");
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    assert_true(saved >= 0);
    int fd = open(capture, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_write_atomic("-", "to stdout\n", 10, &log);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
    assert_int_equal(rc, 0);
    assert_file_is(capture, "to stdout\n", 10);
    pk_log_free(&log);
    free(capture);
}

/* ---- atomic write: failures ---- */

static void fail_missing_folder(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "no/such/folder/out.vmd");
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_file_write_atomic(target, "data", 4, &log), -1);
    assert_true(log.errors >= 1);
    /* The message names the target path. */
    tu_assert_log_has(&log, target);
    assert_int_equal(count_entries(dir, NULL), 0);
    pk_log_free(&log);
    free(target);
}

static void fail_target_is_folder(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "folder.vmd");
    assert_int_equal(mkdir(target, 0755), 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_file_write_atomic(target, "data", 4, &log), -1);
    tu_assert_log_has(&log, "folder.vmd");
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(count_entries(dir, NULL), 1);
    pk_log_free(&log);
    free(target);
}

static void fail_dev_full(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    pk_log log;
    pk_log_init(&log);
    char data[8192];
    memset(data, 'x', sizeof data);
    assert_int_equal(pk_file_write_atomic("/dev/full", data, sizeof data, &log), -1);
    tu_assert_log_has(&log, "/dev/full");
    tu_assert_log_has(&log, strerror(ENOSPC));
    pk_log_free(&log);
}

/* The write fails after the temporary file exists (file size limit): the
 * old target is untouched and the temporary file is gone. */
static void fail_midway_keeps_target(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "keep.vmd");
    put_file(target, "the old, complete file");
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = old;
    lim.rlim_cur = 4096;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    size_t len = 1 << 20;
    char *data = malloc(len);
    assert_non_null(data);
    memset(data, 'n', len);
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_write_atomic(target, data, len, &log);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(rc, -1);
    assert_true(log.errors >= 1);
    tu_assert_log_has(&log, "keep.vmd");
    assert_file_is(target, "the old, complete file", 22);
    size_t hidden;
    assert_int_equal(count_entries(dir, &hidden), 1);
    assert_int_equal(hidden, 0);
    free(data);
    pk_log_free(&log);
    free(target);
}

/* Same, for a target that does not exist yet: nothing appears. */
static void fail_midway_creates_nothing(void **state)
{
    const char *dir = *state;
    char *target = path_in(dir, "new.vmd");
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = old;
    lim.rlim_cur = 100;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    char data[1000];
    memset(data, 'n', sizeof data);
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_write_atomic(target, data, sizeof data, &log);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(rc, -1);
    assert_int_equal(count_entries(dir, NULL), 0);
    pk_log_free(&log);
    free(target);
}

/* ---- reads ---- */

static void read_errors_name_the_path(void **state)
{
    const char *dir = *state;
    char *missing = path_in(dir, "missing.vmd");
    pk_log log;
    pk_log_init(&log);
    pk_bytes b;
    assert_int_equal(pk_file_read(missing, &b, &log), -1);
    tu_assert_log_has(&log, "missing.vmd");
    tu_assert_log_has(&log, strerror(ENOENT));
    pk_log_free(&log);
    pk_log_init(&log);
    assert_int_equal(pk_file_read(dir, &b, &log), -1);
    tu_assert_log_has(&log, "directory");
    pk_log_free(&log);
    free(missing);
}

static void read_empty_and_small(void **state)
{
    const char *dir = *state;
    char *empty = path_in(dir, "empty.vpd");
    char *small = path_in(dir, "small.vpd");
    put_file(empty, "");
    put_file(small, "abc");
    pk_log log;
    pk_log_init(&log);
    pk_bytes b;
    assert_int_equal(pk_file_read(empty, &b, &log), 0);
    assert_int_equal(b.len, 0);
    pk_bytes_free(&b);
    assert_int_equal(pk_file_read(small, &b, &log), 0);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "abc", 3);
    pk_bytes_free(&b);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    free(empty);
    free(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(write_new_file, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stage_then_commit_or_discard, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(commit_all_or_none, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(interrupted_removes_temporaries, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(stage_from_producer, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(drop_prefix_releases_pages, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(replace_keeps_mode, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(write_over_own_input, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(write_relative_path, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(write_stdout, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(fail_missing_folder, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(fail_target_is_folder, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(fail_dev_full, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(fail_midway_keeps_target, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(fail_midway_creates_nothing, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(read_errors_name_the_path, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(read_empty_and_small, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests_name("io", tests, NULL, NULL);
}
