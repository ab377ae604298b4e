/*
 * vpd.c — VPD pose files: MMD's text layout (read tolerantly, written byte
 * for byte as MMD writes it) and the "hybrid" layout of the original
 * specification.  Ground truth: doc/formats.md §1 and §2.
 *
 * Text layout as MMD writes it (CP932, CRLF; doc/formats.md §1.1):
 *
 *   line                                         | notes
 *   ---------------------------------------------+-----------------------------
 *   Vocaloid Pose Data file                      | signature, 23 bytes
 *   (empty)                                      |
 *   <model>.osm;<TAB><TAB>// 親ファイル名        | model name, ".osm" stripped on read
 *   <N>;<TAB><TAB><TAB><TAB>// 総ポーズボーン数  | bone count (advisory: mismatch = warning)
 *   (empty)                                      |
 *   Bone<i>{<name>                               | name = everything after the first '{'
 *   __<tx>,<ty>,<tz>;<TAB>x4// trans x,y,z       | two spaces, "%f" numbers
 *   __<qx>,<qy>,<qz>,<qw>;<TAB>x2// Quaternion x,y,z,w
 *   }                                            |
 *   (empty)                                      | ... once per bone
 *   Morph<j>{<name>                              | extension (MMM, mmd_tools)
 *   __<w>;<TAB>x4// weight                       |
 *   }                                            |
 *   (empty)                                      | ... once per morph
 *
 * The reader follows the tolerant grammar of doc/formats.md §1.4 on raw bytes:
 * optional UTF-8 BOM; lines end in CRLF, LF or a lone CR (0x0D/0x0A are never
 * CP932 trail bytes); blank lines and `//` comments anywhere, except on the
 * BoneN{ / MorphN{ lines, whose name runs to the end of the line (CP932
 * trail bytes include '{' '}' '|' '\', so nothing else on that line is
 * searched); spaces and tabs around every token; numbers with a sign, with or
 * without a point, with a leading point and with exponents.  Several
 * "a,b,c;" groups may share a line and a group may continue after a ','
 * on the next line.  Columns in messages count bytes, 1-based.
 *
 * Hybrid layout (doc/formats.md §2).  No known tool writes it; it is read when
 * the byte after the 23-byte signature is NUL and written on request:
 *
 *   offset  size  field
 *   ------  ----  ----------------------------------------------------------
 *        0    30  "Vocaloid Pose Data file" + NUL padding (filler ignored)
 *       30    20  model name, NUL-padded (no ".osm"; 20 bytes = no NUL)
 *       50     4  uint32 LE bone count (checked against the bytes left)
 *       54         per bone:
 *             15    name, NUL-padded (15 bytes = no NUL)
 *              *    text "index;x,y,z;rx,ry,rz,rw;" then LF or CRLF
 *
 * The hybrid layout has no morphs: writing a pose with morphs in it warns
 * that they are left out.  The bytes after a name's NUL and the magic's
 * filler are not kept (no file to be faithful to exists); the writer writes
 * zeros and ends lines with LF when the pose was read with LF, else CRLF.
 *
 * Numbers never go through strtod/printf, which follow LC_NUMERIC: reading
 * converts the decimal text to the correctly rounded float (a fast exact
 * path in double precision, exact big-integer arithmetic otherwise) and
 * writing prints the exact "%.6f" digits of the float, rounded half to
 * even, exactly what glibc prints in the "C" locale.  Non-finite values
 * ("nan", "inf", "infinity" in any case, as Python or .NET writers could
 * print them) are read with a warning; the writers refuse them with an
 * error naming the bone, since no VPD reader accepts them.  Numbers beyond
 * the float range (1e39) are errors: no float holds them.
 */
#include "common/grow.h"
#include "posekit.h"
#include "common/bytes.h"
#include "common/diag.h"
#include "util/number.h"
#include "model/names.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SIG[] = "Vocaloid Pose Data file";
#define SIG_LEN (sizeof SIG - 1)

/* The four fixed comments MMD writes, in CP932 bytes. */
static const char CMT_MODEL[] =
    "\t\t// \x90\x65\x83\x74\x83\x40\x83\x43\x83\x8b\x96\xbc"; /* 親ファイル名 */
static const char CMT_COUNT[] =
    "\t\t\t\t// \x91\x8d\x83\x7c\x81\x5b\x83\x59\x83\x7b\x81\x5b\x83\x93\x90\x94"; /* 総ポーズボーン数
                                                                                    */
static const char CMT_TRANS[] = "\t\t\t\t// trans x,y,z";
static const char CMT_QUAT[] = "\t\t// Quaternion x,y,z,w";
static const char CMT_WEIGHT[] = "\t\t\t\t// weight";

#define HYB_MAGIC 30
#define HYB_MODEL 20
#define HYB_NAME 15
#define HYB_HEADER (HYB_MAGIC + HYB_MODEL + 4)
/* Smallest bone record: 15-byte name + "0;0,0,0;0,0,0,0;\n". */
#define HYB_MIN_RECORD (HYB_NAME + 17)

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* ======================================================================
 * Shared helpers
 * ====================================================================== */

static bool is_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* A short printable excerpt of s[0..n) for messages: up to 24 bytes of
 * the token starting there; bytes outside printable ASCII as \xNN. */
static const char *excerpt(const uint8_t *s, size_t n, char buf[128])
{
    size_t o = 0;
    for (size_t i = 0; i < n && i < 24; i++) {
        uint8_t c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '\'')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, 128 - o, "\\x%02X", c);
    }
    if (n > 24) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = 0;
    return buf;
}

/* A name of a UTF-8 file for a message: as the UTF-8 it is (a control
 * byte or quote as \xNN), up to about 100 bytes, cut between characters. */
static const char *excerpt_utf8(const uint8_t *s, size_t n, char buf[128])
{
    size_t o = 0, i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (i + k > n)
            k = 1;
        if (o + 4 > 100) /* every step below adds at most 4 bytes */
            break;
        if (c >= 0x80 || (c >= 0x20 && c < 0x7f && c != '\''))
            for (size_t j = 0; j < k; j++)
                buf[o++] = (char)s[i + j];
        else
            o += (size_t)snprintf(buf + o, 128 - o, "\\x%02X", c);
        i += c >= 0x80 ? k : 1;
    }
    if (i < n) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = 0;
    return buf;
}

static bool valid_utf8(const uint8_t *s, size_t n, bool *non_ascii, bool *fffd)
{
    *non_ascii = *fffd = false;
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        *non_ascii = true;
        size_t k;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            cp = c & 0x07u;
        } else
            return false;
        if (n - i <= k)
            return false;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        if (cp == 0xFFFD)
            *fffd = true;
        i += k + 1;
    }
    return true;
}

/* Remembers which names were already used by a bone / a morph, to report
 * duplicates.  Indexed by name id. */
typedef struct seen_set {
    uint8_t *v;
    size_t cap;
} seen_set;

/* Returns the previous flags of id and ORs in `flag`; -1 on OOM. */
static int seen_mark(seen_set *s, pk_name_id id, uint8_t flag)
{
    if (id >= s->cap) {
        size_t old = s->cap;
        if (pki_grow_reserve(&s->v, &s->cap, (size_t)id + 1, 1) != 0)
            return -1;
        memset(s->v + old, 0, s->cap - old);
    }
    int old = s->v[id];
    s->v[id] |= flag;
    return old;
}


/* ======================================================================
 * Text reader
 * ====================================================================== */

typedef struct txt {
    const uint8_t *d;
    size_t len;
    pk_log *log;
    pk_pose *pose;
    /* current line */
    size_t next;   /* where the line after the current one starts */
    int lineno;    /* 1-based number of the current line */
    size_t ls, le; /* current line's bytes [ls, le), end of line excluded */
    /* current content segment inside that line: [p, e) */
    size_t p, e;
    bool header; /* the segment is a BoneN{ / MorphN{ line (no comment stripped) */
    bool in_seg;
    int eof_line, eof_col; /* position reported for "unexpected end of file" */
    seen_set seen;
    pki_log_sum dups;   /* duplicate names, said in one line (diag.h) */
    pki_log_sum longs;  /* names longer than MMD reads, the same way */
    bool warned_seq[2]; /* out-of-sequence BoneN / MorphN reported once each */
    bool failed;
    bool utf8; /* a UTF-8 file: names are converted to CP932 */
} txt;

/* A name's bytes s[0..n) as the model keeps them (CP932): a UTF-8 file's
 * converted into *own (malloc'd, caller frees).  -1 (logged at `at`) when
 * a UTF-8 name has no CP932 form or on OOM. */
static int name_bytes(txt *t, const uint8_t *s, size_t n, size_t at, const uint8_t **out,
                      size_t *out_len, uint8_t **own);

static int col_of(const txt *t, size_t at)
{
    size_t c = at - t->ls + 1;
    return c > (size_t)INT32_MAX ? INT32_MAX : (int)c;
}

static int name_bytes(txt *t, const uint8_t *s, size_t n, size_t at, const uint8_t **out,
                      size_t *out_len, uint8_t **own)
{
    *own = NULL;
    *out = s;
    *out_len = n;
    if (!t->utf8)
        return 0;
    if (pki_utf8_to_cp932_exact((const char *)s, n, own, out_len) != 0) {
        char ex[128];
        pk_log_add(t->log, PK_ERROR, PK_E_UNSUPPORTED, -1, t->lineno, col_of(t, at),
                   "name '%s' (the file is UTF-8) has no CP932 form", excerpt_utf8(s, n, ex));
        t->failed = true;
        return -1;
    }
    *out = *own;
    return 0;
}

static void txt_err(txt *t, size_t at, const char *fmt, ...) PK_PRINTF(3, 4);
static void txt_err(txt *t, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(t->log, PK_ERROR, PK_E_DAMAGED, -1, t->lineno, col_of(t, at), fmt, ap);
    va_end(ap);
    t->failed = true;
}

static void txt_err_eof(txt *t, const char *fmt, ...) PK_PRINTF(2, 3);
static void txt_err_eof(txt *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(t->log, PK_ERROR, PK_E_DAMAGED, -1, t->eof_line, t->eof_col, fmt, ap);
    va_end(ap);
    t->failed = true;
}

/* Advances to the next physical line; false at the end of the data. */
static bool next_line(txt *t)
{
    if (t->next >= t->len)
        return false;
    t->lineno++;
    t->ls = t->next;
    size_t i = t->ls;
    while (i < t->len && t->d[i] != '\n' && t->d[i] != '\r')
        i++;
    t->le = i;
    if (i < t->len && t->d[i] == '\r')
        i++;
    if (i < t->len && t->d[i] == '\n' && (i == t->le || t->d[i - 1] == '\r'))
        i++;
    t->next = i;
    return true;
}

static bool starts_with(const uint8_t *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && memcmp(s, lit, l) == 0;
}

/* Moves to the next line that holds something (blank lines and comment-only
 * lines are skipped) and sets the segment [p, e): a block header keeps its
 * whole rest of line (trailing blanks trimmed), any other line loses its
 * `//` comment and surrounding blanks.  False at the end of the data. */
static bool next_content(txt *t)
{
    t->in_seg = false;
    while (next_line(t)) {
        size_t p = t->ls, e = t->le;
        while (p < e && is_blank(t->d[p]))
            p++;
        t->header = starts_with(t->d + p, e - p, "Bone") || starts_with(t->d + p, e - p, "Morph");
        if (!t->header) {
            /* '/' (0x2F) is never a CP932 trail byte: this search is safe */
            for (size_t i = p; i + 1 < e; i++)
                if (t->d[i] == '/' && t->d[i + 1] == '/') {
                    e = i;
                    break;
                }
        }
        while (e > p && is_blank(t->d[e - 1]))
            e--;
        if (p == e)
            continue;
        t->p = p;
        t->e = e;
        t->in_seg = true;
        return true;
    }
    return false;
}

/* Next significant byte of a block body, crossing lines; -1 at the end of
 * the data.  `same_line` stops at the end of the current line instead
 * (returns -2 there). */
static int peek(txt *t, bool same_line)
{
    for (;;) {
        if (t->in_seg) {
            while (t->p < t->e && is_blank(t->d[t->p]))
                t->p++;
            if (t->p < t->e)
                return t->d[t->p];
            if (same_line)
                return -2;
        }
        if (!next_content(t))
            return -1;
    }
}

static const uint8_t *seg_ptr(const txt *t)
{
    return t->d + t->p;
}

static size_t token_len(const txt *t)
{
    size_t i = t->p;
    while (i < t->e && !is_blank(t->d[i]) && t->d[i] != ',' && t->d[i] != ';')
        i++;
    return i == t->p ? 1 : i - t->p;
}

/* Reads one "n, n, ...;" group into v[0..want) for the block `blk`.
 * Returns 0 or -1 (error logged). */
static int read_group(txt *t, float *v, int want, const char *what, const char *blk)
{
    char ex[128];
    int c = peek(t, false);
    if (c < 0) {
        txt_err_eof(t, "unexpected end of file: expected %d number%s for the %s of %s", want,
                    want == 1 ? "" : "s", what, blk);
        return -1;
    }
    int start_line = t->lineno;
    size_t start = t->p, start_ls = t->ls;
    int found = 0;
    for (;;) {
        c = peek(t, false);
        if (c < 0) {
            txt_err_eof(t, "unexpected end of file: expected a number for the %s of %s", what, blk);
            return -1;
        }
        size_t used = 0;
        float x = 0.0f;
        pki_num_status st = pki_num_scan_float(seg_ptr(t), t->e - t->p, &used, &x);
        if ((st == PKI_NUM_OK || st == PKI_NUM_NONFINITE) && t->p + used < t->e) {
            uint8_t nx = t->d[t->p + used];
            if (!is_blank(nx) && nx != ',' && nx != ';')
                st = PKI_NUM_SYNTAX;
        }
        if (st == PKI_NUM_SYNTAX) {
            if (c == '}' && found == 0)
                txt_err(t, t->p, "expected %d number%s for the %s of %s, found '}'", want,
                        want == 1 ? "" : "s", what, blk);
            else
                txt_err(t, t->p, "expected a number for the %s of %s, found '%s'", what, blk,
                        excerpt(seg_ptr(t), token_len(t), ex));
            return -1;
        }
        if (st == PKI_NUM_RANGE) {
            txt_err(t, t->p, "number '%s' is out of range for a float (%s of %s)",
                    excerpt(seg_ptr(t), token_len(t), ex), what, blk);
            return -1;
        }
        if (st == PKI_NUM_NONFINITE)
            pk_log_add(t->log, PK_WARNING, PK_E_DAMAGED, -1, t->lineno, col_of(t, t->p),
                       "non-finite value '%s' in the %s of %s; VPD writers refuse it",
                       excerpt(seg_ptr(t), used, ex), what, blk);
        if (found < want)
            v[found] = x;
        found++;
        t->p += used;
        c = peek(t, true);
        if (c == ',') {
            t->p++;
            continue;
        }
        if (c == ';') {
            t->p++;
            break;
        }
        if (c == -2)
            txt_err(t, t->e, "expected ';' after the %s of %s", what, blk);
        else
            txt_err(t, t->p, "expected ',' or ';' after a number in the %s of %s, found '%s'", what,
                    blk, excerpt(seg_ptr(t), token_len(t), ex));
        return -1;
    }
    if (found != want) {
        size_t c0 = start - start_ls + 1;
        pk_log_add(t->log, PK_ERROR, PK_E_DAMAGED, -1, start_line,
                   c0 > (size_t)INT32_MAX ? INT32_MAX : (int)c0,
                   "expected %d number%s for the %s of %s, found %d%s", want, want == 1 ? "" : "s",
                   what, blk, found,
                   found > want ? " (is ',' used as the decimal separator?)" : "");
        t->failed = true;
        return -1;
    }
    return 0;
}

/* Expects the '}' that closes `blk`, alone on its line. */
static int read_block_end(txt *t, const char *blk)
{
    char ex[128];
    int c = peek(t, false);
    if (c < 0) {
        txt_err_eof(t, "unexpected end of file: expected '}' to end %s", blk);
        return -1;
    }
    if (c != '}') {
        txt_err(t, t->p, "expected '}' to end %s, found '%s'", blk,
                excerpt(seg_ptr(t), t->e - t->p, ex));
        return -1;
    }
    t->p++;
    c = peek(t, true);
    if (c != -2) {
        txt_err(t, t->p, "unexpected text after the '}' of %s: '%s'", blk,
                excerpt(seg_ptr(t), t->e - t->p, ex));
        return -1;
    }
    t->in_seg = false;
    return 0;
}

static void warn_duplicate(txt *t, pk_name_id id, const char *kind, const char *blk)
{
    const char *u = pk_names_utf8(t->pose->names, id);
    char item[160];
    snprintf(item, sizeof item, "%s '%s' (line %d)", kind, u, t->lineno);
    pki_log_sum_add(&t->dups, -1, t->lineno, col_of(t, t->p), item,
                    "duplicate %s name '%s' in %s: all records are kept, lookups find the last",
                    kind, u, blk);
}

/* The duplicate names of a file, in one line when several. */
static void end_longs(pki_log_sum *longs, pk_log *log)
{
    pki_log_sum_end(longs, log, PK_WARNING, PK_E_DAMAGED, "; MMD cuts VPD names at 19 bytes",
                    "%zu names are longer than 19 bytes", longs->count);
}

static void end_duplicates(pki_log_sum *dups, pk_log *log)
{
    pki_log_sum_end(dups, log, PK_WARNING, PK_E_DAMAGED,
                    "; all records are kept, lookups find the last",
                    "%zu names are listed more than once", dups->count);
}

/* Parses the block whose header line is the current segment. */
static int read_block(txt *t, size_t *next_bone, size_t *next_morph)
{
    char ex[128];
    const uint8_t *s = t->d;
    size_t p = t->p;
    bool bone = s[p] == 'B';
    const char *kw = bone ? "Bone" : "Morph";
    size_t hdr = p;
    p += strlen(kw);
    size_t dstart = p;
    uint64_t index = 0;
    while (p < t->e && is_digit(s[p])) {
        if (index < UINT32_MAX)
            index = index * 10 + (uint64_t)(s[p] - '0');
        p++;
    }
    if (p == dstart) {
        txt_err(t, p, "expected a block number after '%s', found '%s'", kw,
                excerpt(s + p, t->e - p, ex));
        return -1;
    }
    while (p < t->e && is_blank(s[p]))
        p++;
    if (p >= t->e || s[p] != '{') {
        txt_err(t, p, "expected '{' after '%s%llu'", kw, (unsigned long long)index);
        return -1;
    }
    p++;
    /* The name is everything after the first '{' (trailing blanks were
     * trimmed): CP932 trail bytes may be '{', '}', '|', '\'. */
    size_t nlen;
    const uint8_t *nraw;
    uint8_t *own = NULL;
    if (name_bytes(t, s + p, t->e - p, p, &nraw, &nlen, &own) != 0)
        return -1;
    pk_name_id id = pk_names_intern(t->pose->names, nraw, nlen);
    free(own);
    if (id == PK_NO_NAME) {
        txt_err(t, hdr, "out of memory");
        return -1;
    }
    size_t *seq = bone ? next_bone : next_morph;
    /* "Bone12 ('name')" for messages; a long name is cut on a UTF-8
     * character boundary */
    const char *u8 = pk_names_utf8(t->pose->names, id);
    size_t ul = strlen(u8);
    if (ul > 80) {
        ul = 80;
        while (ul > 0 && ((uint8_t)u8[ul] & 0xC0) == 0x80)
            ul--;
    }
    char blk[128];
    snprintf(blk, sizeof blk, "%s%llu ('%.*s%s')", kw, (unsigned long long)index, (int)ul, u8,
             ul < strlen(u8) ? "..." : "");
    if (index != *seq && !t->warned_seq[bone]) {
        t->warned_seq[bone] = true;
        pk_log_add(t->log, PK_WARNING, PK_E_DAMAGED, -1, t->lineno, col_of(t, hdr),
                   "%s%llu is out of sequence (expected %s%zu); blocks keep their file order "
                   "and are renumbered when written",
                   kw, (unsigned long long)index, kw, *seq);
    }
    (*seq)++;
    if (nlen > PK_VPD_NAME_BYTES) {
        const char *u = pk_names_utf8(t->pose->names, id);
        char item[160];
        snprintf(item, sizeof item, "'%s' (line %d, %zu bytes)", u, t->lineno, nlen);
        pki_log_sum_add(&t->longs, -1, t->lineno, col_of(t, p), item,
                        "%s name '%s' is %zu bytes; MMD cuts VPD names at %d bytes",
                        bone ? "bone" : "morph", u, nlen, PK_VPD_NAME_BYTES);
    }
    t->p = p; /* for the duplicate warning's column */
    int old = seen_mark(&t->seen, id, bone ? 1 : 2);
    if (old < 0) {
        txt_err(t, hdr, "out of memory");
        return -1;
    }
    if (old & (bone ? 1 : 2))
        warn_duplicate(t, id, bone ? "bone" : "morph", blk);
    t->in_seg = false; /* the header line is done */

    if (bone) {
        float v[7];
        if (read_group(t, v, 3, "translation", blk) < 0 ||
            read_group(t, v + 3, 4, "rotation quaternion", blk) < 0 || read_block_end(t, blk) < 0)
            return -1;
        pk_pose_bone *b = pk_pose_push_bone(t->pose);
        if (!b) {
            txt_err(t, t->ls, "out of memory");
            return -1;
        }
        b->name = id;
        memcpy(b->pos, v, sizeof b->pos);
        memcpy(b->rot, v + 3, sizeof b->rot);
    } else {
        float w;
        if (read_group(t, &w, 1, "weight", blk) < 0 || read_block_end(t, blk) < 0)
            return -1;
        pk_pose_morph *m = pk_pose_push_morph(t->pose);
        if (!m) {
            txt_err(t, t->ls, "out of memory");
            return -1;
        }
        m->name = id;
        m->weight = w;
    }
    return 0;
}

static pk_eol dominant_eol(const uint8_t *d, size_t len, int *lines, int *last_len)
{
    size_t crlf = 0, lf = 0, cr = 0, ls = 0;
    int n = 1;
    for (size_t i = 0; i < len; i++) {
        if (d[i] == '\r' && i + 1 < len && d[i + 1] == '\n') {
            crlf++;
            i++;
        } else if (d[i] == '\r')
            cr++;
        else if (d[i] == '\n')
            lf++;
        else
            continue;
        if (i + 1 < len) {
            n++;
            ls = i + 1;
        }
    }
    *lines = n;
    /* the end of the data is reported at the end of the last line */
    size_t e = len;
    while (e > ls && (d[e - 1] == '\n' || d[e - 1] == '\r'))
        e--;
    *last_len = e - ls > (size_t)INT32_MAX - 1 ? INT32_MAX - 1 : (int)(e - ls);
    if (lf > crlf && lf >= cr)
        return PK_EOL_LF;
    if (cr > crlf && cr > lf)
        return PK_EOL_CR;
    return PK_EOL_CRLF;
}

static pk_pose *text_read(const uint8_t *d, size_t len, pk_log *log)
{
    char ex[128];
    pk_pose *pose = pk_pose_new();
    if (!pose) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    txt t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.len = len;
    t.log = log;
    t.pose = pose;
    pose->layout = PK_VPD_TEXT;
    pose->eol = dominant_eol(d, len, &t.eof_line, &t.eof_col);
    t.eof_col++;

    bool bom = len >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF;
    bool non_ascii, fffd;
    size_t skip = bom ? 3 : 0;
    if (valid_utf8(d + skip, len - skip, &non_ascii, &fffd) && non_ascii) {
        if (!fffd && !pki_cp932_valid(d + skip, len - skip)) {
            /* Valid UTF-8 and not CP932: read it as the UTF-8 it is. */
            t.utf8 = true;
            pose->encoding = PK_TEXT_UTF8;
        } else if (fffd)
            pk_warning(log, PK_E_DAMAGED,
                       "names look damaged: the file decodes as UTF-8 and contains U+FFFD, "
                       "so it was probably decoded as UTF-8 and re-saved, replacing every "
                       "CP932 character; names are kept as read but will not match a "
                       "model (doc/formats.md §1.5)");
        else
            pk_warning(log, PK_E_DAMAGED,
                       "the file reads as UTF-8 and as CP932; VPD files are CP932, so it "
                       "is read as CP932: names may not match a model if it is UTF-8");
    }

    /* signature */
    next_line(&t);
    size_t p = t.ls + (bom ? 3 : 0);
    if (t.le - p < SIG_LEN || memcmp(d + p, SIG, SIG_LEN) != 0 ||
        (t.le - p > SIG_LEN && !is_blank(d[p + SIG_LEN]))) {
        if (len - p >= 20 && memcmp(d + p, "Vocaloid Motion Data", 20) == 0)
            txt_err(&t, p, "this is a VMD motion, not a VPD pose");
        else
            txt_err(&t, p, "expected the signature 'Vocaloid Pose Data file', found '%s'",
                    excerpt(d + p, t.le - p, ex));
        goto fail;
    }

    /* model line: "<name>.osm;" */
    if (!next_content(&t)) {
        txt_err_eof(&t, "unexpected end of file: expected the model name line '<name>.osm;'");
        goto fail;
    }
    if (t.header || d[t.e - 1] != ';') {
        txt_err(&t, t.header ? t.p : t.e - 1,
                "expected the model name line '<name>.osm;', found '%s'",
                excerpt(d + t.p, t.e - t.p, ex));
        goto fail;
    }
    {
        size_t mlen = t.e - 1 - t.p;
        if (mlen >= 4 && memcmp(d + t.p + mlen - 4, ".osm", 4) == 0)
            mlen -= 4;
        const uint8_t *mraw;
        uint8_t *own = NULL;
        if (name_bytes(&t, d + t.p, mlen, t.p, &mraw, &mlen, &own) != 0)
            goto fail;
        int rc = pk_pose_set_model(pose, mraw, mlen, log);
        free(own);
        if (rc < 0)
            goto fail;
    }

    /* bone count line: "N;" */
    if (!next_content(&t)) {
        txt_err_eof(&t, "unexpected end of file: expected the bone count line 'N;'");
        goto fail;
    }
    int count_line = t.lineno;
    int count_col = col_of(&t, t.p);
    uint64_t count = 0;
    size_t count_at = t.p, count_digits; /* the number as written, for the warning */
    {
        size_t q = t.p;
        while (q < t.e && is_digit(d[q])) {
            if (count < UINT32_MAX)
                count = count * 10 + (uint64_t)(d[q] - '0');
            q++;
        }
        size_t dend = q;
        count_digits = dend - t.p;
        while (q < t.e && is_blank(d[q]))
            q++;
        if (dend == t.p || q + 1 != t.e || d[q] != ';') {
            txt_err(&t, t.p, "expected the bone count line 'N;', found '%s'",
                    excerpt(d + t.p, t.e - t.p, ex));
            goto fail;
        }
    }

    /* blocks */
    size_t nb = 0, nm = 0;
    while (next_content(&t)) {
        if (!t.header) {
            txt_err(&t, t.p, "expected 'BoneN{' or 'MorphN{', found '%s'",
                    excerpt(d + t.p, t.e - t.p, ex));
            goto fail;
        }
        if (read_block(&t, &nb, &nm) < 0)
            goto fail;
    }
    end_longs(&t.longs, log);
    end_duplicates(&t.dups, log);
    if (count != pose->nbones) /* count stops growing at 2^32: quote the digits */
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, -1, count_line, count_col,
                   "the bone count line says %.*s%s but the file has %zu Bone blocks",
                   (int)(count_digits > 24 ? 24 : count_digits), (const char *)d + count_at,
                   count_digits > 24 ? "..." : "", pose->nbones);
    free(t.seen.v);
    return pose;
fail:
    end_longs(&t.longs, log);
    end_duplicates(&t.dups, log);
    free(t.seen.v);
    pk_pose_free(pose);
    return NULL;
}

/* ======================================================================
 * Hybrid reader
 * ====================================================================== */

static size_t field_len(const uint8_t *p, size_t width)
{
    const uint8_t *z = memchr(p, 0, width);
    return z ? (size_t)(z - p) : width;
}

/* Parses "n,n,...;" from s[*i..n) into v[0..want); errors with offsets
 * (base = file offset of s). */
static int hyb_numbers(const uint8_t *s, size_t n, size_t *i, float *v, int want, const char *what,
                       uint32_t bone, size_t base, pk_log *log)
{
    char ex[128];
    int found = 0;
    size_t start = *i;
    for (;;) {
        while (*i < n && is_blank(s[*i]))
            (*i)++;
        size_t used = 0;
        float x = 0.0f;
        pki_num_status st = pki_num_scan_float(s + *i, n - *i, &used, &x);
        if ((st == PKI_NUM_OK || st == PKI_NUM_NONFINITE) && *i + used < n &&
            !is_blank(s[*i + used]) && s[*i + used] != ',' && s[*i + used] != ';')
            st = PKI_NUM_SYNTAX;
        if (st == PKI_NUM_NONFINITE)
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)(base + *i), 0, 0,
                       "non-finite value '%s' in the %s of bone %u; VPD writers refuse it",
                       excerpt(s + *i, used, ex), what, bone);
        else if (st != PKI_NUM_OK) {
            size_t k = *i;
            while (k < n && s[k] != ',' && s[k] != ';')
                k++;
            if (st == PKI_NUM_RANGE)
                pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(base + *i), 0, 0,
                           "number '%s' is out of range for a float (%s of bone %u)",
                           excerpt(s + *i, k - *i, ex), what, bone);
            else
                pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(base + *i), 0, 0,
                           "expected a number for the %s of bone %u, found '%s'", what, bone,
                           excerpt(s + *i, k - *i, ex));
            return -1;
        }
        if (found < want)
            v[found] = x;
        found++;
        *i += used;
        while (*i < n && is_blank(s[*i]))
            (*i)++;
        if (*i < n && s[*i] == ',') {
            (*i)++;
            continue;
        }
        if (*i < n && s[*i] == ';') {
            (*i)++;
            break;
        }
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(base + *i), 0, 0,
                   "expected ',' or ';' after a number in the %s of bone %u", what, bone);
        return -1;
    }
    if (found != want) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(base + start), 0, 0,
                   "expected %d numbers for the %s of bone %u, found %d", want, what, bone, found);
        return -1;
    }
    return 0;
}

static pk_pose *hybrid_read(const uint8_t *d, size_t len, pk_log *log)
{
    if (len < HYB_HEADER) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED,
                   len < HYB_MAGIC               ? 0
                   : len < HYB_MAGIC + HYB_MODEL ? HYB_MAGIC
                                                 : 50,
                   0, 0,
                   "the file is cut short in its header (a hybrid VPD header needs %d bytes, the "
                   "file has %zu)",
                   HYB_HEADER, len);
        return NULL;
    }
    uint32_t count = pki_get_u32(d + 50);
    size_t left = len - HYB_HEADER;
    if ((uint64_t)count * HYB_MIN_RECORD > left) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, 50, 0, 0,
                   "the file is damaged or cut short in its bone section (bone count %u needs at "
                   "least %llu bytes, only %zu left)",
                   count, (unsigned long long)count * HYB_MIN_RECORD, left);
        return NULL;
    }
    pk_pose *pose = pk_pose_new();
    if (!pose) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pose->layout = PK_VPD_HYBRID;
    if (pk_pose_set_model(pose, d + HYB_MAGIC, field_len(d + HYB_MAGIC, HYB_MODEL), log) < 0)
        goto fail;
    size_t off = HYB_HEADER, lf_lines = 0, crlf_lines = 0;
    seen_set seen = {NULL, 0};
    pki_log_sum dups;
    pki_log_sum_init(&dups);
    for (uint32_t i = 0; i < count; i++) {
        if (len - off < HYB_NAME) {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)off, 0, 0,
                       "file ends inside the name field of bone %u", i);
            goto fail_seen;
        }
        size_t nlen = field_len(d + off, HYB_NAME);
        pk_name_id id = pk_names_intern(pose->names, d + off, nlen);
        if (id == PK_NO_NAME) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            goto fail_seen;
        }
        int old = seen_mark(&seen, id, 1);
        if (old < 0) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            goto fail_seen;
        }
        if (old) {
            const char *u = pk_names_utf8(pose->names, id);
            char item[160];
            snprintf(item, sizeof item, "bone '%s' (bone %u)", u, i);
            pki_log_sum_add(&dups, (int64_t)off, 0, 0, item,
                            "duplicate bone name '%s' (bone %u): all records are kept, lookups "
                            "find the last",
                            u, i);
        }
        size_t ls = off + HYB_NAME;
        const uint8_t *lf = memchr(d + ls, '\n', len - ls);
        if (!lf && i + 1 < count) {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)ls, 0, 0,
                       "file ends inside the values of bone %u (no line end)", i);
            goto fail_seen;
        }
        /* The last line may end at the end of the file, as in a text VPD:
         * its values still have to close with ';', so a cut number cannot
         * pass for a shorter one. */
        size_t le = lf ? (size_t)(lf - d) : len, next = lf ? le + 1 : len;
        if (le > ls && d[le - 1] == '\r') {
            le--;
            crlf_lines += lf != NULL;
        } else
            lf_lines += lf != NULL;
        const uint8_t *s = d + ls;
        size_t n = le - ls, k = 0;
        uint64_t index = 0;
        while (k < n && is_digit(s[k])) {
            if (index < UINT32_MAX)
                index = index * 10 + (uint64_t)(s[k] - '0');
            k++;
        }
        if (k == 0 || k >= n || s[k] != ';') {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(ls + k), 0, 0,
                       "expected 'index;' at the start of the values of bone %u", i);
            goto fail_seen;
        }
        if (index != i)
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)ls, 0, 0,
                       "bone %u carries index %llu; records keep their file order", i,
                       (unsigned long long)index);
        k++;
        float v[7];
        if (hyb_numbers(s, n, &k, v, 3, "translation", i, ls, log) < 0 ||
            hyb_numbers(s, n, &k, v + 3, 4, "rotation quaternion", i, ls, log) < 0)
            goto fail_seen;
        while (k < n && is_blank(s[k]))
            k++;
        if (k != n) {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, (int64_t)(ls + k), 0, 0,
                       "unexpected text after the values of bone %u", i);
            goto fail_seen;
        }
        pk_pose_bone *b = pk_pose_push_bone(pose);
        if (!b) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            goto fail_seen;
        }
        b->name = id;
        memcpy(b->pos, v, sizeof b->pos);
        memcpy(b->rot, v + 3, sizeof b->rot);
        off = next;
    }
    end_duplicates(&dups, log);
    if (off < len)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)off, 0, 0,
                   "%zu byte%s after the last bone %s ignored", len - off,
                   len - off == 1 ? "" : "s", len - off == 1 ? "is" : "are");
    pose->eol = lf_lines > crlf_lines ? PK_EOL_LF : PK_EOL_CRLF;
    free(seen.v);
    return pose;
fail_seen:
    end_duplicates(&dups, log);
    free(seen.v);
fail:
    pk_pose_free(pose);
    return NULL;
}

/* An all-zero rotation is read as no rotation (the identity) by every
 * operation, as a NaN one is; said once per file. */
static pk_pose *warn_zero_rotations(pk_pose *p, pk_log *log)
{
    size_t count = 0, first = 0;
    for (size_t i = 0; p && i < p->nbones; i++) {
        const float *q = p->bones[i].rot;
        if (q[0] == 0.0f && q[1] == 0.0f && q[2] == 0.0f && q[3] == 0.0f && !count++)
            first = i;
    }
    if (count)
        pk_warning(log, PK_E_DAMAGED,
                   "%zu bone%s with an all-zero rotation, read as no rotation (first: '%s')", count,
                   count == 1 ? "" : "s", pk_names_utf8(p->names, p->bones[first].name));
    return p;
}

static pk_pose *read_any(const void *data, size_t len, pk_log *log);

pk_pose *pk_vpd_read(const void *data, size_t len, pk_log *log)
{
    return warn_zero_rotations(read_any(data, len, log), log);
}

static pk_pose *read_any(const void *data, size_t len, pk_log *log)
{
    const uint8_t *d = data;
    if (!d && len) {
        pk_error(log, PK_E_DAMAGED, "no data");
        return NULL;
    }
    if (len > SIG_LEN && memcmp(d, SIG, SIG_LEN) == 0 && d[SIG_LEN] == 0)
        return hybrid_read(d, len, log);
    if (len == 0) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, 1, 1, "empty file: expected the signature '%s'",
                   SIG);
        return NULL;
    }
    return text_read(d, len, log);
}

/* ======================================================================
 * Writers
 * ====================================================================== */

static void put_num(pk_buf *out, float x)
{
    char s[PKI_NUM_F6_MAX];
    pk_buf_append(out, s, pki_num_format_f6(x, s));
}

static bool all_finite(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static bool has_line_break(const uint8_t *s, size_t n)
{
    return memchr(s, '\n', n) || memchr(s, '\r', n);
}

/* Checks every name and value before a byte is written.  A text VPD has no
 * name field: a name longer than MMD's 19 bytes is written whole with a
 * warning, so that whatever was read can be written back (edits check
 * their own targets against the 19-byte limit before they change a name). */
static int check_text(const pk_pose *p, bool morphs, pk_log *log)
{
    int bad = 0;
    const uint8_t *model = p->model ? p->model : (const uint8_t *)"";
    if (has_line_break(model, p->model_len)) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "the model name contains a line break, which a VPD cannot hold");
        bad = -1;
    }
    for (size_t i = 0; i + 1 < p->model_len; i++)
        if (model[i] == '/' && model[i + 1] == '/') {
            pk_error(log, PK_E_UNSUPPORTED,
                     "the model name contains '//', which VPD readers take for a comment");
            bad = -1;
            break;
        }
    for (size_t i = 0; i < p->nbones; i++) {
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, p->bones[i].name, &n);
        const char *u = pk_names_utf8(p->names, p->bones[i].name);
        if (n > PK_VPD_NAME_BYTES)
            pk_warning(log, PK_E_LOSS,
                       "bone '%s' has a %zu-byte name; MMD reads only the first %d bytes", u, n,
                       PK_VPD_NAME_BYTES);
        if (has_line_break(raw, n)) {
            pk_error(log, PK_E_UNSUPPORTED, "bone '%s' has a line break in its name", u);
            bad = -1;
        }
        if (!all_finite(p->bones[i].pos, 3) || !all_finite(p->bones[i].rot, 4)) {
            pk_error(log, PK_E_UNSUPPORTED, "bone '%s' has a non-finite value (NaN or infinity)",
                     u);
            bad = -1;
        }
    }
    for (size_t i = 0; morphs && i < p->nmorphs; i++) {
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, p->morphs[i].name, &n);
        const char *u = pk_names_utf8(p->names, p->morphs[i].name);
        if (n > PK_VPD_NAME_BYTES)
            pk_warning(log, PK_E_LOSS,
                       "morph '%s' has a %zu-byte name; MMD reads only the first %d bytes", u, n,
                       PK_VPD_NAME_BYTES);
        if (has_line_break(raw, n)) {
            pk_error(log, PK_E_UNSUPPORTED, "morph '%s' has a line break in its name", u);
            bad = -1;
        }
        if (!isfinite(p->morphs[i].weight)) {
            pk_error(log, PK_E_UNSUPPORTED, "morph '%s' has a non-finite weight (NaN or infinity)",
                     u);
            bad = -1;
        }
    }
    return bad;
}

static void put_nums(pk_buf *out, const float *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            pk_buf_putc(out, ',');
        put_num(out, v[i]);
    }
    pk_buf_putc(out, ';');
}

static void text_write(const pk_pose *p, bool morphs, pk_buf *out)
{
    pk_buf_puts(out, SIG);
    pk_buf_puts(out, "\r\n\r\n");
    if (p->model_len)
        pk_buf_append(out, p->model, p->model_len);
    pk_buf_puts(out, ".osm;");
    pk_buf_puts(out, CMT_MODEL);
    pk_buf_printf(out, "\r\n%zu;", p->nbones);
    pk_buf_puts(out, CMT_COUNT);
    pk_buf_puts(out, "\r\n\r\n");
    for (size_t i = 0; i < p->nbones; i++) {
        const pk_pose_bone *b = &p->bones[i];
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, b->name, &n);
        pk_buf_printf(out, "Bone%zu{", i);
        pk_buf_append(out, raw, n);
        pk_buf_puts(out, "\r\n  ");
        put_nums(out, b->pos, 3);
        pk_buf_puts(out, CMT_TRANS);
        pk_buf_puts(out, "\r\n  ");
        put_nums(out, b->rot, 4);
        pk_buf_puts(out, CMT_QUAT);
        pk_buf_puts(out, "\r\n}\r\n\r\n");
    }
    for (size_t i = 0; morphs && i < p->nmorphs; i++) {
        const pk_pose_morph *m = &p->morphs[i];
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, m->name, &n);
        pk_buf_printf(out, "Morph%zu{", i);
        pk_buf_append(out, raw, n);
        pk_buf_puts(out, "\r\n  ");
        put_nums(out, &m->weight, 1);
        pk_buf_puts(out, CMT_WEIGHT);
        pk_buf_puts(out, "\r\n}\r\n\r\n");
    }
}

static int check_hybrid(const pk_pose *p, pk_log *log)
{
    int bad = 0;
    if (p->model_len > HYB_MODEL) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "the model name is %zu bytes; the hybrid layout's field holds %d", p->model_len,
                 HYB_MODEL);
        bad = -1;
    }
    if (p->model_len && memchr(p->model, 0, p->model_len)) {
        pk_error(log, PK_E_UNSUPPORTED, "the model name contains a NUL byte");
        bad = -1;
    }
    if (p->nbones > UINT32_MAX) {
        pk_error(log, PK_E_UNSUPPORTED, "too many bones for the hybrid layout");
        return -1;
    }
    for (size_t i = 0; i < p->nbones; i++) {
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, p->bones[i].name, &n);
        const char *u = pk_names_utf8(p->names, p->bones[i].name);
        if (n > HYB_NAME) {
            pk_error(log, PK_E_UNSUPPORTED,
                     "bone '%s' has a %zu-byte name; the hybrid layout holds at most %d bytes", u,
                     n, HYB_NAME);
            bad = -1;
        }
        if (n && memchr(raw, 0, n)) {
            pk_error(log, PK_E_UNSUPPORTED, "bone '%s' has a NUL byte in its name", u);
            bad = -1;
        }
        if (!all_finite(p->bones[i].pos, 3) || !all_finite(p->bones[i].rot, 4)) {
            pk_error(log, PK_E_UNSUPPORTED, "bone '%s' has a non-finite value (NaN or infinity)",
                     u);
            bad = -1;
        }
    }
    return bad;
}

static void put_field(pk_buf *out, const uint8_t *raw, size_t n, size_t width)
{
    static const uint8_t zeros[32];
    if (n)
        pk_buf_append(out, raw, n);
    pk_buf_append(out, zeros, width - n);
}

static void hybrid_write(const pk_pose *p, pk_buf *out)
{
    put_field(out, (const uint8_t *)SIG, SIG_LEN, HYB_MAGIC);
    put_field(out, p->model, p->model_len, HYB_MODEL);
    pk_buf_u32le(out, (uint32_t)p->nbones);
    const char *eol = p->eol == PK_EOL_LF ? "\n" : "\r\n";
    for (size_t i = 0; i < p->nbones; i++) {
        const pk_pose_bone *b = &p->bones[i];
        size_t n;
        const uint8_t *raw = pk_names_raw(p->names, b->name, &n);
        put_field(out, raw, n, HYB_NAME);
        pk_buf_printf(out, "%zu;", i);
        put_nums(out, b->pos, 3);
        put_nums(out, b->rot, 4);
        pk_buf_puts(out, eol);
    }
}

int pk_vpd_write(const pk_pose *p, const pk_vpd_options *opts, pk_buf *out, pk_log *log)
{
    pk_vpd_options def = {PK_VPD_TEXT, false};
    if (!opts)
        opts = &def;
    size_t start = out->len;
    if (opts->layout == PK_VPD_HYBRID) {
        if (check_hybrid(p, log) < 0)
            return -1;
        if (p->nmorphs)
            pk_warning(log, PK_E_LOSS, "the hybrid layout has no morphs: %zu morph%s left out",
                       p->nmorphs, p->nmorphs == 1 ? "" : "s");
        hybrid_write(p, out);
    } else {
        if (check_text(p, !opts->no_morphs, log) < 0)
            return -1;
        text_write(p, !opts->no_morphs, out);
    }
    if (out->oom) {
        out->len = start;
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}
