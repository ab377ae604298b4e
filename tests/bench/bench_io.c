/*
 * bench_io.c — file I/O benchmarks: read, write and round trip of a ~50 MB
 * motion next to a plain copy of the same file, reading a real-size dance
 * (4 MB), and the peak memory of each.  Not a test: run it by hand (or
 * tests/bench/run.sh) and read the table.
 *
 * usage: bench_io [--reps N] [--posekit PATH]
 *   --posekit adds a row for `posekit convert BIG.vmd -o OUT.vmd` (the
 *   whole CLI, process start included).
 *
 * Inputs are generated with the public API (bench_util.c), written to a
 * temporary folder, and removed at the end.  "cp" is what cp does: read()
 * and write() in 1 MiB blocks into a new file; a second row adds the fsync
 * that posekit's atomic write performs, which is the fair comparison.
 */
#include "bench_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct io_ctx {
    char in[256], out[256];
    int fsync_out;
    pk_motion *m;   /* write case: loaded in setup */
    pk_bytes bytes; /* decode case: the file, read in setup */
    const char *posekit;
} io_ctx;

static int copy_file(void *p)
{
    io_ctx *c = p;
    static char buf[1 << 20];
    int in = open(c->in, O_RDONLY);
    int out = open(c->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = in >= 0 && out >= 0 ? 0 : -1;
    while (rc == 0) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r <= 0) {
            rc = r < 0 ? -1 : 0;
            break;
        }
        for (ssize_t off = 0; off < r;) {
            ssize_t w = write(out, buf + off, (size_t)(r - off));
            if (w <= 0) {
                rc = -1;
                break;
            }
            off += w;
        }
    }
    if (rc == 0 && c->fsync_out && fsync(out) != 0)
        rc = -1;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1;
    return rc;
}

static int read_vmd(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_doc doc;
    int rc = pk_doc_load(c->in, &doc, &log);
    pk_doc_free(&doc);
    pk_log_free(&log);
    return rc;
}

static int load_model(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_doc doc;
    int rc = pk_doc_load(c->in, &doc, &log);
    pk_log_free(&log);
    c->m = doc.motion;
    return rc == 0 && c->m ? 0 : -1;
}

static void free_model(void *p)
{
    io_ctx *c = p;
    pk_motion_free(c->m);
    c->m = NULL;
}

static int produce_vmd(void *ctx, pk_sink sink, void *sink_ctx, pk_log *log)
{
    return pk_vmd_write_sink(ctx, sink, sink_ctx, log);
}

/* What `posekit convert` does: encoded straight into the temporary file. */
static int write_vmd(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_staged *st = pk_file_stage_from(c->out, produce_vmd, c->m, &log);
    int rc = st ? pk_file_commit(st, &log) : -1;
    pk_log_free(&log);
    return rc;
}

/* The same through a buffer of the whole file (pk_vmd_write, then
 * pk_file_write_atomic): what the streamed write saves. */
static int write_vmd_buffered(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_buf out;
    pk_buf_init(&out);
    int rc = pk_vmd_write(c->m, &out, &log);
    if (rc == 0)
        rc = pk_file_write_atomic(c->out, out.data, out.len, &log);
    pk_buf_free(&out);
    pk_log_free(&log);
    return rc;
}

/* The codec alone, memory to memory: where the time goes. */
static int encode_only(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_buf out;
    pk_buf_init(&out);
    int rc = pk_vmd_write(c->m, &out, &log);
    pk_buf_free(&out);
    pk_log_free(&log);
    return rc;
}

static int map_file(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_read(c->in, &c->bytes, &log);
    /* Touch every page so the decode below is not charged for faults. */
    volatile uint8_t sum = 0;
    for (size_t i = 0; rc == 0 && i < c->bytes.len; i += 4096)
        sum ^= c->bytes.data[i];
    (void)sum;
    pk_log_free(&log);
    return rc;
}

static void unmap_file(void *p)
{
    io_ctx *c = p;
    pk_bytes_free(&c->bytes);
}

static int decode_only(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(c->bytes.data, c->bytes.len, &log);
    pk_motion_free(m);
    pk_log_free(&log);
    return m ? 0 : -1;
}

/* The round trip with the output written like cp writes it (write(), no
 * fsync, no rename): the codec's cost next to a plain copy. */
static int roundtrip_plain(void *p)
{
    io_ctx *c = p;
    if (load_model(p) != 0)
        return -1;
    pk_log log;
    pk_log_init(&log);
    pk_buf out;
    pk_buf_init(&out);
    int rc = pk_vmd_write(c->m, &out, &log);
    free_model(p);
    int fd = rc == 0 ? open(c->out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    for (size_t off = 0; fd >= 0 && off < out.len;) {
        ssize_t w = write(fd, out.data + off, out.len - off);
        if (w <= 0) {
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    if (fd < 0 || close(fd) != 0)
        rc = -1;
    pk_buf_free(&out);
    pk_log_free(&log);
    return rc;
}

/* What `posekit convert IN.vmd -o OUT.vmd` does, through the library. */
static int roundtrip_vmd(void *p)
{
    if (load_model(p) != 0)
        return -1;
    int rc = write_vmd(p);
    free_model(p);
    return rc;
}

static int run_cli(void *p)
{
    io_ctx *c = p;
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDOUT_FILENO);
        if (!c->in[0]) /* the baseline: a run that loads no file */
            execl(c->posekit, c->posekit, "--version", (char *)NULL);
        else
            execl(c->posekit, c->posekit, "convert", c->in, "-o", c->out, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The library's round trip in memory: decode the mapped file, encode it
 * again (no file written). */
static int decode_encode(void *p)
{
    io_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(c->bytes.data, c->bytes.len, &log);
    pk_buf out;
    pk_buf_init(&out);
    int rc = m ? pk_vmd_write(m, &out, &log) : -1;
    if (rc == 0 && (out.len != c->bytes.len || memcmp(out.data, c->bytes.data, out.len) != 0))
        rc = -1;
    pk_buf_free(&out);
    pk_motion_free(m);
    pk_log_free(&log);
    return rc;
}

typedef struct gen_ctx {
    size_t nbones, keys, nmorphs;
    uint32_t seed;
    const char *path;
} gen_ctx;

static int generate(void *p)
{
    gen_ctx *g = p;
    pk_motion *m = bench_motion(g->nbones, g->keys, g->nmorphs, g->seed);
    bench_write_vmd(m, g->path);
    pk_motion_free(m);
    return 0;
}

static double file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size : 0;
}

static int same_file(const char *a, const char *b)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return system(cmd) == 0;
}

int main(int argc, char **argv)
{
    int reps = 5;
    const char *posekit = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--posekit") == 0 && i + 1 < argc)
            posekit = argv[++i];
        else {
            fprintf(stderr, "usage: bench_io [--reps N] [--posekit PATH]\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    const char *dir = bench_tmpdir();
    char big[256], dance[256], out[256];
    snprintf(big, sizeof big, "%s/big.vmd", dir);
    snprintf(dance, sizeof dance, "%s/dance.vmd", dir);
    snprintf(out, sizeof out, "%s/out.vmd", dir);

    bench_table_header();
    /* 300 bone tracks x 1500 keys (+ 12 morph tracks) = 50 MB, the size of
     * a long dance with every finger keyed; 64 x 560 = 4 MB, a real song. */
    gen_ctx gbig = {300, 1500, 12, 7, big}, gdance = {64, 560, 12, 11, dance};
    bench_case gen1 = {.name = "generate 50 MB motion (API)", .body = generate, .ctx = &gbig};
    bench_case gen2 = {.name = "generate 4 MB dance (API)", .body = generate, .ctx = &gdance};
    if (!bench_run(&gen1, 1).ok || !bench_run(&gen2, 1).ok)
        return 3;
    double sbig = file_size(big), sdance = file_size(dance);

    io_ctx cp = {.fsync_out = 0}, cps = {.fsync_out = 1}, rd = {0}, wr = {0}, rt = {0}, cli = {0},
           drd = {0}, drt = {0}, dec = {0}, enc = {0}, dcli = {0}, rtp = {0}, wrb = {0},
           dcps = {.fsync_out = 1}, drtp = {0}, dmem = {0};
    io_ctx *all[] = {&cp,  &cps, &rd,  &wr,   &rt,   &cli,  &drd, &drt,
                     &dec, &enc, &dcli, &rtp, &wrb, &dcps, &drtp, &dmem};
    io_ctx *on_dance[] = {&drd, &drt, &dcli, &dcps, &drtp, &dmem};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        snprintf(all[i]->in, sizeof all[i]->in, "%s", big);
        snprintf(all[i]->out, sizeof all[i]->out, "%s", out);
        all[i]->posekit = posekit;
    }
    for (size_t i = 0; i < sizeof on_dance / sizeof *on_dance; i++)
        snprintf(on_dance[i]->in, sizeof on_dance[i]->in, "%s", dance);
    char n_cp[64], n_cps[64], n_rd[64], n_wr[64], n_rt[64], n_cli[64], n_dec[64], n_enc[64],
        n_rtp[64], n_wrb[64];
    snprintf(n_rtp, sizeof n_rtp, "round trip %.1f MB, no fsync", sbig / 1e6);
    snprintf(n_dec, sizeof n_dec, "  decode %.1f MB (memory only)", sbig / 1e6);
    snprintf(n_enc, sizeof n_enc, "  encode %.1f MB (memory only)", sbig / 1e6);
    snprintf(n_cp, sizeof n_cp, "cp %.1f MB (read+write)", sbig / 1e6);
    snprintf(n_cps, sizeof n_cps, "cp %.1f MB + fsync", sbig / 1e6);
    snprintf(n_rd, sizeof n_rd, "read %.1f MB VMD", sbig / 1e6);
    snprintf(n_wr, sizeof n_wr, "write %.1f MB VMD (atomic)", sbig / 1e6);
    snprintf(n_wrb, sizeof n_wrb, "  write %.1f MB, whole-file buffer", sbig / 1e6);
    snprintf(n_rt, sizeof n_rt, "round trip %.1f MB VMD", sbig / 1e6);
    snprintf(n_cli, sizeof n_cli, "posekit convert %.1f MB (CLI)", sbig / 1e6);
    bench_case cases[] = {
        {.name = n_cp, .body = copy_file, .ctx = &cp, .bytes = sbig, .file_size = sbig},
        {.name = n_cps, .body = copy_file, .ctx = &cps, .bytes = sbig, .file_size = sbig},
        {.name = n_rd, .body = read_vmd, .ctx = &rd, .bytes = sbig, .file_size = sbig},
        {.name = n_wr,
         .setup = load_model,
         .body = write_vmd,
         .teardown = free_model,
         .ctx = &wr,
         .bytes = sbig,
         .file_size = sbig},
        {.name = n_wrb,
         .setup = load_model,
         .body = write_vmd_buffered,
         .teardown = free_model,
         .ctx = &wrb,
         .bytes = sbig,
         .file_size = sbig},
        {.name = n_rt, .body = roundtrip_vmd, .ctx = &rt, .bytes = sbig, .file_size = sbig},
        {.name = n_rtp, .body = roundtrip_plain, .ctx = &rtp, .bytes = sbig, .file_size = sbig},
        {.name = n_cli, .body = run_cli, .ctx = &cli, .bytes = sbig, .file_size = sbig},
        {.name = n_dec,
         .setup = map_file,
         .body = decode_only,
         .teardown = unmap_file,
         .ctx = &dec,
         .bytes = sbig,
         .file_size = sbig},
        {.name = n_enc,
         .setup = load_model,
         .body = encode_only,
         .teardown = free_model,
         .ctx = &enc,
         .bytes = sbig,
         .file_size = sbig},
        {.name = "read 4 MB dance",
         .body = read_vmd,
         .ctx = &drd,
         .bytes = sdance,
         .file_size = sdance},
        {.name = "cp 4 MB dance + fsync",
         .body = copy_file,
         .ctx = &dcps,
         .bytes = sdance,
         .file_size = sdance},
        {.name = "round trip 4 MB dance",
         .body = roundtrip_vmd,
         .ctx = &drt,
         .bytes = sdance,
         .file_size = sdance},
        {.name = "round trip 4 MB dance, no fsync",
         .body = roundtrip_plain,
         .ctx = &drtp,
         .bytes = sdance,
         .file_size = sdance},
        {.name = "  decode+encode 4 MB (memory)",
         .setup = map_file,
         .body = decode_encode,
         .teardown = unmap_file,
         .ctx = &dmem,
         .bytes = sdance,
         .file_size = sdance},
        /* One run per process: the library rows above repeat in one process,
         * where glibc's adaptive mmap threshold keeps freed 4 MB blocks in
         * the heap and inflates the peak; this is what a user sees. */
        {.name = "posekit convert 4 MB dance (CLI)",
         .body = run_cli,
         .ctx = &dcli,
         .bytes = sdance,
         .file_size = sdance},
    };
    /* The CLI rows' ratio subtracts what posekit itself occupies (libc,
     * libyaml, iconv), measured on `posekit --version`. */
    if (posekit) {
        io_ctx ver = {.posekit = posekit};
        bench_case vc = {.name = "posekit --version (CLI baseline)", .body = run_cli, .ctx = &ver};
        bench_result vr = bench_run(&vc, 1);
        for (size_t i = 0; vr.ok && i < sizeof cases / sizeof *cases; i++)
            if (cases[i].body == run_cli)
                cases[i].base_kib = vr.peak_kib;
    }
    enum { NCASES = sizeof cases / sizeof *cases };
    bench_result res[NCASES];
    for (size_t i = 0; i < NCASES; i++) {
        if (cases[i].body == run_cli && !posekit) {
            res[i].ok = 0;
            continue;
        }
        res[i] = bench_run(&cases[i], reps);
        const io_ctx *c = cases[i].ctx;
        if (res[i].ok &&
            (cases[i].body == roundtrip_vmd || cases[i].body == roundtrip_plain ||
             cases[i].body == run_cli) &&
            !same_file(c->in, out))
            printf("| %-34s | round trip changed the bytes! |\n", cases[i].name);
    }
    printf("\n");
    /* Goal: round trip within 2x of cp + fsync.  posekit's output is atomic
     * and durable (fsync), so it compares with cp + fsync; the no-fsync row
     * compares the codec with a plain copy. */
    struct {
        const char *label;
        const io_ctx *num, *den;
    } ratios[] = {
        {"round trip / (cp + fsync):        ", &rt, &cps},
        {"posekit convert / (cp + fsync):   ", &cli, &cps},
        {"round trip without fsync / cp:    ", &rtp, &cp},
        {"4 MB round trip / (cp + fsync):   ", &drt, &dcps},
        {"4 MB convert (CLI) / (cp + fsync):", &dcli, &dcps},
    };
    for (size_t r = 0; r < sizeof ratios / sizeof *ratios; r++) {
        double num = -1.0, den = -1.0;
        for (size_t i = 0; i < NCASES; i++) {
            if (cases[i].ctx == ratios[r].num && res[i].ok)
                num = res[i].seconds;
            if (cases[i].ctx == ratios[r].den && res[i].ok)
                den = res[i].seconds;
        }
        if (num > 0.0 && den > 0.0)
            printf("%s %.2fx\n", ratios[r].label, num / den);
    }
    unlink(big);
    unlink(dance);
    unlink(out);
    rmdir(dir);
    return 0;
}
