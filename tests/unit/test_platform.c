/* test_platform.c — the platform edge (engine/platform/platform.h): path
 * syntax, file facts, folders, the data folders, CP932 characters, and a
 * write through a symbolic link. */
#define _DEFAULT_SOURCE 1 /* symlink() for the test's own setup */
#include "testutil.h"
#include "platform/platform.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void path_syntax(void **state)
{
    (void)state;
    assert_true(pki_os_is_absolute("/x"));
    assert_false(pki_os_is_absolute("x/y"));
    assert_string_equal(pki_os_base_name("a/b/c.vmd"), "c.vmd");
    assert_string_equal(pki_os_base_name("c.vmd"), "c.vmd");
    assert_int_equal(pki_os_dir_len("a/b/c"), 3);
    assert_int_equal(pki_os_dir_len("/x"), 1);
    assert_int_equal(pki_os_dir_len("x"), 0);
    char *p = pki_os_join("a/b", "c.yaml");
    assert_string_equal(p, "a/b/c.yaml");
    free(p);
    p = pki_os_join("a/", "c.yaml");
    assert_string_equal(p, "a/c.yaml");
    free(p);
    p = pki_os_join("a", "/abs.yaml");
    assert_string_equal(p, "/abs.yaml");
    free(p);
    p = pki_os_join("", "c.yaml");
    assert_string_equal(p, "c.yaml");
    free(p);
}

static void file_facts(void **state)
{
    (void)state;
    char dir[1024], file[2048], link[2048], deep[2048];
    snprintf(dir, sizeof dir, "%s/plat", tu_tmpdir());
    snprintf(deep, sizeof deep, "%s/x/y/z", dir);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pki_os_make_dirs(deep, NULL, &log), 0);
    assert_int_equal(pki_os_make_dirs(deep, NULL, &log), 0); /* existing: fine */
    assert_int_equal(pki_os_kind(deep, NULL), PK_PATH_FOLDER);
    snprintf(file, sizeof file, "%s/f.bin", dir);
    tu_write_file(file, "abc", 3);
    uint64_t size = 0;
    assert_int_equal(pki_os_kind(file, &size), PK_PATH_FILE);
    assert_int_equal(size, 3);
    assert_int_equal(pk_path_kind_of("-"), PK_PATH_OTHER);
    assert_int_equal(pk_path_kind_of("/dev/null"), PK_PATH_OTHER);
    snprintf(link, sizeof link, "%s/l.bin", dir);
    unlink(link);
    assert_int_equal(symlink("f.bin", link), 0);
    assert_true(pk_path_same_file(file, link));
    assert_false(pk_path_same_file(file, deep));
    assert_false(pk_path_same_file(file, "-"));
    /* A write through the link replaces the file and keeps the link. */
    assert_int_equal(pk_file_write_atomic(link, "xyzw", 4, &log), 0);
    assert_int_equal(pki_os_kind(file, &size), PK_PATH_FILE);
    assert_int_equal(size, 4);
    char *canon = pki_os_canonical(link);
    char *canon_file = pki_os_canonical(file);
    assert_string_equal(canon, canon_file);
    free(canon);
    free(canon_file);
    char buf[16];
    assert_int_equal(readlink(link, buf, sizeof buf), 5); /* still "f.bin" */
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
}

static void data_dirs(void **state)
{
    (void)state;
    /* The tests name the source tree's rules/ and rules/bodies/ in
     * $POSEKIT_RULES_DIR and $POSEKIT_BODIES_DIR: each comes first; then the
     * build tree's copy, found from the executable (this test runs in
     * BUILD/tests, so BUILD/rules is found on Linux; the Windows build keeps
     * data beside the .exe and has none); then the installed folder. */
    static const char *const SUBS[] = {"rules", "bodies"};
    static const char *const ENVS[] = {PKI_RULES_DIR_ENV, PKI_BODIES_DIR_ENV};
    static const char *const COPIES[] = {"/rules", "/rules/bodies"};
    for (int k = 0; k < 2; k++) {
        const char *env = getenv(ENVS[k]);
        assert_non_null(env);
        char *keep = strdup(env);
        char *copy = pki_os_uninstalled_data(SUBS[k]);
        if (copy) {
            size_t cl = strlen(copy), tl = strlen(COPIES[k]);
            assert_true(cl > tl && strcmp(copy + cl - tl, COPIES[k]) == 0);
            assert_int_equal(pki_os_kind(copy, NULL), PK_PATH_FOLDER);
        }
        size_t want = copy ? 3 : 2, n;
        char **d = pki_os_data_dirs(SUBS[k], &n);
        assert_int_equal(n, want);
        assert_string_equal(d[0], keep);
        if (copy)
            assert_string_equal(d[1], copy);
        char tail[32];
        snprintf(tail, sizeof tail, "posekit/%s", SUBS[k]);
        assert_non_null(strstr(d[n - 1], tail));
        char *installed = strdup(d[n - 1]);
        pki_os_free_list(d, n);
        /* Unset or empty: the build tree's copy and the installed folder,
         * the one path compiled in (no source tree: lib/no_build_paths). */
        for (int unset = 0; unset < 2; unset++) {
            assert_int_equal(unset ? unsetenv(ENVS[k]) : setenv(ENVS[k], "", 1), 0);
            d = pki_os_data_dirs(SUBS[k], &n);
            assert_int_equal(n, want - 1);
            if (copy)
                assert_string_equal(d[0], copy);
            assert_string_equal(d[n - 1], installed);
            pki_os_free_list(d, n);
        }
        assert_int_equal(setenv(ENVS[k], keep, 1), 0);
        free(keep);
        free(copy);
        free(installed);
    }
}

/* The standard output by its names; other paths are files. */
static void stdout_names(void **state)
{
    (void)state;
    const char *yes[] = {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        assert_true(pki_os_is_stdout(yes[i]));
        assert_true(pk_path_is_stdout(yes[i]));
    }
    const char *no[] = {"", "--", "stdout", "/dev/stderr", "/dev/fd/2", "/dev/stdout/x", "./-"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        assert_false(pki_os_is_stdout(no[i]));
        assert_false(pk_path_is_stdout(no[i]));
    }
}

/* Targets as keys: "." and ".." out of the part that does not exist yet,
 * separators made one; a key inside another's; the file standing where a
 * folder would have to be made. */
static void target_keys(void **state)
{
    (void)state;
    char dir[1024], p[2048], q[2048];
    snprintf(dir, sizeof dir, "%s/keys", tu_tmpdir());
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pki_os_make_dirs(dir, NULL, &log), 0);
    char *real = pki_os_canonical(dir);
    assert_non_null(real);
    snprintf(p, sizeof p, "%s/new/./a//b/../x.vmd", dir);
    char *k = pki_os_target_key(p);
    snprintf(q, sizeof q, "%s/new/a/x.vmd", real);
    assert_string_equal(k, q);
    snprintf(p, sizeof p, "%s/new/a", dir);
    char *outer = pki_os_target_key(p);
    assert_true(pki_os_key_inside(outer, k));
    assert_false(pki_os_key_inside(k, outer));
    snprintf(p, sizeof p, "%s/new/ab", dir); /* a prefix of the name is not a folder of it */
    char *other = pki_os_target_key(p);
    snprintf(p, sizeof p, "%s/new/ab", real);
    assert_string_equal(other, p);
    snprintf(p, sizeof p, "%s/new/a", real);
    assert_false(pki_os_key_inside(outer, other));
    free(k);
    free(outer);
    free(other);
    /* ".." above a missing folder goes back up through it */
    snprintf(p, sizeof p, "%s/gone/../y.vmd", dir);
    k = pki_os_target_key(p);
    snprintf(q, sizeof q, "%s/y.vmd", real);
    assert_string_equal(k, q);
    free(k);
    /* a file where a folder would have to be made */
    snprintf(p, sizeof p, "%s/file", dir);
    tu_write_file(p, "x", 1);
    snprintf(q, sizeof q, "%s/file/sub/z.vmd", dir);
    char *blocker = pki_os_file_above(q);
    assert_non_null(blocker);
    assert_string_equal(blocker, p);
    free(blocker);
    snprintf(q, sizeof q, "%s/missing/sub/z.vmd", dir);
    assert_null(pki_os_file_above(q));
    assert_null(pki_os_file_above("z.vmd"));
    assert_null(pki_os_file_above("/z.vmd"));
    free(real);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
}

static void cp932_characters(void **state)
{
    (void)state;
    pki_os_cp932 *c = pki_os_cp932_open();
    char out[8];
    const uint8_t so[] = {0x83, 0x5C}; /* ソ: a trail byte that is '\' */
    assert_int_equal(pki_os_cp932_decode(c, so, 2, out), 3);
    assert_memory_equal(out, "ソ", 3);
    const uint8_t bad[] = {0x81};
    assert_int_equal(pki_os_cp932_decode(c, bad, 1, out), -1);
    uint8_t enc[4];
    assert_int_equal(pki_os_cp932_encode(c, "ソ", 3, enc), 2);
    assert_memory_equal(enc, so, 2);
    assert_int_equal(pki_os_cp932_encode(c, "😀", 4, enc), -1);
    pki_os_cp932_close(c);
}

/* kB of transparent huge pages backing the mapping that holds p
 * (/proc/self/smaps), or -1 when it cannot be read. */
static long huge_kb_at(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    bool inside = false;
    long kb = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        if (inside && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    return kb;
}

/* A large key array asked for huge pages gets them where the kernel
 * gives them on request (THP "madvise" mode, as on the machines the
 * benchmark table was measured on): that is what cuts a 50 MB read's page
 * faults tenfold.  Elsewhere the advice is a no-op and the case skips. */
/* pki_os_folder_writable (run --dry-run): a folder to be made is judged by
 * the deepest one that exists; one the user may not write in says why.
 * As root (which may write anywhere) the locked case runs as "nobody". */
static void folder_writable(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir();
    char locked[2048], inside[4096], free_out[4096];
    assert_int_equal(chmod(dir, 0755), 0);
    snprintf(locked, sizeof locked, "%s/locked", dir);
    assert_int_equal(mkdir(locked, 0555), 0);
    assert_int_equal(chmod(locked, 0555), 0);
    snprintf(inside, sizeof inside, "%s/new/deeper/x.vmd", locked);
    snprintf(free_out, sizeof free_out, "%s/new/deeper/x.vmd", dir);
    assert_int_equal(pki_os_folder_writable(free_out), 0);
    if (getuid() != 0) {
        assert_int_equal(pki_os_folder_writable(inside), EACCES);
    } else {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            _exit(setgid(65534) == 0 && setuid(65534) == 0 &&
                          pki_os_folder_writable(inside) == EACCES &&
                          pki_os_folder_writable(free_out) == EACCES /* dir is root's 0755 */
                      ? 0
                      : 1);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    chmod(locked, 0755);
}

static void huge_pages_on_request(void **state)
{
    (void)state;
    char mode[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
    if (!strstr(mode, "[madvise]")) {
        skip(); /* "always" backs every block, "never" none: nothing to tell */
        return;
    }
    /* Fresh pages from mmap, not malloc: meson's MALLOC_PERTURB_ makes
     * malloc touch a block before the advice could apply. */
    size_t n = (size_t)16 << 20;
    uint8_t *small = malloc((size_t)1 << 20);
    uint8_t *big = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_non_null(small);
    assert_true(big != MAP_FAILED);
    pki_os_advise_huge(small, (size_t)1 << 20); /* under 2 MB: left alone */
    pki_os_advise_huge(big, n);
    memset(big, 1, n);
    long kb = huge_kb_at(big + n / 2);
    free(small);
    munmap(big, n);
    if (kb < 0) {
        skip();
        return;
    }
    assert_true(kb >= 2048);
    pki_os_advise_huge(NULL, n); /* harmless */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_syntax),
        cmocka_unit_test(file_facts),
        cmocka_unit_test(data_dirs),
        cmocka_unit_test(stdout_names),
        cmocka_unit_test(target_keys),
        cmocka_unit_test(cp932_characters),
        cmocka_unit_test(huge_pages_on_request),
        cmocka_unit_test(folder_writable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
