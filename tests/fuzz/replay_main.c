/*
 * replay_main.c — a main() for fuzz targets built without libFuzzer.
 *
 * Each argument is a file or a folder; every regular file found (folders
 * are walked one level deep, in sorted order so runs are reproducible) is
 * read whole and handed to LLVMFuzzerTestOneInput once.  This is how CI
 * replays every saved corpus entry and every saved crash on every build:
 * with the ordinary compiler, and with sanitizers when the build has them.
 *
 * Exit status: 0 when every input ran (a target signals a failure by
 * aborting), 2 when an argument cannot be read or no input was found, so
 * an empty or misplaced corpus folder fails loudly instead of passing.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads a whole file into malloc'd memory (caller frees); NULL on error. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int run_file(const char *path)
{
    size_t len = 0;
    uint8_t *data = slurp(path, &len);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    /* A private copy of exactly len bytes, so ASan sees reads past the end. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, len);
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file directly inside dir; returns how many ran, or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open folder %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ".", "..", and hidden files such as .gitkeep */
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(need);
        if (!names[n])
            break;
        snprintf(names[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    long ran = 0;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) == 0)
                ran++;
            else
                failed = 1;
        }
        free(names[i]);
    }
    free(names);
    return failed ? -1 : ran;
}

int main(int argc, char **argv)
{
    long total = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            continue; /* libFuzzer flags such as -runs=0: ignored here */
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or folder %s\n", argv[i]);
            failed = 1;
        } else if (S_ISDIR(st.st_mode)) {
            long r = run_dir(argv[i]);
            if (r < 0)
                failed = 1;
            else
                total += r;
        } else if (run_file(argv[i]) == 0) {
            total++;
        } else {
            failed = 1;
        }
    }
    printf("replay: %ld inputs ran\n", total);
    if (total == 0) {
        fprintf(stderr, "replay: no input found\n");
        return 2;
    }
    return failed ? 2 : 0;
}
