/*
 * bad_variants.c — the CLI on damaged files: cli/bad_truncate (MODE cut)
 * and cli/bad_flip (MODE flip).
 *
 * Inputs: every .vmd and .vpd of samples/ (and its sub-folders), of the
 * corpus (PK_CORPUS, when set) and the fuzz seeds (tests/fuzz/corpus/vmd,
 * vpd_text, vpd_hybrid: seed_*).  Variants (fixed seed, so a failure
 * reproduces):
 *   cut   each file cut at fixed places (0, inside the signature, the model
 *         name, the first count, the first record, the middle, one byte
 *         short) and at two seeded offsets;
 *   flip  five copies of each file with 1-4 bytes replaced (a random byte,
 *         0, 0xFF or one of the VPD punctuation bytes { } ; newline ,).
 * A variant with the bytes and the extension of an earlier one is run once
 * (the cut at 0 of every file is the same empty file; the cuts inside the
 * header are the same for most files of a format): a third of the cuts.
 *
 * Each variant goes through `posekit info V`, `posekit convert V -o
 * outdir/out.EXT` and, when info warned, `posekit info --strict V`:
 *   - exit status 0 or 2, nothing else (no crash, no abort);
 *   - no sanitizer report on standard error;
 *   - exit 2: the first error (a line "posekit: ..." that is not a
 *     warning) is "posekit: V:OFFSET: " or "posekit: V:LINE:COL: ", or for
 *     convert the output's name (an error while encoding);
 *   - convert failing: nothing in outdir (no output, no temporary file);
 *     convert succeeding: outdir holds out.EXT alone, and for a VMD it is
 *     the input byte for byte (the round-trip law holds for any file the
 *     reader accepts);
 *   - a file that warned: info --strict exits 2;
 *   - the input is never changed.
 *
 * A run is the CLI's own code: cli_main, linked from the objects of the
 * posekit binary (everything but its entry point, main_posix.c), called in
 * a forked child with standard input /dev/null and standard output and
 * error to files.  The child starts from this program's state before any
 * run (the CLI's globals as at start, glibc's CP932 converters loaded), as
 * an exec'd posekit would, without the cost of starting a program
 * (thousands of runs; under ASan each start costs more than the run).  In
 * a sanitizer build a run that leaves no byte allocated skips the leak
 * check at its exit (it can hold no leak); any other is checked.  Every
 * 16th variant (every 64th in a sanitizer build, PK_SANITIZED set: the
 * comparison checks this harness, not the CLI, and a sanitized start costs
 * 2,200 page faults) also runs the posekit binary ($POSEKIT) itself, which
 * must give the same exit status, the same standard output and error, and
 * the same output file, byte for byte.
 *
 * Which cuts are legal is checked precisely by the unit suites
 * (test_vmd_bad.c, test_bad_inputs.c); here the whole CLI is exercised.
 * usage: bad_variants cut|flip    Exit status 0 when every check held.
 *
 * bad_variants batch LIST runs the posekit invocations LIST gives (one a
 * line, see batch()) the same way, each with its own output files: the
 * CLI cases of many short runs use it in a sanitizer build
 * (cli/check_corpus), where each start of the binary costs more than the
 * run.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The CLI's entry point (cli/main.c) and its end (cli/exit_posix.c). */
int cli_main(int argc, char **argv);
void cli_exit_begin(void);
_Noreturn void cli_exit(int status);

enum { SAMPLE_EVERY = 16, SAMPLE_EVERY_SANITIZED = 64 };

static int failures;

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    failures++;
}

/* ------------------------------------------------------------ file helpers */

typedef struct bytes {
    unsigned char *data;
    size_t len;
} bytes;

static bool read_all(const char *path, bytes *out)
{
    out->data = NULL;
    out->len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 0;
    for (;;) {
        if (out->len == cap) {
            cap = cap ? cap * 2 : 65536;
            unsigned char *d = realloc(out->data, cap + 1);
            if (!d) {
                fclose(f);
                return false;
            }
            out->data = d;
        }
        size_t n = fread(out->data + out->len, 1, cap - out->len, f);
        out->len += n;
        if (n == 0)
            break;
    }
    bool ok = !ferror(f);
    fclose(f);
    out->data[out->len] = '\0'; /* text helpers may treat it as a string */
    return ok;
}

static bool write_all(const char *path, const unsigned char *d, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(d, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static bool same_bytes(const bytes *a, const bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Names in a folder other than . and .., one per line (for messages). */
static size_t list_dir(const char *dir, char *names, size_t cap)
{
    size_t n = 0, used = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    names[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        int w = snprintf(names + used, cap - used, "%s%s", used ? " " : "", e->d_name);
        if (w > 0 && (size_t)w < cap - used)
            used += (size_t)w;
    }
    closedir(d);
    return n;
}

/* Removes path and, for a folder, everything in it (links not followed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        char sub[4096];
        for (struct dirent *e; d && (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            remove_tree(sub);
        }
        if (d)
            closedir(d);
    }
    remove(path);
}

/* ------------------------------------------------------------------ inputs */

typedef struct input {
    char *path;
    const char *ext; /* "vmd" or "vpd" */
} input;

typedef struct inputs {
    input *items;
    size_t n, cap;
} inputs;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *ext_of(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && (strcmp(name + n - 4, ".vmd") == 0 || strcmp(name + n - 4, ".vpd") == 0))
        return name + n - 3;
    return NULL;
}

/* Adds the .vmd and .vpd files of dir whose names start with prefix, in
 * name order; with subdirs, those of its sub-folders too (one level). */
static void add_dir(inputs *in, const char *dir, const char *prefix, bool subdirs)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                abort();
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    char path[4096];
    for (int pass = 0; pass < 2; pass++) { /* the folder's files, then its sub-folders' */
        for (size_t i = 0; i < n; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            struct stat st;
            if (stat(path, &st) != 0)
                continue;
            const char *ext = ext_of(names[i]);
            if (pass == 0 && S_ISREG(st.st_mode) && ext) {
                if (in->n == in->cap) {
                    in->cap = in->cap ? in->cap * 2 : 128;
                    in->items = realloc(in->items, in->cap * sizeof *in->items);
                    if (!in->items)
                        abort();
                }
                in->items[in->n].path = strdup(path);
                in->items[in->n].ext = ext_of(in->items[in->n].path);
                in->n++;
            } else if (pass == 1 && subdirs && S_ISDIR(st.st_mode)) {
                add_dir(in, path, "", false);
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* ---------------------------------------------------------------- variants */

static uint64_t rng = 20240601;

static uint32_t rnd(uint32_t below) /* 0 <= r < below (below > 0) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)((rng >> 11) % below);
}

typedef struct variant {
    char name[64];
    unsigned char *data;
    size_t len;
} variant;

typedef struct variants {
    variant *items;
    size_t n, cap;
} variants;

static void add_variant(variants *v, size_t file, const char *what, size_t k, const char *ext,
                        const unsigned char *d, size_t len)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 512;
        v->items = realloc(v->items, v->cap * sizeof *v->items);
        if (!v->items)
            abort();
    }
    variant *x = &v->items[v->n++];
    snprintf(x->name, sizeof x->name, "var/%zu.%s%zu.%s", file + 1, what, k, ext);
    x->data = malloc(len ? len : 1);
    if (!x->data)
        abort();
    if (len)
        memcpy(x->data, d, len);
    x->len = len;
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static void make_cuts(variants *v, size_t file, const char *ext, const bytes *b)
{
    size_t L = b->len, cuts[9] = {0, 24, 40, 52, 120, L / 2, L ? L - 1 : 0, 0, 0};
    size_t n = 7;
    if (L) {
        cuts[n++] = rnd((uint32_t)L + 1);
        cuts[n++] = rnd((uint32_t)L + 1);
    }
    qsort(cuts, n, sizeof *cuts, by_size);
    for (size_t i = 0; i < n; i++)
        if (cuts[i] < L && (i == 0 || cuts[i] != cuts[i - 1]))
            add_variant(v, file, "cut", cuts[i], ext, b->data, cuts[i]);
}

static void make_flips(variants *v, size_t file, const char *ext, const bytes *b)
{
    static const unsigned char punct[] = {0, 0xFF, '{', '}', ';', '\n', ','};
    if (!b->len)
        return;
    unsigned char *m = malloc(b->len);
    if (!m)
        abort();
    for (size_t k = 0; k < 5; k++) {
        memcpy(m, b->data, b->len);
        for (uint32_t j = 0, flips = 1 + rnd(4); j < flips; j++) {
            uint32_t at = rnd((uint32_t)b->len), pick = rnd(1 + sizeof punct);
            m[at] = pick == 0 ? (unsigned char)rnd(256) : punct[pick - 1];
        }
        add_variant(v, file, "flip", k, ext, m, b->len);
    }
    free(m);
}

/* FNV-1a of the bytes: the first test of two variants' sameness. */
static uint64_t fnv1a(const unsigned char *d, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ d[i]) * 1099511628211u;
    return h;
}

/* Drops each variant whose extension and bytes are an earlier one's (the
 * cut at 0 of every file is the same empty file, the cut inside the
 * signature the same for every file of a version): a run depends on the
 * bytes and the format its name gives, not on the rest of the name, so a
 * repeat would run the same code on the same input.  The seeded offsets
 * are drawn before, so every other variant stays what it was.  Returns how
 * many it dropped. */
static size_t drop_repeats(variants *v)
{
    uint64_t *hash = malloc((v->n ? v->n : 1) * sizeof *hash);
    if (!hash)
        abort();
    size_t kept = 0;
    for (size_t i = 0; i < v->n; i++) {
        variant *x = &v->items[i];
        const char *ext = x->name + strlen(x->name) - 3;
        uint64_t h = fnv1a(x->data, x->len);
        bool repeat = false;
        for (size_t j = 0; j < kept && !repeat; j++) {
            const variant *y = &v->items[j];
            repeat = hash[j] == h && y->len == x->len &&
                     strcmp(y->name + strlen(y->name) - 3, ext) == 0 &&
                     (x->len == 0 || memcmp(y->data, x->data, x->len) == 0);
        }
        if (repeat) {
            free(x->data);
            continue;
        }
        hash[kept] = h;
        v->items[kept++] = *x;
    }
    free(hash);
    size_t dropped = v->n - kept;
    v->n = kept;
    return dropped;
}

/* -------------------------------------------------------------------- runs */

/* What one run left: exit status (or -signal), standard output and error. */
typedef struct run {
    int status;
    bytes out, err;
} run;

static void run_free(run *r)
{
    free(r->out.data);
    free(r->err.data);
    r->out.data = r->err.data = NULL;
}

static void redirect(const char *path, int fd, int flags)
{
    int f = open(path, flags, 0644);
    if (f < 0 || dup2(f, fd) < 0)
        _exit(125);
    close(f);
}

/* Starts the child of a run: standard input /dev/null, standard output and
 * error to _stdout and _stderr; then the program exe, or without it
 * cli_main.  Never returns.
 *
 * In a sanitizer build a run that leaves nothing of its own allocated ends
 * without the leak check (cli_exit, cli/exit_posix.c); any other ends with
 * it.  That check, once a run, was half of cli/bad_flip's and
 * bad_truncate's CPU in that build (doc/testing.md "Where the time
 * goes"). */
static void run_child(const char *exe, char **args)
{
    redirect("/dev/null", 0, O_RDONLY);
    redirect("_stdout", 1, O_WRONLY | O_CREAT | O_TRUNC);
    redirect("_stderr", 2, O_WRONLY | O_CREAT | O_TRUNC);
    if (exe) {
        execv(exe, args);
        _exit(126);
    }
    int argc = 0;
    while (args[argc])
        argc++;
    cli_exit_begin();
    cli_exit(cli_main(argc, args));
}

static int wait_status(pid_t pid)
{
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0)
        ;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -WTERMSIG(ws);
}

/* The fork server: a child started before this program reads or allocates
 * anything, which forks the in-process runs.  Each run then starts from a
 * small process (a fork copies less, and the sanitizers' leak check at the
 * run's exit scans only the run's own memory), not from this one with
 * every variant in memory. */
enum { MAX_ARGS = 16, REQUEST_BYTES = 4096 };
static int to_server = -1, from_server = -1;
static pid_t server;

static bool read_full(int fd, void *buf, size_t len)
{
    for (size_t got = 0; got < len;) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    return true;
}

static bool write_full(int fd, const void *buf, size_t len)
{
    for (size_t put = 0; put < len;) {
        ssize_t n = write(fd, (const char *)buf + put, len - put);
        if (n <= 0)
            return false;
        put += (size_t)n;
    }
    return true;
}

/* Requests: a size_t length, then the arguments each ended by NUL; the
 * answer: the run's status (int). */
/* LeakSanitizer's check, in a sanitizer build (weak: absent otherwise). */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static void serve(int in, int out)
{
    /* what the C library makes on first use and keeps (standard output's
     * buffer, iconv's CP932 converters) made once, here, before the runs
     * (cli_exit_begin; run_child) */
    cli_exit_begin();
    /* One leak check here first maps the memory every check reads, so the
     * runs' checks at exit share it instead of each faulting it in (a
     * third fewer page faults). */
    if (__lsan_do_recoverable_leak_check)
        __lsan_do_recoverable_leak_check();
    static char req[REQUEST_BYTES];
    size_t len;
    while (read_full(in, &len, sizeof len) && len < sizeof req && read_full(in, req, len)) {
        char *args[MAX_ARGS + 1];
        size_t n = 0;
        for (size_t at = 0; at < len && n < MAX_ARGS; at += strlen(req + at) + 1)
            args[n++] = req + at;
        args[n] = NULL;
        pid_t pid = fork();
        if (pid == 0) {
            close(in);
            close(out);
            run_child(NULL, args);
        }
        int status = pid < 0 ? -1000 : wait_status(pid);
        if (!write_full(out, &status, sizeof status))
            break;
    }
    _exit(0);
}

static void start_server(void)
{
    int req[2], ans[2];
    if (pipe(req) != 0 || pipe(ans) != 0) {
        perror("bad_variants: pipe");
        exit(2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("bad_variants: fork");
        exit(2);
    }
    if (pid == 0) {
        close(req[1]);
        close(ans[0]);
        serve(req[0], ans[1]);
    }
    close(req[0]);
    close(ans[1]);
    server = pid;
    to_server = req[1];
    from_server = ans[0];
}

/* Runs posekit ARGS: through the fork server (cli_main in its child), or
 * with exe set, the program exe itself. */
static run run_posekit(const char *exe, char **args)
{
    run r = {0};
    if (exe) {
        fflush(NULL); /* nothing buffered is written twice */
        pid_t pid = fork();
        if (pid < 0) {
            perror("bad_variants: fork");
            exit(2);
        }
        if (pid == 0)
            run_child(exe, args);
        r.status = wait_status(pid);
    } else {
        char req[REQUEST_BYTES];
        size_t len = 0;
        for (size_t i = 0; args[i]; i++) {
            size_t n = strlen(args[i]) + 1;
            if (i >= MAX_ARGS || len + n > sizeof req)
                abort();
            memcpy(req + len, args[i], n);
            len += n;
        }
        if (!write_full(to_server, &len, sizeof len) || !write_full(to_server, req, len) ||
            !read_full(from_server, &r.status, sizeof r.status)) {
            fprintf(stderr, "bad_variants: the fork server stopped\n");
            exit(2);
        }
        if (r.status == -1000) {
            fprintf(stderr, "bad_variants: the fork server cannot fork\n");
            exit(2);
        }
    }
    if (!read_all("_stdout", &r.out) || !read_all("_stderr", &r.err)) {
        perror("bad_variants: reading a run's output");
        exit(2);
    }
    return r;
}

static void describe(char *buf, size_t cap, char **args)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; args[i] && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? " " : "", args[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The first line of err starting "posekit: " that is not a warning, in
 * line (cap bytes, "" when none). */
static void first_error(const bytes *err, char *line, size_t cap)
{
    line[0] = '\0';
    for (const char *p = (const char *)err->data; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (n > 9 && strncmp(p, "posekit: ", 9) == 0) {
            if (n >= cap)
                n = cap - 1;
            memcpy(line, p, n);
            line[n] = '\0';
            if (!strstr(line, ": warning: "))
                return;
            line[0] = '\0';
        }
        p = eol ? eol + 1 : NULL;
    }
}

/* line starts "posekit: NAME:N: " or "posekit: NAME:N:M: " */
static bool names_position(const char *line, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(line, "posekit: ", 9) != 0 || strncmp(line + 9, name, n) != 0)
        return false;
    const char *p = line + 9 + n;
    for (int field = 0; field < 2; field++) {
        if (*p != ':' || p[1] < '0' || p[1] > '9')
            return false;
        p++;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p[0] == ':' && p[1] == ' ')
            return true;
    }
    return false;
}

/* Checks common to every run: the exit status and no sanitizer report. */
static bool check_run(const char *what, const run *r, char **args)
{
    char cmd[512];
    describe(cmd, sizeof cmd, args);
    bool ok = true;
    if (r->status < 0) {
        fail("%s: killed by signal %d", cmd, -r->status);
        ok = false;
    } else if (r->status != 0 && r->status != 2) {
        fail("%s: exit %d, expected 0 or 2", cmd, r->status);
        ok = false;
    }
    const char *e = (const char *)r->err.data;
    if (strstr(e, "Sanitizer") || strstr(e, "runtime error:")) {
        fail("%s: sanitizer report (%s)", cmd, what);
        ok = false;
    }
    if (!ok)
        printf("--- stderr:\n%.2000s\n", e);
    return ok;
}

static size_t runs, compared;

/* The posekit binary gives the same result as the in-process run. */
static void compare_with_binary(const run *r, char **args, const bytes *output,
                                const char *output_path, size_t left)
{
    const char *exe = getenv("POSEKIT");
    if (!exe || !*exe)
        return;
    char cmd[512];
    describe(cmd, sizeof cmd, args);
    if (output_path)
        remove(output_path);
    run b = run_posekit(exe, args);
    compared++;
    if (b.status != r->status) {
        fail("%s: exit %d in-process, %d from the posekit binary", cmd, r->status, b.status);
    } else if (!same_bytes(&b.out, &r->out) || !same_bytes(&b.err, &r->err)) {
        fail("%s: the posekit binary printed other text", cmd);
        printf("--- in-process stderr:\n%.1000s\n--- binary stderr:\n%.1000s\n",
               (const char *)r->err.data, (const char *)b.err.data);
    } else if (output_path) {
        char names[512];
        bytes o;
        if (list_dir("outdir", names, sizeof names) != left)
            fail("%s: the posekit binary left in outdir: %s", cmd, names);
        bool have = read_all(output_path, &o);
        if (have != (output->data != NULL) || (have && !same_bytes(&o, output)))
            fail("%s: the posekit binary wrote another %s", cmd, output_path);
        free(o.data);
    }
    run_free(&b);
}

static void check_variant(const variant *v, const char *ext, bool sample)
{
    char out_path[64];
    snprintf(out_path, sizeof out_path, "outdir/out.%s", ext);
    char *info[] = {"posekit", "info", (char *)v->name, NULL};
    char *convert[] = {"posekit", "convert", (char *)v->name, "-o", out_path, NULL};
    char *strict[] = {"posekit", "info", "--strict", (char *)v->name, NULL};
    char line[1024], names[512];

    /* info */
    run r = run_posekit(NULL, info);
    runs++;
    check_run("info", &r, info);
    first_error(&r.err, line, sizeof line);
    if (r.status == 2 && !names_position(line, v->name))
        fail("%s: info error without file:position: %s", v->name, line);
    bool warned = strstr((const char *)r.err.data, ": warning: ") != NULL;
    if (sample)
        compare_with_binary(&r, info, NULL, NULL, 0);
    run_free(&r);

    /* convert to the same format */
    remove_tree("outdir");
    if (mkdir("outdir", 0755) != 0) {
        perror("bad_variants: mkdir outdir");
        exit(2);
    }
    r = run_posekit(NULL, convert);
    runs++;
    check_run("convert", &r, convert);
    first_error(&r.err, line, sizeof line);
    size_t left = list_dir("outdir", names, sizeof names);
    bytes output = {0};
    if (r.status == 2) {
        if (left)
            fail("%s: convert failed but left: %s", v->name, names);
        /* An input error names the input and a position; an error while
         * encoding (a name too long for the output format) names the
         * output. */
        char prefix[96];
        snprintf(prefix, sizeof prefix, "posekit: %s: ", out_path);
        if (!names_position(line, v->name) && strncmp(line, prefix, strlen(prefix)) != 0)
            fail("%s: convert error without file:position: %s", v->name, line);
    } else if (r.status == 0) {
        if (left != 1 || !read_all(out_path, &output))
            fail("%s: convert succeeded but outdir holds: %s", v->name, names);
        else if (strcmp(ext, "vmd") == 0) {
            bytes in = {v->data, v->len};
            if (!same_bytes(&in, &output))
                fail("%s: VMD accepted but not written back byte-identical", v->name);
        }
    }
    if (sample)
        compare_with_binary(&r, convert, &output, out_path, left);
    free(output.data);
    run_free(&r);

    /* --strict: a file that gives warnings fails */
    if (warned) {
        r = run_posekit(NULL, strict);
        runs++;
        check_run("info --strict", &r, strict);
        if (r.status != 2)
            fail("%s: warnings, but info --strict exited %d", v->name, r.status);
        if (sample)
            compare_with_binary(&r, strict, NULL, NULL, 0);
        run_free(&r);
    }

    bytes now;
    bytes was = {v->data, v->len};
    if (!read_all(v->name, &now) || !same_bytes(&now, &was))
        fail("%s: input changed", v->name);
    free(now.data);
}

/* batch LIST: each line of LIST is one posekit invocation, its fields
 * separated by tabs: the file for its standard output, the file for its
 * standard error, then its arguments from argv[0] on (at most MAX_ARGS, no
 * field empty).  Each runs through the fork server as in the modes above,
 * in this folder and environment (as given: LC_ALL is left alone), and its
 * exit status is printed, one line each in LIST's order, as a shell gives
 * it ($?: 128 + the signal for a run a signal ended).  Exit status 0 when
 * every line ran (whatever the runs' own statuses), 2 otherwise. */
static int batch(const char *list)
{
    start_server();
    FILE *f = fopen(list, "r");
    if (!f) {
        perror(list);
        return 2;
    }
    char line[REQUEST_BYTES];
    size_t lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        else if (!feof(f)) {
            fprintf(stderr, "bad_variants: %s:%zu: line too long\n", list, lineno);
            return 2;
        }
        char *field[MAX_ARGS + 4];
        size_t k = 0;
        for (char *p = line; p && k < MAX_ARGS + 3; k++) {
            field[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        field[k] = NULL;
        bool empty = false;
        for (size_t i = 0; i < k; i++)
            empty = empty || !*field[i];
        if (k < 3 || k > MAX_ARGS + 2 || empty) {
            fprintf(stderr, "bad_variants: %s:%zu: expected OUT, ERR and 1 to %d arguments\n",
                    list, lineno, MAX_ARGS);
            return 2;
        }
        run r = run_posekit(NULL, field + 2);
        run_free(&r);
        if (rename("_stdout", field[0]) != 0 || rename("_stderr", field[1]) != 0) {
            perror("bad_variants: keeping a run's output");
            return 2;
        }
        printf("%d\n", r.status < 0 ? 128 - r.status : r.status);
    }
    bool ok = !ferror(f);
    fclose(f);
    close(to_server);
    close(from_server);
    wait_status(server);
    return ok && fflush(stdout) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "batch") == 0)
        return batch(argv[2]);
    const char *mode = argc == 2 ? argv[1] : "";
    bool cut = strcmp(mode, "cut") == 0;
    if (!cut && strcmp(mode, "flip") != 0) {
        fprintf(stderr, "usage: bad_variants cut|flip\n       bad_variants batch LIST\n");
        return 2;
    }
    const char *src = getenv("PK_SOURCE"), *corpus = getenv("PK_CORPUS");
    if (!src || !*src) {
        fprintf(stderr, "bad_variants: PK_SOURCE must name the source tree\n");
        return 2;
    }
    /* Messages must not depend on the machine's language. */
    setenv("LC_ALL", "C", 1);
    const char *tmp = getenv("TMPDIR");
    char work[4096];
    snprintf(work, sizeof work, "%s/pkbad.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(work) || chdir(work) != 0 || mkdir("var", 0755) != 0) {
        perror("bad_variants: work folder");
        return 2;
    }
    start_server();

    inputs in = {0};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", src);
    add_dir(&in, dir, "", true);
    if (corpus && *corpus)
        add_dir(&in, corpus, "", false);
    else
        printf("note: PK_CORPUS unset, corpus files not included\n");
    static const char *const seeds[] = {"vmd", "vpd_text", "vpd_hybrid"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src, seeds[i]);
        add_dir(&in, dir, "seed_", false);
    }
    if (in.n == 0) {
        fprintf(stderr, "bad_variants: no input files found\n");
        return 1;
    }

    variants v = {0};
    for (size_t i = 0; i < in.n; i++) {
        bytes b;
        if (!read_all(in.items[i].path, &b)) {
            fprintf(stderr, "bad_variants: cannot read %s\n", in.items[i].path);
            return 2;
        }
        (cut ? make_cuts : make_flips)(&v, i, in.items[i].ext, &b);
        free(b.data);
    }

    size_t same = drop_repeats(&v);
    for (size_t i = 0; i < v.n; i++)
        if (!write_all(v.items[i].name, v.items[i].data, v.items[i].len)) {
            perror(v.items[i].name);
            return 2;
        }
    const char *san = getenv("PK_SANITIZED");
    size_t every = san && *san ? SAMPLE_EVERY_SANITIZED : SAMPLE_EVERY;
    for (size_t i = 0; i < v.n; i++) {
        const char *name = v.items[i].name;
        check_variant(&v.items[i], name + strlen(name) - 3, i % every == 0);
    }
    printf("bad_%s: %zu variants of %zu files (%zu more the same bytes as one of them), %zu runs "
           "in-process, %zu compared with the posekit binary; %d failed checks\n",
           mode, v.n, in.n, same, runs, compared, failures);
    close(to_server);
    close(from_server);
    wait_status(server);

    if (chdir("/") == 0 && !getenv("PK_KEEP"))
        remove_tree(work);
    else
        printf("kept %s\n", work);
    for (size_t i = 0; i < v.n; i++)
        free(v.items[i].data);
    free(v.items);
    for (size_t i = 0; i < in.n; i++)
        free(in.items[i].path);
    free(in.items);
    return failures ? 1 : 0;
}
