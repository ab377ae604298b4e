/*
 * posix.c — platform.h on POSIX systems (Linux first): open/mmap/madvise
 * for reads, mkstemp/fchmod/fsync/rename for atomic writes, mkdir,
 * stat/realpath/readlink for file facts.  CP932 is in a file of its own:
 * cp932_iconv.c (glibc iconv) or cp932_table.c (a table made from it).
 *
 * Atomic write: the bytes go to "DIR/.NAME.XXXXXX" in the target's folder
 * (same file system, so rename is atomic), every write and the close are
 * checked, the file is fsync'd, then renamed over the target and the
 * folder fsync'd.  On any failure the temporary file is removed and the
 * target is untouched.  A symbolic link is followed to the file it names,
 * which is replaced; the link stays.
 */
#define _DEFAULT_SOURCE 1 /* madvise(MADV_DONTNEED), realpath, readlink */
#include "common/diag.h"
#include "common/grow.h"
#include "platform/system.h"
#include "platform_config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ---- */

/* Files are mapped (mmap), except under Emscripten: there a "mapping" is a
 * copy into the heap all the same and the advice calls (madvise) are not
 * implemented, so a file is read into the heap and no advice given. */
#ifdef __EMSCRIPTEN__
enum { MAP_FILES = 0 };
#else
enum { MAP_FILES = 1 };
#endif

/* Reads fd to its end into a heap copy; a stream (stream true: standard
 * input, a pipe, a device) stops past pki_os_stream_limit bytes. */
static int read_all_fd(int fd, bool stream, const uint8_t **data, size_t *len_out,
                       pk_region **region, pk_log *log)
{
    size_t limit = stream ? pki_os_stream_limit() : SIZE_MAX / 2;
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (;;) {
        if (len == cap) {
            if (len > limit)
                break; /* past it: told below */
            /* one byte past the limit tells a stream that goes on */
            size_t grown = cap * 2 < limit + 1 ? cap * 2 : limit + 1;
            uint8_t *nb = realloc(buf, grown);
            if (!nb) {
                free(buf);
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
            buf = nb;
            cap = grown;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            pk_error(log, PK_E_IO, "cannot read: %s", strerror(errno));
            free(buf);
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    return pki_os_read_ended(buf, len, limit, stream, data, len_out, region, log);
}

int pki_os_read(const char *path, const uint8_t **data, size_t *len, pk_region **region,
                pk_log *log)
{
    *data = (const uint8_t *)"";
    *len = 0;
    *region = NULL;
    if (strcmp(path, "-") == 0)
        return read_all_fd(STDIN_FILENO, true, data, len, region, log);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pk_error(log, errno == ENOENT ? PK_E_NOT_FOUND : PK_E_IO, "cannot open: %s",
                 strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        pk_error(log, PK_E_IO, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        pk_error(log, PK_E_IO, "is a directory, not a file");
        close(fd);
        return -1;
    }
    int rc = 0;
    if (MAP_FILES && S_ISREG(st.st_mode) && st.st_size > 0) {
        /* mmap: no copy, and the pages count once however big the file. */
        size_t n = (size_t)st.st_size;
        void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            rc = read_all_fd(fd, false, data, len, region, log);
        } else if (!(*region = pki_os_region_new(p, n, PKI_OWN_MAP))) {
            munmap(p, n);
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
        } else {
            posix_madvise(p, n, POSIX_MADV_SEQUENTIAL);
            *data = p;
            *len = n;
        }
    } else if (!S_ISREG(st.st_mode) || st.st_size > 0) {
        /* a pipe, a terminal, a device (a file where nothing is mapped) */
        rc = read_all_fd(fd, !S_ISREG(st.st_mode), data, len, region, log);
    }
    close(fd);
    return rc;
}

void pki_os_drop_consumed(pk_region *r, size_t upto)
{
    if (!r || r->own != PKI_OWN_MAP)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    size_t n = upto < r->len ? upto : r->len;
    n -= n % (size_t)page;
    if (n)
        madvise(r->base, n, MADV_DONTNEED); /* advice: a failure changes nothing */
}

void pki_os_advise_huge(void *p, size_t n)
{
#if defined(MADV_HUGEPAGE) && !defined(__EMSCRIPTEN__)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || n < huge)
        return;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t e = ((uintptr_t)p + n) & ~(huge - 1);
    if (e > a)
        madvise((void *)a, e - a, MADV_HUGEPAGE); /* advice: a failure changes nothing */
#else
    (void)p;
    (void)n;
#endif
}

void pki_os_release(pk_region *r)
{
    if (!r)
        return;
    if (r->own == PKI_OWN_MAP)
        munmap(r->base, r->len);
    else
        free(r->base);
    free(r);
}

/* ---- writing ---- */

struct pki_os_temp {
    char *target; /* the file replaced: path with its links followed */
    char *tmp;
    int fd;      /* -1 once closed */
    int pending; /* its slot in the interrupt's registry (-1: none) */
};

static int write_all(int fd, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len) {
        size_t chunk = len > (1u << 30) ? (1u << 30) : len;
        ssize_t w = write(fd, p, chunk);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* path with every symbolic link at its end followed (a dangling link gives
 * the path it points to); malloc'd, NULL on OOM or a loop. */
static char *follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p;
        size_t cap = (size_t)st.st_size + 1 > 256 ? (size_t)st.st_size + 1 : 256;
        char *to = malloc(cap);
        ssize_t n = to ? readlink(p, to, cap - 1) : -1;
        if (n < 0 || (size_t)n >= cap - 1) {
            free(to);
            return p; /* unreadable or changed under us: stop here */
        }
        to[n] = '\0';
        char *next;
        if (to[0] == '/') {
            next = to;
        } else {
            size_t dl = pki_os_dir_len(p);
            char *dir = strndup(p, dl);
            next = dir ? pki_os_join(dir, to) : NULL;
            free(dir);
            free(to);
        }
        free(p);
        p = next;
    }
    if (p)
        errno = ELOOP;
    free(p);
    return NULL;
}

/* Where, in path, the deepest folder above it that exists ends: the
 * length of that folder's name ("/" for the root), with *rest the offset
 * of what follows it; 0 (and *rest 0) when none above exists, that is,
 * the current folder. */
static size_t existing_dir(const char *t, size_t *rest)
{
    size_t cut = strlen(t);
    for (;;) {
        while (cut > 0 && t[cut - 1] != '/')
            cut--;
        *rest = cut;
        if (cut == 0)
            return 0;
        size_t dl = cut > 1 ? cut - 1 : cut; /* "a/b/" -> "a/b"; "/" stays */
        char *dir = strndup(t, dl);
        struct stat st;
        bool there = dir && stat(dir, &st) == 0;
        free(dir);
        if (there)
            return dl;
        cut--; /* the separator; look one folder higher */
    }
}

char *pki_os_target_resolved(const char *path)
{
    char *t = follow_links(path);
    if (!t)
        return path ? strdup(path) : NULL;
    /* the deepest existing folder above t, canonical, then the rest */
    size_t rest, dl = existing_dir(t, &rest);
    char *dir = dl ? strndup(t, dl) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    char *key = real ? pki_os_join(real, t + rest) : NULL;
    free(real);
    if (!key)
        return t; /* as written */
    free(t);
    return key;
}

/* A new, unused name beside path, "DIR/.NAME<tag>.XXXXXX" (tag "" for a
 * temporary file, ".old" for a kept one), created empty and open (its
 * descriptor in *fd); malloc'd, NULL (errno set: ENOMEM, or mkstemp's)
 * on failure. */
static char *name_beside(const char *path, const char *tag, int *fd)
{
    size_t dirlen = pki_os_dir_len(path);
    const char *base = pki_os_base_name(path);
    size_t len = dirlen + 2 + strlen(base) + strlen(tag) + 8;
    char *name = malloc(len);
    if (!name) {
        errno = ENOMEM;
        return NULL;
    }
    if (base == path)
        snprintf(name, len, ".%s%s.XXXXXX", base, tag);
    else
        snprintf(name, len, "%.*s/.%s%s.XXXXXX", (int)(base - 1 - path), path, base, tag);
    *fd = mkstemp(name);
    if (*fd < 0) {
        int err = errno;
        free(name);
        errno = err;
        return NULL;
    }
    return name;
}

/* Whether the folder path is in exists (".": the working folder). */
static bool folder_exists(const char *path)
{
    size_t n = pki_os_dir_len(path);
    char *dir = n ? strndup(path, n) : strdup(".");
    struct stat st;
    bool yes = dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    free(dir);
    return yes;
}

pki_os_temp *pki_os_temp_create(const char *path, bool *in_place, pk_log *log)
{
    *in_place = false;
    struct stat st;
    bool dash = strcmp(path, "-") == 0;
    bool exists = !dash && stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        pk_error(log, PK_E_IO, "is a directory");
        return NULL;
    }
    if (dash || (exists && !S_ISREG(st.st_mode))) {
        *in_place = true;
        return NULL;
    }
    pki_os_temp *t = calloc(1, sizeof *t);
    if (!t || !(t->target = follow_links(path))) {
        pk_error(log, t && errno == ELOOP ? PK_E_IO : PK_E_NO_MEMORY, "%s",
                 t && errno == ELOOP ? "too many levels of symbolic links" : "out of memory");
        free(t);
        return NULL;
    }
    t->fd = -1;
    t->pending = -1;
    /* Temporary file beside the target: "DIR/.NAME.XXXXXX". */
    if (!(t->tmp = name_beside(t->target, "", &t->fd))) {
        int err = errno;
        if (err == ENOMEM)
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
        else if (err == ENOENT && !folder_exists(t->target))
            /* the commands make no folders (jobs do) */
            pk_error(log, PK_E_NOT_FOUND, "the output folder does not exist");
        else if (err == ENOENT) /* a folder that makes no files (/proc) */
            pk_error(log, PK_E_IO, "cannot create a file in the output folder: it takes no new "
                     "files (%s)", strerror(err));
        else
            pk_error(log, PK_E_IO, "cannot create a file in the output folder: %s",
                     strerror(err));
        pki_os_temp_discard(t); /* t->tmp NULL: no file to remove */
        return NULL;
    }
    t->pending = pki_os_pending_add(t->tmp, NULL);
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(t->fd, mode) != 0) {
        pk_error(log, PK_E_IO, "cannot set permissions: %s", strerror(errno));
        pki_os_temp_discard(t);
        return NULL;
    }
    return t;
}

int pki_os_temp_write(void *temp, const void *data, size_t len)
{
    return write_all(((pki_os_temp *)temp)->fd, data, len);
}

int pki_os_temp_finish(pki_os_temp *t, pk_log *log)
{
    const char *what = NULL;
    int err = 0;
    if (fsync(t->fd) != 0)
        what = "fsync failed", err = errno;
    if (close(t->fd) != 0 && !what)
        what = "close failed", err = errno;
    t->fd = -1;
    if (what) {
        pk_error(log, PK_E_IO, "%s: %s", what, strerror(err));
        return -1;
    }
    return 0;
}

const char *pki_os_temp_target(const pki_os_temp *t)
{
    return t->target;
}

int pki_os_temp_commit(pki_os_temp *t, pk_log *log)
{
    if (rename(t->tmp, t->target) != 0) {
        pk_error(log, PK_E_IO, "cannot replace the file: %s", strerror(errno));
        pki_os_temp_discard(t);
        return -1;
    }
    pki_os_pending_drop(t->pending); /* nothing left to remove */
    t->pending = -1;
    /* Make the rename itself durable. */
    size_t dl = pki_os_dir_len(t->target);
    char *dir = dl ? strndup(t->target, dl) : NULL;
    int dfd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    free(t->tmp);
    t->tmp = NULL;
    pki_os_temp_discard(t);
    return 0;
}

void pki_os_temp_discard(pki_os_temp *t)
{
    if (!t)
        return;
    if (t->fd >= 0)
        close(t->fd);
    if (t->tmp)
        unlink(t->tmp);
    pki_os_pending_drop(t->pending);
    free(t->tmp);
    free(t->target);
    free(t);
}

int pki_os_write_in_place(const char *path, const void *data, size_t len, pk_log *log)
{
    if (strcmp(path, "-") == 0) {
        if (write_all(STDOUT_FILENO, data, len) != 0) {
            pk_error(log, PK_E_IO, "cannot write standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) {
        pk_error(log, errno == ENOENT ? PK_E_NOT_FOUND : PK_E_IO, "cannot open for writing: %s",
                 strerror(errno));
        return -1;
    }
    if (write_all(fd, data, len) != 0) {
        pk_error(log, PK_E_IO, "write failed: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        pk_error(log, PK_E_IO, "close failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- folders and file facts ---- */

/* mkdir p; notes p in *made when it is the first folder made. */
static int make_one(const char *p, char **made, pk_log *log)
{
    if (mkdir(p, 0777) == 0) {
        if (made && !*made)
            *made = strdup(p);
        return 0;
    }
    if (errno == EEXIST)
        return 0;
    pk_log_add_at(log, PK_ERROR, PK_E_IO, p, -1, 0, 0, "cannot create the folder: %s",
                  strerror(errno));
    return -1;
}

int pki_os_make_dirs(const char *dir, char **made, pk_log *log)
{
    if (made)
        *made = NULL;
    char *p = strdup(dir);
    if (!p) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    int rc = 0;
    for (char *q = p + 1; *q && rc == 0; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        rc = make_one(p, made, log);
        *q = '/';
    }
    if (rc == 0 && *p)
        rc = make_one(p, made, log);
    free(p);
    return rc;
}

void pki_os_unmake_dirs(const char *dir, const char *made)
{
    if (!made)
        return;
    char *p = strdup(dir);
    size_t n = p ? strlen(p) : 0;
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    while (p && *p) {
        rmdir(p); /* only an empty folder goes */
        if (strcmp(p, made) == 0)
            break;
        char *slash = strrchr(p, '/');
        if (!slash || slash == p)
            break;
        *slash = '\0';
    }
    free(p);
}

/* Copies the file at from into the open file fd (a file system without
 * hard links); 0 or -1 (errno set). */
static int copy_into(const char *from, int fd)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return -1;
    char buf[1 << 16];
    ssize_t r;
    while ((r = read(in, buf, sizeof buf)) > 0)
        if (write_all(fd, buf, (size_t)r) != 0) {
            r = -1;
            break;
        }
    int err = errno;
    close(in);
    errno = err;
    return r < 0 || fsync(fd) != 0 ? -1 : 0;
}

int pki_os_keep_old(const char *target, char **kept, pk_log *log)
{
    *kept = NULL;
    struct stat st;
    if (stat(target, &st) != 0 || !S_ISREG(st.st_mode))
        return 0; /* nothing there to keep */
    int fd;
    char *name = name_beside(target, ".old", &fd);
    if (!name) {
        pk_error(log, PK_E_IO, "cannot keep the present file aside: %s", strerror(errno));
        return -1;
    }
    /* the reserved name becomes a second link to the file; where links
     * cannot be made, a copy of it.  Another user's file is copied, not
     * linked: in a shared (sticky) folder we could not remove the link. */
    close(fd);
    bool linked = st.st_uid == geteuid() && unlink(name) == 0 && link(target, name) == 0;
    if (!linked) {
        fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 07777);
        if (fd < 0 || copy_into(target, fd) != 0) {
            pk_error(log, PK_E_IO, "cannot keep the present file aside: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            unlink(name);
            free(name);
            return -1;
        }
        close(fd);
    }
    *kept = name;
    return 0;
}

int pki_os_put_back(const char *target, const char *kept, pk_log *log)
{
    if (kept ? rename(kept, target) != 0 : unlink(target) != 0) {
        if (kept)
            pk_error(log, PK_E_IO, "cannot put the old file back (it is kept as %s): %s", kept,
                     strerror(errno));
        else
            pk_error(log, PK_E_IO, "cannot remove the new file: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void pki_os_drop_kept(const char *kept)
{
    if (kept)
        unlink(kept);
}

pki_os_undo *pki_os_undo_add(const char *target, const char *kept)
{
    return pki_os_undo_of(strdup(target), kept ? strdup(kept) : NULL, kept != NULL);
}

static void pending_act(const void *path, const void *to)
{
    int err = errno; /* a handler leaves errno as it found it */
    if (!to || rename(path, to) == 0) /* a failed put-back keeps its copy */
        unlink(path);
    errno = err;
}

void pki_os_interrupted(void)
{
    for (int i = 0, top = pki_os_pending_top(); i < top; i++) {
        const void *to, *path = pki_os_pending_get(i, &to);
        if (path)
            pending_act(path, to);
    }
}

int pki_os_folder_writable(const char *path)
{
    char *t = follow_links(path);
    if (!t)
        return ENOMEM;
    size_t rest, dl = existing_dir(t, &rest);
    (void)rest;
    t[dl] = '\0';
    int rc = access(dl ? t : ".", W_OK | X_OK) != 0 ? errno : 0;
    free(t);
    return rc;
}

bool pki_os_stderr_is_terminal(void)
{
    return isatty(STDERR_FILENO) == 1;
}

bool pki_os_stdout_is_terminal(void)
{
    return isatty(STDOUT_FILENO) == 1;
}

pk_path_kind pki_os_kind(const char *path, uint64_t *size)
{
    if (size)
        *size = 0;
    if (strcmp(path, "-") == 0)
        return PK_PATH_OTHER;
    struct stat st;
    if (stat(path, &st) != 0)
        return PK_PATH_MISSING;
    if (S_ISDIR(st.st_mode))
        return PK_PATH_FOLDER;
    if (!S_ISREG(st.st_mode))
        return PK_PATH_OTHER;
    if (size)
        *size = (uint64_t)st.st_size;
    return PK_PATH_FILE;
}

bool pki_os_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

char *pki_os_canonical(const char *path)
{
    return realpath(path, NULL);
}

/* ---- path syntax ---- */

bool pki_os_is_separator(char c)
{
    return c == '/';
}

bool pki_os_is_absolute(const char *path)
{
    return path[0] == '/';
}

const char *pki_os_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

size_t pki_os_dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    return slash == path ? 1 : (size_t)(slash - path);
}

char *pki_os_join(const char *dir, const char *name)
{
    if (!dir || !*dir || pki_os_is_absolute(name))
        return strdup(name);
    size_t dl = strlen(dir);
    bool sep = dir[dl - 1] == '/';
    size_t n = dl + !sep + strlen(name) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, sep ? "" : "/", name);
    return p;
}

/* ---- the data folder ---- */

char *pki_os_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

char *pki_os_uninstalled_data(const char *sub)
{
    char *exe = NULL;
    for (size_t cap = 256; cap <= 65536 && !exe; cap *= 4) {
        char *buf = malloc(cap);
        ssize_t n = buf ? readlink("/proc/self/exe", buf, cap - 1) : -1;
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap - 1) {
            buf[n] = '\0';
            exe = buf;
        } else {
            free(buf);
        }
    }
    if (!exe)
        return NULL;
    exe[pki_os_dir_len(exe)] = '\0'; /* .../build/cli */
    exe[pki_os_dir_len(exe)] = '\0'; /* .../build */
    char *dir = pki_os_join(exe, strcmp(sub, "bodies") == 0 ? "rules/bodies" : "rules");
    free(exe);
    if (dir && pki_os_kind(dir, NULL) != PK_PATH_FOLDER) {
        free(dir);
        dir = NULL;
    }
    return dir;
}

char *pki_os_installed_data(const char *sub)
{
    return pki_os_join(PK_INSTALLED_DATA, sub);
}

/* ---- many files ---- */

int pki_os_list_dir(const char *dir, char ***names, size_t *n, pk_log *log)
{
    *names = NULL;
    *n = 0;
    const char *d = *dir ? dir : ".";
    DIR *h = opendir(d);
    if (!h) {
        pk_log_add_at(log, PK_ERROR, errno == ENOENT ? PK_E_NOT_FOUND : PK_E_IO, d, -1, 0, 0,
                      "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    char **v = NULL;
    size_t k = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(h)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (pki_grow_reserve(&v, &cap, k + 1, sizeof *v) != 0 || !(v[k] = strdup(e->d_name))) {
            rc = -1;
            break;
        }
        k++;
    }
    closedir(h);
    if (rc != 0) {
        for (size_t i = 0; i < k; i++)
            free(v[i]);
        free(v);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    *names = v;
    *n = k;
    return 0;
}

bool pki_os_names_fold_case(void)
{
    return false;
}

unsigned pki_os_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* The shared state of pki_os_parallel's threads. */
typedef struct pool {
    pthread_mutex_t lock;
    size_t next, n;
    pki_os_task work, done;
    void *ctx;
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->n ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        p->work(p->ctx, i);
        if (p->done) {
            pthread_mutex_lock(&p->lock);
            p->done(p->ctx, i);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

void pki_os_parallel(size_t n, unsigned workers, pki_os_task work, pki_os_task done, void *ctx)
{
    pool p = {.next = 0, .n = n, .work = work, .done = done, .ctx = ctx};
    size_t extra = workers > 1 && n > 1 ? (workers < n ? workers : n) - 1 : 0;
    pthread_t *t = extra ? calloc(extra, sizeof *t) : NULL;
    if (!t || pthread_mutex_init(&p.lock, NULL) != 0) {
        free(t);
        for (size_t i = 0; i < n; i++) {
            work(ctx, i);
            if (done)
                done(ctx, i);
        }
        return;
    }
    size_t started = 0;
    while (started < extra && pthread_create(&t[started], NULL, pool_worker, &p) == 0)
        started++;
    pool_worker(&p); /* the caller's thread works too */
    for (size_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_mutex_destroy(&p.lock);
    free(t);
}
