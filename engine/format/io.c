/*
 * io.c — the file edge of the format layer: whole-file reads and atomic
 * writes, on top of the platform (engine/platform/platform.h does the
 * system calls; posix.c tells how).
 *
 * Atomic write: the bytes go to a temporary file beside the target, are
 * flushed to the disk, then the temporary file is renamed over the target.
 * On any failure the temporary file is removed and the target is
 * untouched, so a failed run never leaves a half-written file, even when
 * the output path names one of the inputs.  Targets that are not regular
 * files (a terminal, a pipe, /dev/full) cannot be replaced by rename: they
 * are written in place, still with every write checked.  A symbolic link
 * is written through (its file replaced, the link kept).
 *
 * pk_file_stage / pk_file_commit are the same write cut after the flush,
 * so that a caller with several outputs (a job) can write every temporary
 * file before renaming any of them.  pk_file_stage_from takes the bytes
 * from a producer (pk_vmd_write_sink) as they are made, so a large output
 * never needs a buffer of its size.
 */
#include "posekit_tool.h"
#include "format/io.h"
#include "platform/platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pk_file_read(const char *path, pk_bytes *out, pk_log *log)
{
    memset(out, 0, sizeof *out);
    size_t from = log ? log->count : 0;
    int rc = pki_os_read(path, &out->data, &out->len, &out->region_, log);
    pk_log_place(log, from, path);
    return rc;
}

void pki_bytes_drop_prefix(pk_bytes *b, size_t upto)
{
    if (b)
        pki_os_drop_consumed(b->region_, upto);
}

void pk_bytes_free(pk_bytes *b)
{
    if (!b)
        return;
    pki_os_release(b->region_);
    memset(b, 0, sizeof *b);
}

pk_path_kind pk_path_kind_of(const char *path)
{
    return pki_os_kind(path, NULL);
}

bool pk_path_names_folder(const char *path)
{
    size_t n = strlen(path);
    return (n > 0 && pki_os_is_separator(path[n - 1])) || pk_path_kind_of(path) == PK_PATH_FOLDER;
}

bool pk_path_same_file(const char *a, const char *b)
{
    return pki_os_same_file(a, b);
}

char *pk_path_target_key(const char *path)
{
    return pki_os_target_key(path);
}

/* Do two paths name one target: the same file, or (for targets that do
 * not exist yet) the same place once links and the existing folders are
 * resolved (a link to a folder, a dangling link to the other output)? */
bool pk_path_same_target(const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || pk_path_same_file(a, b))
        return true;
    char *x = pk_path_target_key(a), *y = pk_path_target_key(b);
    bool same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

bool pk_path_is_stdout(const char *path)
{
    return pki_os_is_stdout(path);
}

bool pk_stderr_is_terminal(void)
{
    return pki_os_stderr_is_terminal();
}

bool pk_stdout_is_terminal(void)
{
    return pki_os_stdout_is_terminal();
}

/* A write prepared by pk_file_stage(_from).  temp == NULL: a target that
 * cannot be renamed over (standard output, a terminal, a pipe, a device),
 * written at commit from data (the caller's bytes, or mem's). */
struct pk_staged {
    char *path;
    pki_os_temp *temp;
    const void *data;
    size_t len;
    pk_buf mem; /* pk_file_stage_from's bytes for such a target */
};

static void staged_free(pk_staged *s)
{
    if (!s)
        return;
    free(s->path);
    pk_buf_free(&s->mem);
    free(s);
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
        pk_error(log, PK_E_IO, "write failed: %s", pki_os_error_text(errno));
        return -1;
    }
    return 0;
}

/* Everything but how the bytes are made.  direct: the caller's bytes, kept
 * by pointer for a target written at commit. */
static pk_staged *stage_here(const char *path, pk_producer produce, void *ctx, const bytes *direct,
                             pk_log *log)
{
    pk_staged *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        free(s);
        return NULL;
    }
    pk_buf_init(&s->mem);
    bool in_place;
    s->temp = pki_os_temp_create(path, &in_place, log);
    if (!s->temp && !in_place) {
        staged_free(s);
        return NULL;
    }
    if (in_place) {
        if (direct) {
            s->data = direct->data;
            s->len = direct->len;
        } else if (produce(ctx, pk_buf_sink, &s->mem, log) != 0) {
            staged_free(s);
            return NULL;
        } else {
            s->data = s->mem.data;
            s->len = s->mem.len;
        }
        return s;
    }
    if (produce(ctx, pki_os_temp_write, s->temp, log) != 0 ||
        pki_os_temp_finish(s->temp, log) != 0) {
        pk_file_discard(s);
        return NULL;
    }
    return s;
}

/* stage_here, its diagnostics (the producer's too) placed at path. */
static pk_staged *stage(const char *path, pk_producer produce, void *ctx, const bytes *direct,
                        pk_log *log)
{
    size_t from = log ? log->count : 0;
    pk_staged *s = stage_here(path, produce, ctx, direct, log);
    pk_log_place(log, from, path);
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
    size_t from = log ? log->count : 0;
    int rc;
    if (s->temp) {
        rc = pki_os_temp_commit(s->temp, log);
        s->temp = NULL;
    } else {
        rc = pki_os_write_in_place(s->path, s->data, s->len, log);
    }
    pk_log_place(log, from, s->path);
    staged_free(s);
    return rc;
}

void pk_file_discard(pk_staged *s)
{
    if (s)
        pki_os_temp_discard(s->temp);
    staged_free(s);
}

int pk_file_commit_all(pk_staged **s, size_t n, pk_log *log)
{
    size_t m = n ? n : 1;
    char **target = calloc(m, sizeof *target), **kept = calloc(m, sizeof *kept);
    bool *renamed = calloc(m, sizeof *renamed), *unkept = calloc(m, sizeof *unkept);
    pki_os_undo **undo = calloc(m, sizeof *undo);
    int rc = 0;
    if (!target || !kept || !renamed || !unkept || !undo) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    /* 1. every target's present file kept under a second name; one that
     * cannot be kept (unreadable, no room) is replaced without a way back,
     * so after all the others (a target written in place has no temp) */
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!s[i]->temp)
            continue;
        if (!(target[i] = strdup(pki_os_temp_target(s[i]->temp)))) {
            pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, s[i]->path, -1, 0, 0, "out of memory");
            rc = -1;
        } else {
            unkept[i] = pki_os_keep_old(target[i], &kept[i], NULL) != 0;
            /* an interrupt from here on puts the old file back (removes a
             * new one) and drops the kept name: the group stays all or none */
            if (!unkept[i])
                undo[i] = pki_os_undo_add(target[i], kept[i]);
        }
    }
    /* 2. the renames, those with a way back first; 3. then what is written
     * in place (a device, "-"), which cannot be taken back, so it goes last */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n && rc == 0; i++)
            if (target[i] && unkept[i] == (pass == 1)) {
                size_t from = log ? log->count : 0;
                rc = pki_os_temp_commit(s[i]->temp, log);
                pk_log_place(log, from, s[i]->path);
                s[i]->temp = NULL; /* freed by the commit, done or not */
                renamed[i] = rc == 0;
            }
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!target[i]) {
            size_t from = log ? log->count : 0;
            rc = pki_os_write_in_place(s[i]->path, s[i]->data, s[i]->len, log);
            pk_log_place(log, from, s[i]->path);
        }
    /* the group is done (or failed, and undone below): an interrupt from
     * here on leaves it as it is */
    for (size_t i = 0; undo && i < n; i++)
        pki_os_undo_drop(undo[i]);
    free(undo);
    /* on failure, every replaced target gets its old file back (a new one
     * is removed); the second names go either way */
    for (size_t i = n; kept && renamed && unkept && i-- > 0;) {
        if (rc != 0 && renamed[i]) {
            if (unkept[i]) {
                pk_log_add_at(log, PK_ERROR, PK_E_IO, s[i]->path, -1, 0, 0,
                              "replaced already: its old file could not be kept to put back");
                continue;
            }
            size_t from = log ? log->count : 0;
            int back = pki_os_put_back(target[i], kept[i], log);
            pk_log_place(log, from, s[i]->path);
            if (back == 0 || kept[i])
                continue; /* the kept name is the target again, or stays and says where */
        }
        pki_os_drop_kept(kept[i]);
    }
    for (size_t i = 0; i < n; i++) {
        pk_file_discard(s[i]); /* a temporary file not renamed is removed */
        s[i] = NULL;
        if (target)
            free(target[i]);
        if (kept)
            free(kept[i]);
    }
    free(target);
    free(kept);
    free(renamed);
    free(unkept);
    return rc;
}

void pk_file_interrupted(void)
{
    pki_os_interrupted();
}

int pk_file_write_atomic(const char *path, const void *data, size_t len, pk_log *log)
{
    pk_staged *s = pk_file_stage(path, data, len, log);
    return s ? pk_file_commit(s, log) : -1;
}
