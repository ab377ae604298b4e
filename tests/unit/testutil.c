/* testutil.c — see testutil.h. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tu_corpus_path(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("PK_CORPUS");
    if (!dir || !*dir)
        return NULL;
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t tu_corpus_list(const char *ext, char ***paths)
{
    *paths = NULL;
    const char *dir = getenv("PK_CORPUS");
    if (!dir || !*dir)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0, cap = 0;
    char **v = NULL;
    struct dirent *e;
    size_t el = strlen(ext);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= el || strcmp(e->d_name + l - el, ext) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        size_t need = strlen(dir) + l + 2;
        v[n] = malloc(need);
        assert_non_null(v[n]);
        snprintf(v[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(v, n, sizeof *v, cmp_str);
    *paths = v;
    return n;
}

void tu_free_list(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

void tu_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

uint8_t *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

const char *tu_tmpdir(void)
{
    static char buf[256];
    const char *base = getenv("TMPDIR");
    snprintf(buf, sizeof buf, "%s/pk-test-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(buf))
        fail_msg("mkdtemp failed");
    return buf;
}

void tu_assert_log_has(const pk_log *log, const char *needle)
{
    char line[2048];
    for (size_t i = 0; i < log->count; i++) {
        pk_diag_format(&log->items[i], line, sizeof line);
        if (strstr(line, needle))
            return;
    }
    for (size_t i = 0; i < log->count; i++) {
        pk_diag_format(&log->items[i], line, sizeof line);
        print_error("  log[%zu]: %s\n", i, line);
    }
    fail_msg("no diagnostic contains \"%s\"", needle);
}

pk_name_id tu_intern(pk_names *t, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    pk_name_id id = pk_names_intern(t, raw, len);
    free(raw);
    assert_int_not_equal(id, PK_NO_NAME);
    return id;
}

void tu_model_bone(pk_model *m, pk_model_bone *b, const char *name, int parent, double x, double y,
                   double z)
{
    pk_log log;
    pk_log_init(&log);
    b->name = name;
    b->name_en = "";
    b->cp932 = pk_names_intern_utf8(m->names, name, 64, "bone", &log);
    pk_log_free(&log);
    b->parent = parent;
    b->pos[0] = (float)x, b->pos[1] = (float)y, b->pos[2] = (float)z;
    b->flags = PK_BONE_ROTATE | PK_BONE_MOVE | PK_BONE_VISIBLE | PK_BONE_OPERABLE;
    b->tail_bone = -1;
    b->append_parent = -1;
    b->ik_target = -1;
    b->pmd_kind = -1;
}

pk_morph_key *tu_morph_key(pk_motion *m, const char *utf8, uint32_t frame, float weight)
{
    pk_morph_key *k = pk_motion_push_morph(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, utf8);
    k->frame = frame;
    k->weight = weight;
    return k;
}

pk_bone_key *tu_bone_key(pk_motion *m, const char *utf8, uint32_t frame)
{
    pk_log log;
    pk_log_init(&log);
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = pk_names_intern_utf8(m->names, utf8, PK_VMD_NAME_BYTES, "bone", &log);
    k->frame = frame;
    k->rot[3] = 1.0f;
    pk_interp_linear(k->interp);
    pk_log_free(&log);
    return k;
}

pk_rules *tu_rules(const char *yaml, const char *path)
{
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_parse(yaml, strlen(yaml), path, &log);
    assert_non_null(r);
    pk_log_free(&log);
    return r;
}
