/*
 * win32.c — platform.h on Windows (built with mingw-w64).
 *
 * Paths arrive as UTF-8 and are turned into UTF-16 here, for the wide file
 * API (CreateFileW, MoveFileExW ...), so names such as ダンス.vmd and
 * folders with Japanese names work whatever the system's ANSI code page.
 * Reads map the file (CreateFileMappingW/MapViewOfFile); standard input
 * and output are used in binary mode (the entry point sets it).
 *
 * Atomic write: the bytes go to ".NAME.XXXXXXXX.tmp" in the target's
 * folder (same volume), every write is checked, FlushFileBuffers makes
 * them durable, and MoveFileExW(MOVEFILE_REPLACE_EXISTING |
 * MOVEFILE_WRITE_THROUGH) puts the file in place.  On any failure the
 * temporary file is deleted and the target is untouched.  A read-only
 * target (FILE_ATTRIBUTE_READONLY) is refused before anything is written,
 * as Windows programs do; the move would refuse it as well.
 *
 * CP932 is Windows code page 932 (MultiByteToWideChar /
 * WideCharToMultiByte), the table MMD itself uses; undecodable bytes and
 * characters with no CP932 form fail exactly as with iconv (no best-fit
 * substitutes), and the 14 places where the two tables differ follow
 * glibc (cp932_one_way below), so both builds convert names alike.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "platform/system.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

/* ---- UTF-8 <-> UTF-16 ---- */

/* malloc'd UTF-16 form of a UTF-8 string; NULL (errno EILSEQ or ENOMEM)
 * when it is not valid UTF-8 or on OOM. */
static wchar_t *widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EILSEQ;
        return NULL;
    }
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

/* malloc'd UTF-8 form of a UTF-16 string; NULL on failure. */
static char *narrow(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0)
        return NULL;
    char *s = malloc((size_t)n);
    if (s)
        WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

/* The system's words for a Win32 error code, as UTF-8 in buf. */
static const char *win_text(DWORD code, char *buf, size_t cap)
{
    wchar_t w[256];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             code, 0, w, 256, NULL);
    while (n > 0 && (w[n - 1] == L'\r' || w[n - 1] == L'\n' || w[n - 1] == L'.' ||
                     w[n - 1] == L' '))
        w[--n] = 0;
    if (n == 0 || WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)cap, NULL, NULL) <= 0)
        snprintf(buf, cap, "error %lu", (unsigned long)code);
    return buf;
}

/* Logs "WHAT: reason" for GetLastError(). */
static void log_last(pk_log *log, const char *what)
{
    char buf[512];
    DWORD code = GetLastError();
    pk_error(log,
             code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND ? PK_E_NOT_FOUND
                                                                          : PK_E_IO,
             "%s: %s", what, win_text(code, buf, sizeof buf));
}

/* ---- reading ---- */

/* Reads a handle to its end into a heap copy (pipes, consoles, devices;
 * stream false: a file that could not be mapped); a stream stops past
 * pki_os_stream_limit bytes. */
static int read_all(HANDLE h, bool stream, const uint8_t **data, size_t *len_out,
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
        DWORD want = cap - len > (1u << 30) ? (1u << 30) : (DWORD)(cap - len), got = 0;
        if (!ReadFile(h, buf + len, want, &got, NULL)) {
            DWORD e = GetLastError();
            if (e == ERROR_BROKEN_PIPE || e == ERROR_HANDLE_EOF)
                break; /* the writer closed its end: that is the end */
            SetLastError(e);
            log_last(log, "cannot read");
            free(buf);
            return -1;
        }
        if (got == 0)
            break;
        len += got;
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
        return read_all(GetStdHandle(STD_INPUT_HANDLE), true, data, len, region, log);
    wchar_t *w = widen(path);
    if (!w) {
        pk_error(log, errno == EILSEQ ? PK_E_UNSUPPORTED : PK_E_NO_MEMORY, "cannot open: %s",
                 errno == EILSEQ ? "the name is not valid UTF-8" : "out of memory");
        return -1;
    }
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        free(w);
        pk_error(log, PK_E_IO, "is a directory, not a file");
        return -1;
    }
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        log_last(log, "cannot open");
        return -1;
    }
    int rc = 0;
    LARGE_INTEGER size;
    if (GetFileType(h) != FILE_TYPE_DISK || !GetFileSizeEx(h, &size)) {
        rc = read_all(h, true, data, len, region, log);
    } else if (size.QuadPart > 0) {
        if ((unsigned long long)size.QuadPart > SIZE_MAX) {
            pk_error(log, PK_E_UNSUPPORTED, "input too large");
            CloseHandle(h);
            return -1;
        }
        size_t n = (size_t)size.QuadPart;
        HANDLE map = CreateFileMappingW(h, NULL, PAGE_READONLY, 0, 0, NULL);
        void *p = map ? MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0) : NULL;
        if (map)
            CloseHandle(map); /* the view keeps the mapping alive */
        if (!p) {
            rc = read_all(h, false, data, len, region, log);
        } else if (!(*region = pki_os_region_new(p, n, PKI_OWN_MAP))) {
            UnmapViewOfFile(p);
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
        } else {
            *data = p;
            *len = n;
        }
    }
    CloseHandle(h);
    return rc;
}

void pki_os_advise_huge(void *p, size_t n)
{
    (void)p; /* large pages on Windows need a privilege users do not have */
    (void)n;
}

void pki_os_drop_consumed(pk_region *r, size_t upto)
{
    /* Advice only: Windows has no per-range "drop these pages" for a file
     * view that is as cheap as madvise; the working set trims itself. */
    (void)r;
    (void)upto;
}

void pki_os_release(pk_region *r)
{
    if (!r)
        return;
    if (r->own == PKI_OWN_MAP)
        UnmapViewOfFile(r->base);
    else
        free(r->base);
    free(r);
}

/* ---- writing ---- */

struct pki_os_temp {
    wchar_t *target;
    char *target_u8; /* the same, UTF-8, for pki_os_temp_target */
    wchar_t *tmp;
    HANDLE h;    /* INVALID_HANDLE_VALUE once closed */
    int pending; /* its slot in the interrupt's registry (-1: none) */
};

static int write_handle(HANDLE h, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len) {
        DWORD chunk = len > (1u << 30) ? (1u << 30) : (DWORD)len, put = 0;
        if (!WriteFile(h, p, chunk, &put, NULL) || put == 0) {
            errno = EIO;
            return -1;
        }
        p += put;
        len -= put;
    }
    return 0;
}

/* Length of the folder part of a wide path (as pki_os_dir_len). */
static size_t wdir_len(const wchar_t *p)
{
    size_t last = (size_t)-1, root = 0;
    if (p[0] && p[1] == L':')
        root = 2;
    for (size_t i = 0; p[i]; i++)
        if (p[i] == L'\\' || p[i] == L'/')
            last = i;
    if (last == (size_t)-1)
        return root;
    if (last == root || (root == 0 && last == 0))
        return last + 1; /* "C:\x" -> "C:\", "\x" -> "\" */
    return last;
}

pki_os_temp *pki_os_temp_create(const char *path, bool *in_place, pk_log *log)
{
    *in_place = false;
    if (strcmp(path, "-") == 0) {
        *in_place = true;
        return NULL;
    }
    wchar_t *w = widen(path);
    if (!w) {
        pk_error(log, errno == EILSEQ ? PK_E_UNSUPPORTED : PK_E_NO_MEMORY, "%s",
                 errno == EILSEQ ? "the name is not valid UTF-8" : "out of memory");
        return NULL;
    }
    DWORD attr = GetFileAttributesW(w);
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        free(w);
        pk_error(log, PK_E_IO, "is a directory");
        return NULL;
    }
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_READONLY)) {
        /* Windows' own rule: a read-only file is not replaced (MoveFileExW
         * would refuse it too, but only after the whole output was written). */
        free(w);
        pk_error(log, PK_E_IO, "cannot replace the file: it is read-only");
        return NULL;
    }
    if (attr == INVALID_FILE_ATTRIBUTES && (wcsncmp(w, L"\\\\.\\", 4) == 0 ||
                                            _wcsicmp(w, L"NUL") == 0 || _wcsicmp(w, L"CON") == 0)) {
        free(w);
        *in_place = true; /* a device: write it as it is */
        return NULL;
    }
    pki_os_temp *t = calloc(1, sizeof *t);
    if (!t) {
        free(w);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    t->target = w;
    t->h = INVALID_HANDLE_VALUE;
    t->pending = -1;
    if (!(t->target_u8 = narrow(w))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pki_os_temp_discard(t);
        return NULL;
    }
    size_t dl = wdir_len(w);
    const wchar_t *base = w + dl;
    while (*base == L'\\' || *base == L'/')
        base++;
    size_t cap = dl + 1 + wcslen(base) + 32;
    if (!(t->tmp = malloc(cap * sizeof *t->tmp))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pki_os_temp_discard(t);
        return NULL;
    }
    unsigned seed = (unsigned)GetTickCount() ^ (unsigned)GetCurrentProcessId() << 16;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned r = seed + (unsigned)attempt * 2654435761u;
        if (dl == 0)
            swprintf(t->tmp, cap, L".%ls.%08x.tmp", base, r);
        else
            swprintf(t->tmp, cap, L"%.*ls%ls.%ls.%08x.tmp", (int)dl, w,
                     (w[dl - 1] == L'\\' || w[dl - 1] == L'/') ? L"" : L"\\", base, r);
        /* FILE_SHARE_DELETE: an interrupt's handler (another thread) can
         * delete it while it is open; it goes when the process ends */
        t->h = CreateFileW(t->tmp, GENERIC_WRITE, FILE_SHARE_DELETE, NULL, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL, NULL);
        if (t->h != INVALID_HANDLE_VALUE || GetLastError() != ERROR_FILE_EXISTS)
            break;
    }
    if (t->h == INVALID_HANDLE_VALUE) {
        if (GetLastError() == ERROR_PATH_NOT_FOUND) /* the commands make no folders */
            pk_error(log, PK_E_NOT_FOUND, "the output folder does not exist");
        else
            log_last(log, "cannot create a file in the output folder");
        free(t->tmp);
        t->tmp = NULL; /* no file to remove */
        pki_os_temp_discard(t);
        return NULL;
    }
    t->pending = pki_os_pending_add(t->tmp, NULL);
    return t;
}

int pki_os_temp_write(void *temp, const void *data, size_t len)
{
    return write_handle(((pki_os_temp *)temp)->h, data, len);
}

int pki_os_temp_finish(pki_os_temp *t, pk_log *log)
{
    bool ok = FlushFileBuffers(t->h);
    DWORD e = ok ? 0 : GetLastError();
    bool closed = CloseHandle(t->h);
    t->h = INVALID_HANDLE_VALUE;
    if (!ok) {
        SetLastError(e);
        log_last(log, "flush failed");
        return -1;
    }
    if (!closed) {
        log_last(log, "close failed");
        return -1;
    }
    return 0;
}

const char *pki_os_temp_target(const pki_os_temp *t)
{
    return t->target_u8;
}

int pki_os_temp_commit(pki_os_temp *t, pk_log *log)
{
    if (!MoveFileExW(t->tmp, t->target, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        log_last(log, "cannot replace the file");
        pki_os_temp_discard(t);
        return -1;
    }
    pki_os_pending_drop(t->pending); /* nothing left to remove */
    t->pending = -1;
    free(t->tmp);
    t->tmp = NULL;
    pki_os_temp_discard(t);
    return 0;
}

void pki_os_temp_discard(pki_os_temp *t)
{
    if (!t)
        return;
    if (t->h != INVALID_HANDLE_VALUE)
        CloseHandle(t->h);
    if (t->tmp)
        DeleteFileW(t->tmp);
    pki_os_pending_drop(t->pending);
    free(t->tmp);
    free(t->target);
    free(t->target_u8);
    free(t);
}

int pki_os_write_in_place(const char *path, const void *data, size_t len, pk_log *log)
{
    if (strcmp(path, "-") == 0) {
        fflush(stdout); /* whatever the CLI printed first stays first */
        if (write_handle(GetStdHandle(STD_OUTPUT_HANDLE), data, len) != 0) {
            log_last(log, "cannot write standard output");
            return -1;
        }
        return 0;
    }
    wchar_t *w = widen(path);
    HANDLE h = w ? CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                               OPEN_EXISTING, 0, NULL)
                 : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        log_last(log, "cannot open for writing");
        return -1;
    }
    int rc = 0;
    if (write_handle(h, data, len) != 0) {
        log_last(log, "write failed");
        rc = -1;
    }
    if (!CloseHandle(h) && rc == 0) {
        log_last(log, "close failed");
        rc = -1;
    }
    return rc;
}

/* ---- folders and file facts ---- */

int pki_os_make_dirs(const char *dir, char **made, pk_log *log)
{
    if (made)
        *made = NULL;
    wchar_t *p = widen(dir);
    if (!p) {
        pk_log_add_at(log, PK_ERROR, errno == EILSEQ ? PK_E_UNSUPPORTED : PK_E_NO_MEMORY, dir, -1,
                      0, 0, "cannot create the folder: %s",
                      errno == EILSEQ ? "the name is not valid UTF-8" : "out of memory");
        return -1;
    }
    size_t n = wcslen(p);
    while (n > 1 && (p[n - 1] == L'\\' || p[n - 1] == L'/') && p[n - 2] != L':')
        p[--n] = 0;
    /* Skip the root ("C:\", "\\server\share\", "\"): it exists or cannot be made. */
    size_t start = 0;
    if (p[0] && p[1] == L':')
        start = 2;
    if ((p[0] == L'\\' || p[0] == L'/') && (p[1] == L'\\' || p[1] == L'/')) {
        int seps = 0;
        for (start = 2; p[start] && seps < 2; start++)
            if (p[start] == L'\\' || p[start] == L'/')
                seps++;
    }
    for (size_t i = start + 1; i <= n; i++) {
        if (i < n && p[i] != L'\\' && p[i] != L'/')
            continue;
        wchar_t keep = p[i];
        p[i] = 0;
        if (CreateDirectoryW(p, NULL)) {
            if (made && !*made)
                *made = narrow(p);
        } else if (GetLastError() != ERROR_ALREADY_EXISTS) {
            char *u = narrow(p);
            char buf[512];
            pk_log_add_at(log, PK_ERROR, PK_E_IO, u ? u : dir, -1, 0, 0,
                          "cannot create the folder: %s",
                          win_text(GetLastError(), buf, sizeof buf));
            free(u);
            free(p);
            return -1;
        }
        p[i] = keep;
    }
    free(p);
    return 0;
}

void pki_os_unmake_dirs(const char *dir, const char *made)
{
    if (!made)
        return;
    wchar_t *p = widen(dir), *m = widen(made);
    size_t n = p ? wcslen(p) : 0;
    while (n > 1 && (p[n - 1] == L'\\' || p[n - 1] == L'/'))
        p[--n] = 0;
    while (p && m && *p) {
        RemoveDirectoryW(p); /* only an empty folder goes */
        if (_wcsicmp(p, m) == 0)
            break;
        wchar_t *a = wcsrchr(p, L'\\'), *b = wcsrchr(p, L'/');
        wchar_t *sep = a > b ? a : b;
        if (!sep || sep == p || sep[-1] == L':')
            break;
        *sep = 0;
    }
    free(p);
    free(m);
}

int pki_os_keep_old(const char *target, char **kept, pk_log *log)
{
    *kept = NULL;
    wchar_t *w = widen(target);
    if (!w) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    DWORD attr = GetFileAttributesW(w);
    if (attr == INVALID_FILE_ATTRIBUTES || (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        free(w);
        return 0; /* nothing there to keep */
    }
    size_t n = wcslen(w) + 24;
    wchar_t *name = malloc(n * sizeof *name);
    bool ok = false;
    unsigned seed = (unsigned)GetTickCount() ^ (unsigned)GetCurrentProcessId() << 16;
    for (int attempt = 0; name && attempt < 100 && !ok; attempt++) {
        swprintf(name, n, L"%ls.%08x.old", w, seed + (unsigned)attempt * 2654435761u);
        if (GetFileAttributesW(name) != INVALID_FILE_ATTRIBUTES)
            continue;
        /* a second link to the file; where links cannot be made, a copy */
        ok = CreateHardLinkW(name, w, NULL) || CopyFileW(w, name, TRUE);
        if (!ok && GetLastError() != ERROR_FILE_EXISTS && GetLastError() != ERROR_ALREADY_EXISTS)
            break;
    }
    if (!ok) {
        log_last(log, "cannot keep the present file aside");
        free(name);
        free(w);
        return -1;
    }
    *kept = narrow(name);
    free(name);
    free(w);
    if (!*kept) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

int pki_os_put_back(const char *target, const char *kept, pk_log *log)
{
    wchar_t *t = widen(target), *k = kept ? widen(kept) : NULL;
    bool ok =
        t && (kept ? k && MoveFileExW(k, t, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)
                   : DeleteFileW(t));
    if (!ok) {
        char msg[600];
        if (kept)
            snprintf(msg, sizeof msg, "cannot put the old file back (it is kept as %s)", kept);
        else
            snprintf(msg, sizeof msg, "cannot remove the new file");
        log_last(log, msg);
    }
    free(t);
    free(k);
    return ok ? 0 : -1;
}

void pki_os_drop_kept(const char *kept)
{
    wchar_t *k = kept ? widen(kept) : NULL;
    if (k)
        DeleteFileW(k);
    free(k);
}

pki_os_undo *pki_os_undo_add(const char *target, const char *kept)
{
    return pki_os_undo_of(widen(target), kept ? widen(kept) : NULL, kept != NULL);
}

static void pending_act(const void *path, const void *to)
{
    if (!to || MoveFileExW(path, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        DeleteFileW(path); /* a failed put-back keeps its copy */
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
    (void)path; /* Windows tells only by trying: the write will */
    return 0;
}

bool pki_os_stderr_is_terminal(void)
{
    return _isatty(_fileno(stderr)) != 0;
}

bool pki_os_stdout_is_terminal(void)
{
    return _isatty(_fileno(stdout)) != 0;
}

pk_path_kind pki_os_kind(const char *path, uint64_t *size)
{
    if (size)
        *size = 0;
    if (strcmp(path, "-") == 0)
        return PK_PATH_OTHER;
    wchar_t *w = widen(path);
    if (!w)
        return PK_PATH_MISSING;
    WIN32_FILE_ATTRIBUTE_DATA a;
    bool got = GetFileAttributesExW(w, GetFileExInfoStandard, &a);
    bool device = !got && (_wcsicmp(w, L"NUL") == 0 || _wcsicmp(w, L"CON") == 0 ||
                           wcsncmp(w, L"\\\\.\\", 4) == 0);
    free(w);
    if (device)
        return PK_PATH_OTHER;
    if (!got)
        return PK_PATH_MISSING;
    if (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
        return PK_PATH_FOLDER;
    if (size)
        *size = (uint64_t)a.nFileSizeHigh << 32 | a.nFileSizeLow;
    return PK_PATH_FILE;
}

static bool file_id(const char *path, BY_HANDLE_FILE_INFORMATION *info)
{
    wchar_t *w = widen(path);
    if (!w)
        return false;
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    bool ok = GetFileInformationByHandle(h, info);
    CloseHandle(h);
    return ok;
}

bool pki_os_same_file(const char *a, const char *b)
{
    BY_HANDLE_FILE_INFORMATION ia, ib;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    return file_id(a, &ia) && file_id(b, &ib) &&
           ia.dwVolumeSerialNumber == ib.dwVolumeSerialNumber &&
           ia.nFileIndexHigh == ib.nFileIndexHigh && ia.nFileIndexLow == ib.nFileIndexLow;
}

/* w as a full path (GetFullPathNameW), UTF-8, letters folded to lower
 * case when fold; malloc'd, NULL on failure.  The folding is what user32's
 * CharLowerBuffW does (LCMapStringW, the user's locale, in place), from
 * kernel32: importing user32 for it made every start of posekit.exe load
 * user32 and gdi32, which reads the fonts (under Wine a quarter of the
 * CPU of a start). */
static char *full_path(const wchar_t *w, bool fold)
{
    DWORD n = GetFullPathNameW(w, 0, NULL, NULL);
    wchar_t *full = n ? malloc((size_t)n * sizeof *full) : NULL;
    char *out = NULL;
    if (full && GetFullPathNameW(w, n, full, NULL) > 0) {
        if (fold) {
            int len = (int)wcslen(full);
            LCMapStringW(LOCALE_USER_DEFAULT, LCMAP_LOWERCASE, full, len, full, len);
        }
        out = narrow(full);
    }
    free(full);
    return out;
}

char *pki_os_canonical(const char *path)
{
    wchar_t *w = widen(path);
    if (!w)
        return NULL;
    if (GetFileAttributesW(w) == INVALID_FILE_ATTRIBUTES) {
        free(w);
        errno = ENOENT;
        return NULL;
    }
    char *out = full_path(w, false);
    free(w);
    return out;
}

char *pki_os_target_resolved(const char *path)
{
    wchar_t *w = widen(path);
    if (!w)
        return NULL;
    char *out = full_path(w, true); /* NTFS names ignore case */
    free(w);
    return out ? out : strdup(path);
}

/* ---- path syntax ---- */

bool pki_os_is_separator(char c)
{
    return c == '/' || c == '\\';
}

bool pki_os_is_absolute(const char *path)
{
    if (pki_os_is_separator(path[0]))
        return true; /* "\x" (the current drive's root) and "\\server\share" */
    return ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) &&
           path[1] == ':' && pki_os_is_separator(path[2]);
}

const char *pki_os_base_name(const char *path)
{
    const char *base = path;
    if (path[0] && path[1] == ':')
        base = path + 2;
    for (const char *p = base; *p; p++)
        if (pki_os_is_separator(*p))
            base = p + 1;
    return base;
}

size_t pki_os_dir_len(const char *path)
{
    size_t root = path[0] && path[1] == ':' ? 2 : 0;
    size_t last = (size_t)-1;
    for (size_t i = 0; path[i]; i++)
        if (pki_os_is_separator(path[i]))
            last = i;
    if (last == (size_t)-1)
        return root;
    if (last == root)
        return last + 1; /* "C:\x" -> 3, "\x" -> 1 */
    return last;
}

char *pki_os_join(const char *dir, const char *name)
{
    if (!dir || !*dir || pki_os_is_absolute(name))
        return strdup(name);
    size_t dl = strlen(dir);
    bool sep = pki_os_is_separator(dir[dl - 1]) || (dl == 2 && dir[1] == ':');
    size_t n = dl + !sep + strlen(name) + 1;
    char *p = malloc(n);
    if (p) {
        snprintf(p, n, "%s%s%s", dir, sep ? "" : "\\", name);
        /* One kind of separator in what is printed: a job's "out/x.vmd"
         * beside "samples" is "samples\out\x.vmd", not "samples\out/x.vmd". */
        for (char *c = p; *c; c++)
            if (*c == '/')
                *c = '\\';
    }
    return p;
}

/* ---- the data folder ---- */

/* The folder that holds posekit.exe (or the program using the library),
 * UTF-8, malloc'd; NULL on failure. */
static char *exe_dir(void)
{
    DWORD cap = MAX_PATH;
    for (int i = 0; i < 6; i++, cap *= 4) {
        wchar_t *w = malloc(cap * sizeof *w);
        if (!w)
            return NULL;
        DWORD n = GetModuleFileNameW(NULL, w, cap);
        if (n > 0 && n < cap) {
            w[wdir_len(w)] = 0;
            char *s = narrow(w);
            free(w);
            return s;
        }
        free(w);
        if (n == 0)
            return NULL;
    }
    return NULL;
}

char *pki_os_uninstalled_data(const char *sub)
{
    (void)sub; /* the zip and the build keep SUB\ beside the .exe */
    return NULL;
}

char *pki_os_installed_data(const char *sub)
{
    /* The zip puts rules\ and bodies\ beside posekit.exe. */
    char *dir = exe_dir();
    char *r = dir ? pki_os_join(dir, sub) : NULL;
    free(dir);
    return r;
}

char *pki_os_env(const char *name)
{
    /* the wide environment: the value as typed, whatever the ANSI code page */
    wchar_t *w = widen(name);
    const wchar_t *v = w ? _wgetenv(w) : NULL;
    free(w);
    return v && *v ? narrow(v) : NULL;
}

/* ---- CP932: code page 932 ---- */

struct pki_os_cp932 {
    int unused; /* the code page needs no state */
};

pki_os_cp932 *pki_os_cp932_open(void)
{
    return calloc(1, sizeof(pki_os_cp932));
}

void pki_os_cp932_close(pki_os_cp932 *c)
{
    free(c);
}

/* Code page 932 and glibc's CP932 differ in 14 places (found by
 * tests/windows/cp932_table.c, every byte sequence and code point both
 * ways); these make posekit's table on Windows glibc's, so a name converts
 * the same on both systems:
 *  - Windows decodes the single bytes 0x80 to U+0080 (and, on Windows
 *    itself though not under Wine, 0xA0 and 0xFD-0xFF to U+F8F0-U+F8F3)
 *    and encodes those code points back; glibc has no such characters.
 *  - glibc encodes nine JIS-style code points one way to their Microsoft
 *    counterparts' bytes (U+301C WAVE DASH to 0x8160, the bytes of
 *    U+FF5E ...); Windows calls these best-fit and, asked for no best fit,
 *    refuses them.  The table below gives glibc's bytes. */
static bool cp932_extra(wchar_t w)
{
    return w == 0x80 || (w >= 0xF8F0 && w <= 0xF8F3);
}

static const struct {
    wchar_t w;
    uint8_t b[2];
} cp932_one_way[] = {
    {0x00A2, {0x81, 0x91}}, {0x00A3, {0x81, 0x92}}, {0x00A5, {0x5C, 0}},
    {0x00AC, {0x81, 0xCA}}, {0x2014, {0x81, 0x5C}}, {0x2016, {0x81, 0x61}},
    {0x203E, {0x7E, 0}},    {0x2212, {0x81, 0x7C}}, {0x301C, {0x81, 0x60}},
};

int pki_os_cp932_decode(pki_os_cp932 *c, const uint8_t *in, size_t n, char out[8])
{
    if (!c || n == 0 || n > 2)
        return -1;
    wchar_t w[4];
    int nw = MultiByteToWideChar(932, MB_ERR_INVALID_CHARS, (const char *)in, (int)n, w, 4);
    if (nw <= 0)
        return -1;
    for (int i = 0; i < nw; i++)
        if (cp932_extra(w[i]))
            return -1;
    int nu = WideCharToMultiByte(CP_UTF8, 0, w, nw, out, 8, NULL, NULL);
    return nu > 0 ? nu : -1;
}

int pki_os_cp932_encode(pki_os_cp932 *c, const char *in, size_t n, uint8_t out[4])
{
    if (!c || n == 0 || n > 4)
        return -1;
    wchar_t w[4];
    int nw = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, in, (int)n, w, 4);
    if (nw <= 0)
        return -1;
    if (nw == 1 && cp932_extra(w[0]))
        return -1;
    for (size_t i = 0; nw == 1 && i < sizeof cp932_one_way / sizeof cp932_one_way[0]; i++)
        if (cp932_one_way[i].w == w[0]) {
            out[0] = cp932_one_way[i].b[0];
            out[1] = cp932_one_way[i].b[1];
            return out[1] ? 2 : 1;
        }
    BOOL defaulted = FALSE;
    int nb = WideCharToMultiByte(932, WC_NO_BEST_FIT_CHARS, w, nw, (char *)out, 4, NULL,
                                 &defaulted);
    if (nb <= 0 || defaulted)
        return -1;
    return nb;
}

/* ---- many files ---- */

int pki_os_list_dir(const char *dir, char ***names, size_t *n, pk_log *log)
{
    *names = NULL;
    *n = 0;
    const char *d = *dir ? dir : ".";
    char *spec = pki_os_join(d, "*");
    wchar_t *w = spec ? widen(spec) : NULL;
    free(spec);
    if (!w) {
        pk_log_add_at(log, PK_ERROR, PK_E_IO, d, -1, 0, 0, "cannot read the folder: %s",
                      errno == EILSEQ ? "not valid UTF-8" : "out of memory");
        return -1;
    }
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(w, &fd);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        char buf[512];
        DWORD code = GetLastError();
        if (code == ERROR_FILE_NOT_FOUND) /* an empty folder (no "." in a drive's root) */
            return 0;
        pk_log_add_at(log, PK_ERROR, code == ERROR_PATH_NOT_FOUND ? PK_E_NOT_FOUND : PK_E_IO, d, -1,
                      0, 0, "cannot read the folder: %s", win_text(code, buf, sizeof buf));
        return -1;
    }
    char **v = NULL;
    size_t k = 0, cap = 0;
    int rc = 0;
    do {
        if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0)
            continue;
        if (pki_grow_reserve(&v, &cap, k + 1, sizeof *v) != 0 || !(v[k] = narrow(fd.cFileName))) {
            rc = -1;
            break;
        }
        k++;
    } while (FindNextFileW(h, &fd));
    FindClose(h);
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
    return true;
}

unsigned pki_os_cpu_count(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors > 0 ? (unsigned)si.dwNumberOfProcessors : 1;
}

/* The shared state of pki_os_parallel's threads. */
typedef struct pool {
    CRITICAL_SECTION lock;
    size_t next, n;
    pki_os_task work, done;
    void *ctx;
} pool;

static unsigned __stdcall pool_worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        EnterCriticalSection(&p->lock);
        size_t i = p->next < p->n ? p->next++ : p->n;
        LeaveCriticalSection(&p->lock);
        if (i >= p->n)
            return 0;
        p->work(p->ctx, i);
        if (p->done) {
            EnterCriticalSection(&p->lock);
            p->done(p->ctx, i);
            LeaveCriticalSection(&p->lock);
        }
    }
}

void pki_os_parallel(size_t n, unsigned workers, pki_os_task work, pki_os_task done, void *ctx)
{
    pool p = {.next = 0, .n = n, .work = work, .done = done, .ctx = ctx};
    size_t extra = workers > 1 && n > 1 ? (workers < n ? workers : n) - 1 : 0;
    HANDLE *t = extra ? calloc(extra, sizeof *t) : NULL;
    if (!t) {
        for (size_t i = 0; i < n; i++) {
            work(ctx, i);
            if (done)
                done(ctx, i);
        }
        return;
    }
    InitializeCriticalSection(&p.lock);
    size_t started = 0;
    while (started < extra) {
        uintptr_t h = _beginthreadex(NULL, 0, pool_worker, &p, 0, NULL);
        if (!h)
            break;
        t[started++] = (HANDLE)h;
    }
    pool_worker(&p); /* the caller's thread works too */
    for (size_t i = 0; i < started; i++) {
        WaitForSingleObject(t[i], INFINITE);
        CloseHandle(t[i]);
    }
    DeleteCriticalSection(&p.lock);
    free(t);
}
