/*
 * common.c — the part of platform.h that is the same on every system:
 * path algebra written once over the system's own primitives
 * (pki_os_is_separator, pki_os_dir_len, pki_os_kind), the names of the
 * standard output, the list of rule folders, and small helpers.  The
 * system's file (posix.c or win32.c) supplies the rest, and what this
 * file needs of it (system.h).
 */
#include "platform/system.h"

#include <stdlib.h>
#include <string.h>

const char *pki_os_error_text(int err)
{
    return strerror(err);
}

bool pki_os_is_stdout(const char *path)
{
    /* Windows has no names of its own for it: the POSIX ones are taken
     * there too, so a script runs alike on both. */
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 ||
           strcmp(path, "/dev/fd/1") == 0 || strcmp(path, "/proc/self/fd/1") == 0;
}

/* ---- path syntax ---- */

char *pki_os_dir_of(const char *path)
{
    size_t n = pki_os_dir_len(path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* path with "." components and "x/.." pairs taken out and separators
 * made one '/' (a key is compared, never used to open a file); malloc'd,
 * NULL on OOM. */
static char *lexical(const char *path)
{
    size_t n = strlen(path);
    char *out = malloc(n + 2);
    size_t *starts = malloc((n + 1) * sizeof *starts); /* where each kept part begins */
    if (!out || !starts) {
        free(out);
        free(starts);
        return NULL;
    }
    size_t o = 0, nparts = 0, i = 0;
    if (n && pki_os_is_separator(path[0]))
        out[o++] = '/';
    size_t root = o;
    while (i < n) {
        while (i < n && pki_os_is_separator(path[i]))
            i++;
        size_t b = i;
        while (i < n && !pki_os_is_separator(path[i]))
            i++;
        size_t len = i - b;
        if (len == 0 || (len == 1 && path[b] == '.'))
            continue;
        if (len == 2 && path[b] == '.' && path[b + 1] == '.' && nparts &&
            !(o - starts[nparts - 1] == 2 && out[starts[nparts - 1]] == '.' &&
              out[starts[nparts - 1] + 1] == '.')) {
            o = starts[--nparts];
            if (o > root)
                o--; /* the separator before it */
            continue;
        }
        if (o > root)
            out[o++] = '/';
        starts[nparts++] = o;
        memcpy(out + o, path + b, len);
        o += len;
    }
    out[o] = '\0';
    free(starts);
    return out;
}

char *pki_os_target_key(const char *path)
{
    char *k = pki_os_target_resolved(path);
    char *l = k ? lexical(k) : NULL;
    free(k);
    return l;
}

bool pki_os_key_inside(const char *outer, const char *inner)
{
    size_t n = strlen(outer);
    return n && strncmp(outer, inner, n) == 0 && inner[n] == '/';
}

char *pki_os_file_above(const char *path)
{
    char *p = strdup(path);
    while (p) {
        size_t n = strlen(p), d = pki_os_dir_len(p);
        if (d == 0 || d >= n)
            break; /* no folder part left, or the root ("/", "C:") */
        p[d] = '\0';
        pk_path_kind k = pki_os_kind(p, NULL);
        if (k == PK_PATH_FILE)
            return p;
        if (k != PK_PATH_MISSING) /* a folder (or a share, a device: left to the write) */
            break;
    }
    free(p);
    return NULL;
}

/* ---- the data folder ---- */

char **pki_os_data_dirs(const char *sub, size_t *n)
{
    *n = 0;
    char **v = calloc(3, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    const char *env = strcmp(sub, "bodies") == 0 ? PKI_BODIES_DIR_ENV : PKI_RULES_DIR_ENV;
    if ((v[k] = pki_os_env(env)) != NULL)
        k++;
    if ((v[k] = pki_os_uninstalled_data(sub)) != NULL)
        k++;
    if (!(v[k] = pki_os_installed_data(sub))) {
        pki_os_free_list(v, k);
        return NULL;
    }
    *n = k + 1;
    return v;
}

void pki_os_free_list(char **list, size_t n)
{
    if (!list)
        return;
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

/* ---- patterns ---- */

/* The length of the UTF-8 character at s (1 for a stray byte). */
static size_t utf8_len(const char *s)
{
    size_t k = 1;
    while (s[k] && ((unsigned char)s[k] & 0xC0) == 0x80)
        k++;
    return k;
}

static bool same_char(char a, char b, bool fold)
{
    if (fold) {
        a = (a >= 'A' && a <= 'Z') ? (char)(a - 'A' + 'a') : a;
        b = (b >= 'A' && b <= 'Z') ? (char)(b - 'A' + 'a') : b;
    }
    return a == b;
}

bool pki_os_name_match(const char *pattern, const char *name, bool fold)
{
    if (name[0] == '.' && pattern[0] != '.')
        return false;
    const char *p = pattern, *s = name;
    const char *star = NULL, *resume = NULL; /* the last '*' and where it stands in name */
    while (*s) {
        if (*p == '*') {
            star = ++p;
            resume = s;
        } else if (*p == '?') {
            p++;
            s += utf8_len(s);
        } else if (*p && same_char(*p, *s, fold)) {
            p++;
            s++;
        } else if (star) {
            /* the last '*' takes one more character */
            resume += utf8_len(resume);
            s = resume;
            p = star;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int pki_os_glob(const char *pattern, char ***paths, size_t *n, pk_log *log)
{
    *paths = NULL;
    *n = 0;
    const char *base = pki_os_base_name(pattern);
    size_t plen = (size_t)(base - pattern); /* the folder part, its separator included */
    if (memchr(pattern, '*', plen) || memchr(pattern, '?', plen)) {
        pk_error(log, PK_E_USAGE,
                 "'%s': wildcards ('*', '?') are taken in the file name only, not in folders",
                 pattern);
        return -1;
    }
    if (!*base) {
        pk_error(log, PK_E_USAGE, "'%s' names a folder: give a pattern of file names ('*.vmd')",
                 pattern);
        return -1;
    }
    char *dir = pki_os_dir_of(pattern);
    char **names = NULL;
    size_t count = 0;
    if (!dir || pki_os_list_dir(dir, &names, &count, log) != 0) {
        if (!dir)
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
        free(dir);
        return -1;
    }
    free(dir);
    bool fold = pki_os_names_fold_case();
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        char *path = NULL;
        if (pki_os_name_match(base, names[i], fold)) {
            size_t len = strlen(names[i]);
            path = malloc(plen + len + 1);
            if (!path) {
                rc = -1;
                break;
            }
            memcpy(path, pattern, plen);
            memcpy(path + plen, names[i], len + 1);
            if (pki_os_kind(path, NULL) != PK_PATH_FILE) {
                free(path);
                path = NULL;
            }
        }
        free(names[i]);
        names[i] = NULL;
        if (path)
            names[k++] = path; /* the matches gather at the front */
    }
    if (rc != 0) {
        pki_os_free_list(names, count);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    qsort(names, k, sizeof *names, by_bytes);
    *paths = names;
    *n = k;
    return 0;
}
