/*
 * body.c — bodies: a model described as YAML text, read and written
 * (posekit.h, "bodies"; the format is rules/bodies/README.md), and the built-in
 * ones found in the data folders' bodies/.
 *
 * A body holds what posekit reads of a model and nothing else: bones by
 * name (parent, rest position, deform layer, flags, tail, append/inherit,
 * fixed axis, local axes, external parent key, IK chain), morph names, and
 * rigid bodies.  Every reference is a bone's name, so a person can write
 * one.  Numbers are read with the one exact parser (util/number.c) and
 * written with the fewest digits that read back to the same float, so a
 * model written as a body and read back evaluates to the same bits.
 *
 * Errors carry LINE:COL (the node that is wrong) and stop the read; the
 * graph is checked here with positions (names, cycles) before the checks
 * every reader ends with (pki_model_finish).
 */
#include "posekit.h"
#include "posekit_tool.h"
#include "common/yaml_extra.h"
#include "model/skeleton.h"
#include "platform/platform.h"
#include "util/json.h"
#include "util/number.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- flags and words ---- */

/* The flags a body spells out; the others follow from keys (ik, append,
 * fixed_axis, local_axes, external, a tail naming a bone). */
static const struct {
    uint16_t bit;
    const char *word;
} FLAGS[] = {
    {PK_BONE_ROTATE, "rotate"},
    {PK_BONE_MOVE, "move"},
    {PK_BONE_VISIBLE, "visible"},
    {PK_BONE_OPERABLE, "operable"},
    {PK_BONE_AFTER_PHYSICS, "after_physics"},
};
#define NFLAGS (sizeof FLAGS / sizeof *FLAGS)
#define DEFAULT_FLAGS (PK_BONE_ROTATE | PK_BONE_VISIBLE | PK_BONE_OPERABLE)

static const char *const PANELS[] = {"system", "eyebrow", "eye", "mouth", "other"};
static const char *const KINDS[] = {"group",     "vertex",    "bone",      "uv",
                                    "extra_uv1", "extra_uv2", "extra_uv3", "extra_uv4",
                                    "material",  "flip",      "impulse"};
static const char *const SHAPES[] = {"sphere", "box", "capsule"};
static const char *const MODES[] = {"follow_bone", "physics", "physics_bone"};
#define COUNT(a) (sizeof(a) / sizeof *(a))

static const char *const BUILTIN[] = {"classic", "standard"};

/* ---- reading ---- */

typedef struct rd {
    yaml_document_t doc;
    pk_log *log;
    pk_model *m;
    bool failed;
    /* bones by id (the name, or the id key a name given twice needs):
     * indices sorted by id */
    const char **ids;
    size_t *by_name;
    const yaml_node_t **bone_node; /* each bone's mapping, for messages */
} rd;

static void fail(rd *r, const yaml_node_t *n, const char *fmt, ...) PK_PRINTF(3, 4);
static void fail(rd *r, const yaml_node_t *n, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = n ? (int)n->start_mark.line + 1 : 0, col = n ? (int)n->start_mark.column + 1 : 0;
    pk_log_add(r->log, PK_ERROR, strcmp(fmt, "out of memory") == 0 ? PK_E_NO_MEMORY : PK_E_DAMAGED,
               -1, line, col, "%s", msg);
}

static const yaml_node_t *node(rd *r, yaml_node_item_t i)
{
    return yaml_document_get_node(&r->doc, i);
}

/* The scalar's text, or NULL (failed: "WHAT must be ..."). */
static const char *scalar(rd *r, const yaml_node_t *n, const char *what)
{
    if (r->failed)
        return NULL;
    if (!n || n->type != YAML_SCALAR_NODE || pki_yaml_is_null(n)) {
        fail(r, n, "%s must be a value", what);
        return NULL;
    }
    return (const char *)n->data.scalar.value;
}

static bool want_map(rd *r, const yaml_node_t *n, const char *what)
{
    if (!r->failed && (!n || n->type != YAML_MAPPING_NODE))
        fail(r, n, "%s must be a mapping (KEY: VALUE, ...)", what);
    return !r->failed;
}

static bool want_seq(rd *r, const yaml_node_t *n, const char *what)
{
    if (!r->failed && (!n || n->type != YAML_SEQUENCE_NODE))
        fail(r, n, "%s must be a list ([...] or '- ' items)", what);
    return !r->failed;
}

static size_t seq_len(const yaml_node_t *n)
{
    return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
}

/* YAML's own spellings of the non-finite floats (the core schema's .nan,
 * .inf, -.inf in its three cases), which pk_body_write writes: true with
 * *out set when s is one. */
static bool yaml_nonfinite(const char *s, float *out)
{
    static const char *const NAN_TEXT[] = {".nan", ".NaN", ".NAN"};
    static const char *const INF_TEXT[] = {".inf", ".Inf", ".INF"};
    for (size_t i = 0; i < 3; i++)
        if (strcmp(s, NAN_TEXT[i]) == 0) {
            *out = NAN;
            return true;
        }
    float sign = 1.0f;
    if (*s == '+' || *s == '-')
        sign = *s++ == '-' ? -1.0f : 1.0f;
    for (size_t i = 0; i < 3; i++)
        if (strcmp(s, INF_TEXT[i]) == 0) {
            *out = sign * INFINITY;
            return true;
        }
    return false;
}

static bool read_float(rd *r, const yaml_node_t *n, const char *what, float *out)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return false;
    if (yaml_nonfinite(s, out))
        return true;
    size_t len = strlen(s), used = 0;
    pki_num_status st = pki_num_scan_float((const uint8_t *)s, len, &used, out);
    if (st == PKI_NUM_RANGE && used == len) {
        fail(r, n, "number '%s' is out of range for a float (%s)", s, what);
        return false;
    }
    if ((st != PKI_NUM_OK && st != PKI_NUM_NONFINITE) || used != len) {
        fail(r, n, "%s must be a number, not '%s'", what, s);
        return false;
    }
    return true;
}

static bool read_int(rd *r, const yaml_node_t *n, const char *what, int64_t lo, int64_t hi,
                     int64_t *out)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return false;
    if (!pki_num_i64(s, out) || *out < lo || *out > hi) {
        fail(r, n, "%s must be a whole number from %lld to %lld, not '%s'", what, (long long)lo,
             (long long)hi, s);
        return false;
    }
    return true;
}

static bool read_bool(rd *r, const yaml_node_t *n, const char *what, bool *out)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return false;
    if (!pki_num_bool(s, out)) {
        fail(r, n, "%s must be true or false, not '%s'", what, s);
        return false;
    }
    return true;
}

static bool read_vec3(rd *r, const yaml_node_t *n, const char *what, float out[3])
{
    if (!r->failed && (!n || n->type != YAML_SEQUENCE_NODE || seq_len(n) != 3)) {
        fail(r, n, "%s must be three numbers [x, y, z]", what);
        return false;
    }
    for (int k = 0; k < 3 && !r->failed; k++)
        read_float(r, node(r, n->data.sequence.items.start[k]), what, &out[k]);
    return !r->failed;
}

static bool read_word(rd *r, const yaml_node_t *n, const char *what, const char *const *words,
                      size_t nwords, size_t *out)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return false;
    for (size_t i = 0; i < nwords; i++)
        if (strcmp(s, words[i]) == 0) {
            *out = i;
            return true;
        }
    char list[256] = "";
    for (size_t i = 0; i < nwords; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", words[i]);
    }
    fail(r, n, "%s '%s' is not one of %s", what, s, list);
    return false;
}

static const char *model_str(rd *r, const yaml_node_t *n, const char *what)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return NULL;
    const char *c = pki_model_str(r->m, s, strlen(s));
    if (!c)
        fail(r, n, "out of memory");
    return c;
}

/* Walks a mapping's pairs: checks each key against `keys` (a key given
 * twice, an unknown key: errors naming the known ones) and calls fn. */
typedef void (*pair_fn)(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v);

static void each_pair(rd *r, const yaml_node_t *map, const char *what, const char *const *keys,
                      size_t nkeys, pair_fn fn, void *ctx)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         !r->failed && p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(r, p->key), *v = node(r, p->value);
        const char *name = scalar(r, k, "a key");
        if (!name)
            return;
        const yaml_node_t *first = pki_yaml_earlier_key(&r->doc, map, p);
        if (first) {
            fail(r, k, "%s: '%s' is given twice (first at %d:%d)", what, name,
                 (int)first->start_mark.line + 1, (int)first->start_mark.column + 1);
            return;
        }
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i], name) != 0)
            i++;
        if (i == nkeys) {
            char list[512] = "";
            for (size_t j = 0; j < nkeys; j++) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", j ? ", " : "", keys[j]);
            }
            fail(r, k, "%s: unknown key '%s' (known: %s)", what, name, list);
            return;
        }
        if (pki_yaml_is_null(v))
            continue; /* a key with no value is as if it were not there */
        fn(r, ctx, i, k, v);
    }
}

/* The mapping's value for key (NULL when absent or null). */
static const yaml_node_t *get(rd *r, const yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        const yaml_node_t *k = node(r, p->key);
        if (k && k->type == YAML_SCALAR_NODE &&
            strcmp((const char *)k->data.scalar.value, key) == 0)
            return pki_yaml_is_null(node(r, p->value)) ? NULL : node(r, p->value);
    }
    return NULL;
}

/* ---- bone names ---- */

typedef struct name_ix {
    const char *const *ids;
    size_t i;
} name_ix;

static int cmp_name_ix(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int c = strcmp(x->ids[x->i], y->ids[y->i]);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Bone index by id (-1: none). */
static long find_bone(const rd *r, const char *name)
{
    size_t lo = 0, hi = r->m->nbones;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(r->ids[r->by_name[mid]], name);
        if (c == 0)
            return (long)r->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int32_t bone_ref(rd *r, const yaml_node_t *n, const char *what)
{
    const char *s = scalar(r, n, what);
    if (!s)
        return -1;
    long i = find_bone(r, s);
    if (i < 0)
        fail(r, n, "%s '%s' names no bone of the body", what, s);
    return (int32_t)i;
}

/* ---- bones ---- */

enum {
    B_NAME,
    B_ID,
    B_NAME_EN,
    B_PARENT,
    B_POS,
    B_LAYER,
    B_FLAGS,
    B_TAIL,
    B_APPEND,
    B_FIXED_AXIS,
    B_LOCAL_AXES,
    B_EXTERNAL,
    B_IK,
    B_COUNT
};
static const char *const BONE_KEYS[B_COUNT] = {
    "name", "id",     "name_en",    "parent",     "pos",      "layer", "flags",
    "tail", "append", "fixed_axis", "local_axes", "external", "ik"};

typedef struct bone_ctx {
    pk_model_bone *b;
    char what[160];
    bool has_pos, has_flags;
} bone_ctx;

static void read_flags(rd *r, bone_ctx *c, const yaml_node_t *v)
{
    if (!want_seq(r, v, "flags"))
        return;
    for (size_t i = 0; i < seq_len(v) && !r->failed; i++) {
        const yaml_node_t *e = node(r, v->data.sequence.items.start[i]);
        const char *words[NFLAGS];
        for (size_t k = 0; k < NFLAGS; k++)
            words[k] = FLAGS[k].word;
        size_t w;
        if (read_word(r, e, "a flag", words, NFLAGS, &w))
            c->b->flags |= FLAGS[w].bit;
    }
}

static const char *const APPEND_KEYS[] = {"bone", "ratio", "rotate", "move", "local"};

static void append_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_bone *b = ctx;
    bool on = false;
    switch (key) {
    case 0:
        b->append_parent = bone_ref(r, v, "append: bone");
        break;
    case 1:
        read_float(r, v, "append: ratio", &b->append_ratio);
        break;
    default:
        if (read_bool(r, v, APPEND_KEYS[key], &on) && on)
            b->flags |= key == 2   ? PK_BONE_APPEND_ROTATE
                        : key == 3 ? PK_BONE_APPEND_MOVE
                                   : PK_BONE_LOCAL_APPEND;
    }
}

static void read_append(rd *r, pk_model_bone *b, const yaml_node_t *v)
{
    if (!want_map(r, v, "append"))
        return;
    b->append_ratio = 1.0f;
    each_pair(r, v, "append", APPEND_KEYS, COUNT(APPEND_KEYS), append_pair, b);
    if (!r->failed && b->append_parent < 0)
        fail(r, v, "append needs its bone (append: {bone: NAME, ratio: R, rotate: true})");
    if (!r->failed && !(b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)))
        fail(r, v,
             "append takes the rotation (rotate: true), the translation (move: true) or "
             "both");
}

static const char *const AXES_KEYS[] = {"x", "z"};

static void axes_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_bone *b = ctx;
    read_vec3(r, v, key ? "local_axes: z" : "local_axes: x", key ? b->local_z : b->local_x);
}

static void read_local_axes(rd *r, pk_model_bone *b, const yaml_node_t *v)
{
    if (!want_map(r, v, "local_axes"))
        return;
    each_pair(r, v, "local_axes", AXES_KEYS, COUNT(AXES_KEYS), axes_pair, b);
    if (!r->failed && (!get(r, v, "x") || !get(r, v, "z")))
        fail(r, v, "local_axes needs both axes: {x: [x, y, z], z: [x, y, z]}");
    if (!r->failed)
        b->flags |= PK_BONE_LOCAL_AXES;
}

static const char *const IK_KEYS[] = {"target", "loops", "limit", "links"};
static const char *const LINK_KEYS[] = {"bone", "min", "max"};

static void link_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_ik_link *l = ctx;
    if (key == 0)
        l->bone = bone_ref(r, v, "an IK link's bone");
    else
        read_vec3(r, v, key == 1 ? "an IK link's min" : "an IK link's max",
                  key == 1 ? l->min : l->max);
}

static void read_links(rd *r, pk_model_bone *b, const yaml_node_t *v)
{
    if (!want_seq(r, v, "ik: links"))
        return;
    size_t n = seq_len(v);
    if (n == 0) {
        fail(r, v, "ik: links is empty (an IK chain turns at least one bone)");
        return;
    }
    b->ik_links = pki_model_mem(r->m, n * sizeof *b->ik_links);
    if (!b->ik_links) {
        fail(r, v, "out of memory");
        return;
    }
    memset(b->ik_links, 0, n * sizeof *b->ik_links);
    b->nik_links = n;
    for (size_t i = 0; i < n && !r->failed; i++) {
        const yaml_node_t *e = node(r, v->data.sequence.items.start[i]);
        pk_model_ik_link *l = &b->ik_links[i];
        l->bone = -1;
        if (e && e->type == YAML_SCALAR_NODE) {
            l->bone = bone_ref(r, e, "an IK link");
            continue;
        }
        if (!want_map(r, e, "an IK link (a bone's name, or {bone: NAME, min: [..], max: [..]})"))
            return;
        each_pair(r, e, "an IK link", LINK_KEYS, COUNT(LINK_KEYS), link_pair, l);
        bool has_min = get(r, e, "min") != NULL, has_max = get(r, e, "max") != NULL;
        if (!r->failed && !get(r, e, "bone"))
            fail(r, e, "an IK link needs its bone");
        if (!r->failed && has_min != has_max)
            fail(r, e, "an IK link's limits go together: min and max (radians)");
        l->limited = has_min && has_max;
    }
}

static void ik_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_bone *b = ctx;
    int64_t n = 0;
    switch (key) {
    case 0:
        b->ik_target = bone_ref(r, v, "ik: target");
        break;
    case 1:
        if (read_int(r, v, "ik: loops", 0, 2147483647, &n))
            b->ik_loops = (int32_t)n;
        break;
    case 2:
        read_float(r, v, "ik: limit", &b->ik_limit);
        break;
    default:
        read_links(r, b, v);
    }
}

static void read_ik(rd *r, pk_model_bone *b, const yaml_node_t *v)
{
    if (!want_map(r, v, "ik"))
        return;
    each_pair(r, v, "ik", IK_KEYS, COUNT(IK_KEYS), ik_pair, b);
    if (!r->failed && (b->ik_target < 0 || !b->nik_links))
        fail(r, v,
             "ik needs its target and links: {target: NAME, loops: N, limit: RADIANS, "
             "links: [NAME, ...]}");
    if (!r->failed)
        b->flags |= PK_BONE_IK;
}

static void bone_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    bone_ctx *c = ctx;
    pk_model_bone *b = c->b;
    int64_t n = 0;
    switch (key) {
    case B_NAME:
    case B_ID:
        break; /* read in the first pass */
    case B_NAME_EN:
        b->name_en = model_str(r, v, "name_en");
        break;
    case B_PARENT:
        b->parent = bone_ref(r, v, "parent");
        if (!r->failed && b->parent >= 0 && &r->m->bones[b->parent] == b)
            fail(r, v, "bone '%s' cannot be its own parent", b->name);
        break;
    case B_POS:
        c->has_pos = read_vec3(r, v, "pos", b->pos);
        break;
    case B_LAYER:
        if (read_int(r, v, "layer", -2147483647 - 1LL, 2147483647, &n))
            b->layer = (int32_t)n;
        break;
    case B_FLAGS:
        c->has_flags = true;
        read_flags(r, c, v);
        break;
    case B_TAIL:
        if (v->type == YAML_SEQUENCE_NODE) {
            read_vec3(r, v, "tail", b->tail);
        } else {
            b->tail_bone = bone_ref(r, v, "tail");
            b->flags |= PK_BONE_TAIL_IS_BONE;
        }
        break;
    case B_APPEND:
        read_append(r, b, v);
        break;
    case B_FIXED_AXIS:
        if (read_vec3(r, v, "fixed_axis", b->fixed_axis))
            b->flags |= PK_BONE_FIXED_AXIS;
        break;
    case B_LOCAL_AXES:
        read_local_axes(r, b, v);
        break;
    case B_EXTERNAL:
        if (read_int(r, v, "external", -2147483647 - 1LL, 2147483647, &n)) {
            b->external_key = (int32_t)n;
            b->flags |= PK_BONE_EXTERNAL_PARENT;
        }
        break;
    default:
        read_ik(r, b, v);
    }
}

/* First pass: every bone's name and id (the name unless given; unique),
 * so that references may point forward as well as back. */
static void read_bone_names(rd *r, const yaml_node_t *bones)
{
    size_t n = seq_len(bones);
    pk_model *m = r->m;
    m->bones = calloc(n ? n : 1, sizeof *m->bones);
    r->bone_node = calloc(n ? n : 1, sizeof *r->bone_node);
    r->by_name = calloc(n ? n : 1, sizeof *r->by_name);
    r->ids = calloc(n ? n : 1, sizeof *r->ids);
    name_ix *ix = calloc(n ? n : 1, sizeof *ix);
    if (!m->bones || !r->bone_node || !r->by_name || !r->ids || !ix) {
        free(ix);
        fail(r, bones, "out of memory");
        return;
    }
    m->nbones = n;
    for (size_t i = 0; i < n && !r->failed; i++) {
        const yaml_node_t *e = node(r, bones->data.sequence.items.start[i]);
        r->bone_node[i] = e;
        if (!want_map(r, e, "a bone"))
            break;
        const yaml_node_t *nm = get(r, e, "name"), *id = get(r, e, "id");
        if (!nm) {
            fail(r, e, "bone %zu has no name", i);
            break;
        }
        m->bones[i].name = model_str(r, nm, "a bone's name");
        if (m->bones[i].name && !*m->bones[i].name)
            fail(r, nm, "a bone's name is empty");
        r->ids[i] = id ? model_str(r, id, "a bone's id") : m->bones[i].name;
        if (r->ids[i] && !*r->ids[i])
            fail(r, id, "a bone's id is empty");
        ix[i].ids = r->ids;
        ix[i].i = i;
    }
    if (!r->failed) {
        qsort(ix, n, sizeof *ix, cmp_name_ix);
        for (size_t i = 0; i < n; i++)
            r->by_name[i] = ix[i].i;
        for (size_t i = 1; i < n && !r->failed; i++)
            if (strcmp(r->ids[ix[i].i], r->ids[ix[i - 1].i]) == 0) {
                const yaml_node_t *e0 = r->bone_node[ix[i - 1].i], *e1 = r->bone_node[ix[i].i];
                const yaml_node_t *first = get(r, e0, "id") ? get(r, e0, "id") : get(r, e0, "name");
                const yaml_node_t *again = get(r, e1, "id") ? get(r, e1, "id") : get(r, e1, "name");
                fail(r, again,
                     "bone '%s' is given twice (first at %d:%d): a bone is named by its name, "
                     "or by its id when two bones share a name",
                     r->ids[ix[i].i], (int)first->start_mark.line + 1,
                     (int)first->start_mark.column + 1);
            }
    }
    free(ix);
}

static void read_bones(rd *r, const yaml_node_t *bones)
{
    if (!want_seq(r, bones, "bones"))
        return;
    if (seq_len(bones) == 0) {
        fail(r, bones, "bones is empty (a body has at least one bone)");
        return;
    }
    read_bone_names(r, bones);
    pk_model *m = r->m;
    for (size_t i = 0; i < m->nbones && !r->failed; i++) {
        pk_model_bone *b = &m->bones[i];
        b->name_en = "";
        b->cp932 = PK_NO_NAME;
        b->parent = b->tail_bone = b->append_parent = b->ik_target = -1;
        b->pmd_kind = -1;
        bone_ctx c = {.b = b};
        snprintf(c.what, sizeof c.what, "bone '%s'", b->name);
        each_pair(r, r->bone_node[i], c.what, BONE_KEYS, B_COUNT, bone_pair, &c);
        if (!r->failed && !c.has_pos)
            fail(r, r->bone_node[i], "bone '%s' has no rest position (pos: [x, y, z])", b->name);
        if (!c.has_flags)
            b->flags |= DEFAULT_FLAGS;
    }
    /* parent cycles, where the user can see them */
    uint8_t *mark = r->failed ? NULL : calloc(m->nbones, 1);
    if (!r->failed && !mark)
        fail(r, bones, "out of memory");
    for (size_t i = 0; mark && i < m->nbones && !r->failed; i++) {
        int32_t j = (int32_t)i;
        while (j != -1 && mark[j] == 0) {
            mark[j] = 1;
            j = m->bones[j].parent;
        }
        if (j != -1 && mark[j] == 1)
            fail(r, get(r, r->bone_node[j], "parent"),
                 "bone '%s': its parent chain comes back to it (a parent cycle)", m->bones[j].name);
        for (j = (int32_t)i; j != -1 && mark[j] == 1; j = m->bones[j].parent)
            mark[j] = 2;
    }
    free(mark);
}

/* ---- morphs and rigid bodies ---- */

static const char *const MORPH_KEYS[] = {"name", "name_en", "panel", "kind"};

static void morph_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_morph *mo = ctx;
    size_t w = 0;
    if (key == 0)
        mo->name = model_str(r, v, "a morph's name");
    else if (key == 1)
        mo->name_en = model_str(r, v, "name_en");
    else if (key == 2 && read_word(r, v, "panel", PANELS, COUNT(PANELS), &w))
        mo->panel = (uint8_t)w;
    else if (key == 3 && read_word(r, v, "kind", KINDS, COUNT(KINDS), &w))
        mo->kind = (uint8_t)w;
}

static void read_morphs(rd *r, const yaml_node_t *v)
{
    if (!want_seq(r, v, "morphs"))
        return;
    size_t n = seq_len(v);
    r->m->morphs = calloc(n ? n : 1, sizeof *r->m->morphs);
    if (!r->m->morphs) {
        fail(r, v, "out of memory");
        return;
    }
    r->m->nmorphs = n;
    for (size_t i = 0; i < n && !r->failed; i++) {
        const yaml_node_t *e = node(r, v->data.sequence.items.start[i]);
        pk_model_morph *mo = &r->m->morphs[i];
        mo->name = mo->name_en = "";
        mo->cp932 = PK_NO_NAME;
        mo->panel = 4;
        mo->kind = 1;
        if (e && e->type == YAML_SCALAR_NODE) {
            mo->name = model_str(r, e, "a morph's name");
            continue;
        }
        if (!want_map(r, e, "a morph (a name, or {name: NAME, panel: WORD, kind: WORD})"))
            return;
        each_pair(r, e, "a morph", MORPH_KEYS, COUNT(MORPH_KEYS), morph_pair, mo);
        if (!r->failed && !*mo->name)
            fail(r, e, "morph %zu has no name", i);
    }
}

static const char *const RIGID_KEYS[] = {
    "name",        "name_en",  "bone", "group", "mask",           "shape",
    "size",        "pos",      "rot",  "mass",  "linear_damping", "angular_damping",
    "restitution", "friction", "mode"};

static void rigid_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    pk_model_rigid *rb = ctx;
    int64_t n = 0;
    size_t w = 0;
    float *f[] = {&rb->mass, &rb->linear_damping, &rb->angular_damping, &rb->restitution,
                  &rb->friction};
    switch (key) {
    case 0:
        rb->name = model_str(r, v, "a rigid body's name");
        break;
    case 1:
        rb->name_en = model_str(r, v, "name_en");
        break;
    case 2:
        rb->bone = bone_ref(r, v, "a rigid body's bone");
        break;
    case 3:
        if (read_int(r, v, "group", 0, 15, &n))
            rb->group = (uint8_t)n;
        break;
    case 4:
        if (read_int(r, v, "mask", 0, 65535, &n))
            rb->mask = (uint16_t)n;
        break;
    case 5:
        if (read_word(r, v, "shape", SHAPES, COUNT(SHAPES), &w))
            rb->shape = (uint8_t)w;
        break;
    case 6:
        read_vec3(r, v, "size", rb->size);
        break;
    case 7:
        read_vec3(r, v, "pos", rb->pos);
        break;
    case 8:
        read_vec3(r, v, "rot", rb->rot);
        break;
    case 14:
        if (read_word(r, v, "mode", MODES, COUNT(MODES), &w))
            rb->mode = (uint8_t)w;
        break;
    default:
        read_float(r, v, RIGID_KEYS[key], f[key - 9]);
    }
}

static void read_rigids(rd *r, const yaml_node_t *v)
{
    if (!want_seq(r, v, "rigid_bodies"))
        return;
    size_t n = seq_len(v);
    r->m->rigids = calloc(n ? n : 1, sizeof *r->m->rigids);
    if (!r->m->rigids) {
        fail(r, v, "out of memory");
        return;
    }
    r->m->nrigids = n;
    for (size_t i = 0; i < n && !r->failed; i++) {
        const yaml_node_t *e = node(r, v->data.sequence.items.start[i]);
        pk_model_rigid *rb = &r->m->rigids[i];
        rb->name = rb->name_en = "";
        rb->bone = -1;
        rb->mask = 0xFFFF;
        if (!want_map(r, e, "a rigid body"))
            return;
        each_pair(r, e, "a rigid body", RIGID_KEYS, COUNT(RIGID_KEYS), rigid_pair, rb);
        if (!r->failed && !get(r, e, "shape"))
            fail(r, e, "rigid body %zu has no shape (sphere, box or capsule)", i);
    }
}

/* ---- the document ---- */

static const char *const TOP_KEYS[] = {"posekit_body", "name",   "name_en",     "comment",
                                       "bones",        "morphs", "rigid_bodies"};

static void top_pair(rd *r, void *ctx, size_t key, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)ctx;
    (void)k;
    int64_t n = 0;
    switch (key) {
    case 0:
        if (read_int(r, v, "posekit_body", 0, 2147483647, &n) && n != PK_BODY_VERSION)
            fail(r, v, "posekit_body %lld: this posekit reads body format %d", (long long)n,
                 PK_BODY_VERSION);
        break;
    case 1:
        r->m->name = model_str(r, v, "name");
        break;
    case 2:
        r->m->name_en = model_str(r, v, "name_en");
        break;
    case 3:
        r->m->comment = model_str(r, v, "comment");
        break;
    default:
        break; /* bones, morphs, rigid bodies: after the bones' names */
    }
}

static void read_root(rd *r, const yaml_node_t *root)
{
    if (!root || root->type != YAML_MAPPING_NODE) {
        fail(r, root, "a body is a mapping: posekit_body: %d, name: ..., bones: [...]",
             PK_BODY_VERSION);
        return;
    }
    /* a rules file where a body goes (--from rules.yaml): said as such,
     * not as its first key unknown to a body ('morphs' is both's) */
    if (!get(r, root, "posekit_body"))
        for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
             p < root->data.mapping.pairs.top && !r->failed; p++) {
            static const char *const RULES_KEYS[] = {"include",      "rename", "groups",
                                                     "morph_groups", "mirror", "morph_mirror",
                                                     "stance",       "scale"};
            const yaml_node_t *k = node(r, p->key);
            for (size_t i = 0; k && k->type == YAML_SCALAR_NODE && i < COUNT(RULES_KEYS); i++)
                if (strcmp((const char *)k->data.scalar.value, RULES_KEYS[i]) == 0)
                    fail(r, k,
                         "a rules file (its key '%s'), not a body: rules go with --rules; a "
                         "body is a model's skeleton as posekit dump --body MODEL writes it "
                         "(posekit_body: %d, bones: [...])",
                         RULES_KEYS[i], PK_BODY_VERSION);
        }
    each_pair(r, root, "the body", TOP_KEYS, COUNT(TOP_KEYS), top_pair, NULL);
    if (!r->failed && !get(r, root, "posekit_body"))
        fail(r, root,
             "not a posekit body: the key posekit_body (the format's version, %d) is missing",
             PK_BODY_VERSION);
    const yaml_node_t *bones = get(r, root, "bones");
    if (!r->failed && !bones)
        fail(r, root, "a body needs its bones (bones: [...])");
    if (!r->failed)
        read_bones(r, bones);
    if (!r->failed && get(r, root, "morphs"))
        read_morphs(r, get(r, root, "morphs"));
    if (!r->failed && get(r, root, "rigid_bodies"))
        read_rigids(r, get(r, root, "rigid_bodies"));
}

pk_model *pk_body_read(const void *data, size_t len, pk_log *log)
{
    rd r = {.log = log};
    r.m = pki_model_alloc(PK_FMT_BODY);
    if (!r.m) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    r.m->version = (float)PK_BODY_VERSION;
    r.m->encoding = PK_TEXT_UTF8;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        pk_model_free(r.m);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    if (!pki_yaml_load(&parser, data, len, &r.doc)) {
        char buf[300];
        int line, col;
        pki_yaml_problem_at(&parser, data, len, &line, &col);
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, line, col, "%s",
                   pki_yaml_syntax_error(&parser, buf, sizeof buf));
        yaml_parser_delete(&parser);
        pk_model_free(r.m);
        return NULL;
    }
    int line, col;
    const yaml_node_t *root = yaml_document_get_root_node(&r.doc);
    if (!root) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, 1, 1, "the file is empty: no body in it");
        r.failed = true;
    } else {
        read_root(&r, root);
    }
    if (!r.failed && pki_yaml_has_second_document(&parser, &line, &col)) {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, line, col,
                   "a second document ('---'): a body file holds one body");
        r.failed = true;
    }
    yaml_document_delete(&r.doc);
    yaml_parser_delete(&parser);
    free(r.by_name);
    free(r.bone_node);
    free(r.ids);
    if (r.failed) {
        pk_model_free(r.m);
        return NULL;
    }
    pk_model *m = r.m;
    m->counts[PK_MSEC_BONES] = m->nbones;
    m->counts[PK_MSEC_MORPHS] = m->nmorphs;
    m->counts[PK_MSEC_RIGIDS] = m->nrigids;
    if (pki_model_finish(m, NULL, log) != 0) {
        pk_model_free(m);
        return NULL;
    }
    return m;
}

/* ---- writing ---- */

static void put_str(pk_buf *b, const char *s)
{
    pk_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            pk_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7F)
            pk_buf_printf(b, "\\x%02X", *p);
        else
            pk_buf_putc(b, *p);
    }
    pk_buf_putc(b, '"');
}

static void put_float(pk_buf *b, float v)
{
    if (isnan(v)) {
        pk_buf_puts(b, ".nan");
        return;
    }
    if (isinf(v)) {
        pk_buf_puts(b, v > 0 ? ".inf" : "-.inf");
        return;
    }
    char t[64];
    pki_json_float_text(v, t);
    pk_buf_puts(b, t);
}

static void put_vec3(pk_buf *b, const float v[3])
{
    pk_buf_putc(b, '[');
    for (int k = 0; k < 3; k++) {
        if (k)
            pk_buf_puts(b, ", ");
        put_float(b, v[k]);
    }
    pk_buf_putc(b, ']');
}

/* keep[] grown by what kept bones need, until nothing changes. */
static void close_keep(const pk_model *m, bool *keep)
{
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < m->nbones; i++) {
            const pk_model_bone *b = &m->bones[i];
            int32_t need[4] = {-1, -1, -1, -1};
            bool ik = (b->flags & PK_BONE_IK) && b->ik_target >= 0;
            if (keep[i]) {
                need[0] = b->parent;
                if (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE))
                    need[1] = b->append_parent;
                if (ik)
                    need[2] = b->ik_target;
            }
            bool turns_kept = false;
            for (size_t k = 0; ik && k < b->nik_links; k++) {
                int32_t l = b->ik_links[k].bone;
                if (l >= 0 && (size_t)l < m->nbones && keep[l])
                    turns_kept = true;
            }
            if (turns_kept && !keep[i]) {
                keep[i] = grew = true;
                continue;
            }
            for (size_t k = 0; keep[i] && ik && k < b->nik_links; k++) {
                int32_t l = b->ik_links[k].bone;
                if (l >= 0 && (size_t)l < m->nbones && !keep[l])
                    keep[l] = grew = true;
            }
            for (int k = 0; k < 3; k++)
                if (need[k] >= 0 && (size_t)need[k] < m->nbones && !keep[need[k]])
                    keep[need[k]] = grew = true;
        }
    }
}

static bool valid(const pk_model *m, int32_t i)
{
    return i >= 0 && (size_t)i < m->nbones;
}

static void write_bone(pk_buf *out, const pk_model *m, size_t i, const bool *keep, char *const *id)
{
    const pk_model_bone *b = &m->bones[i];
    pk_buf_puts(out, "  - {name: ");
    put_str(out, b->name);
    if (strcmp(id[i], b->name) != 0) {
        pk_buf_puts(out, ", id: ");
        put_str(out, id[i]);
    }
    if (*b->name_en) {
        pk_buf_puts(out, ", name_en: ");
        put_str(out, b->name_en);
    }
    if (valid(m, b->parent)) {
        pk_buf_puts(out, ", parent: ");
        put_str(out, id[b->parent]);
    }
    pk_buf_puts(out, ", pos: ");
    put_vec3(out, b->pos);
    if (b->layer)
        pk_buf_printf(out, ", layer: %d", (int)b->layer);
    uint16_t flags = b->flags & (PK_BONE_ROTATE | PK_BONE_MOVE | PK_BONE_VISIBLE |
                                 PK_BONE_OPERABLE | PK_BONE_AFTER_PHYSICS);
    if (flags != DEFAULT_FLAGS) {
        pk_buf_puts(out, ", flags: [");
        bool first = true;
        for (size_t k = 0; k < NFLAGS; k++)
            if (flags & FLAGS[k].bit) {
                pk_buf_printf(out, "%s%s", first ? "" : ", ", FLAGS[k].word);
                first = false;
            }
        pk_buf_putc(out, ']');
    }
    if (b->flags & PK_BONE_TAIL_IS_BONE) {
        if (valid(m, b->tail_bone) && keep[b->tail_bone]) {
            pk_buf_puts(out, ", tail: ");
            put_str(out, id[b->tail_bone]);
        } else if (valid(m, b->tail_bone)) {
            float t[3];
            for (int k = 0; k < 3; k++)
                t[k] = m->bones[b->tail_bone].pos[k] - b->pos[k];
            pk_buf_puts(out, ", tail: ");
            put_vec3(out, t);
        }
    } else if (b->tail[0] != 0 || b->tail[1] != 0 || b->tail[2] != 0) {
        pk_buf_puts(out, ", tail: ");
        put_vec3(out, b->tail);
    }
    if ((b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) && valid(m, b->append_parent)) {
        pk_buf_puts(out, ",\n     append: {bone: ");
        put_str(out, id[b->append_parent]);
        pk_buf_puts(out, ", ratio: ");
        put_float(out, b->append_ratio);
        if (b->flags & PK_BONE_APPEND_ROTATE)
            pk_buf_puts(out, ", rotate: true");
        if (b->flags & PK_BONE_APPEND_MOVE)
            pk_buf_puts(out, ", move: true");
        if (b->flags & PK_BONE_LOCAL_APPEND)
            pk_buf_puts(out, ", local: true");
        pk_buf_putc(out, '}');
    }
    if (b->flags & PK_BONE_FIXED_AXIS) {
        pk_buf_puts(out, ", fixed_axis: ");
        put_vec3(out, b->fixed_axis);
    }
    if (b->flags & PK_BONE_LOCAL_AXES) {
        pk_buf_puts(out, ",\n     local_axes: {x: ");
        put_vec3(out, b->local_x);
        pk_buf_puts(out, ", z: ");
        put_vec3(out, b->local_z);
        pk_buf_putc(out, '}');
    }
    if (b->flags & PK_BONE_EXTERNAL_PARENT)
        pk_buf_printf(out, ", external: %d", (int)b->external_key);
    if ((b->flags & PK_BONE_IK) && valid(m, b->ik_target)) {
        pk_buf_puts(out, ",\n     ik: {target: ");
        put_str(out, id[b->ik_target]);
        pk_buf_printf(out, ", loops: %d, limit: ", (int)b->ik_loops);
        put_float(out, b->ik_limit);
        pk_buf_puts(out, ", links: [");
        for (size_t k = 0; k < b->nik_links; k++) {
            const pk_model_ik_link *l = &b->ik_links[k];
            if (!valid(m, l->bone))
                continue;
            pk_buf_puts(out, k ? ",\n       " : "");
            if (!l->limited) {
                put_str(out, id[l->bone]);
                continue;
            }
            pk_buf_puts(out, "{bone: ");
            put_str(out, id[l->bone]);
            pk_buf_puts(out, ", min: ");
            put_vec3(out, l->min);
            pk_buf_puts(out, ", max: ");
            put_vec3(out, l->max);
            pk_buf_putc(out, '}');
        }
        pk_buf_puts(out, "]}");
    }
    pk_buf_puts(out, "}\n");
}

static void write_rigid(pk_buf *out, const pk_model *m, const pk_model_rigid *rb, char *const *id)
{
    pk_buf_puts(out, "  - {name: ");
    put_str(out, rb->name);
    if (*rb->name_en) {
        pk_buf_puts(out, ", name_en: ");
        put_str(out, rb->name_en);
    }
    if (valid(m, rb->bone)) {
        pk_buf_puts(out, ", bone: ");
        put_str(out, id[rb->bone]);
    }
    pk_buf_printf(out, ", group: %u, mask: %u, shape: %s", rb->group, rb->mask,
                  rb->shape < COUNT(SHAPES) ? SHAPES[rb->shape] : "sphere");
    pk_buf_puts(out, ",\n     size: ");
    put_vec3(out, rb->size);
    pk_buf_puts(out, ", pos: ");
    put_vec3(out, rb->pos);
    pk_buf_puts(out, ", rot: ");
    put_vec3(out, rb->rot);
    const float f[] = {rb->mass, rb->linear_damping, rb->angular_damping, rb->restitution,
                       rb->friction};
    for (size_t k = 0; k < 5; k++) {
        pk_buf_printf(out, ",%s%s: ", k == 0 ? "\n     " : " ", RIGID_KEYS[9 + k]);
        put_float(out, f[k]);
    }
    pk_buf_printf(out, ", mode: %s}\n",
                  rb->mode < COUNT(MODES) ? MODES[rb->mode] : MODES[PK_RIGID_FOLLOW_BONE]);
}

/* Each kept bone's id: its name, or for the second and later bones of a
 * name, "NAME#K" (K from 2, past any bone really named so).  NULL on OOM
 * (ids of left-out bones are NULL). */
static char **bone_ids(const pk_model *m, const bool *keep)
{
    char **id = calloc(m->nbones ? m->nbones : 1, sizeof *id);
    if (!id)
        return NULL;
    for (size_t i = 0; i < m->nbones; i++) {
        if (!keep[i])
            continue;
        const char *name = m->bones[i].name;
        size_t len = strlen(name);
        for (unsigned k = 1;; k++) {
            char *cand = malloc(len + 16);
            if (!cand) {
                for (size_t j = 0; j < i; j++)
                    free(id[j]);
                free(id);
                return NULL;
            }
            if (k == 1)
                memcpy(cand, name, len + 1);
            else
                snprintf(cand, len + 16, "%s#%u", name, k);
            bool taken = false;
            for (size_t j = 0; j < m->nbones && !taken; j++)
                taken = (j < i && id[j] && strcmp(id[j], cand) == 0) ||
                        (k > 1 && keep[j] && strcmp(m->bones[j].name, cand) == 0);
            if (!taken) {
                id[i] = cand;
                break;
            }
            free(cand);
        }
    }
    return id;
}

int pk_body_write(const pk_model *m, const bool *keep_in, const char *header, pk_buf *out,
                  pk_log *log)
{
    bool *keep = malloc(m->nbones ? m->nbones : 1);
    if (!keep) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->nbones; i++)
        keep[i] = !keep_in || keep_in[i];
    close_keep(m, keep);
    char **id = bone_ids(m, keep);
    if (!id) {
        free(keep);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (const char *p = header; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        pk_buf_puts(out, n ? "# " : "#");
        pk_buf_append(out, p, n);
        pk_buf_putc(out, '\n');
        p += n + (e != NULL);
    }
    pk_buf_printf(out, "posekit_body: %d\n", PK_BODY_VERSION);
    pk_buf_puts(out, "name: ");
    put_str(out, m->name);
    pk_buf_putc(out, '\n');
    if (*m->name_en) {
        pk_buf_puts(out, "name_en: ");
        put_str(out, m->name_en);
        pk_buf_putc(out, '\n');
    }
    pk_buf_puts(out, "bones:\n");
    for (size_t i = 0; i < m->nbones; i++)
        if (keep[i])
            write_bone(out, m, i, keep, id);
    if (m->nmorphs) {
        pk_buf_puts(out, "morphs:\n");
        for (size_t i = 0; i < m->nmorphs; i++) {
            const pk_model_morph *mo = &m->morphs[i];
            pk_buf_puts(out, "  - {name: ");
            put_str(out, mo->name);
            if (*mo->name_en) {
                pk_buf_puts(out, ", name_en: ");
                put_str(out, mo->name_en);
            }
            pk_buf_printf(out, ", panel: %s, kind: %s}\n",
                          mo->panel < COUNT(PANELS) ? PANELS[mo->panel] : "other",
                          mo->kind < COUNT(KINDS) ? KINDS[mo->kind] : "vertex");
        }
    }
    size_t nrigid = 0;
    for (size_t i = 0; i < m->nrigids; i++)
        nrigid += valid(m, m->rigids[i].bone) ? keep[m->rigids[i].bone] : !keep_in;
    if (nrigid) {
        pk_buf_puts(out, "rigid_bodies:\n");
        for (size_t i = 0; i < m->nrigids; i++) {
            const pk_model_rigid *rb = &m->rigids[i];
            if (valid(m, rb->bone) ? keep[rb->bone] : !keep_in)
                write_rigid(out, m, rb, id);
        }
    }
    for (size_t i = 0; i < m->nbones; i++)
        free(id[i]);
    free(id);
    free(keep);
    if (out->oom) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

/* ---- the built-in bodies ---- */

const char *const *pk_body_builtin_names(size_t *n)
{
    *n = COUNT(BUILTIN);
    return BUILTIN;
}

char *pk_body_find(const char *name, pk_log *log)
{
    if (name[0] == '@')
        name++;
    size_t nb = COUNT(BUILTIN), i = 0;
    while (i < nb && strcmp(BUILTIN[i], name) != 0)
        i++;
    if (i == nb) {
        pk_log_add_at(log, PK_ERROR, PK_E_NOT_FOUND, NULL, -1, 0, 0,
                      "@%s is not a built-in body (they are @classic and @standard; @auto picks "
                      "one where a motion is there to fit)",
                      name);
        return NULL;
    }
    char file[64];
    snprintf(file, sizeof file, "%s.yaml", name);
    size_t n;
    char **dirs = pki_os_data_dirs("bodies", &n);
    char *found = NULL;
    pk_buf where;
    pk_buf_init(&where);
    for (size_t d = 0; d < n && !found; d++) {
        char *p = pki_os_join(dirs[d], file);
        if (p && pki_os_kind(p, NULL) == PK_PATH_FILE)
            found = p;
        else {
            pk_buf_printf(&where, "%s%s", d ? ", " : "", p ? p : "?");
            free(p);
        }
    }
    pki_os_free_list(dirs, n);
    if (!found) {
        pk_buf_putc(&where, 0);
        pk_log_add_at(log, PK_ERROR, PK_E_NOT_FOUND, NULL, -1, 0, 0,
                      "cannot find the built-in body @%s: looked in %s", name,
                      where.oom ? "?" : (const char *)where.data);
    }
    pk_buf_free(&where);
    return found;
}
