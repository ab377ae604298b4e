/*
 * io.c — the file edge: whole-file reads (mmap where possible) and atomic
 * writes.
 *
 * Atomic write: the bytes go to a temporary file in the target's folder
 * (same file system, so rename is atomic), every write and the close are
 * checked, the file is fsync'd, then renamed over the target.  On any
 * failure the temporary file is removed and the target is untouched, so a
 * failed run never leaves a half-written file, even when the output path
 * names one of the inputs.  Targets that are not regular files (a terminal,
 * a pipe, /dev/full) cannot be replaced by rename: they are written in
 * place, still with every write checked.
 *
 * pk_file_stage / pk_file_commit are the same write cut after the fsync,
 * so that a caller with several outputs (a job) can write every temporary
 * file before renaming any of them.  pk_file_stage_from takes the bytes
 * from a producer (pk_vmd_write_sink) as they are made, so a large output
 * never needs a buffer of its size.
 */
#define _DEFAULT_SOURCE 1 /* madvise(MADV_DONTNEED): POSIX_MADV_DONTNEED is a no-op in glibc */
#include "posekit.h"
#include "format/read_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OWN_NONE = 0, OWN_MALLOC = 1, OWN_MMAP = 2 };

static int read_all_fd(int fd, pk_bytes *out, pk_log *log)
{
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        pk_error(log, "out of memory");
        return -1;
    }
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                pk_error(log, "input too large");
                return -1;
            }
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                pk_error(log, "out of memory");
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            pk_error(log, "cannot read: %s", strerror(errno));
            free(buf);
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    out->data = buf;
    out->len = len;
    out->priv_ = buf;
    out->priv_len_ = OWN_MALLOC;
    return 0;
}

int pk_file_read(const char *path, pk_bytes *out, pk_log *log)
{
    memset(out, 0, sizeof *out);
    pk_log_set_path(log, path);
    if (strcmp(path, "-") == 0)
        return read_all_fd(STDIN_FILENO, out, log);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pk_error(log, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        pk_error(log, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        pk_error(log, "is a directory, not a file");
        close(fd);
        return -1;
    }
    int rc;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        /* mmap: no copy, and the pages count once however big the file. */
        size_t len = (size_t)st.st_size;
        void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            rc = read_all_fd(fd, out, log);
        } else {
            posix_madvise(p, len, POSIX_MADV_SEQUENTIAL);
            out->data = p;
            out->len = len;
            out->priv_ = p;
            out->priv_len_ = OWN_MMAP;
            rc = 0;
        }
    } else if (S_ISREG(st.st_mode)) {
        out->data = (const uint8_t *)"";
        out->len = 0;
        rc = 0;
    } else {
        rc = read_all_fd(fd, out, log);
    }
    close(fd);
    return rc;
}

void pk_bytes_drop_prefix(pk_bytes *b, size_t upto)
{
    if (!b || b->priv_len_ != OWN_MMAP)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    size_t n = upto < b->len ? upto : b->len;
    n -= n % (size_t)page;
    if (n)
        madvise(b->priv_, n, MADV_DONTNEED); /* advice: a failure changes nothing */
}

void pk_bytes_free(pk_bytes *b)
{
    if (!b)
        return;
    if (b->priv_len_ == OWN_MMAP)
        munmap(b->priv_, b->len);
    else if (b->priv_len_ == OWN_MALLOC)
        free(b->priv_);
    memset(b, 0, sizeof *b);
}

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

static int write_in_place(const char *path, const void *data, size_t len, pk_log *log)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) {
        pk_error(log, "cannot open for writing: %s", strerror(errno));
        return -1;
    }
    if (write_all(fd, data, len) != 0) {
        pk_error(log, "write failed: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        pk_error(log, "close failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* A write prepared by pk_file_stage(_from).  tmp == NULL: a target that
 * cannot be renamed over (standard output, a terminal, a pipe, a device),
 * written at commit from data (the caller's bytes, or mem's). */
struct pk_staged {
    char *path;
    char *tmp;
    const void *data;
    size_t len;
    pk_buf mem; /* pk_file_stage_from's bytes for such a target */
};

static void staged_free(pk_staged *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->tmp);
    pk_buf_free(&s->mem);
    free(s);
}

static int fd_sink(void *ctx, const void *data, size_t len)
{
    return write_all(*(const int *)ctx, data, len);
}

static int mem_sink(void *ctx, const void *data, size_t len)
{
    pk_buf *b = ctx;
    pk_buf_append(b, data, len);
    if (b->oom) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

/* pk_file_stage's bytes as a producer. */
typedef struct bytes {
    const void *data;
    size_t len;
} bytes;

static int produce_bytes(void *ctx, pk_sink sink, void *sink_ctx, pk_log *log)
{
    const bytes *b = ctx;
    if (sink(sink_ctx, b->data, b->len) != 0) {
        pk_error(log, "write failed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Everything but how the bytes are made.  direct: the caller's bytes, kept
 * by pointer for a target written at commit. */
static pk_staged *stage(const char *path, pk_producer produce, void *ctx, const bytes *direct,
                        pk_log *log)
{
    pk_log_set_path(log, path);
    pk_staged *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        pk_error(log, "out of memory");
        free(s);
        return NULL;
    }
    pk_buf_init(&s->mem);
    struct stat st;
    bool dash = strcmp(path, "-") == 0;
    bool exists = !dash && stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        pk_error(log, "is a directory");
        staged_free(s);
        return NULL;
    }
    if (dash || (exists && !S_ISREG(st.st_mode))) {
        if (direct) {
            s->data = direct->data;
            s->len = direct->len;
        } else if (produce(ctx, mem_sink, &s->mem, log) != 0) {
            staged_free(s);
            return NULL;
        } else {
            s->data = s->mem.data;
            s->len = s->mem.len;
        }
        return s;
    }

    /* Temporary file beside the target: "DIR/.NAME.XXXXXX". */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t tlen = dirlen + 1 + strlen(base) + 8;
    if (!(s->tmp = malloc(tlen))) {
        pk_error(log, "out of memory");
        staged_free(s);
        return NULL;
    }
    snprintf(s->tmp, tlen, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
    int fd = mkstemp(s->tmp);
    if (fd < 0) {
        pk_error(log, "cannot create a file in the output folder: %s", strerror(errno));
        staged_free(s); /* no file to remove */
        return NULL;
    }
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    const char *what = NULL;
    int err = 0;
    bool produce_failed = false; /* produce said why */
    if (fchmod(fd, mode) != 0)
        what = "cannot set permissions", err = errno;
    else if (produce(ctx, fd_sink, &fd, log) != 0)
        produce_failed = true;
    else if (fsync(fd) != 0)
        what = "fsync failed", err = errno;
    if (close(fd) != 0 && !what && !produce_failed)
        what = "close failed", err = errno;
    if (what || produce_failed) {
        if (what)
            pk_error(log, "%s: %s", what, strerror(err));
        pk_file_discard(s);
        return NULL;
    }
    return s;
}

pk_staged *pk_file_stage(const char *path, const void *data, size_t len, pk_log *log)
{
    bytes b = {data, len};
    return stage(path, produce_bytes, &b, &b, log);
}

pk_staged *pk_file_stage_from(const char *path, pk_producer produce, void *ctx, pk_log *log)
{
    return stage(path, produce, ctx, NULL, log);
}

int pk_file_commit(pk_staged *s, pk_log *log)
{
    if (!s)
        return -1;
    pk_log_set_path(log, s->path);
    int rc = 0;
    if (!s->tmp && strcmp(s->path, "-") == 0) {
        if (write_all(STDOUT_FILENO, s->data, s->len) != 0) {
            pk_error(log, "write to standard output failed: %s", strerror(errno));
            rc = -1;
        }
    } else if (!s->tmp) {
        rc = write_in_place(s->path, s->data, s->len, log);
    } else if (rename(s->tmp, s->path) != 0) {
        pk_error(log, "cannot replace the file: %s", strerror(errno));
        pk_file_discard(s);
        return -1;
    } else {
        /* Make the rename itself durable. */
        const char *slash = strrchr(s->path, '/');
        char *dir = slash ? strndup(s->path, (size_t)(slash - s->path) + 1) : NULL;
        int dfd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    staged_free(s);
    return rc;
}

void pk_file_discard(pk_staged *s)
{
    if (s && s->tmp)
        unlink(s->tmp);
    staged_free(s);
}

int pk_file_write_atomic(const char *path, const void *data, size_t len, pk_log *log)
{
    pk_staged *s = pk_file_stage(path, data, len, log);
    return s ? pk_file_commit(s, log) : -1;
}

bool pk_file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
