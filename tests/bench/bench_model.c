/*
 * bench_model.c — reading a model into the skeleton: the corpus's
 * pmx_gene.pmx (2.8 MB, 28 646 vertices, 224 bones, 184 morphs) and
 * pmd_gene.pmd from memory (the file is read once, untimed), and through
 * pk_model_load (file read included).  The goal is under 5 ms for the PMX.
 *
 * usage: PK_CORPUS=DIR bench_model [--reps N]
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct model_ctx {
    char path[512];
    pk_bytes bytes;
} model_ctx;

static int read_file(void *p)
{
    model_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_read(c->path, &c->bytes, &log);
    pk_log_free(&log);
    return rc;
}

static void free_file(void *p)
{
    pk_bytes_free(&((model_ctx *)p)->bytes);
}

static int decode(void *p)
{
    model_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(c->bytes.data, c->bytes.len, &log);
    int rc = m && m->nbones > 0 ? 0 : -1;
    pk_model_free(m);
    pk_log_free(&log);
    return rc;
}

static int load(void *p)
{
    model_ctx *c = p;
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(c->path, &log);
    int rc = m ? 0 : -1;
    pk_model_free(m);
    pk_log_free(&log);
    return rc;
}

int main(int argc, char **argv)
{
    int reps = bench_reps(argc, argv, 20, "PK_CORPUS=DIR bench_model [--reps N]");
    if (reps < 0)
        return 2;
    const char *dir = getenv("PK_CORPUS");
    if (!dir || !*dir) {
        fprintf(stderr, "bench_model: set PK_CORPUS to the corpus folder\n");
        return 2;
    }
    bench_table_header();
    static const char *const files[2] = {"pmx_gene.pmx", "pmd_gene.pmd"};
    for (int f = 0; f < 2; f++) {
        model_ctx mem = {0}, file = {0};
        snprintf(mem.path, sizeof mem.path, "%s/%s", dir, files[f]);
        snprintf(file.path, sizeof file.path, "%s/%s", dir, files[f]);
        FILE *fp = fopen(mem.path, "rb");
        if (!fp) {
            fprintf(stderr, "bench_model: %s: not found\n", mem.path);
            return 2;
        }
        fseek(fp, 0, SEEK_END);
        double size = (double)ftell(fp);
        fclose(fp);
        char n_dec[96], n_load[96];
        snprintf(n_dec, sizeof n_dec, "read %s %.1f MB -> skeleton (memory)", files[f], size / 1e6);
        snprintf(n_load, sizeof n_load, "  pk_model_load %s (file included)", files[f]);
        bench_case dec = {.name = n_dec,
                          .setup = read_file,
                          .body = decode,
                          .teardown = free_file,
                          .ctx = &mem,
                          .bytes = size,
                          .file_size = size};
        bench_case ld = {
            .name = n_load, .body = load, .ctx = &file, .bytes = size, .file_size = size};
        if (!bench_run(&dec, reps).ok || !bench_run(&ld, reps).ok)
            return 3;
    }
    return 0;
}
