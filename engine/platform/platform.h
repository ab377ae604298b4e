/*
 * platform.h — the one door to the operating system (internal).
 *
 * Everything posekit asks of the system goes through these calls: reading
 * a file (mapped where possible, pages handed back behind a parse),
 * replacing a file atomically, making folders, what a path names, path
 * syntax, where the data (rule) files are, and the CP932 <-> UTF-8
 * character conversion.  One file implements them per platform:
 * posix.c (POSIX, glibc iconv) and win32.c (Windows); meson picks which one
 * is compiled, and no other file has an #ifdef for the system.  What is
 * the same on every system is written once, in common.c.
 *
 * Paths are NUL-terminated UTF-8 strings as the user gave them (POSIX:
 * bytes passed through; Windows: converted to wide characters behind this
 * interface, so "_wfopen", "MoveFileExW" and code page 932 stay in
 * win32.c).  "-" is standard input or output, always in binary mode.
 * Functions that log name the file they are about only when it is not
 * the one the caller works on (pk_log_add_at: a folder being made); the
 * caller places the rest at its file (pk_log_place).
 */
#ifndef PKI_PLATFORM_PLATFORM_H
#define PKI_PLATFORM_PLATFORM_H

#include "posekit_tool.h"

/* ---- reading ---- */

/* What holds a file's bytes for a reader: a mapping or a heap copy. */
typedef struct pk_region pk_region;

/* Reads the whole file at path ("-" = standard input).  On success *data
 * and *len are the bytes and *region what holds them (NULL for an empty
 * file: nothing to release); release with pki_os_release.  Errors: "cannot
 * open: ...", "is a directory, not a file", "cannot read: ...". */
int pki_os_read(const char *path, const uint8_t **data, size_t *len, pk_region **region,
                pk_log *log);
/* Hands the pages before `upto` back to the system (a reader is past
 * them); advice only, for a mapping; a no-op otherwise. */
void pki_os_drop_consumed(pk_region *r, size_t upto);
void pki_os_release(pk_region *r); /* NULL is fine */
/* Advice for a large heap block about to be filled front to back (a
 * section's key array): back it with transparent huge pages where the
 * system offers them on request (Linux THP "madvise" mode), so filling
 * 50 MB costs hundreds of page faults, not tens of thousands.  Blocks
 * under 2 MB are left alone; advice only, a no-op where unsupported. */
void pki_os_advise_huge(void *p, size_t n);

/* ---- writing ---- */

/* A temporary file beside the file it will replace. */
typedef struct pki_os_temp pki_os_temp;

/* Starts replacing `path`.  Symbolic links are followed: the file a link
 * names is replaced and the link kept.  Returns a temporary file in the
 * target's folder (same file system, so the final rename is atomic) with
 * the target's permissions (a new file: what the umask allows).  Returns
 * NULL with *in_place = true and nothing logged when the target cannot be
 * renamed over ("-", a terminal, a pipe, a device): write it with
 * pki_os_write_in_place.  Returns NULL with an error logged otherwise (a
 * folder, no permission). */
pki_os_temp *pki_os_temp_create(const char *path, bool *in_place, pk_log *log);
/* A pk_sink writing to the temporary file (ctx is the pki_os_temp *):
 * 0, or -1 with errno set. */
int pki_os_temp_write(void *temp, const void *data, size_t len);
/* Flushes the temporary file to the disk and closes it; -1 (logged) on
 * failure, and the temporary file is then still there to discard. */
int pki_os_temp_finish(pki_os_temp *t, pk_log *log);
/* Renames the finished temporary file over the target and makes the
 * rename durable; frees t.  On failure (logged) the temporary file is
 * removed and the target untouched. */
int pki_os_temp_commit(pki_os_temp *t, pk_log *log);
/* Removes the temporary file and frees t (NULL is fine). */
void pki_os_temp_discard(pki_os_temp *t);
/* The file t will replace: the target with its links followed. */
const char *pki_os_temp_target(const pki_os_temp *t);

/* Undoing a replacement, for outputs written as a group (a job: all or
 * none).  pki_os_keep_old keeps target's present file under a second name
 * beside it (a hard link; a copy where the file system has none); *kept
 * receives that name (malloc'd), or NULL when target is no regular file
 * (nothing to keep).  0, or -1 logged: then target must not be replaced.
 * pki_os_put_back undoes the replacement: kept back over target, or (kept
 * NULL) target removed; 0, or -1 logged.  pki_os_drop_kept removes the
 * second name once it is not needed (NULL is fine; errors ignored). */
int pki_os_keep_old(const char *target, char **kept, pk_log *log);
int pki_os_put_back(const char *target, const char *kept, pk_log *log);
void pki_os_drop_kept(const char *kept);
/* Writes data to a target that cannot be replaced ("-" = standard output)
 * without truncating it first on failure to open; every write checked. */
int pki_os_write_in_place(const char *path, const void *data, size_t len, pk_log *log);

/* ---- an interrupt ---- */

/* Every temporary file open now (from pki_os_temp_create to its commit
 * or discard) and every kept file of a group being committed is in a
 * registry the platform layer owns.  pki_os_interrupted, for a signal
 * handler the program installs (the library installs none), undoes them
 * with async-signal-safe calls only (POSIX: unlink, rename; Windows:
 * DeleteFileW, MoveFileExW): each temporary file removed, each target of
 * an unfinished group given its kept file back (a new one removed).
 * pki_os_undo_add registers a target of a group and its kept file (kept
 * NULL: the target is new, removed on an interrupt) before the target is
 * replaced; NULL when there is no room (no memory, no free slot: an
 * interrupt then leaves that target replaced).  pki_os_undo_drop
 * unregisters and frees it (NULL is fine) once the group is done or
 * undone. */
typedef struct pki_os_undo pki_os_undo;
pki_os_undo *pki_os_undo_add(const char *target, const char *kept);
void pki_os_undo_drop(pki_os_undo *u);
void pki_os_interrupted(void);

/* ---- folders and file facts ---- */

/* Creates the folder and every missing parent ("mkdir -p"); an existing
 * folder is fine.  Errors name the folder that could not be made.  *made
 * (made may be NULL) receives the highest folder it created (malloc'd),
 * or NULL when it created none. */
int pki_os_make_dirs(const char *dir, char **made, pk_log *log);
/* Removes dir and the folders above it up to and including made, each
 * only when empty: what pki_os_make_dirs(dir, &made) created (made NULL:
 * nothing; errors ignored). */
void pki_os_unmake_dirs(const char *dir, const char *made);
/* Could a file be created in the folder path would be written in (the
 * deepest one that exists, for folders still to be made)?  0, or the
 * reason (an errno value: EACCES, EROFS).  Windows: always 0 (known only
 * by trying). */
int pki_os_folder_writable(const char *path);
/* What path names, links followed (pk_path_kind, posekit.h); *size (may be
 * NULL) receives a regular file's size. */
pk_path_kind pki_os_kind(const char *path, uint64_t *size);
/* True when both paths name one existing file (links and other names for
 * the same file included). */
bool pki_os_same_file(const char *a, const char *b);
/* The absolute path with links and "." / ".." resolved, malloc'd (caller
 * frees); NULL when path does not exist (errno set) or on OOM. */
char *pki_os_canonical(const char *path);
/* Where a write to path lands, as a comparable key (malloc'd; NULL on
 * OOM): links at its end followed (a dangling link: where it points), the
 * deepest existing folder above that made canonical, the missing rest as
 * written, then "." and ".." taken out and the separators made one.  Two
 * outputs with equal keys name one file even when neither exists yet
 * (Windows: the full path, letters folded, as its file names ignore
 * case).  A key is for comparing, never for opening. */
char *pki_os_target_key(const char *path);
/* Would a write landing at key inner be inside outer's, as if outer were
 * a folder?  (two keys of pki_os_target_key) */
bool pki_os_key_inside(const char *outer, const char *inner);
/* The nearest existing path above path when it is a file: the file that
 * stands where a folder of path would have to be made (malloc'd), or NULL
 * when path's folders exist or can be made (or on OOM). */
char *pki_os_file_above(const char *path);
/* The system's text for an errno value (strerror, or its Windows kin). */
const char *pki_os_error_text(int err);

/* True when path names the standard output: "-", and the names POSIX
 * systems give it (/dev/stdout, /dev/fd/1, /proc/self/fd/1), taken on
 * every system. */
bool pki_os_is_stdout(const char *path);
/* True when the standard error is a terminal (a console on Windows). */
bool pki_os_stderr_is_terminal(void);
/* True when the standard output is a terminal (a console on Windows). */
bool pki_os_stdout_is_terminal(void);

/* ---- path syntax ---- */

/* True for a character that separates folders ('/'; Windows: '/' and '\\'). */
bool pki_os_is_separator(char c);
/* True for a path that does not depend on the current folder. */
bool pki_os_is_absolute(const char *path);
/* The last component: what follows the last separator (path itself when
 * it has none). */
const char *pki_os_base_name(const char *path);
/* Length of the folder part: 0 when path has no separator, the root's
 * length for a file in the root ("/x" -> 1), else up to, not including,
 * the last separator ("a/b/c" -> 3). */
size_t pki_os_dir_len(const char *path);
/* The folder part of path (its first pki_os_dir_len bytes) as a malloc'd
 * string (caller frees); "" when path has none; NULL on OOM. */
char *pki_os_dir_of(const char *path);
/* dir joined with name by the system's separator ('/'; Windows: '\\', and
 * every '/' of the result turned into '\\'), malloc'd (caller frees; NULL on
 * OOM).  name absolute, or dir NULL or empty: a copy of name. */
char *pki_os_join(const char *dir, const char *name);

/* ---- the data folder ---- */

/* The environment variables naming a folder of rule files, and one of
 * built-in bodies, searched before the installed one (the tests point
 * them at the source tree's rules/ and rules/bodies/, so an uninstalled build
 * finds the shipped files). */
#define PKI_RULES_DIR_ENV "POSEKIT_RULES_DIR"
#define PKI_BODIES_DIR_ENV "POSEKIT_BODIES_DIR"
/* The folders posekit's shipped data of one kind may be in, sub being the
 * kind's folder ("rules": the rule files; "bodies": the built-in bodies),
 * in the order to search: the folder $POSEKIT_RULES_DIR (rules) or
 * $POSEKIT_BODIES_DIR (bodies) names, when set and not empty; then an
 * uninstalled build's copy (pki_os_uninstalled_data); then the
 * installed folder (PREFIX/share/posekit/SUB; Windows: SUB\ beside the
 * executable).  Returns a malloc'd array of *n malloc'd paths (caller
 * frees with pki_os_free_list); NULL with *n = 0 on OOM. */
char **pki_os_data_dirs(const char *sub, size_t *n);
/* An uninstalled build's copy of the shipped data of kind sub: the build
 * tree's rules/ (rules) or rules/bodies/ (bodies), one folder above the
 * running executable's folder, when that folder exists; else NULL.  No
 * path is compiled in: it is found from the executable (Linux:
 * /proc/self/exe; Windows: NULL, the zip keeps SUB\ beside the .exe). */
char *pki_os_uninstalled_data(const char *sub);
void pki_os_free_list(char **list, size_t n);

/* ---- many files: a folder's names, a pattern, work in parallel ---- */

/* The names in folder dir ("" is the current folder), "." and ".." left
 * out, as UTF-8, in no particular order: a malloc'd array of *n malloc'd
 * names (free with pki_os_free_list).  0, or -1 logged ("cannot read the
 * folder: ..."). */
int pki_os_list_dir(const char *dir, char ***names, size_t *n, pk_log *log);
/* True where the system's file names ignore letter case (Windows). */
bool pki_os_names_fold_case(void);
/* Does name match pattern?  '*' is any run of characters, '?' one
 * character (UTF-8), every other character itself (letter case folded,
 * ASCII, when fold); a leading '.' of name is matched only by a '.' in
 * the pattern (hidden files, as a shell). */
bool pki_os_name_match(const char *pattern, const char *name, bool fold);
/* The regular files pattern names: wildcards ('*', '?') in its last
 * component only, the folder part taken as written (relative to the
 * current folder).  *paths receives the matches (the folder part as
 * written, then the name) sorted by byte order, *n how many (0 when none
 * match: the caller says so); free with pki_os_free_list.  0, or -1
 * logged (a wildcard in a folder name, a folder that cannot be read). */
int pki_os_glob(const char *pattern, char ***paths, size_t *n, pk_log *log);
/* How many processors this process may run on (1 at least). */
unsigned pki_os_cpu_count(void);
/* Runs work(ctx, i) for every i in [0, n) on up to `workers` threads (the
 * caller's among them), each taking the next i not yet taken; after each
 * work(ctx, i), done(ctx, i) runs (done may be NULL) with no other done
 * running at the same time, so it may print.  workers <= 1, or threads
 * that cannot be started, run the rest on the caller's thread.  Returns
 * when every i is done. */
typedef void (*pki_os_task)(void *ctx, size_t i);
void pki_os_parallel(size_t n, unsigned workers, pki_os_task work, pki_os_task done, void *ctx);

/* ---- CP932 <-> UTF-8, one character at a time ---- */

/* A converter (glibc iconv "CP932", Windows code page 932).  NULL when the
 * system has none; the calls below then fail on every non-ASCII
 * character.  Close with pki_os_cp932_close (NULL is fine). */
typedef struct pki_os_cp932 pki_os_cp932;
pki_os_cp932 *pki_os_cp932_open(void);
void pki_os_cp932_close(pki_os_cp932 *c);
/* One CP932 character in[0..n) (n = 1 or 2) to UTF-8 in out (up to 4
 * bytes); returns the UTF-8 length, or -1 when it does not decode. */
int pki_os_cp932_decode(pki_os_cp932 *c, const uint8_t *in, size_t n, char out[8]);
/* One UTF-8 character in[0..n) to CP932 in out; returns the CP932 length
 * (1 or 2), or -1 when it has no CP932 form. */
int pki_os_cp932_encode(pki_os_cp932 *c, const char *in, size_t n, uint8_t out[4]);

#endif
