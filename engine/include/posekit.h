/*
 * posekit.h — the one public header of libposekit.
 *
 * posekit reads MikuMikuDance poses (VPD) and motions (VMD) into one lossless
 * in-memory model, operates on that model (sample, diff, rename, mirror,
 * retarget, overlay, merge) and writes it back.  Data flows one way:
 *
 *     bytes --codec--> model --operations--> model --codec--> bytes
 *
 * Conventions of this header
 *  - Every name starts with pk_ / PK_.
 *  - Functions that can fail take a pk_log* and return either a pointer
 *    (NULL on failure) or an int (0 on success, -1 on failure).  On failure
 *    at least one PK_ERROR diagnostic has been appended to the log.  Warnings
 *    never make a call fail; the caller decides (the CLI's --strict).
 *  - Ownership is stated on every function that returns memory.  Every
 *    *_free function accepts NULL.
 *  - Names inside the model are raw CP932 bytes, interned per model
 *    (pk_names).  UTF-8 exists only for people, JSON and rules.
 *  - Codecs work on memory buffers; file helpers sit on top.
 *  - The model is plain structs so operations and tests can read it
 *    directly.  Arrays in the model are owned by the model; grow them only
 *    through the pk_*_push_* helpers.
 */
#ifndef POSEKIT_H
#define POSEKIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_VERSION_STRING "0.1.0"

/* PK_API marks the library's exported functions; everything else in
 * libposekit is hidden (built with -fvisibility=hidden).  A Windows DLL
 * build defines PK_BUILDING_DLL while compiling the library and
 * PK_USE_DLL when using it. */
#if defined(_WIN32) && defined(PK_BUILDING_DLL)
#define PK_API __declspec(dllexport)
#elif defined(_WIN32) && defined(PK_USE_DLL)
#define PK_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define PK_API __attribute__((visibility("default")))
#else
#define PK_API
#endif

#if defined(__MINGW32__)
/* mingw-w64 with __USE_MINGW_ANSI_STDIO: C99 formats (%zu), checked as such. */
#define PK_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__) || defined(__clang__)
#define PK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PK_PRINTF(a, b)
#endif

/* ======================================================================
 * Diagnostics (engine/common/diag.c)
 * ====================================================================== */

typedef enum pk_severity { PK_WARNING = 1, PK_ERROR = 2 } pk_severity;

/* What kind of problem a diagnostic reports, warning or error, so that a
 * caller can act on it without reading its words. */
typedef enum pk_diag_code {
    PK_E_DAMAGED = 1, /* a file does not follow its format: VMD, VPD, PMX or PMD bytes or
                         text, YAML syntax, a rule file's keys and values */
    PK_E_IO,          /* the system refused to open, read, write, rename or make something */
    PK_E_NOT_FOUND,   /* what was named is not there: a file, a folder, a group, a bone, a
                         display frame, a job's entry */
    PK_E_USAGE,       /* an option, an argument or a job file's entry that does not make
                         sense (a value, a repeat, a kind of input the operation refuses) */
    PK_E_UNSUPPORTED, /* valid, but more than the format written or posekit can hold or do: a
                         name too long for its field or with no CP932 form, too many keys */
    PK_E_NO_MEMORY,   /* out of memory */
    PK_E_CONFLICT,    /* the inputs or rules disagree: merge conflicts and overlaps, two names
                         renamed into one, mirror pairs that do not swap back */
    PK_E_NO_EFFECT,   /* a run that changes nothing, an entry nothing uses */
    PK_E_LOSS         /* what is written leaves out or cuts part of what was asked or read */
} pk_diag_code;

/* One message about one place.  offset is a byte offset into a binary file
 * (or -1); line/col are 1-based positions in a text file (or 0).
 *
 * The place is data of the diagnostic, decided by whoever knows the file:
 * a codec or an operation works on memory and logs positions only
 * (pk_log_add, pk_error: not placed yet); the caller that handed it the
 * bytes of a file names that file for them with pk_log_place.  A
 * diagnostic about another file, or about none, names it when it is added
 * (pk_log_add_at: placed from the start). */
typedef struct pk_diag {
    pk_severity severity;
    pk_diag_code code;
    char *path;     /* owned by the log; NULL when no file is involved */
    int64_t offset; /* -1 when not applicable */
    int line, col;  /* 0 when not applicable */
    char *msg;      /* owned by the log */
    bool placed;    /* path decided (pk_log_add_at, pk_log_place); false: the
                       caller's file, not named yet */
} pk_diag;

/* Progress of long work: the share done, 0 to 1, and what is being done
 * ("smoothing", "writing").  The library prints nothing: its caller shows
 * it (posekit's progress line on a terminal; a page's bar). */
typedef void (*pk_progress_fn)(void *ctx, double done, const char *what);

/* An append-only list of diagnostics, and where the operations given it
 * report their progress. */
typedef struct pk_log {
    pk_diag *items;
    size_t count, cap;
    size_t errors, warnings;
    pk_progress_fn progress; /* NULL: none (pk_log_set_progress) */
    void *progress_ctx;
} pk_log;

PK_API void pk_log_init(pk_log *log);
/* Frees every diagnostic; log may be reused after pk_log_init. */
PK_API void pk_log_free(pk_log *log);
/* The long operations (pk_motion_smooth, pk_motion_reduce, pk_motion_bake,
 * pk_vmd_write_sink) call fn(ctx, done, what) through the log they are
 * given: up to a few thousand times a run, done never decreasing within
 * one `what`; the caller decides what to show and how often.
 * pk_log_init and pk_log_free clear it. */
PK_API void pk_log_set_progress(pk_log *log, pk_progress_fn fn, void *ctx);
/* Reports progress to the log's callback when it has one (log may be NULL). */
PK_API void pk_progress(pk_log *log, double done, const char *what);
/* Appends one diagnostic, not placed yet (its file is the caller's: see
 * pk_log_place).  offset < 0 and line == 0 mean "no position".  Never
 * fails visibly: on out-of-memory the message is dropped but the
 * error/warning counters are still incremented. */
PK_API void pk_log_add(pk_log *log, pk_severity sev, pk_diag_code code, int64_t offset, int line,
                       int col, const char *fmt, ...) PK_PRINTF(7, 8);
PK_API void pk_log_vadd(pk_log *log, pk_severity sev, pk_diag_code code, int64_t offset, int line,
                        int col, const char *fmt, va_list ap) PK_PRINTF(7, 0);
/* pk_log_add with its file named (path copied; NULL: about no file). */
PK_API void pk_log_add_at(pk_log *log, pk_severity sev, pk_diag_code code, const char *path,
                          int64_t offset, int line, int col, const char *fmt, ...) PK_PRINTF(8, 9);
PK_API void pk_log_vadd_at(pk_log *log, pk_severity sev, pk_diag_code code, const char *path,
                           int64_t offset, int line, int col, const char *fmt, va_list ap)
    PK_PRINTF(8, 0);
/* Shorthands for the common cases (no position). */
PK_API void pk_error(pk_log *log, pk_diag_code code, const char *fmt, ...) PK_PRINTF(3, 4);
PK_API void pk_warning(pk_log *log, pk_diag_code code, const char *fmt, ...) PK_PRINTF(3, 4);
/* Names path (copied; NULL leaves them as they are) as the file of the
 * diagnostics from index `from` on that are not placed yet: the caller of
 * a codec or an operation, which works on memory, says which file that
 * memory was.  Take `from` as log->count before the call.  log may be
 * NULL. */
PK_API void pk_log_place(pk_log *log, size_t from, const char *path);
/* "damaged", "io", "not-found", "usage", "unsupported", "no-memory",
 * "conflict", "no-effect", "loss"; "?" for any other value. */
PK_API const char *pk_diag_code_name(pk_diag_code code);
/* Formats "PATH:OFFSET: message", "PATH:LINE:COL: message", "PATH: message"
 * or "message" (with "warning: " before the message for warnings) into buf;
 * returns what snprintf returns. */
PK_API int pk_diag_format(const pk_diag *d, char *buf, size_t size);

/* ======================================================================
 * Growable byte buffer (engine/common/buf.c) — what writers produce.
 * ====================================================================== */

typedef struct pk_buf {
    uint8_t *data; /* owned; free with pk_buf_free */
    size_t len, cap;
    bool oom; /* set once an append failed; later appends are ignored */
} pk_buf;

PK_API void pk_buf_init(pk_buf *b);
PK_API void pk_buf_free(pk_buf *b);
PK_API bool pk_buf_reserve(pk_buf *b, size_t extra);
/* Where streamed bytes go (pk_vmd_write_sink, pk_file_stage_from): called
 * with each piece in order; returns 0, or -1 (errno set) to stop. */
typedef int (*pk_sink)(void *ctx, const void *data, size_t len);
/* A pk_sink that appends to the pk_buf ctx (-1, errno ENOMEM, on OOM). */
PK_API int pk_buf_sink(void *buf, const void *data, size_t len);
PK_API void pk_buf_append(pk_buf *b, const void *data, size_t len);
PK_API void pk_buf_putc(pk_buf *b, uint8_t c);
PK_API void pk_buf_puts(pk_buf *b, const char *s);
PK_API void pk_buf_printf(pk_buf *b, const char *fmt, ...) PK_PRINTF(2, 3);
PK_API void pk_buf_u32le(pk_buf *b, uint32_t v);
PK_API void pk_buf_f32le(pk_buf *b, float v); /* bit-exact: NaN payloads survive */

/* ======================================================================
 * Names (engine/model/names.c) — CP932 bytes interned, decoded once.
 * ====================================================================== */

typedef uint32_t pk_name_id;
#define PK_NO_NAME UINT32_MAX

/* Field widths in the file formats, in bytes. */
#define PK_VMD_NAME_BYTES 15  /* bone and morph names in VMD records */
#define PK_VMD_IK_BYTES 20    /* IK names in show/IK records */
#define PK_VMD_MODEL_BYTES 20 /* model name in a v2 header (v1: 10) */
#define PK_VPD_NAME_BYTES 19  /* MMD cuts VPD bone/morph names at 19 bytes */

/* An intern table of byte strings.  Each distinct byte string gets one id
 * (0, 1, 2, ... in order of first intern) and is decoded from CP932 to
 * UTF-8 exactly once.  Ids stay valid for the life of the table. */
typedef struct pk_names pk_names;

PK_API pk_names *pk_names_new(void); /* NULL on out-of-memory; free with pk_names_free */
PK_API void pk_names_free(pk_names *t);
/* A copy with the same ids; NULL on OOM; free with pk_names_free. */
PK_API pk_names *pk_names_clone(const pk_names *t);
/* Returns the id of raw[0..len), adding it if new; PK_NO_NAME on OOM. */
PK_API pk_name_id pk_names_intern(pk_names *t, const void *raw, size_t len);
/* Returns the id or PK_NO_NAME when absent; never adds. */
PK_API pk_name_id pk_names_find(const pk_names *t, const void *raw, size_t len);
PK_API size_t pk_names_count(const pk_names *t);
/* Raw CP932 bytes of an id (not NUL-terminated; *len receives the length).
 * Pointer valid for the life of the table. */
PK_API const uint8_t *pk_names_raw(const pk_names *t, pk_name_id id, size_t *len);
/* UTF-8 form for display/JSON/rules, NUL-terminated.  Bytes that do not
 * decode as CP932 appear as the four characters \xNN.  Owned by the table. */
PK_API const char *pk_names_utf8(const pk_names *t, pk_name_id id);
/* True when the raw bytes decoded as CP932 with nothing escaped. */
PK_API bool pk_names_clean(const pk_names *t, pk_name_id id);
/* Encodes a UTF-8 name to CP932 and interns it.  Fails (PK_NO_NAME, with an
 * error naming the name) when it does not encode or is longer than
 * max_bytes.  `what` describes the field for the message, e.g. "VMD bone". */
PK_API pk_name_id pk_names_intern_utf8(pk_names *t, const char *utf8, size_t max_bytes,
                                       const char *what, pk_log *log);

/* Stand-alone conversions (iconv "CP932"; never "SHIFT_JIS").
 * pk_cp932_to_utf8: returns a malloc'd NUL-terminated string (caller frees)
 * with undecodable bytes as \xNN, or NULL on OOM; *clean (may be NULL)
 * tells whether nothing was escaped.
 * pk_utf8_to_cp932: *out receives a malloc'd buffer (caller frees) and
 * *out_len its length; returns -1 when the text does not encode (or on OOM,
 * with *out == NULL either way).  The \xNN escapes produced by
 * pk_cp932_to_utf8 are decoded back to their bytes, so a displayed name
 * round-trips to the same raw bytes. */
PK_API char *pk_cp932_to_utf8(const void *raw, size_t len, bool *clean);
PK_API int pk_utf8_to_cp932(const char *utf8, uint8_t **out, size_t *out_len);
/* Length of the longest prefix of raw[0..len) that ends on a CP932
 * character boundary (drops a trailing lone lead byte). */
PK_API size_t pk_cp932_boundary(const void *raw, size_t len);

/* ======================================================================
 * Motion model (engine/model/motion.c) — everything a VMD holds, lossless.
 * ====================================================================== */

/* Name fields in VMD records: the name is the bytes before the first NUL
 * (or the whole field).  What follows the NUL ("padding": zeros, 0xFD
 * fill, leftover text) is kept per record as `pad`: 0 means all zeros,
 * otherwise pad-1 is an id in motion->pads holding the bytes after the NUL.
 * Writers use the stored padding only when it has exactly the length the
 * field needs; otherwise (a renamed record) they write zeros. */

typedef struct pk_bone_key {
    pk_name_id name; /* in motion->names */
    uint32_t pad;
    uint32_t frame;
    float pos[3];       /* translation x, y, z */
    float rot[4];       /* quaternion x, y, z, w as stored (not normalised) */
    uint8_t interp[64]; /* verbatim; see doc/formats.md §3.4 */
} pk_bone_key;

typedef struct pk_morph_key {
    pk_name_id name;
    uint32_t pad;
    uint32_t frame;
    float weight;
} pk_morph_key;

typedef struct pk_camera_key {
    uint32_t frame;
    float distance;
    float pos[3];       /* orbit centre */
    float rot[3];       /* Euler angles, radians */
    uint8_t interp[24]; /* 6 x (x1, x2, y1, y2): X, Y, Z, rotation, distance, fov */
    uint32_t fov;
    uint8_t perspective; /* raw byte: 0 = perspective */
} pk_camera_key;

typedef struct pk_light_key {
    uint32_t frame;
    float color[3];
    float direction[3];
} pk_light_key;

typedef struct pk_shadow_key {
    uint32_t frame;
    uint8_t mode;
    float distance; /* raw: (10000 - UI) / 100000 */
} pk_shadow_key;

typedef struct pk_ik_state {
    pk_name_id name; /* in motion->names; field width 20 */
    uint32_t pad;
    uint8_t enabled;
} pk_ik_state;

typedef struct pk_ik_key {
    uint32_t frame;
    uint8_t show;
    uint32_t count;
    pk_ik_state *ik; /* count entries, owned by the motion */
} pk_ik_key;

/* Sections in file order; pk_motion.sections counts how many of their
 * count fields were present (a file may end early, doc/formats.md §3.10). */
typedef enum pk_section {
    PK_SEC_BONE = 0,
    PK_SEC_MORPH,
    PK_SEC_CAMERA,
    PK_SEC_LIGHT,
    PK_SEC_SHADOW,
    PK_SEC_IK,
    PK_SEC_COUNT
} pk_section;

typedef struct pk_motion {
    int version; /* 2: "Vocaloid Motion Data 0002" (20-byte model name); 1: "... file" (10) */
    uint8_t header[30]; /* signature field exactly as read (filler included) */
    uint8_t model[20];  /* model-name field exactly as read; v1 uses the first 10 bytes */
    int sections;       /* count fields present: 0..6 (6 = complete file) */
    pk_names *names;    /* bone, morph and IK names */
    pk_names *pads;     /* distinct name-field paddings (see above) */

    pk_bone_key *bones;
    size_t nbones, cap_bones;
    pk_morph_key *morphs;
    size_t nmorphs, cap_morphs;
    pk_camera_key *cameras;
    size_t ncameras, cap_cameras;
    pk_light_key *lights;
    size_t nlights, cap_lights;
    pk_shadow_key *shadows;
    size_t nshadows, cap_shadows;
    pk_ik_key *iks;
    size_t niks, cap_iks;

    uint8_t *trailing; /* bytes after the last section, owned; usually NULL */
    size_t ntrailing;

    /* Set by pk_doc_load / pk_doc_parse, which warn about the file's
     * duplicate keys once (naming the file): pk_tracks_build then counts
     * them without warning again.  Clear it after an edit that may make
     * new duplicates the user should hear of. */
    bool duplicates_told;
} pk_motion;

/* A new empty v2 motion (header "Vocaloid Motion Data 0002", zero filler,
 * empty model name, all six sections).  Free with pk_motion_free. */
PK_API pk_motion *pk_motion_new(void);
PK_API void pk_motion_free(pk_motion *m);
/* Deep copy (names and pads tables included, same ids); NULL on OOM. */
PK_API pk_motion *pk_motion_clone(const pk_motion *m);
/* Append one zeroed record and return it (valid until the next push to the
 * same section); NULL on OOM. */
PK_API pk_bone_key *pk_motion_push_bone(pk_motion *m);
PK_API pk_morph_key *pk_motion_push_morph(pk_motion *m);
PK_API pk_camera_key *pk_motion_push_camera(pk_motion *m);
PK_API pk_light_key *pk_motion_push_light(pk_motion *m);
PK_API pk_shadow_key *pk_motion_push_shadow(pk_motion *m);
/* The IK record gets a zeroed array of `count` states owned by the motion. */
PK_API pk_ik_key *pk_motion_push_ik(pk_motion *m, uint32_t count);
/* Model name: the bytes of the field before the first NUL (v1: within 10). */
PK_API size_t pk_motion_model_raw(const pk_motion *m, const uint8_t **raw);
/* Malloc'd UTF-8 display form of the model name; caller frees; NULL on OOM. */
PK_API char *pk_motion_model_utf8(const pk_motion *m);
/* Replace the model name (raw CP932); the rest of the field becomes zeros.
 * Fails when longer than the field. */
PK_API int pk_motion_set_model(pk_motion *m, const void *raw, size_t len, pk_log *log);
/* The default linear interpolation block (x1=y1=20, x2=y2=107, modern
 * layout with zero filler and physics bytes 00 00). */
PK_API void pk_interp_linear(uint8_t interp[64]);
PK_API void pk_camera_interp_linear(uint8_t interp[24]);
/* A motion holding one key per bone and per morph of the pose at `frame`
 * (linear curves), model name carried over (cut on a character boundary,
 * with a warning, when longer than the 20-byte field); file order kept.
 * Fails, naming the bone, when a name does not fit a VMD field (15 bytes).
 * Caller frees with pk_motion_free. */
struct pk_pose;
PK_API pk_motion *pk_pose_to_motion(const struct pk_pose *p, uint32_t frame, pk_log *log);
/* Number of records in one section. */
PK_API size_t pk_motion_count(const pk_motion *m, pk_section s);
/* The section's word in options and reports: "bones", "morphs", "camera",
 * "light", "shadow", "ik" (merge --sections, reduce's summary); a static
 * string, "?" for a value out of range. */
PK_API const char *pk_section_word(pk_section s);
/* Frame range over every section; returns false when the motion is empty. */
PK_API bool pk_motion_frame_range(const pk_motion *m, uint32_t *first, uint32_t *last);

/* ======================================================================
 * Pose model (engine/model/pose.c) — one instant, as a VPD holds it.
 * ====================================================================== */

typedef enum pk_vpd_layout { PK_VPD_TEXT = 0, PK_VPD_HYBRID = 1 } pk_vpd_layout;
typedef enum pk_eol { PK_EOL_CRLF = 0, PK_EOL_LF = 1, PK_EOL_CR = 2 } pk_eol;
/* How a file's text was encoded (PMX: UTF-16LE or UTF-8; PMD: CP932; VPD:
 * CP932, or UTF-8 from some exporters).  A pose's names are CP932 either
 * way (a UTF-8 VPD's names are converted when read); writers write CP932. */
typedef enum pk_text_encoding {
    PK_TEXT_UTF16LE = 0,
    PK_TEXT_UTF8 = 1,
    PK_TEXT_CP932 = 2
} pk_text_encoding;

typedef struct pk_pose_bone {
    pk_name_id name; /* in pose->names */
    float pos[3];
    float rot[4]; /* x, y, z, w as stored */
} pk_pose_bone;

typedef struct pk_pose_morph {
    pk_name_id name;
    float weight;
} pk_pose_morph;

typedef struct pk_pose {
    pk_names *names;
    uint8_t *model; /* raw CP932 model name, ".osm" stripped; owned; may be NULL */
    size_t model_len;
    pk_vpd_layout layout;      /* how it was read / will be written */
    pk_eol eol;                /* line ending it was read with (writers use CRLF unless told) */
    pk_text_encoding encoding; /* the VPD's text as read: PK_TEXT_CP932 or _UTF8 */
    pk_pose_bone *bones;
    size_t nbones, cap_bones;
    pk_pose_morph *morphs;
    size_t nmorphs, cap_morphs;
} pk_pose;

PK_API pk_pose *pk_pose_new(void); /* empty, text layout, CRLF; free with pk_pose_free */
PK_API void pk_pose_free(pk_pose *p);
PK_API pk_pose *pk_pose_clone(const pk_pose *p); /* deep copy, same ids; NULL on OOM */
PK_API pk_pose_bone *pk_pose_push_bone(pk_pose *p);
PK_API pk_pose_morph *pk_pose_push_morph(pk_pose *p);
PK_API int pk_pose_set_model(pk_pose *p, const void *raw, size_t len, pk_log *log);
/* Index of the last bone/morph with this name id, or -1. */
PK_API long pk_pose_find_bone(const pk_pose *p, pk_name_id name);
PK_API long pk_pose_find_morph(const pk_pose *p, pk_name_id name);
/* Every bone and morph name of the pose longer than a VMD name field (15
 * bytes) cut as MMD cuts it, but on a CP932 character boundary; one
 * warning per name (engine/model/names.c, the CLI's --cut-names).
 * Returns how many distinct names were cut, -1 on OOM. */
PK_API long pk_pose_cut_names(pk_pose *p, pk_log *log);

/* ======================================================================
 * Codecs (engine/format/vmd.c, engine/format/vpd.c) — memory in, memory out.
 * ====================================================================== */

/* Reads a VMD.  Never trusts a count: count x record size is checked
 * against the bytes left before anything is allocated.  Errors carry byte
 * offsets.  Warnings: trailing bytes, unknown signature, ... Returns a new
 * motion (caller frees with pk_motion_free) or NULL. */
PK_API pk_motion *pk_vmd_read(const void *data, size_t len, pk_log *log);
/* Appends the VMD bytes of m to out.  An unedited motion gives back the
 * bytes it was read from.  Fails (nothing useful in out) when a name does
 * not fit its field or on OOM. */
PK_API int pk_vmd_write(const pk_motion *m, pk_buf *out, pk_log *log);
/* The same bytes handed to sink in pieces of up to 256 KB, so that writing
 * a large motion to a file needs no buffer of its size (pk_file_stage_from).
 * On failure sink has seen a prefix only: the caller throws it away. */
PK_API int pk_vmd_write_sink(const pk_motion *m, pk_sink sink, void *ctx, pk_log *log);
/* The number of bytes pk_vmd_write would write for m (0: too large for a
 * VMD file), known before any is made. */
PK_API size_t pk_vmd_size(const pk_motion *m);

typedef struct pk_vpd_options {
    pk_vpd_layout layout; /* PK_VPD_TEXT (default) or PK_VPD_HYBRID */
    bool no_morphs;       /* leave out Morph blocks (three.js's parser rejects them) */
} pk_vpd_options;

/* Reads a VPD, text or hybrid layout (detected).  Errors carry line:column
 * (text) or byte offsets (hybrid binary parts).  Returns a new pose (caller
 * frees with pk_pose_free) or NULL. */
PK_API pk_pose *pk_vpd_read(const void *data, size_t len, pk_log *log);
/* Appends the VPD bytes of p to out in MMD's layout (CP932, CRLF, comments,
 * %f).  opts may be NULL (text, with morphs).  Numbers never depend on the
 * C locale. */
PK_API int pk_vpd_write(const pk_pose *p, const pk_vpd_options *opts, pk_buf *out, pk_log *log);

/* ======================================================================
 * Files (engine/format/io.c) and documents (engine/format/doc.c)
 * ====================================================================== */

/* A file's bytes.  data and len are the caller's to read; region_ is
 * private (what holds the bytes: a mapping or a heap copy, owned by the
 * pk_bytes, NULL when nothing needs releasing) and only pk_bytes_free
 * touches it. */
typedef struct pk_bytes {
    const uint8_t *data;
    size_t len;
    struct pk_region *region_;
} pk_bytes;

/* Reads a whole file ("-" = standard input).  Release with pk_bytes_free.
 * Errors name the path (not found, a directory, unreadable). */
PK_API int pk_file_read(const char *path, pk_bytes *out, pk_log *log);
PK_API void pk_bytes_free(pk_bytes *b);
/* Writes data to path atomically: a temporary file in the target's folder,
 * every write and the close checked, fsync, rename.  On any failure the
 * temporary file is removed and the target is untouched.  "-" = stdout.
 * A symbolic link is written through: the file it names is replaced, the
 * link kept. */
PK_API int pk_file_write_atomic(const char *path, const void *data, size_t len, pk_log *log);
/* The same in two halves, for several outputs that should appear together
 * or not at all (pk_job_write): pk_file_stage writes and fsyncs the
 * temporary file (NULL on failure, the target untouched, no temporary
 * left); pk_file_commit renames it over the target, pk_file_discard
 * removes it.  Both free the handle.  A target that cannot be renamed over
 * ("-", a pipe, a device) is written at commit, from data, which must stay
 * valid until then. */
typedef struct pk_staged pk_staged;
PK_API pk_staged *pk_file_stage(const char *path, const void *data, size_t len, pk_log *log);
PK_API int pk_file_commit(pk_staged *s, pk_log *log);
PK_API void pk_file_discard(pk_staged *s);
/* Commits n staged files as a group, all or none: each target's present
 * file is first kept under a second name beside it (a hard link to our
 * own file, else a copy), then the renames; if one fails, every target
 * already replaced gets its old file back (a new one is removed).  A
 * target whose file cannot be kept (unreadable) is renamed after the
 * others, and targets written in place (a device, "-") last, as neither
 * can be taken back.  Frees every s[i].  0, or -1 (logged, naming the
 * file). */
PK_API int pk_file_commit_all(pk_staged **s, size_t n, pk_log *log);
/* For a program's handler of SIGINT, SIGTERM, SIGHUP (Windows: a console
 * control handler): removes every temporary file still open (an output
 * not yet renamed into place) and undoes a group being committed (old
 * files put back, new ones removed, kept names dropped), with
 * async-signal-safe calls only.  An output renamed into place before
 * stays.  The library installs no handler: the program owns the process. */
PK_API void pk_file_interrupted(void);
/* pk_file_stage with the bytes made by produce(ctx, sink, sink_ctx, log)
 * straight into the temporary file (no buffer of the file's size);
 * produce returns 0, or -1 having logged why, and then the temporary file
 * is removed.  For a target that cannot be renamed over the bytes are
 * gathered in memory and written at commit. */
typedef int (*pk_producer)(void *ctx, pk_sink sink, void *sink_ctx, pk_log *log);
PK_API pk_staged *pk_file_stage_from(const char *path, pk_producer produce, void *ctx, pk_log *log);

typedef enum pk_format {
    PK_FMT_UNKNOWN = 0,
    PK_FMT_VMD,
    PK_FMT_VPD,
    PK_FMT_PMX,
    PK_FMT_PMD,
    PK_FMT_BODY /* a body: a model described as text (pk_body_read) */
} pk_format;

/* By content (signatures, after an optional UTF-8 BOM), then by the path's
 * extension, .vmd or .vpd (path may be NULL).  PMX and PMD models are
 * recognised by their signatures, bodies by their first key
 * (posekit_body, pk_body_read) (read them with pk_model_read or
 * pk_model_load; pk_doc_* refuse them with an error). */
PK_API pk_format pk_format_detect(const void *data, size_t len, const char *path);
/* By extension only: .vmd, .vpd, .pmx, .pmd, ASCII letters in either
 * case. */
PK_API pk_format pk_format_from_path(const char *path);
PK_API const char *pk_format_name(pk_format f); /* "vmd", "vpd", "pmx", "pmd", "body",
                                                   "unknown" */

/* A loaded file: exactly one of motion/pose is set. */
typedef struct pk_doc {
    pk_format format;
    pk_motion *motion;
    pk_pose *pose;
} pk_doc;

/* Reads and parses a file; its diagnostics name path (pk_log_place).  A
 * motion's duplicate keys are warned about here, once per kind of
 * duplicate (engine/model/tracks.c), and motion->duplicates_told is set. */
PK_API int pk_doc_load(const char *path, pk_doc *doc, pk_log *log);
PK_API int pk_doc_parse(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log);
PK_API void pk_doc_free(pk_doc *doc); /* frees the motion/pose and zeroes doc */

/* How pk_doc_encode writes a pose: as VPD (layout, morphs), or as VMD (one
 * linear key per bone and morph at `frame`). */
typedef struct pk_encode_options {
    uint32_t frame;
    pk_vpd_options vpd;
} pk_encode_options;
/* The one encoder of a document as `format`: a motion as VMD (streamed in
 * pieces, pk_vmd_write_sink); a pose as VPD, or as VMD through
 * pk_pose_to_motion (a name too long for the 15-byte field is an error
 * naming it).  A motion as VPD is an error: a .vpd holds one pose (take
 * one with pk_motion_sample).  opts may be NULL (frame 0, text layout with
 * morphs).  The bytes go to sink in order; on failure (-1, logged) the
 * sink may have seen a prefix, which the caller throws away. */
PK_API int pk_doc_encode(const pk_doc *doc, pk_format format, const pk_encode_options *opts,
                         pk_sink sink, void *ctx, pk_log *log);

/* ======================================================================
 * Tracks and sampling (engine/model/tracks.c, sample.c, cursor.c)
 * ====================================================================== */

/* A per-track sorted view of a motion, built on demand.  Keys are indices
 * into motion->bones / ->morphs sorted by frame (stable); when several
 * records share (name, frame) only the last one in the file is kept and
 * the duplicate is counted (and warned about by pk_tracks_build). */
typedef struct pk_track {
    pk_name_id name;
    uint32_t *keys;
    size_t count;
} pk_track;

typedef struct pk_tracks {
    pk_track *bones; /* one per distinct bone name, in order of first appearance */
    size_t nbones;
    pk_track *morphs;
    size_t nmorphs;
    uint32_t *cameras; /* sorted indices into motion->cameras, duplicates: last */
    size_t ncameras;
    uint32_t *lights;
    size_t nlights;
    uint32_t *shadows;
    size_t nshadows;
    uint32_t *iks;
    size_t niks;
    size_t duplicates; /* records hidden by a later record with the same key */
} pk_tracks;

/* Builds the sorted view (O(n log n)); warns once per duplicated track.
 * Caller frees with pk_tracks_free.  The motion must outlive it and must
 * not be edited while it is in use. */
PK_API pk_tracks *pk_tracks_build(const pk_motion *m, pk_log *log);
PK_API void pk_tracks_free(pk_tracks *t);
PK_API const pk_track *pk_tracks_bone(const pk_tracks *t, pk_name_id name);  /* NULL when absent */
PK_API const pk_track *pk_tracks_morph(const pk_tracks *t, pk_name_id name); /* NULL when absent */

/* Drops every record that a later one with the same key hides (bones and
 * morphs: name and frame; camera, light, self-shadow, show/IK: frame; a
 * pose: name), as MMD plays the later one; the rest keep their order and
 * bytes (engine/model/dedupe.c).  *dropped gets how many; 0, or -1 (OOM,
 * logged).  The editing steps run it on their inputs; convert does not. */
PK_API int pk_motion_drop_duplicates(pk_motion *m, size_t *dropped, pk_log *log);
PK_API int pk_pose_drop_duplicates(pk_pose *p, size_t *dropped, pk_log *log);

/* Cubic Bezier from (0,0) through (x1,y1), (x2,y2) to (1,1), control points
 * as stored (0..127, divided by 127).  Solves x(t) = s and returns y(t). */
PK_API float pk_bezier(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float s);
/* The (x1, y1, x2, y2) control points of a bone key's curve for axis
 * 0 = X, 1 = Y, 2 = Z, 3 = rotation, taken from the first byte of rows
 * 0..3 (never bytes 2-3 of row 0, which newer MMD uses as physics flag). */
PK_API void pk_interp_curve(const uint8_t interp[64], int axis, uint8_t cp[4]);
/* Writes the 16 canonical parameters back in MMD's modern layout (rows
 * shifted, zero filler); physics_off sets bytes 2-3 to 63 0F. */
PK_API void pk_interp_set(uint8_t interp[64], const uint8_t cp[4][4], bool physics_off);

/* Value of a bone track at a (possibly fractional) frame, MMD's rules:
 * the later key's curve, per-axis translation, shortest-path slerp of
 * normalised quaternions, hold before the first / after the last key.
 * rot is normalised.  A NULL or empty track gives the rest pose. */
PK_API void pk_sample_bone(const pk_motion *m, const pk_track *t, double frame, float pos[3],
                           float rot[4]);
PK_API float pk_sample_morph(const pk_motion *m, const pk_track *t, double frame);
/* Camera (per-channel curves, one-frame gaps are cuts) and light (linear);
 * return false when the motion has no such keys. */
PK_API bool pk_sample_camera(const pk_motion *m, const pk_tracks *t, double frame,
                             pk_camera_key *out);
PK_API bool pk_sample_light(const pk_motion *m, const pk_tracks *t, double frame,
                            pk_light_key *out);

/* A cursor for stepping one track through frames in increasing order
 * without searching from scratch (amortised O(1) per step); going
 * backwards still works (it re-searches). */
#define PK_CURSOR_BYTES 640
typedef struct pk_cursor {
    /* Opaque: cursor.c's state (the segment it is in and what that
     * segment's curves need), PK_CURSOR_BYTES bytes aligned for a double
     * or a pointer.  Declare one (on the stack, say), hand it to
     * pk_cursor_init, and touch it only through the functions below. */
    union {
        unsigned char bytes[PK_CURSOR_BYTES];
        double align_d;
        void *align_p;
    } opaque_;
} pk_cursor;

PK_API void pk_cursor_init(pk_cursor *c, const pk_motion *m, const pk_track *t);
PK_API void pk_cursor_bone(pk_cursor *c, double frame, float pos[3], float rot[4]);
PK_API float pk_cursor_morph(pk_cursor *c, double frame);

/* The pose of a whole motion at a frame: one bone per bone track and one
 * morph per morph track (in track order), names re-interned in the new
 * pose's table, model name carried over.  Caller frees with pk_pose_free. */
PK_API pk_pose *pk_motion_sample(const pk_motion *m, const pk_tracks *t, double frame, pk_log *log);

/* ---- quaternion helpers (engine/math/quat.c), x,y,z,w order ---- */
PK_API void pk_quat_normalize(const float q[4], float out[4]);
PK_API void pk_quat_mul(const float a[4], const float b[4], float out[4]); /* a*b */
PK_API void pk_quat_slerp(const float a[4], const float b[4], float t,
                          float out[4]); /* shortest path */
/* Geodesic angle between two rotations in degrees: 2*acos|a.b| after
 * normalising (q and -q are the same rotation). */
PK_API double pk_quat_angle_deg(const float a[4], const float b[4]);

/* ======================================================================
 * Diff (engine/ops/diff/diff.c)
 * ====================================================================== */

/* Bone-by-bone differences between two poses, or between two motions over
 * a range of frames.  Rotations are compared as the geodesic angle
 * 2*acos|q1.q2| of the normalised quaternions (q and -q are equal),
 * translations as the Euclidean distance, morphs as the weight difference.
 * Bones and morphs are matched by their raw CP932 name; a name longer than
 * 15 bytes also matches the 15-byte name MMD cut it to in a VMD.  A bone
 * or morph present on one side only is reported with only_in set and is
 * measured against the rest pose (identity, zero translation, weight 0),
 * which is what a model shows for it. */
typedef struct pk_diff_options {
    double threshold_deg;   /* a rotation differs above this (default 0.01) */
    double pos_threshold;   /* a translation differs above this (default 0.0001) */
    double morph_threshold; /* a weight differs above this (default 0.0001) */
    /* Which bones and morphs to compare (NULL = all): called with each raw
     * name, bone or morph alike, so a selection that names no morph
     * compares no morphs.  A filter that keeps no bone and no morph of
     * either side is an error (naming filter_spec); with a filter the
     * camera, light and self-shadow are not compared. */
    bool (*bone_filter)(void *ctx, const uint8_t *raw, size_t len);
    void *filter_ctx;
    bool no_morphs;          /* leave morphs out */
    bool keep_frames;        /* range diffs: keep each bone's angle per frame */
    const char *filter_spec; /* the filter as the user wrote it, for messages (may be NULL) */
    bool no_scene;           /* motions: leave camera, light and self-shadow out */
    /* Range diffs: split first..last into this many runs of frames (bin c
     * holds frames first + c*n/bins .. first + (c+1)*n/bins - 1, n frames
     * in all; more bins than frames are cut to n) and keep each row's
     * largest difference per run: memory bounded by bins, not by the
     * range.  0 = none. */
    size_t bins;
} pk_diff_options;

/* Fills in the defaults above (no filter, morphs on, no per-frame data). */
PK_API void pk_diff_options_init(pk_diff_options *o);

enum { PK_DIFF_BOTH = 0, PK_DIFF_ONLY_A = 1, PK_DIFF_ONLY_B = 2 };

typedef struct pk_diff_bone {
    char *name;   /* UTF-8 display form, owned by the diff */
    uint8_t *raw; /* raw CP932 name, owned by the diff */
    size_t raw_len;
    int only_in;                     /* PK_DIFF_BOTH / PK_DIFF_ONLY_A / PK_DIFF_ONLY_B */
    double angle_deg;                /* pose diff: the angle; range diff: the maximum */
    double pos_delta;                /* pose diff: the distance; range diff: the maximum */
    uint32_t angle_frame, pos_frame; /* range diff: first frame of each maximum */
    double angle_mean, pos_mean;     /* range diff: means over the range */
    bool differs;                    /* angle or distance beyond its threshold */
    float *frames;                   /* keep_frames: angle at first..last (owned), else NULL */
    float *bin_deg, *bin_pos;        /* bins: largest angle / distance per bin (owned), else NULL */
} pk_diff_bone;

typedef struct pk_diff_morph {
    char *name;
    uint8_t *raw;
    size_t raw_len;
    int only_in;
    double weight_a, weight_b; /* pose diff: the weights; range: at the maximum */
    double delta;              /* weight_b - weight_a (range: the largest |delta|) */
    uint32_t frame;            /* range diff: first frame of the maximum */
    double mean;               /* range diff: mean |delta| */
    bool differs;
    float *bins; /* bins: largest |delta| per bin (owned), else NULL */
} pk_diff_morph;

/* One channel of the camera, light or self-shadow of two motions.  A
 * section keyed in one motion only is compared with MMD's defaults
 * (camera: centre 0,10,0, distance -45, rotation 0, fov 30, perspective;
 * light: colour 154/255, direction -0.5,-1,0.5; shadow: mode 1, distance
 * 8875), and only_in says which side keys it.  Channels, their units and
 * the threshold each uses:
 *   camera position    distance between the orbit centres (units; pos)
 *   camera distance    |B - A| of the orbit distance (units; pos)
 *   camera rotation    largest |B - A| of the three Euler angles (deg; deg)
 *   camera fov         |B - A| of the field of view (deg; deg)
 *   camera perspective 1 when one side is orthographic (differs above 0.5)
 *   light colour       largest |B - A| of R, G, B, 0..1 (morph)
 *   light direction    angle between the directions (deg; deg)
 *   shadow mode        1 when the modes differ (differs above 0.5)
 *   shadow distance    |B - A| in MMD's 0..9999 slider units (pos)
 *   ik switches        how many IK bones are on in one motion and off in
 *                      the other (differs above 0.5)
 *   model display      1 when one motion shows the model and the other
 *                      hides it (differs above 0.5)
 * Self-shadow, IK and display keys hold until the next key; an IK bone a
 * key does not list, or a motion without IK keys, has MMD's default (on,
 * shown). */
typedef struct pk_diff_scene {
    const char *name; /* static, as listed above */
    const char *unit; /* static: "units", "deg" or "" */
    int only_in;      /* PK_DIFF_BOTH / PK_DIFF_ONLY_A / PK_DIFF_ONLY_B */
    double delta;     /* the difference (range: the largest) */
    uint32_t frame;   /* the first frame of the largest */
    double mean;      /* range diff: mean difference */
    bool differs;
    float *bins; /* bins: largest difference per bin (owned), else NULL */
} pk_diff_scene;

typedef struct pk_diff {
    bool range; /* motions over first..last; else poses (first = last) */
    uint32_t first, last;
    pk_diff_bone *bones; /* A's order, then B-only bones; pk_diff_sort reorders */
    size_t nbones;
    pk_diff_morph *morphs;
    size_t nmorphs;
    size_t bones_differ, morphs_differ; /* rows beyond the thresholds */
    size_t only_a, only_b;              /* rows (bones + morphs) on one side only */
    pk_diff_scene *scene;               /* camera, light, shadow, IK channels keyed in A or B */
    size_t nscene, scene_differ;
    size_t nbins; /* range diff made with bins: the rows' bin arrays hold this many */
} pk_diff;

/* Compares two poses.  Caller frees with pk_diff_free; NULL on OOM. */
PK_API pk_diff *pk_diff_poses(const pk_pose *a, const pk_pose *b, const pk_diff_options *o,
                              pk_log *log);
/* Compares two motions frame by frame over first..last (every integer
 * frame, sampled with MMD's rules; duplicate keys are warned about).
 * A range longer than PK_DIFF_MAX_FRAMES is an error (a damaged file with
 * a key at frame 4e9 would otherwise mean hours of sampling).
 * Caller frees with pk_diff_free; NULL on error. */
#define PK_DIFF_MAX_FRAMES 1000000u /* 9.2 hours at 30 fps */
PK_API pk_diff *pk_diff_motions(const pk_motion *a, const pk_motion *b, uint32_t first,
                                uint32_t last, const pk_diff_options *o, pk_log *log);
/* Compares a (played on model ma) with b (played on model mb) in the world
 * over frames first..last (a pose holds at every frame): per bone both
 * models have and draw a line for, the angle between its lines' world
 * directions; for the hands and feet (手首, 中指先, 足首, つま先) also the
 * distance between B's world position and A's scaled as retarget scales
 * translations (engine/ops/diff/diff_world.c).  A range keeps each row's
 * maximum, its first frame and the mean; no morphs, no scene.  Caller
 * frees with pk_diff_free; NULL on error. */
struct pk_model;
PK_API pk_diff *pk_diff_world(const struct pk_model *ma, const pk_doc *a,
                              const struct pk_model *mb, const pk_doc *b, uint32_t first,
                              uint32_t last, const pk_diff_options *o, pk_log *log);
/* Adds (or replaces) d's camera, light and self-shadow rows from motions a
 * and b over first..last (a pose diff of two motions sampled at frame N:
 * N..N; a range diff: d's range).  pk_diff_motions calls it unless the
 * options filter or say no_scene.  Returns false on OOM (logged). */
PK_API bool pk_diff_add_scene(pk_diff *d, const pk_motion *a, const pk_motion *b, uint32_t first,
                              uint32_t last, const pk_diff_options *o, pk_log *log);
/* Largest difference first: by angle, then distance, then name; morphs by
 * |delta|, then name. */
PK_API void pk_diff_sort(pk_diff *d);
/* True when any row (bone, morph, scene channel) differs beyond its
 * threshold (diff's exit status 1). */
PK_API bool pk_diff_any(const pk_diff *d);
PK_API void pk_diff_free(pk_diff *d);

/* ======================================================================
 * Rules, selections and renaming (engine/rules/rules.c, engine/rules/select.c,
 * engine/ops/names/rename.c, engine/ops/names/mirror.c, engine/ops/retarget/retarget.c)
 * ====================================================================== */

/* Compiled mapping rules (YAML, see rules/README.md). */
typedef struct pk_rules pk_rules;

/* Loads a rules file and its includes.  Errors as PATH:LINE:COL.  The
 * standard groups (rules/standard.yaml, compiled in) are always present.
 * A bare file name (no '/') that does not exist in the current folder is
 * looked up in the rules folders ($POSEKIT_RULES_DIR when set, then the
 * installed PREFIX/share/posekit/rules), so "ja-en.yaml" names the shipped
 * file.  Caller frees with pk_rules_free. */
PK_API pk_rules *pk_rules_load(const char *path, pk_log *log);
/* pk_rules_load for a path written in a file in folder dir (a job file):
 * relative to dir, and a bare name not in dir names the shipped file,
 * whatever the current folder (dir NULL or "": the current folder). */
PK_API pk_rules *pk_rules_load_in(const char *dir, const char *path, pk_log *log);
/* Only the built-in standard groups and the default mirror pairs. */
PK_API pk_rules *pk_rules_default(pk_log *log);
PK_API void pk_rules_free(pk_rules *r);

/* A set of bone (or morph) names chosen by "NAME,NAME,@group,glob*".
 * Matching is on CP932 bytes and also accepts names that MMD cut at 15 or
 * 19 bytes (doc/formats.md §4). */
typedef struct pk_selection pk_selection;

/* spec: comma-separated UTF-8 names, globs with one '*', and @group
 * references resolved in r (r may be NULL: standard groups only).
 * Unknown groups are errors.  Caller frees with pk_selection_free. */
PK_API pk_selection *pk_selection_parse(const pk_rules *r, const char *spec, pk_log *log);
/* The same, where an item "@frame:NAME" stands for the bones of the display
 * frame NAME (Japanese or English name) of model m (engine/rules/
 * select_model.c).  An unknown frame, one without bones, or "@frame:" with
 * m NULL is an error. */
struct pk_model;
PK_API pk_selection *pk_selection_parse_model(const pk_rules *r, const struct pk_model *m,
                                              const char *spec, pk_log *log);
PK_API void pk_selection_free(pk_selection *s);
PK_API bool pk_selection_has(const pk_selection *s, const void *raw, size_t len);

/* Parses rules from memory; `path` (may be NULL) names them in messages and
 * anchors relative includes.  Caller frees with pk_rules_free. */
PK_API pk_rules *pk_rules_parse(const char *yaml, size_t len, const char *path, pk_log *log);
/* Bone groups by name (UTF-8, owned by r), in definition order, built-in
 * standard groups included; and whether `name` (without '@') names a bone
 * or morph group. */
PK_API size_t pk_rules_group_count(const pk_rules *r);
PK_API const char *pk_rules_group_name(const pk_rules *r, size_t i);
PK_API bool pk_rules_has_group(const pk_rules *r, const char *name);
/* Number of distinct patterns a selection holds (0 for NULL). */
PK_API size_t pk_selection_count(const pk_selection *s);

/* The diff summed up per bone group (engine/ops/diff/diff_groups.c): one row per
 * group of r (standard groups included; r may be the pk_rules_default set)
 * that holds at least one compared bone, largest difference first.  Rows
 * point into d and r: valid while both live and d is not re-sorted.
 * Caller frees the array with free(); NULL on error (logged). */
typedef struct pk_diff_group {
    const char *name;           /* without '@', owned by r */
    size_t bones, bones_differ; /* compared bones in the group, and those beyond a threshold */
    const pk_diff_bone *top;    /* the differing bone with the largest angle, or NULL */
    double max_pos;             /* the largest translation distance among its bones */
    size_t order;               /* the group's place in r */
} pk_diff_group;
PK_API pk_diff_group *pk_diff_groups(const pk_diff *d, const pk_rules *r, size_t *n, pk_log *log);

/* What a rename, mirror or retarget did, for the CLI's summary.  Counts are
 * of distinct names (tracks), not of keys. */
typedef struct pk_edit_stats {
    size_t bones, bones_renamed;   /* distinct bone names / renamed ones */
    size_t morphs, morphs_renamed; /* distinct morph names / renamed ones */
    size_t ik_renamed;             /* distinct show/IK names renamed */
    size_t keys_changed;           /* mirror: keys whose values changed; retarget: keys at
                                      the same (name, frame) with other values or curves */
    /* retarget: records in and out (every section), and bone keys added
     * and removed ((name, frame) in one and not the other): out = in -
     * removed + added (engine/ops/retarget/retarget_tally.c) */
    size_t keys_in, keys_out, keys_added, keys_removed;
    size_t duplicates; /* the step: records dropped as duplicates (counted in keys_removed) */
    char **unmatched;              /* UTF-8 names no rule matched: bones, then morphs */
    size_t nunmatched;
    /* rename's weighted morph rules ({to, factor, clamp}): source morphs
     * mapped, target tracks written and their keys, keys clamped to the
     * range; the worst clamp: the target (UTF-8, owned), its frame, the
     * unclamped sum and the value written */
    size_t morphs_mapped, morph_targets, morph_keys, morph_clamped;
    char *clamp_name;
    uint32_t clamp_frame;
    double clamp_from, clamp_to;
} pk_edit_stats;
PK_API void pk_edit_stats_free(pk_edit_stats *s); /* frees unmatched; s itself is the caller's */

/* Renames bones (and IK names) by the rules' `rename` map and morphs by
 * `morphs`; with `reverse` the maps are inverted (an exact rule inverts; a
 * glob inverts when its target has one '*', otherwise it is an error).
 * Every check runs before the model is touched: a target that does not fit
 * its field (15 bytes VMD bone/morph, 20 IK, 19 VPD), and two distinct
 * names ending up the same (both named).  Record order, values and name
 * padding are kept, so rename then reverse gives back the same bytes.
 * A `morphs` rule in the mapping form ({to, factor, clamp}) maps weights:
 * its source's keys are replaced by shares in its targets, each target
 * the sum of what lands on it clamped to its range, keyed at the union of
 * the contributions' frames (engine/ops/names/morph_weights.c); such rules
 * are not reversible.  stats may be NULL. */
PK_API int pk_motion_rename(pk_motion *m, const pk_rules *r, bool reverse, pk_edit_stats *stats,
                            pk_log *log);
PK_API int pk_pose_rename(pk_pose *p, const pk_rules *r, bool reverse, pk_edit_stats *stats,
                          pk_log *log);

/* Mirrors left and right: names by the rules' mirror fragments (r NULL:
 * 左/右), each swapped at the start or the end of a name; transforms of
 * every bone: translation (x,y,z) -> (-x,y,z), rotation (x,y,z,w) ->
 * (x,-y,-z,w); camera: position x, rotation y and z negated; light
 * direction x negated.  Only sign bits change, so mirroring twice gives
 * the same bytes. */
PK_API int pk_motion_mirror(pk_motion *m, const pk_rules *r, pk_edit_stats *stats, pk_log *log);
PK_API int pk_pose_mirror(pk_pose *p, const pk_rules *r, pk_edit_stats *stats, pk_log *log);

/* Retarget: rename (forward), drop duplicate keys (the later record of a
 * key wins, as MMD reads it), then the rules' stance corrections, then the
 * translation scale.  See engine/ops/retarget/retarget.c for the math.
 * stats counts the keys in, out, changed, added and removed. */
PK_API int pk_motion_retarget(pk_motion *m, const pk_rules *r, pk_edit_stats *stats, pk_log *log);
PK_API int pk_pose_retarget(pk_pose *p, const pk_rules *r, pk_edit_stats *stats, pk_log *log);

/* ---- retarget between two models (engine/ops/retarget/retarget_model.c,
 * engine/ops/retarget/retarget_fold.c; doc/commands.md "Between two models") ----
 * A motion or pose made for model A (`from`), played on model B (`to`):
 *  - fold: bones A has and B lacks (上半身2, グルーブ, 腕捩, 全ての親, ...) are
 *    carried into the bones B has below them (rotation: q_C' = Q·q_C with
 *    Q the product of the missing bones' rotations; translation: into the
 *    nearest movable bone), so every bone B has keeps its world rotation;
 *    a motion's folded track gets the fewest keys (greedy, at the frames
 *    its inputs key where it can) whose curves, fitted by the keyframe
 *    reducer's fitter (engine/math/curve.h), stay within the options'
 *    max_deg / max_pos (PK_REDUCE_DEG / PK_REDUCE_POS by default) of the
 *    exact composition at every integer frame;
 *  - stance: per side and arm segment (腕→ひじ, ひじ→手首; with fingers
 *    手首→中指１ and every finger joint) the rotation r that turns A's rest
 *    direction into B's, applied as the rules' stance is (the bone's keys
 *    q·r⁻¹, the bones below it that both models have r·q·r⁻¹, their
 *    translations r·t);
 *  - scale: translations of 全ての親, センター, グルーブ, 足IK親, 足ＩＫ,
 *    つま先ＩＫ times B's leg over A's (XZ: the straight 足→足首 distance;
 *    Y: the height 足.y − 足首.y; both legs averaged); 足ＩＫ then moves by
 *    the difference in where the two models' feet stand at rest.
 * Bones are found by their standard Japanese names in both models (after
 * the rules' rename).  A rules file still renames first; its `stance`
 * entries win over the computed segment of the same bone and its `scale`
 * over the computed factors. */
#define PK_STANCE_MAX 48

typedef struct pk_stance_segment {
    char bone[40], child[40]; /* UTF-8 names of the segment's ends (左腕, 左ひじ) */
    double r[4];              /* unit quaternion: A's rest direction (as the segments above it
                                 left it) turned into B's */
    double deg;               /* the angle of r */
    bool by_rules;            /* a rules `stance` entry names the bone: the rules win */
} pk_stance_segment;

typedef struct pk_stance {
    pk_stance_segment seg[PK_STANCE_MAX]; /* top down, left side first */
    size_t n;
} pk_stance;

struct pk_model;
/* Every segment both models have (both ends found by name); fingers adds
 * the hand (手首→中指１) and the finger joints.  0, or -1 (logged) when
 * neither model has a single arm segment. */
PK_API int pk_retarget_stance(const struct pk_model *a, const struct pk_model *b, bool fingers,
                              pk_stance *out, pk_log *log);

typedef struct pk_leg_scale {
    double xz, y;              /* B's leg over A's */
    double len_a, len_b;       /* 足→足首 distance (mean of both legs) */
    double height_a, height_b; /* 足.y − 足首.y (mean of both legs) */
    double ik_shift[2][3];     /* 左足ＩＫ, 右足ＩＫ: added after scaling */
    double place[2];           /* X, Z the whole body moved by (the options' place) */
} pk_leg_scale;
/* 0, or -1 (logged) when a model has neither leg (足 and 足首). */
PK_API int pk_retarget_scale(const struct pk_model *a, const struct pk_model *b, pk_leg_scale *out,
                             pk_log *log);

typedef struct pk_fold_report {
    char **folded; /* UTF-8, one per folded bone: "上半身2 -> 首, 左肩, 右肩" */
    size_t nfolded;
    char **kept; /* UTF-8: keyed bones only A has that nothing below could take (left alone) */
    size_t nkept;
    char **twisted; /* UTF-8: keyed bones with a fixed axis on A and not on B, rewritten to
                       the twist about that axis (what A shows) */
    size_t ntwisted;
    size_t tracks;       /* tracks of B's bones rewritten */
    size_t keys_removed; /* records dropped (folded bones, rewritten tracks) */
    size_t keys_added;   /* records of the rewritten tracks */
    size_t union_keys;   /* frames the rewritten tracks' inputs key (per track, summed) */
    size_t refitted;     /* pieces the sampler found out of tolerance: a key at every frame */
    double worst_deg, worst_pos; /* the largest error at an integer frame (the sampler's:
                                    degrees, and units as a distance) */
} pk_fold_report;
PK_API void pk_fold_report_free(pk_fold_report *r);
/* Bones A has and B lacks, carried into the bones B has below them so
 * that every bone B has keeps the world rotation MMD shows on A (appends
 * and A's fixed axes included; engine/ops/retarget/retarget_fold.c).  rep may be
 * NULL; it is zeroed first. */
PK_API int pk_motion_fold(pk_motion *m, const struct pk_model *a, const struct pk_model *b,
                          pk_fold_report *rep, pk_log *log);
PK_API int pk_pose_fold(pk_pose *p, const struct pk_model *a, const struct pk_model *b,
                        pk_fold_report *rep, pk_log *log);

/* ---- sizing: what the audience sees kept (engine/ops/retarget/sizing.c) ----
 * After stance and scale, with both models: hands that touch on A touch on
 * B (contacts), B's forearms and hands kept out of B's body (avoid), the
 * twist of the arms moved into B's twist bones (twist), no elbow or knee
 * bent backwards by any of them.  The measures of a sizing
 * (pk_sizing_measure) say how well A's contacts, feet and arms survive on
 * B.  Lengths are fractions of the model's arm length (腕->ひじ->手首)
 * or leg (足->足首) where the field says so. */
typedef struct pk_sizing_report {
    bool contacts_done;     /* the step ran (the motion has contacts on A) */
    size_t contacts;        /* contacts found on A */
    size_t contact_frames;  /* frames of a hand moved for a contact */
    size_t out_of_reach;    /* ... of them where B's arm could not reach (stretched instead) */
    size_t folded;          /* ... where the target lay nearer B's shoulder than its arm
                               folds (folded its most instead) */
    size_t shoulder_frames; /* ... where 肩 turned to bring the arm within reach */
    size_t contact_kept;    /* frames left as stance left them: moving the hands there made
                               the contacts' gaps worse */
    double shoulder_deg;    /* ... by at most this */
    double gap_before, gap_after; /* mean |gap on B - gap on A scaled| / B's arm, on contact
                                     frames, before and after the step */
    bool avoid_done;        /* the step ran */
    bool avoid_no_bodies;   /* B has no follow-bone rigid bodies: skipped */
    size_t avoid_frames;    /* frames of an arm turned out of B's body */
    double avoid_deepest;   /* the deepest it was inside, units */
    double avoid_deg;       /* the largest turn of an upper arm (world) */
    double avoid_elbow_deg; /* the largest change of an elbow's bend */
    bool twist_done;        /* the step ran (B has twist bones, or lacks them and they are keyed) */
    size_t twist_frames;    /* frames of an arm whose twist moved */
    double twist_deg;       /* the largest twist moved, degrees */
    double twist_hand_deg;  /* the hands' worst world rotation change, degrees */
    size_t refused;         /* frames of an arm whose correction would have bent its elbow
                               backwards (left as it was) */
    size_t keys;            /* keys the three steps wrote */
} pk_sizing_report;

/* The body steps (engine/ops/retarget/sizing_body.c), run before the arm
 * steps: B's centre of gravity over its feet as A's was (センター XZ), its
 * feet on the floor where A's were (センター or グルーブ Y down where a leg
 * cannot reach, 足ＩＫ up where A's foot was higher), its neck root's
 * direction from the hips as A's (上半身, 首 and 腕 keeping their world
 * rotations), its shoulders' direction as A's (肩, 腕 keeping its world
 * rotation) and its toes on the floor where A's were and never below it
 * (つま先ＩＫ).  Lengths are fractions of B's leg (足->足首). */
typedef struct pk_body_report {
    bool centre_done, upper_done, shoulders_done, toes_done; /* the step ran */
    size_t centre_frames;   /* frames of センター moved for the centre of gravity */
    double centre_max;      /* the largest move, of B's leg */
    size_t floor_frames;    /* frames of the hips lowered or a 足ＩＫ raised for the feet */
    double floor_max;       /* the largest, of B's leg */
    size_t upper_frames;    /* frames of 上半身 turned */
    double upper_deg;       /* the largest turn, degrees */
    size_t shoulder_frames; /* frames of a 肩 turned */
    double shoulder_deg;
    size_t toe_frames;      /* frames of a つま先ＩＫ moved */
    double toe_max;         /* the largest toe height change, of B's leg */
    bool no_toe_ik;         /* B has no つま先ＩＫ: the toes turned by 足首's key instead */
    double apart;           /* the options' feet_apart, applied (0: not) */
    size_t keys;            /* keys the body steps wrote */
    size_t centre_rounds;   /* rounds the centre step took (each B played again) */
    size_t rows_played;     /* frames of B the body steps evaluated again (their cost) */
} pk_body_report;

/* The body's measures (sizing_body.c), every frame, before the body steps
 * (B playing stance and scale) and after every step. */
typedef struct pk_body_measure {
    bool done;                        /* both models have the bones measured */
    double head_max_before, head_mean_before, head_max, head_mean; /* degrees between A's and
                                         B's neck root (首) directions from the hips (上半身) */
    double shoulder_max_before, shoulder_max; /* degrees between A's and B's 肩->腕 */
    double cog_max_before, cog_mean_before, cog_max, cog_mean; /* of B's leg: B's centre of
                                         gravity's ground offset from its feet, against A's scaled
                                         (each from its rest offset) */
    size_t cog_off_ik; /* frames where A's leg (its IK on) ends more than 5% of A's leg from
                          its 足ＩＫ: A does not stand where the dance puts its feet */
    double cog_on_ik_max_before, cog_on_ik_mean_before, cog_on_ik_max, cog_on_ik_mean; /* the
                                         centre of gravity's measure on the other frames */
    size_t toe_below_before, toe_below; /* frames of a toe of B below the floor by more than
                                           0.5% of B's leg where A's (scaled) is not */
} pk_body_measure;

typedef struct pk_sizing_contact {
    int side;              /* 0 the left hand, 1 the right; with "hand": both */
    char with[16];         /* "head", "chest", "belly", "hips", "left thigh", ..., "hand",
                              "floor" */
    uint32_t first, last;  /* frames */
    double gap_a;          /* A's smallest gap, of A's arm */
    double before_mean, before_max; /* |gap_B - gap_A x arm_B/arm_A| of B's arm, on B before
                                       the sizing steps (stance and scale alone) */
    double after_mean, after_max;   /* ... and after them */
    size_t unreachable;    /* frames whose contact B's arm cannot reach (the hand's
                              target beyond the shoulder's reach, or nearer the
                              shoulder than the folded arm comes) */
    double short_by;       /* ... by how much at most, of B's arm */
    size_t blocked;        /* frames whose hand left its contact as its forearm or hand would
                              else pass through B's body */
    size_t apart;          /* frames where it cannot hold together with the hand's other
                              contacts: at the best place found for the hand, more than 5%
                              of B's arm off */
    double apart_least;    /* ... the least gap error there, of B's arm */
    size_t refused;        /* frames whose correction the elbow law refused (the arm's solve
                              would have bent an elbow backwards: the hand left as it was) */
} pk_sizing_contact;

typedef struct pk_sizing_measure {
    uint32_t first, last;         /* frames measured */
    double arm_a, arm_b, leg_a, leg_b; /* units */
    pk_sizing_contact *contacts;  /* by first frame, owned */
    size_t ncontacts;
    size_t contact_frames;        /* (contact, frame) pairs */
    double hands_before_mean, hands_before_p95, hands_after_mean, hands_after_p95;
    size_t reach_frames;          /* those B can hold: within the reach of its arms and not
                                     through its body, holding with the hand's other contacts,
                                     its correction not refused (neither out_of_reach nor
                                     blocked nor apart nor refused) */
    double reach_before_mean, reach_before_p95, reach_after_mean, reach_after_p95; /* on them */
    size_t planted_frames;        /* foot frames planted on A (low and still) */
    double slide_a;               /* A's mean slide per planted frame, scaled, of B's leg */
    double slide_b_before, slide_b; /* B's, before and after */
    double slide_excess_max;      /* worst per-frame (B's slide - A's scaled), of B's leg, after */
    double slide_excess_max_before; /* ... before the sizing steps */
    double floor_p95_before, floor_p95; /* |B's ankle lift - A's scaled|, of B's leg */
    size_t far_frames;            /* arm frames more than 15 frames from any contact of its hand */
    double drift_max_deg, drift_mean_deg; /* their arm directions against before */
    bool bodies;                  /* B has follow-bone rigid bodies */
    size_t pen_before, pen_after; /* frames of a forearm or hand inside B's bodies (deeper
                                     than 1% of B's arm) while A's is not */
    double pen_deepest_before, pen_deepest_after; /* of B's arm */
    uint32_t pen_worst_frame;     /* the frame of the deepest after (pen_after > 0) */
    size_t elbow_frames, knee_frames; /* joints x frames checked */
    size_t elbow_past_before, knee_past_before; /* ... past B's rest bend plane by more than a
                                                   degree beyond A's (sizing_measure.c), before */
    size_t elbow_past, knee_past;  /* ... and after */
    size_t elbow_worse;            /* frames past after, and by more than half a degree further
                                      than before: what the sizing steps did (0: the law) */
    double elbow_worst_deg, knee_worst_deg; /* the worst after, degrees past */
    pk_body_measure body;
} pk_sizing_measure;
PK_API void pk_sizing_measure_free(pk_sizing_measure *m);

typedef struct pk_retarget_options {
    const struct pk_model *from, *to;
    bool no_stance, no_scale, no_fold, fingers;
    /* the sizing steps (pk_sizing_report), each on unless turned off */
    bool no_contacts, no_avoid, no_twist;
    /* the body steps (pk_body_report), each on unless turned off */
    bool no_centre, no_upper, no_shoulders, no_toes;
    /* each 足ＩＫ moved outward, along the hips' X, by this many units of
     * B (legs thicker than A's that would overlap); 0: none */
    double feet_apart;
    /* fill pk_retarget_report.measure */
    bool measure;
    /* the models' names for messages (their files, or a job's names);
     * NULL: "the source model", "the target model" */
    const char *from_name, *to_name;
    /* scale: also move each 足ＩＫ by pk_leg_scale.ik_shift, so the foot
     * stands where A's stands from A's hip (scaled), not at B's own rest;
     * a key at rest on A is then not at rest on B.  Off (the default), a
     * key at rest on A is at rest on B, but for the stance bones, which
     * take A's rest direction of the arm. */
    bool feet_from_source;
    /* keep the keys of bones A lacks and B has (a --from that stands in
     * for the model the motion was made for); else they are left out */
    bool keep_absent;
    /* the fold's tolerances at every integer frame (degrees, units);
     * 0: PK_REDUCE_DEG, PK_REDUCE_POS */
    double max_deg, max_pos;
    /* scale: the translations' XZ factor instead of B's leg over A's
     * (dancers sized together share one); 0: computed.  Y stays B's leg
     * height over A's. */
    double scale_xz;
    /* scale: the whole body moved by this much in X and Z besides (the
     * translations of 全ての親, else of the root bones among those scaled;
     * a key at frame 0 added where they have none): a dancer's place among
     * others, so that its centre stands where its source's does, scaled */
    double place[2];
} pk_retarget_options;

typedef struct pk_retarget_report {
    bool stance_done, scale_done, fold_done;
    pk_stance stance;
    pk_leg_scale scale;
    pk_fold_report fold;
    size_t stance_keys;  /* keys the stance step changed or added */
    size_t stance_added; /* ... of them stance bones given a key at frame 0 */
    size_t rules_keys;   /* keys the rules' stance and scale changed or added */
    size_t scale_keys;   /* keys the scale step changed */
    /* Bones the input moves (a key off rest) that A lacks and B has: MMD
     * plays none of their keys on A, so B would show what A does not;
     * their keys are left out (a warning names them), or kept with the
     * options' keep_absent (absent_kept). */
    char **dropped; /* UTF-8 names, in the input's order */
    size_t ndropped;
    size_t dropped_keys;
    bool absent_kept;
    size_t bones_keyed;     /* distinct bones the input keys (after the rename) */
    size_t bones_on_target; /* ... of them B has */
    pk_sizing_report sizing;
    pk_body_report body;
    pk_sizing_measure *measure; /* with the options' measure: owned, else NULL */
} pk_retarget_report;
PK_API void pk_retarget_report_free(pk_retarget_report *r);
/* Rename (r may be NULL), drop duplicate keys, leave out the keys of bones
 * A lacks and B has (unless keep_absent), fold, stance, the rules' stance
 * and scale, then the computed scale; st counts the keys in, out,
 * changed, added and removed.  On failure m is untouched.  st and rep may
 * be NULL. */
PK_API int pk_motion_retarget_models(pk_motion *m, const pk_rules *r, const pk_retarget_options *o,
                                     pk_edit_stats *st, pk_retarget_report *rep, pk_log *log);
PK_API int pk_pose_retarget_models(pk_pose *p, const pk_rules *r, const pk_retarget_options *o,
                                   pk_edit_stats *st, pk_retarget_report *rep, pk_log *log);

/* ---- dancers sized together (engine/ops/retarget/troupe.c) ----
 * Several dances, each made for its model A_i and sized for its B_i with
 * every step of pk_motion_retarget_models, with:
 *  - one scale for every dancer's translations in X and Z (so the
 *    distances between dancers scale alike and a formation keeps its
 *    spacing): the options' scale, else the mean over the dancers of B's
 *    leg over A's (pk_leg_scale.xz); Y stays each dancer's own;
 *  - contacts between dancers: where a hand of one touches a hand or a
 *    body part of another on the A's, the B's touch the same way (two
 *    hands meet around their midpoint; a hand on a partner's part lands on
 *    the same place of the partner's B), eased in and out, each arm solved
 *    as the contacts step solves it (pk_sizing_report).
 * Each dancer plays its motion in its own world (MMD places every model at
 * the origin; a formation lives in the motions' translations).  Measured:
 * the spacing (per pair of dancers and frame, the distance between their
 * センター on the floor, X and Z, on B against A's times the scale, as a
 * fraction of the mean of the B's leg lengths 足->足首) and each contact's
 * gap on B (|gap_B - k gap_A| over the hand's B arm, k B's arm over A's,
 * the two dancers' mean for two hands), before the contacts between
 * dancers (each sized alone with the shared scale) and after. */
typedef struct pk_dancer {
    pk_motion *motion;       /* made for o.from; sized for o.to in place (untouched on failure) */
    const pk_rules *rules;   /* renames first (NULL: none) */
    pk_retarget_options o;   /* its models and steps; scale_xz is set to the group's */
    pk_edit_stats *stats;    /* its keys in, out, changed, ... (may be NULL) */
    pk_retarget_report *rep; /* its own steps (may be NULL) */
    const char *name;        /* what its own steps say is placed at this name (its file;
                                pk_log_place); NULL: left to the caller */
} pk_dancer;

typedef struct pk_troupe_options {
    double scale; /* the shared XZ scale; 0: the mean of the dancers' leg ratios */
    bool own;     /* each dancer keeps its own scale (as sized alone) instead */
} pk_troupe_options;

typedef struct pk_troupe_contact {
    size_t dancer, partner; /* 0-based: the hand's dancer, the one it touches */
    int side;               /* the dancer's hand: 0 left, 1 right */
    char with[16];          /* the partner's "left hand", "right hand", "head", "chest", ... */
    uint32_t first, last;   /* frames */
    double gap_a;           /* A's smallest gap, of A's arm */
    double before_mean, before_max, after_mean, after_max; /* of the dancer's B arm */
} pk_troupe_contact;

typedef struct pk_troupe_report {
    double scale;                /* the XZ scale shared (own: the mean the spacing is held to) */
    bool scale_given, own;       /* the options' scale; each dancer its own */
    double ratio_min, ratio_max; /* the dancers' B leg over A leg */
    uint32_t first, last;        /* frames measured */
    size_t pairs;                /* pairs of dancers whose spacing was measured (0: a model
                                    without センター, or one dancer) */
    double leg;                  /* the B's mean leg length, units */
    double spacing_mean, spacing_max; /* |d_B - scale d_A| / leg */
    uint32_t spacing_worst_frame;
    size_t spacing_worst[2];                  /* the pair (0-based) */
    double spacing_worst_a, spacing_worst_b; /* ... and its distances there, units */
    size_t one_place;                        /* pairs standing in one place on most frames on
                                                the A's: no contact looked for between them */
    pk_troupe_contact *contacts;             /* by dancer, partner, first frame; owned */
    size_t ncontacts;
    size_t contact_frames;    /* (contact, frame) pairs measured */
    size_t moved_frames;      /* frames of a hand moved for them */
    size_t out_of_reach;      /* ... where the arm could not reach (stretched) */
    size_t folded;            /* ... where the target lay nearer the shoulder than the arm
                                 folds */
    size_t refused;           /* ... refused: the elbow would have bent backwards */
    size_t settled;           /* ... where the partner's was refused: this hand went the
                                 whole way to it */
    size_t kept;              /* contact frames left as sized alone: holding made the gap
                                 worse */
    double gap_before_mean, gap_before_p95, gap_after_mean, gap_after_p95;
    size_t reach_frames;      /* (contact, frame) pairs within B's arms' reach: no wrist's
                                 target further than 0.1% of its arm beyond it (肩
                                 turned), as a dancer's own contacts count it */
    double reach_before_mean, reach_before_p95, reach_after_mean, reach_after_p95;
    double reach_short_max;   /* on the others, the furthest a wrist's target lies beyond
                                 its arm (of that arm) with the spacing kept */
    size_t keys;              /* keys written for them */
} pk_troupe_report;
PK_API void pk_troupe_report_free(pk_troupe_report *r);
/* Sizes d[0..n) together (o may be NULL: the mean scale).  Every motion
 * changes, or none: 0, or -1 (logged; a message about one dancer begins
 * "dancer N: ").  rep may be NULL. */
PK_API int pk_motions_retarget_together(pk_dancer *d, size_t n, const pk_troupe_options *o,
                                        pk_troupe_report *rep, pk_log *log);

/* ---- the camera (engine/ops/retarget/retarget_camera.c; カメラ補正) ----
 * A camera motion made for a dance on model A, moved so that B, playing
 * the dance as retargeted for it, is framed as A was.  MMD's camera: the
 * eye is centre + R·(0, 0, distance) with R = Ry(−ry)·Rx(−rx)·Rz(−rz) (the
 * key's Euler angles, roll applied first), looking along R·(0, 0, 1) with
 * up R·(0, 1, 0); fov is the vertical view angle in degrees.  A point
 * lands on the screen at (x, y) / (z · 2·tan(fov/2)) in screen heights
 * (camera space x, y, z; the centre of the screen is 0).
 *
 * The points: the head (頭), both wrists (手首) and both ankles (足首) that
 * both models have, evaluated with IK at every frame.  At each frame the
 * eye moves and the camera turns a little (the view angle stays) so that
 * B's points land where A's did through the original camera: least
 * squares over the points on or near A's screen, then towards the
 * smallest largest distance, from the eye that keeps their centroid in
 * place at a distance scaled by the models' size, the angles pulled to
 * the camera's; the look-at point then keeps its depth in the subject
 * (distance scaled by the subject's depth), so a B that is A scaled by k
 * gets every distance and centre scaled by k and no turn.  Every key is
 * turned as that correction turns the camera (evened out), then moved at
 * once, curves kept (least squares over every frame of the camera MMD
 * plays from them); a stretch between keys whose
 * worst frame stays more than PK_CAMERA_SMOOTH worse than the
 * frame-by-frame correction evened out (so the camera does not follow
 * every hand movement; where that misses the goal, a smooth path fitted
 * to every frame's points at once, its angles held more loosely, turned
 * up to about 15°), or that lands fewer of its frames within the goal
 * than that, is fitted again from it by the keyframe reducer
 * (pk_motion_reduce, the camera alone; max_deg, max_pos, when given, cap
 * its tolerances), smoother where it would turn or move from one frame
 * to the next more than 2.5 times the original's most.  Cuts stay cuts;
 * keys come out sorted by frame.
 * Orthographic frames (perspective byte not 0) are left as they are.
 *
 * Measured on every frame where A's head is on the screen (aspect: width
 * over height), over the points A shows on it: how far from A's each of
 * B's lands, in screen heights, with the camera unchanged (before) and
 * corrected (after), and through the best camera for each frame (every
 * parameter free, searched from several starts: the least any camera was
 * found to leave; a bound, and the frames it misses the goal on);
 * and how steady the camera is: its largest turn and eye move from one
 * frame to the next, beside the original's. */
#define PK_CAMERA_SMOOTH 0.005 /* screen heights */
#define PK_CAMERA_ASPECT (16.0 / 9.0)
#define PK_CAMERA_GOAL 0.02 /* a frame within it: every point this close, screen heights */

typedef struct pk_camera_options {
    const struct pk_model *from, *to;
    const pk_motion *dance_from; /* the dance as made for `from` */
    const pk_motion *dance_to;   /* the dance as retargeted for `to` */
    double aspect;               /* 0: PK_CAMERA_ASPECT */
    double max_deg, max_pos;     /* caps on the refit's tolerances (0: a fifth of a percent of
                                    the screen height) */
} pk_camera_options;

typedef struct pk_camera_report {
    size_t points;              /* of the five, those both models have */
    size_t frames;              /* frames looked at (the camera's and the dance's span) */
    size_t frames_on_screen;    /* ... A's head on the screen: the frames measured */
    size_t measured;            /* points measured over those frames */
    double before_worst, before_mean; /* the camera unchanged, screen heights */
    double after_worst, after_mean;   /* corrected */
    double best_worst, best_mean;     /* the frame-by-frame correction itself */
    double bound_worst, bound_mean;   /* the best camera per frame, every parameter free (a
                                         search from several starts: the least found) */
    uint32_t before_worst_frame, after_worst_frame;
    size_t before_goal, after_goal; /* measured frames whose every point is within
                                       PK_CAMERA_GOAL of A's */
    size_t bound_goal;              /* ... through the best camera per frame */
    double turn_deg;                /* the largest turn of the camera, measured frames, degrees */
    size_t best_goal;               /* ... through the frame-by-frame correction */
    /* the shot's steadiness, over measured frames and the one before each
     * (not at a cut of the original): the largest turn from one frame to
     * the next (degrees) and the largest move of the eye (how far it moves
     * the head on the screen, screen heights), written and original */
    double step_deg, step_deg_orig, step_eye, step_eye_orig;
    size_t keys_in, keys_out; /* camera keys */
    size_t kept;              /* keys moved with their curves kept */
    size_t pieces;            /* stretches fitted again */
    size_t piece_keys;        /* keys those stretches got */
    size_t ortho;             /* orthographic frames left alone */
    size_t cuts;              /* new shots cut to (their keys in piece_keys) */
    /* the measured frames the best camera found misses the goal on (no
     * camera lands every point there: the goal out of reach), as runs of
     * frames [first, last]; allocated: pk_camera_report_free */
    uint32_t (*unmet)[2];
    size_t nunmet;
} pk_camera_report;

/* Frees r's runs of frames (r itself is the caller's). */
PK_API void pk_camera_report_free(pk_camera_report *r);

/* Corrects camera's camera keys in place (its other sections untouched;
 * the camera keys sorted by frame).  0, or -1 (logged; camera
 * untouched; rep holds nothing to free) when camera has no camera key,
 * the models share no point, or on OOM.  rep may be NULL; else
 * pk_camera_report_free(rep) after a success. */
PK_API int pk_motion_retarget_camera(pk_motion *camera, const pk_camera_options *o,
                                     pk_camera_report *rep, pk_log *log);

/* ======================================================================
 * Overlay, merge (engine/ops/keys/overlay.c, engine/ops/keys/merge.c)
 * ====================================================================== */

/* ---- overlay (engine/ops/keys/overlay.c) ----
 * Lays a pose over chosen bones of a motion for frames [first, last] with
 * `fade` frames of fade on each side (doc/architecture.md "Overlay"):
 *  - outside [first-fade, last+fade] every selected bone samples exactly as
 *    in the base (within PK_OVERLAY_TOL_DEG / PK_OVERLAY_TOL_POS at every
 *    integer frame): edge keys are added, a base segment crossed by an edge
 *    is split by de Casteljau subdivision when the two halves fit MMD's
 *    0..127 control-point grid within tolerance (checked at every integer
 *    frame), otherwise the piece is FITTED: described by the fewest keys
 *    whose curves the shared fitter (the one `reduce` uses) finds within
 *    PK_OVERLAY_FIT_DEG / PK_OVERLAY_FIT_POS, each checked with the sampler
 *    at every integer frame (usually one key: a cut curve's piece is a
 *    Bezier, just not always on the grid); with `exact`, or when fitting
 *    fails, the piece is baked into one key per frame;
 *  - inside, replace: the pose's value; add: base rotation x pose rotation
 *    and base translation + pose translation (the base's keys inside the
 *    range are kept, multiplied);
 *  - each fade is ONE segment from the base value at the outer edge to the
 *    overlay value at the range edge, shaped by PK_FADE_CURVE (an ease-in/
 *    ease-out Bezier on all four channels, slerp for rotation);
 *  - records of every other bone, every morph, camera, light, shadow and IK
 *    record stay byte-identical and in order; changed keys of selected bones
 *    are dropped and the new keys appended after the other bone records.
 * Bones are matched to the pose by raw name (a pose name longer than 15
 * bytes also matches its 15-byte cut).  Selected bones that the base has
 * but the pose lacks are left alone with a warning. */
typedef enum pk_overlay_mode { PK_OVERLAY_REPLACE = 0, PK_OVERLAY_ADD = 1 } pk_overlay_mode;

#define PK_OVERLAY_TOL_DEG 1e-4 /* rotation tolerance outside the window, degrees */
#define PK_OVERLAY_TOL_POS 1e-5 /* translation tolerance, MMD units */
/* Tolerances of a fitted piece (outside the window where a crossed curved
 * segment could not be split exactly): the smallest differences diff
 * reports by default. */
#define PK_OVERLAY_FIT_DEG 0.01
#define PK_OVERLAY_FIT_POS 1e-4
/* The fade curve (x1, y1, x2, y2 on MMD's 0..127 grid): symmetric ease in
 * and out, the CSS "ease-in-out" (0.42, 0, 0.58, 1) rounded to the grid. */
#define PK_FADE_CURVE                                                                              \
    {                                                                                              \
        53, 0, 74, 127                                                                             \
    }

typedef struct pk_overlay_options {
    pk_overlay_mode mode;
    bool all_frames;      /* the whole motion: first/last/fade ignored */
    uint32_t first, last; /* [A, B], A <= B (--frames N: A = B = N) */
    uint32_t fade;        /* F */
    bool exact;           /* no fitting: a piece that does not split within the
                             PK_OVERLAY_TOL_* tolerances is baked (one key per frame) */
} pk_overlay_options;

typedef struct pk_overlay_stats {
    size_t bones;          /* bone tracks changed or created (that sample differently) */
    size_t missing;        /* selected base bones absent from the pose (warned) */
    size_t keys_removed;   /* records of selected bones dropped */
    size_t keys_added;     /* records appended */
    size_t split;          /* crossed pieces re-curved within tolerance ... */
    size_t split_exact;    /* ... of which trivially (linear curve or no motion) */
    size_t fitted;         /* pieces fitted within PK_OVERLAY_FIT_DEG / _POS ... */
    size_t fitted_keys;    /* ... and the keys they needed inside the piece (0: one segment) */
    size_t baked;          /* pieces baked into per-frame keys */
    size_t baked_keys;     /* keys those bakes produced */
    size_t morphs;         /* morph tracks changed or created */
    size_t morphs_missing; /* selected base morphs absent from the pose (warned in one line) */
    size_t bones_same;     /* selected bones the pose holds that already sample as the
                              overlay makes them (within PK_OVERLAY_TOL_*): left as they were */
    size_t morphs_same;    /* the same for morphs (within 1e-5) */
} pk_overlay_stats;

/* VMD base.  Returns a new motion (caller frees with pk_motion_free) or
 * NULL.  stats may be NULL; it is zeroed first. */
PK_API pk_motion *pk_overlay_motion(const pk_motion *base, const pk_pose *pose,
                                    const pk_selection *sel, const pk_overlay_options *opt,
                                    pk_overlay_stats *stats, pk_log *log);
/* VPD base: selected bones take the pose's values (replace) or are
 * composed (add); bones only in the pose are appended.  Returns a new pose
 * (caller frees with pk_pose_free) or NULL. */
PK_API pk_pose *pk_overlay_pose(const pk_pose *base, const pk_pose *pose, const pk_selection *sel,
                                pk_overlay_mode mode, pk_overlay_stats *stats, pk_log *log);

/* ---- keyframe reduction and baking (engine/ops/keys/reduce.c) ----
 * Reduce: per selected bone and morph track (morphs unless `morphs` is
 * false), the fewest keys such that every integer frame between the
 * range's first and last key samples within the tolerances of the input
 * (rotation: degrees between the quaternions, translation: the distance
 * in units, as pk_motion_diff measures it, morph: weight); checked with
 * the sampler, never by trusting the
 * fitter.  The four curves of a bone key are chosen together.  Kept: the
 * range's first and last key, both keys of every discontinuity (two input
 * keys on adjacent frames with a step much larger than its neighbours').
 * A whole track within tolerance of its first key becomes that key.  A
 * track is never given more keys than it had.  Everything not selected
 * (other tracks, keys outside the range, camera, light, shadow, IK) stays
 * byte-identical and in file order; the range's first key keeps its
 * record; new keys are appended after the other records of their section.
 * A track spanning 4,194,304 frames or more (a key far from the others) is
 * reduced in pieces cut at its keys, each piece's end keys kept, a longer
 * single segment kept as it is.
 * Bake: for the same selection, a key every `step` frames (and at the
 * last frame) with linear curves holding the sampled values; with a frame
 * range the baked span grows to the input keys around it, so frames
 * outside the range keep their values.  A track that would span 4,194,304
 * frames or more is an error naming it (nothing is baked). */
#define PK_REDUCE_DEG 0.1     /* default rotation tolerance, degrees */
#define PK_REDUCE_POS 0.005   /* default translation tolerance, MMD units */
#define PK_REDUCE_MORPH 0.002 /* default morph weight tolerance */

typedef struct pk_reduce_options {
    double max_deg, max_pos, max_morph; /* tolerances, > 0 (reduce) */
    const pk_selection *bones;          /* bone and morph tracks, by name (as diff and
                                           overlay select); NULL = every bone and morph */
    bool all_frames;                    /* the whole motion: first/last ignored */
    uint32_t first, last;               /* [A, B] */
    bool morphs;                        /* morph tracks too (those `bones` selects) */
    bool camera;                        /* the camera too: centre (as a distance) and
                                           distance within max_pos, Euler angles within
                                           max_deg, fov
                                           (whole degrees) and perspective exact; a motion
                                           with camera keys and no bone or morph key has its
                                           camera done without it (when bones is NULL) */
    uint32_t step;                      /* bake: a key every step frames (0 = 1) */
} pk_reduce_options;

/* Defaults: the PK_REDUCE_* tolerances, all frames, morphs, step 1. */
PK_API void pk_reduce_options_init(pk_reduce_options *o);

typedef struct pk_reduce_stats {
    size_t keys_before[PK_SEC_COUNT], keys_after[PK_SEC_COUNT]; /* records per section */
    size_t bone_tracks, morph_tracks; /* tracks rewritten: a record dropped or added */
    size_t camera_tracks;             /* 1 when the camera was rewritten */
    size_t discontinuities;           /* jumps kept as adjacent keys */
    size_t refitted; /* segments the sampler rejected, replaced by one key per frame */
    double worst_deg, worst_pos, worst_morph; /* largest error met at an integer frame
                                                 (worst_pos: a distance) */
    double worst_cam_deg, worst_cam_pos;      /* the camera's (Euler angles; centre, distance) */
    bool camera; /* the camera was done: the option, or a motion holding only camera keys */
} pk_reduce_stats;

/* Return a new motion (caller frees with pk_motion_free) or NULL (error
 * logged).  stats may be NULL; it is zeroed first. */
PK_API pk_motion *pk_motion_reduce(const pk_motion *m, const pk_reduce_options *o,
                                   pk_reduce_stats *stats, pk_log *log);
PK_API pk_motion *pk_motion_bake(const pk_motion *m, const pk_reduce_options *o,
                                 pk_reduce_stats *stats, pk_log *log);

/* ---- smoothing (engine/ops/keys/smooth.c) ---- */
#define PK_SMOOTH_STRENGTH 60      /* default widest window: frames on each side */
#define PK_SMOOTH_STRENGTH_MAX 120 /* the largest strength */

typedef struct pk_smooth_options {
    const pk_selection *bones; /* bone and morph tracks, by name (as reduce selects); NULL =
                                  every bone and morph */
    bool morphs;               /* morph tracks too (those `bones` selects) */
    uint32_t strength;         /* the widest window: frames on each side of a frame, 2 to
                                  PK_SMOOTH_STRENGTH_MAX (at 30 fps, 60 is two seconds) */
    double noise_deg, noise_pos, noise_morph; /* the noise's deviation per axis when known
                                                 (degrees, units, weight); 0: estimated per
                                                 track from its third differences */
    bool contacts; /* hold planted feet: runs of still frames on 左足ＩＫ, 右足ＩＫ,
                      左つま先ＩＫ, 右つま先ＩＫ keep one position */
} pk_smooth_options;

/* Defaults: PK_SMOOTH_STRENGTH, noise estimated, morphs and contacts on. */
PK_API void pk_smooth_options_init(pk_smooth_options *o);

typedef struct pk_smooth_stats {
    size_t keys_before[PK_SEC_COUNT], keys_after[PK_SEC_COUNT]; /* records per section */
    size_t bone_tracks, morph_tracks; /* smoothed: rewritten a key a frame */
    size_t clean_tracks;              /* selected tracks with no noise found: left as they were */
    double noise_deg, noise_pos, noise_morph; /* the largest noise of a smoothed track
                                                 (deviation per axis) */
    double moved_deg, moved_pos, moved_morph; /* the largest change at a frame */
    double mean_deg, mean_pos;                /* the mean change of a smoothed rotation,
                                                 translation, over its frames */
    size_t contacts, contact_frames;          /* planted-foot runs held, their frames */
    size_t jumps;                             /* breaks no window crossed */
    size_t peaks;                             /* peaks of fast swings met in the input */
    double peak_loss_deg;                     /* the largest loss of peak angle at one */
    pk_name_id peak_bone;                     /* ... its bone (PK_NO_NAME: none) */
    uint32_t peak_frame;                      /* ... and frame */
} pk_smooth_stats;

/* A new motion (caller frees with pk_motion_free) with the selected noisy
 * bone and morph tracks filtered and written a key a frame with linear
 * curves, every other record byte-identical and in order; NULL on error
 * (logged).  stats may be NULL; it is zeroed first. */
PK_API pk_motion *pk_motion_smooth(const pk_motion *m, const pk_smooth_options *o,
                                   pk_smooth_stats *stats, pk_log *log);

/* ---- merge (engine/ops/keys/merge.c) ---- */
typedef enum pk_merge_policy {
    PK_MERGE_LAST = 0, /* the later input wins (MMD loading motions one after another) */
    PK_MERGE_FIRST = 1,
    PK_MERGE_ERROR = 2
} pk_merge_policy;

typedef struct pk_merge_input {
    const pk_motion *motion; /* exactly one of motion / pose */
    const pk_pose *pose;     /* counts as a one-frame motion at `offset` */
    int64_t offset;          /* frames added to every key; a negative offset cuts the input at
                                frame -offset: keys before it are dropped and every track that had
                                any keeps its value at the cut as a key at the new frame 0 */
    unsigned sections;       /* the sections taken: bits (1u << pk_section); 0 = all */
    bool within;             /* bones and morphs replace the merge of the other inputs only
                                inside this input's frame range [A, B] (first to last of its
                                bone and morph keys, after the offset): the result samples as
                                this input at every frame in [A, B] and exactly as the others at
                                every frame <= A-1 and >= B+1 (overlay's boundary law: crossed
                                segments split or baked).  Inputs with `within` are laid in
                                order after the others are merged; their camera, light, shadow
                                and IK records merge key by key. */
    const char *name;        /* how messages name it (its file); NULL: "input K" */
} pk_merge_input;

/* One conflict: the same track and frame with different values in two
 * inputs.  name is NULL for camera, light, shadow and IK records. */
typedef struct pk_merge_conflict {
    pk_section section;
    char *name; /* UTF-8, owned by the report */
    uint32_t frame;
    size_t kept, dropped; /* input indices */
} pk_merge_conflict;

/* One overlap: a track (or camera, light, shadow, IK section) that two
 * inputs both key over overlapping frame ranges (one input's key strictly
 * inside the other's first..last), so the merged track runs through both
 * inputs' keys and is re-interpolated between them.  Ranges touching at
 * one end frame (one motion after the other) are not overlaps.  Inputs
 * with `within` do not overlap (they replace their range). */
typedef struct pk_merge_overlap {
    pk_section section;
    char *name;  /* UTF-8, owned by the report; NULL for camera, light, shadow, IK */
    size_t a, b; /* input indices, a < b */
    uint32_t a_first, a_last, b_first, b_last; /* their keys' frames, after the offsets */
} pk_merge_overlap;

typedef struct pk_merge_report {
    pk_merge_conflict *items; /* owned; free with pk_merge_report_free */
    size_t count, cap;
    size_t below_zero;          /* keys dropped because their offset frame was < 0 */
    size_t identical;           /* keys present with the same value in several inputs (kept once) */
    pk_merge_overlap *overlaps; /* owned; free with pk_merge_report_free */
    size_t noverlaps, cap_overlaps;
    size_t cut_keys;      /* keys added at a negative offset's cut (the pose kept there) */
    size_t within_tracks; /* bone and morph tracks replaced inside a `within` input's range */
    size_t within_baked;  /* crossed pieces baked (one key per frame) by those */
    size_t past_end;      /* keys dropped because their offset frame was > 4294967295 */
} pk_merge_report;

/* Combines the inputs' tracks.  Header, model name and end-of-file layout
 * come from the first input that has any record (else the first input), so
 * merging a motion with an empty one gives it back byte-identical.  Records
 * keep their file order, input after input; losers of a conflict are
 * dropped.  Overlaps are reported.  PK_MERGE_ERROR: every conflict and
 * every overlap is an error, returns NULL.
 * report may be NULL.  Returns a new motion (pk_motion_free) or NULL. */
PK_API pk_motion *pk_merge(const pk_merge_input *in, size_t n, pk_merge_policy policy,
                           pk_merge_report *report, pk_log *log);
PK_API void pk_merge_report_free(pk_merge_report *r);

/* A pose as a motion: pk_pose_to_motion (model section above). */

/* ---- time, crossfade, curves (engine/ops/keys/time.c, crossfade.c,
 * curves.c) ----
 * Time: trim to frames [first, last] (every track that has keys samples as
 * the input at every integer frame of the range: segments an edge crosses
 * are cut there, a bone's and the camera's curves split as overlay splits
 * them, PK_OVERLAY_FIT_* at worst; light cut exactly; shadow and IK
 * records held; a key made at `first` has linear curves), then shift by
 * `shift` frames (a negative shift cuts the frames before -shift as a
 * trim does), then scale time by `scale` about frame 0: a key at f goes
 * to round(f * scale) with its curves.  Two keys one frame apart with no
 * key one frame before or after them (a cut) stay one frame apart; keys
 * landing on one frame: the latest keeps it, the one before it moves a
 * frame back when that frame is free, others are dropped (counted). */
typedef struct pk_time_options {
    uint32_t first, last; /* keep [first, last]; 0 and UINT32_MAX: everything */
    int64_t shift;        /* frames added after the trim */
    double scale;         /* time factor after the shift, > 0 (1: none) */
} pk_time_options;

typedef struct pk_time_stats {
    size_t keys_before[PK_SEC_COUNT], keys_after[PK_SEC_COUNT];
    bool trimmed;        /* the range cut something ... */
    uint32_t first, last; /* ... to these frames (a negative shift's cut included) */
    size_t split;        /* crossed segments split onto MMD's curve grid */
    size_t fitted;       /* ... fitted within PK_OVERLAY_FIT_* instead */
    size_t baked;        /* ... baked (a key per frame) */
    size_t rounded;      /* keys whose scaled frame was rounded to a whole frame */
    double max_round;    /* the largest such move, frames */
    size_t cuts_kept;    /* one-frame pairs kept one frame apart */
    size_t merged;       /* keys dropped: another key took their frame */
    size_t duplicates;   /* duplicate records dropped first */
} pk_time_stats;

/* Defaults: no trim, no shift, scale 1. */
PK_API void pk_time_options_init(pk_time_options *o);
/* A new motion (pk_motion_free) or NULL (logged).  stats may be NULL. */
PK_API pk_motion *pk_motion_time(const pk_motion *m, const pk_time_options *o,
                                 pk_time_stats *stats, pk_log *log);

/* Crossfade: `a` until frame `start`, then `b` shifted by start + shift_b
 * frames (b's frame 0 lands on start + shift_b; shift_b may be negative
 * to skip b's first frames, those before -shift_b cut away), with `frames`
 * frames of fade: at every integer frame f <= start the result samples as
 * a, at f >= start + frames as the shifted b, and in between every bone
 * and morph blends from a to b by the ease PK_FADE_CURVE of (f - start) /
 * frames (rotation slerped, translation and weight lerped; a track one
 * motion lacks is at rest there: identity, weight 0).  The fade's keys
 * are fitted by the reducer within PK_REDUCE_*; a track still through the
 * fade in both motions gets none.  Camera and light move
 * linearly across the fade from a's value to b's; shadow and IK switch at
 * the fade's end.  Header and model name come from a. */
typedef struct pk_crossfade_stats {
    size_t bones, morphs;         /* tracks blended */
    size_t keys_a, keys_b;        /* bone and morph keys kept from each */
    size_t fade_keys;             /* keys inside the fade after fitting */
    double worst_deg, worst_pos, worst_morph; /* the fit's worst error in the fade */
} pk_crossfade_stats;
PK_API pk_motion *pk_motion_crossfade(const pk_motion *a, const pk_motion *b, uint32_t start,
                                      uint32_t frames, int64_t shift_b, pk_crossfade_stats *stats,
                                      pk_log *log);

/* Curves: the interpolation of the selected bones' keys whose frame is in
 * [first, last] (the curve a key holds shapes the segment that ends at
 * it) set to cp for the channels in `axes` (bits 1 << 0..3: X, Y, Z,
 * rotation; 0: all four).  The physics flag and everything else of each
 * record is kept. */
typedef struct pk_curve_stats {
    size_t tracks;    /* bone tracks with a key in range */
    size_t keys;      /* keys in range */
    size_t changed;   /* ... whose curves changed */
    size_t camera_keys, camera_changed; /* pk_motion_set_camera_curves: the same */
} pk_curve_stats;
PK_API int pk_motion_set_curves(pk_motion *m, const pk_selection *bones, uint32_t first,
                                uint32_t last, const uint8_t cp[4][4], unsigned axes,
                                pk_curve_stats *stats, pk_log *log);
/* The same for the camera keys of frames first..last: cp[c] = x1, y1,
 * x2, y2 of channel c (0..5: centre X, Y, Z, rotation, distance, view
 * angle), stored in the camera's order (x1, x2, y1, y2); axes: bits 1 <<
 * 0..5 (0: all six).  Adds to stats' camera_keys and camera_changed. */
PK_API void pk_motion_set_camera_curves(pk_motion *m, uint32_t first, uint32_t last,
                                        const uint8_t cp[6][4], unsigned axes,
                                        pk_curve_stats *stats);

/* ======================================================================
 * Models (engine/format/pmx.c, engine/format/pmd.c, engine/model/skeleton.c,
 * engine/ops/skeleton/check.c) — read only: the skeleton a motion plays on.
 * ====================================================================== */

/* PMX bone flags, as stored (PMD bones get the equivalent set from their
 * kind, doc/commands.md "Models (PMX, PMD)"). */
#define PK_BONE_TAIL_IS_BONE 0x0001 /* tail is a bone index, else an offset */
#define PK_BONE_ROTATE 0x0002
#define PK_BONE_MOVE 0x0004
#define PK_BONE_VISIBLE 0x0008
#define PK_BONE_OPERABLE 0x0010
#define PK_BONE_IK 0x0020
#define PK_BONE_LOCAL_APPEND 0x0080
#define PK_BONE_APPEND_ROTATE 0x0100
#define PK_BONE_APPEND_MOVE 0x0200
#define PK_BONE_FIXED_AXIS 0x0400
#define PK_BONE_LOCAL_AXES 0x0800
#define PK_BONE_AFTER_PHYSICS 0x1000
#define PK_BONE_EXTERNAL_PARENT 0x2000

typedef struct pk_model_ik_link {
    int32_t bone; /* bone index */
    bool limited; /* min/max hold per-axis limits (radians) */
    float min[3], max[3];
} pk_model_ik_link;

/* One bone.  Indices are into pk_model.bones, -1 = none.  Strings are
 * UTF-8, NUL-terminated, owned by the model ("" when empty). */
typedef struct pk_model_bone {
    const char *name, *name_en;
    pk_name_id cp932; /* the name as CP932 bytes in model->names (what VMD and
                         VPD keys hold); PK_NO_NAME when CP932 cannot encode it */
    int32_t parent;
    float pos[3];          /* rest position, model space */
    int32_t layer;         /* deform layer */
    uint16_t flags;        /* PK_BONE_*; unknown bits kept */
    int32_t tail_bone;     /* flags & PK_BONE_TAIL_IS_BONE: the tail bone (or -1) */
    float tail[3];         /* otherwise: the tail offset */
    int32_t append_parent; /* APPEND_ROTATE/APPEND_MOVE: inherit from (-1 otherwise) */
    float append_ratio;
    float fixed_axis[3];
    float local_x[3], local_z[3];
    int32_t external_key; /* EXTERNAL_PARENT: the key (0 otherwise) */
    int32_t ik_target;    /* IK: the target bone (-1 when not an IK bone) */
    int32_t ik_loops;
    float ik_limit;             /* per-step angle limit in radians (PMD: stored value x 4) */
    pk_model_ik_link *ik_links; /* owned by the model */
    size_t nik_links;
    int pmd_kind; /* PMD: the bone kind byte 0..9; PMX: -1 */
} pk_model_bone;

typedef struct pk_model_morph {
    const char *name, *name_en; /* UTF-8, owned by the model */
    pk_name_id cp932;           /* as for bones */
    uint8_t panel;              /* 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other */
    uint8_t kind;               /* PMX: 0 group, 1 vertex, 2 bone, 3 UV, 4-7 extra UV,
                                   8 material, 9 flip, 10 impulse; PMD: 1 */
} pk_model_morph;

typedef struct pk_model_frame_item {
    uint8_t kind;  /* 0 bone, 1 morph */
    int32_t index; /* into bones or morphs */
} pk_model_frame_item;

/* A display frame: the model author's group of bones or morphs. */
typedef struct pk_model_frame {
    const char *name, *name_en;
    uint8_t special;            /* 1: the Root and 表情 frames */
    pk_model_frame_item *items; /* owned by the model */
    size_t nitems;
} pk_model_frame;

/* Rigid body shapes and physics modes (doc/formats.md §11.1). */
#define PK_RIGID_SPHERE 0
#define PK_RIGID_BOX 1
#define PK_RIGID_CAPSULE 2
#define PK_RIGID_FOLLOW_BONE 0  /* moves with its bone: the bone's keys rule */
#define PK_RIGID_PHYSICS 1      /* drives its bone: MMD overwrites the bone's keys */
#define PK_RIGID_PHYSICS_BONE 2 /* drives its bone's rotation; the position follows the bone */

/* One rigid body, as stored, except that a PMD body's position (stored
 * relative to its bone's rest position, or to bone 0's when it names
 * none, as MMD places it) is given in model space like a PMX body's. */
typedef struct pk_model_rigid {
    const char *name, *name_en; /* UTF-8, owned by the model ("" when empty; PMD: no English) */
    int32_t bone;               /* the bone it follows or drives; -1 none */
    uint8_t group;              /* collision group 0..15 (PMX Editor shows 1..16) */
    uint16_t mask;              /* bit g set: collides with group g (PMX Editor's
                                   "non-collision" boxes are the cleared bits) */
    uint8_t shape;              /* PK_RIGID_SPHERE, _BOX, _CAPSULE; other values kept (warned) */
    float size[3];              /* sphere: radius; box: half extents x, y, z; capsule:
                                   radius, height (of the cylinder between the caps) */
    float pos[3];               /* centre at rest, model space */
    float rot[3];               /* rest rotation: Euler angles in radians, as stored */
    float mass, linear_damping, angular_damping, restitution, friction;
    uint8_t mode;               /* PK_RIGID_FOLLOW_BONE, _PHYSICS, _PHYSICS_BONE; others kept
                                   (warned) */
} pk_model_rigid;

/* Sections of a model file, for pk_model.counts. */
typedef enum pk_model_section {
    PK_MSEC_VERTICES = 0,
    PK_MSEC_FACES, /* triangles */
    PK_MSEC_TEXTURES,
    PK_MSEC_MATERIALS,
    PK_MSEC_BONES,
    PK_MSEC_MORPHS,
    PK_MSEC_FRAMES,
    PK_MSEC_RIGIDS,
    PK_MSEC_JOINTS,
    PK_MSEC_SOFTBODIES,
    PK_MSEC_COUNT
} pk_model_section;

typedef struct pk_model {
    int format;    /* PK_FMT_PMX, PK_FMT_PMD or PK_FMT_BODY (a pk_format) */
    float version; /* 2.0 / 2.1 (PMX), 1.0 (PMD), the body format's (1) */
    pk_text_encoding encoding;
    int extra_uv;          /* PMX: extra vec4 per vertex (0..4) */
    uint8_t index_size[6]; /* PMX: vertex, texture, material, bone, morph, rigid */
    const char *name, *name_en, *comment, *comment_en; /* UTF-8, owned */
    size_t counts[PK_MSEC_COUNT];
    bool has_english; /* PMD: the English extension is present */
    pk_names *names;  /* bone and morph names as CP932 bytes */
    pk_model_bone *bones;
    size_t nbones;
    pk_model_morph *morphs;
    size_t nmorphs;
    pk_model_frame *frames;
    size_t nframes;
    pk_model_rigid *rigids; /* in file order (the indices joints and morphs use) */
    size_t nrigids;
    size_t unencodable; /* bone and morph names CP932 cannot hold (warned) */
    struct pk_model_arena *arena_; /* private: the chunks its strings and arrays live in */
} pk_model;

/* Read a PMX 2.0/2.1 or a PMD 1.0 model.  Every section is walked (so a
 * damaged file is found wherever it is damaged) but only the skeleton,
 * morph names, display frames and rigid bodies are kept.  Counts are checked against
 * the bytes left before anything is allocated; errors are "offset:
 * message" naming the record.  A parent or IK index outside the model, a
 * parent cycle: see doc/commands.md "Models (PMX, PMD)" for which are errors and which
 * warnings.  Returns a new model (caller frees with pk_model_free) or NULL. */
PK_API pk_model *pk_pmx_read(const void *data, size_t len, pk_log *log);
PK_API pk_model *pk_pmd_read(const void *data, size_t len, pk_log *log);
/* By content ("PMX " / "Pmd"); other bytes are an error. */
PK_API pk_model *pk_model_read(const void *data, size_t len, pk_log *log);
/* Reads a file and pk_model_read's it; its diagnostics name path.  A file with
 * neither signature named .pmx or .pmd is read by that format's reader,
 * whose error is about that format ("not a PMX file", "the file ends
 * inside its signature"); one named .yaml, .yml or .json, or starting with
 * a body's first key, by the body reader (pk_body_read).  A name starting
 * with '@' is a built-in body (pk_body_find): "@classic", "@standard". */
PK_API pk_model *pk_model_load(const char *path, pk_log *log);
PK_API void pk_model_free(pk_model *m);
/* Index of the bone / morph whose CP932 name is raw[0..len), or -1. */
PK_API long pk_model_find_bone(const pk_model *m, const void *raw, size_t len);
PK_API long pk_model_find_morph(const pk_model *m, const void *raw, size_t len);
/* ---- bodies (engine/format/body.c; rules/bodies/README.md) ----
 * A body is a model described as text, YAML (JSON is YAML too): what the
 * evaluator, retarget and check read of a model (bones with their parents,
 * rest positions, flags, tails, append/inherit, fixed and local axes, IK
 * chains and limits; morph names; rigid bodies), by name, so that a dance
 * can be sized without the model it was made for.  posekit ships two,
 * found like the shipped rule files (in the data folders' bodies/):
 * "@classic" (the classic Miku skeleton) and "@standard" (a full
 * semi-standard skeleton). */
#define PK_BODY_VERSION 1
/* Reads a body.  Errors (a syntax error, an unknown key, a missing or
 * wrong value, a name given twice or naming no bone, a parent cycle) are
 * LINE:COL: message.  Returns a new model (format PK_FMT_BODY, UTF-8 names;
 * caller frees with pk_model_free) or NULL. */
PK_API pk_model *pk_body_read(const void *data, size_t len, pk_log *log);
/* Writes m as a body: keep (NULL: every bone) selects bones, to which the
 * bones they need are added (parents, append parents, IK targets and
 * links, the IK bones turning a kept bone), so that every kept bone
 * evaluates exactly as in m; a tail bone left out becomes the offset to
 * it.  Rigid bodies of kept bones and every morph name are written too.
 * header: text written first as '#' comment lines (NULL: none).  0, or -1
 * (OOM, logged). */
PK_API int pk_body_write(const pk_model *m, const bool *keep, const char *header, pk_buf *out,
                         pk_log *log);
/* The built-in bodies' names without '@' ("classic", "standard"), in the
 * order check lists them; *n receives how many. */
PK_API const char *const *pk_body_builtin_names(size_t *n);
/* The file of the built-in body "@NAME" (name with or without '@'): the
 * first data folder's bodies/NAME.yaml that exists (malloc'd, caller
 * frees), or NULL with an error naming every place looked in (or the
 * built-in names, for a name that is not one). */
PK_API char *pk_body_find(const char *name, pk_log *log);
/* Every built-in body, loaded (pk_model_load of "@NAME"). */
typedef struct pk_bodies {
    size_t n;
    const char *const *names; /* without '@' (static) */
    pk_model **models;        /* owned */
} pk_bodies;
/* NULL on error (logged, naming the body that failed). */
PK_API pk_bodies *pk_bodies_load(pk_log *log);
PK_API void pk_bodies_free(pk_bodies *b);
/* Which model a motion or pose was made for (engine/ops/skeleton/
 * body_fit.c): for each of models[0..n), how many of the bones the
 * document keys (keys at rest too: MMD saves one for every bone of the
 * model) it has, by check's matching (CP932 names, MMD's cut included),
 * into fit[i].  The pick: the first model that has every bone keyed (so
 * list the classic skeleton first); when none does, the one whose bones
 * overlap the document's most (both over either).  Returns its index
 * (whose has may be 0: no model has any of the bones), or -1 (logged) when
 * the document keys no bone, or on OOM. */
typedef struct pk_body_fit {
    size_t keyed;   /* bone names the document keys */
    size_t has;     /* of them, those the model has */
    size_t bones;   /* the model's bones */
    double overlap; /* has / (keyed + bones - has) */
} pk_body_fit;
PK_API long pk_body_fit_doc(const pk_model *const *models, size_t n, const pk_doc *doc,
                            pk_body_fit *fit, pk_log *log);

/* "vertices", "faces", ... (for reports). */
PK_API const char *pk_model_section_name(pk_model_section s);
/* Bones a rigid body of mode PK_RIGID_PHYSICS or PK_RIGID_PHYSICS_BONE
 * drives (MMD overwrites their keys while physics is on): driven[i] for
 * each of the model's nbones (driven may be NULL); returns how many. */
PK_API size_t pk_model_physics_bones(const pk_model *m, bool *driven);

/* ---- skeleton evaluation (engine/ops/skeleton/eval.c) ----
 * A local pose (per model bone: the key's translation and rotation, as a
 * VMD or VPD holds them) -> every bone's world transform, as MMD computes
 * it: deform layer then model order, after-physics bones last; parent
 * chain from the rest positions; append/inherit rotation and translation
 * with ratio (local append too); fixed axis (only the twist about it is
 * kept); IK with MMD's CCD solver (loop count, per-step angle limit,
 * per-link limits, the knee rule: a link named ひざ without limits of its
 * own, as in every PMD, turns about X between -180 and -0.5 degrees).
 * No physics: bones moved by rigid bodies follow their parents as keyed.
 * A world transform maps a point p of the rest model attached to bone i
 * to rot·(p - rest_i) + pos: pos is where the bone's origin is.
 * The rig holds scratch space: one evaluation at a time per rig. */
typedef struct pk_rig pk_rig;
typedef struct pk_bone_local {
    float pos[3]; /* translation from the rest offset */
    float rot[4]; /* x, y, z, w; all zero or non-finite: none */
} pk_bone_local;
typedef struct pk_bone_world {
    double pos[3]; /* the bone's origin in model space */
    double rot[4]; /* x, y, z, w */
} pk_bone_world;
#define PK_EVAL_NO_IK 1u     /* skip every IK solver */
#define PK_EVAL_NO_APPEND 2u /* skip append/inherit (with NO_IK: plain forward kinematics) */
/* The evaluation plan of a model (the model must outlive it); NULL on OOM. */
PK_API pk_rig *pk_rig_new(const pk_model *m, pk_log *log);
PK_API void pk_rig_free(pk_rig *r);
PK_API const pk_model *pk_rig_model(const pk_rig *r);
/* local: model->nbones entries (NULL: the rest pose); ik_on: per model
 * bone, whether its IK is on (NULL: all on); out: nbones entries. */
PK_API void pk_rig_eval(pk_rig *r, const pk_bone_local *local, const bool *ik_on, unsigned flags,
                        pk_bone_world *out);
/* Fills local with the rest pose (no translation, no rotation). */
PK_API void pk_rig_rest(const pk_rig *r, pk_bone_local *local);
/* local from a pose / a motion at a frame, bones matched by CP932 name
 * (also through MMD's cut of a longer model name: 19 bytes VPD, 15 VMD);
 * bones the pose lacks stay at rest.  ik_on (may be NULL): the VMD's IK
 * section at that frame (the last record at or before it; on when none).
 * Return the number of model bones found. */
PK_API size_t pk_rig_pose_local(const pk_rig *r, const pk_pose *p, pk_bone_local *local);
PK_API size_t pk_rig_motion_local(const pk_rig *r, const pk_motion *m, const pk_tracks *t,
                                  double frame, pk_bone_local *local, bool *ik_on);

/* ---- legs: IK to FK and back (engine/ops/skeleton/legs.c) ----
 * A leg is an IK bone whose chain is hip, knee, ankle (足ＩＫ: 足, ひざ,
 * 足首); its toe IK (つま先ＩＫ) is an IK bone whose one link is the ankle.
 * IK to FK: every integer frame from 0 to the last bone key or IK record
 * evaluated on the model (pk_rig_eval, the motion's IK switches); hip,
 * knee and ankle keyed with the rotations it gives (keyed translations
 * kept); the leg and toe IKs off in the IK section from frame 0, their
 * own keys dropped (they move nothing once off) unless keep_ik, or unless
 * a bone other than the IKs follows them (a child, or appending from
 * them).  FK to IK: each leg IK keyed on the evaluated ankle,
 * turned as the ankle; each toe IK on the evaluated toe; the hip, knee
 * and ankle keys kept (the solver starts from them); the IKs on in every
 * IK record.  IK to FK fits each leg's chain against the places it must
 * hold (legs_fit.h): the ankle and the knee within a share of `goal`,
 * the toe within max_pos of the ankle, the foot's roll within max_deg,
 * the three tracks checked together.  FK to IK reduces with
 * pk_motion_reduce: leg IK translations within `goal`, IK rotations and
 * toe IKs within max_deg / max_pos.  Every frame is then evaluated again,
 * and while an ankle is further than `goal` from the input's the
 * goal-bound tolerances are halved (eight times at most, then a key per
 * frame). */
#define PK_LEGS_GOAL 0.001 /* largest ankle move, MMD units */
typedef enum pk_legs_way { PK_LEGS_IK_TO_FK = 0, PK_LEGS_FK_TO_IK = 1 } pk_legs_way;
typedef struct pk_legs_options {
    pk_legs_way way;
    double goal;             /* > 0 */
    double max_deg, max_pos; /* what moves no ankle, > 0 (PK_REDUCE_DEG, _POS) */
    bool keep_ik;            /* IK to FK: keep the leg and toe IKs' own keys */
} pk_legs_options;
typedef struct pk_legs_stats {
    size_t legs, frames;          /* legs found, frames evaluated */
    size_t keys_before, keys_after; /* keys of the leg bones (chains and IKs) */
    double worst;                 /* largest ankle move met at a frame */
    uint32_t worst_frame;         /* where */
    double tol[2]; /* the fit written (0: a key per frame): IK to FK, the ankles' and
                      knees' units and the hip-to-ankle reach's; FK to IK, the leg and
                      toe IKs' units */
    size_t tries;                 /* fits made */
    bool baked;                   /* no fit met the goal: a key per frame */
    double tol_knee; /* IK to FK: the knees' units (tol[0] unless a short motion's fit held
                        them looser, 0 with baked) */
    double tol_toe, tol_roll; /* IK to FK: the toes' units and the feet's roll in degrees
                                 (max_pos, max_deg unless a short motion's fit held them
                                 looser, 0 with baked) */
} pk_legs_stats;
PK_API void pk_legs_options_init(pk_legs_options *o);
/* A new motion (caller frees) or NULL (error logged: a model without a
 * leg IK names the model; a motion without bone keys) or a warning (an
 * ankle still beyond the goal).  stats may be NULL. */
PK_API pk_motion *pk_motion_legs(const pk_motion *m, const pk_model *model,
                                 const pk_legs_options *o, pk_legs_stats *stats, pk_log *log);

/* ---- pictures of poses (engine/ops/skeleton/draw.c) ----
 * A pose (or a motion at frames) on a model, evaluated (pk_rig_eval) and
 * drawn as a stick figure: a line per visible bone to its tail (a bone or
 * an offset), joints as dots, left (左) and right (右) in two colours, IK
 * goals as diamonds (hollow where the VMD's IK section turns the IK off),
 * the ground, one scale for every panel, a legend for every colour it
 * uses and bone names on hover (<title>).  With a second pose (vs, on its own model
 * or the same), the second figure is drawn underneath, each bone shaded
 * by its rotation difference (the same degrees as diff).  A drawing holds
 * copies of everything it shows: the models may be freed before it is
 * written. */
typedef enum pk_draw_view { PK_VIEW_FRONT, PK_VIEW_SIDE, PK_VIEW_TOP, PK_VIEW_ALL } pk_draw_view;
typedef struct pk_draw_input {
    const pk_model *model;
    const pk_doc *doc;      /* a pose or a motion */
    const char *name;       /* for the title: the file's name */
    const char *model_name; /* for the title: the model's file name */
} pk_draw_input;
typedef struct pk_draw_options {
    pk_draw_input a, b;                 /* b.doc NULL: one pose */
    bool range;                         /* frames first..last every `every` (else `frame`); a range
                                           past the motions' last key stops there (warned: after it
                                           a motion holds its last pose), one after it is an error */
    uint32_t frame, first, last, every; /* every 0: about 8 figures over the range */
    pk_draw_view view;
    const pk_selection *bones, *vs_bones; /* NULL: every visible bone (of a / of b); a
                                             selection that leaves no bone to draw in
                                             either is an error */
    const char *bones_spec;               /* the selection's text, for that message */
    const pk_selection *body;             /* drawn in colour; other bones (hair, clothes) light grey
                                             (NULL: every bone in colour) */
} pk_draw_options;
typedef struct pk_drawing pk_drawing;
/* Evaluates every figure (at most 60); NULL (logged) on error. */
PK_API pk_drawing *pk_draw(const pk_draw_options *o, pk_log *log);
PK_API void pk_drawing_free(pk_drawing *d);
/* Figures drawn (frames; a pair with a vs counts once). */
PK_API size_t pk_drawing_figures(const pk_drawing *d);
/* The picture as an SVG document / every bone's world position and
 * rotation as JSON (with a bones selection, every bone it names, visible
 * or not) ({"figures":[{"input","model","frame","bones":[{"name",
 * "pos":[x,y,z],"rot":[x,y,z,w],"ik","diff_deg","drawn_diff_deg"}]}]}: with
 * a vs, the keys' difference as diff reports it and the angle between the
 * bone's lines as drawn, IK included, which the SVG shades; a bone that has no
 * position, under a model's NaN rest position, gets nulls in JSON and is
 * left out of the SVG, which says so).  0 or -1 (OOM). */
PK_API int pk_draw_svg(const pk_drawing *d, pk_buf *out);
PK_API int pk_draw_json(const pk_drawing *d, pk_buf *out);

/* ---- check: a motion or pose against a model (engine/ops/skeleton/check.c) ----
 * Every bone and morph name the motion keys is looked up in the model by
 * its CP932 bytes: found, found only through MMD's cut (the model's name
 * is longer than the field, 15 bytes in VMD, 19 in VPD, and the motion
 * holds its first bytes), or missing (MMD ignores those keys).  A key is
 * off rest when it moves or turns its bone (a translation or quaternion
 * vector part beyond 1e-5) or, for a morph, has a weight beyond 1e-5:
 * a missing name with keys off rest is a miss that shows ("moving"); one
 * whose keys are all at rest shows nothing on any model.  For a missing
 * name the closest model name is proposed when one differs only by
 * full-width/half-width forms (ＩＫ/IK, ０/0), spaces, underscores or
 * letter case, by a common spelling (人指/人差指, ひじ/肘, ひざ/膝,
 * つま先/爪先), or is the model's English name; for a morph, else, the
 * shortest model morph whose name contains it (発音「え」 for え).  The
 * reason names each difference that is there.  A missing bone of the
 * standard skeleton that sits between bones the model has (上半身2, 腰,
 * グルーブ, 肩P, 親指０, 腕捩, 手捩) and moves lists the bones
 * `retarget --from A --to B` folds its turn into.  Found bones a physics
 * rigid body drives (pk_model_physics_bones) are marked: MMD overwrites
 * their keys while physics is on. */
typedef enum pk_check_status {
    PK_CHECK_FOUND = 0,
    PK_CHECK_CUT = 1, /* found through MMD's cut of the model's longer name */
    PK_CHECK_MISSING = 2
} pk_check_status;

typedef struct pk_check_item {
    char *name;   /* UTF-8, owned by the report */
    uint8_t *raw; /* the CP932 bytes the motion holds, owned */
    size_t raw_len;
    bool morph;
    pk_check_status status;
    size_t keys;   /* records of this name */
    size_t moving; /* ... of them off rest */
    long index;    /* found/cut: the model's bone or morph; missing: the near miss or -1 */
    long *matches; /* cut: every model bone or morph whose name MMD cuts to this one, in
                      model order (matches[0] == index; more than one: the cut name is
                      ambiguous and keys them all); owned; NULL otherwise */
    size_t nmatches;
    char *why; /* missing with a near miss: why it was chosen (owned); NULL otherwise */
    size_t move_unusable;   /* keys translating a bone the model does not let move */
    size_t rotate_unusable; /* keys rotating a bone the model does not let rotate */
    bool physics;           /* found/cut bone: a physics rigid body drives it */
    long *fold_into;        /* missing moving bone the retarget fold carries: the model
                               bones its turn goes into (owned); NULL otherwise */
    size_t nfold_into;
} pk_check_item;

typedef struct pk_check_report {
    pk_check_item *items; /* bones in order of first appearance, then morphs */
    size_t nitems;
    size_t *order;        /* item indices, most keys off rest first, then most keys,
                             then first appearance (owned) */
    size_t found, cut, missing, near; /* items by status; near = missing with a near miss */
    size_t missing_moving;            /* missing items with keys off rest */
    size_t unusable;                  /* items with unusable keys */
    size_t physics;                   /* found bones physics drives */
    bool *keyed;                      /* per model bone: the motion keys it (owned) */
    bool *driven;                     /* per model bone: physics drives it (owned) */
    bool pose;                        /* the input is a pose (one entry per name) */
} pk_check_report;

/* Caller frees with pk_check_free; NULL on OOM (logged). */
PK_API pk_check_report *pk_check_motion(const pk_model *model, const pk_motion *m, pk_log *log);
PK_API pk_check_report *pk_check_pose(const pk_model *model, const pk_pose *p, pk_log *log);
PK_API void pk_check_free(pk_check_report *r);

/* Which of two models a motion (m) or pose (p, when m is NULL) fits
 * better: the bones and morphs it moves (keys off rest) that each lacks,
 * and those keys.  The one lacking fewer moving bone keys fits better
 * (then fewer bones; then, when both models have morphs, fewer moving
 * morph keys, fewer morphs; better 0: a tie).  A motion played on a model
 * it was not made for lacks moving bones there.  0, or -1 on OOM
 * (logged). */
typedef struct pk_check_fit {
    size_t from_bones, from_bone_keys;   /* moving bones the source model lacks, their keys
                                            off rest */
    size_t from_morphs, from_morph_keys; /* ... morphs */
    size_t to_bones, to_bone_keys;       /* the same for the target model */
    size_t to_morphs, to_morph_keys;
    int better; /* -1: the source fits better, 1: the target, 0: neither */
} pk_check_fit;
PK_API int pk_check_compare(const pk_model *from, const pk_model *to, const pk_motion *m,
                            const pk_pose *p, pk_check_fit *out, pk_log *log);

#ifdef __cplusplus
}
#endif

#endif /* POSEKIT_H */
