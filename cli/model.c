/* model.c — models (PMX, PMD) in `info` and `dump`, and loading them for
 * `check`: what every command that takes a model shares. */
#include "cli.h"
#include "json.h"
#include "util/json.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

bool cli_is_model(const char *path)
{
    pk_format f = pk_file_format(path);
    return f == PK_FMT_PMX || f == PK_FMT_PMD || f == PK_FMT_BODY;
}

/* The error of a file or stream none of info's and dump's readers take
 * (by_name: a file, whose extension was looked at too); EXIT_ERROR.  A
 * .yaml or .yml file is rules or a job, which info does not describe:
 * said so, without a byte offset that would point at nothing. */
static int not_known(const char *path, bool by_name)
{
    pk_log log;
    pk_log_init(&log);
    if (by_name && (pki_path_has_ext(path, ".yaml") || pki_path_has_ext(path, ".yml")))
        pk_log_add_at(&log, PK_ERROR, PK_E_USAGE, path, -1, 0, 0,
                      "a YAML file with no posekit_body key, not a VMD, VPD, PMX, PMD or "
                      "body file (rules go with --rules; posekit run JOB --dry-run lists "
                      "a job's steps)");
    else
        pk_log_add_at(&log, PK_ERROR, PK_E_DAMAGED, path, 0, 0, 0,
                      "not a VMD, VPD, PMX, PMD or body file (no signature or posekit_body "
                      "key%s)",
                      by_name ? ", no .vmd/.vpd/.pmx/.pmd extension" : "");
    cli_flush_log(&log, false);
    return EXIT_ERROR;
}

int cli_source_open(cli_source *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->stream = strcmp(path, "-") == 0 || pk_path_kind_of(path) == PK_PATH_OTHER;
    if (!s->stream) {
        s->model = cli_is_model(path);
        bool unknown = !s->model && pk_path_kind_of(path) == PK_PATH_FILE &&
                       pk_file_format(path) == PK_FMT_UNKNOWN;
        return unknown ? not_known(path, true) : EXIT_OK;
    }
    pk_log log;
    pk_log_init(&log);
    int rc = pk_file_read(path, &s->bytes, &log);
    pk_log_place(&log, 0, path);
    if (cli_flush_log(&log, false) != EXIT_OK || rc != 0)
        return EXIT_ERROR;
    pk_format f = pk_format_detect(s->bytes.data, s->bytes.len, NULL);
    s->model = f == PK_FMT_PMX || f == PK_FMT_PMD || f == PK_FMT_BODY;
    return f != PK_FMT_UNKNOWN ? EXIT_OK : not_known(path, false);
}

void cli_source_close(cli_source *s)
{
    if (s->stream)
        pk_bytes_free(&s->bytes);
    memset(&s->bytes, 0, sizeof s->bytes);
}

int cli_source_doc(const cli_source *s, pk_doc *doc, pk_log *log)
{
    if (!s->stream)
        return pk_doc_load(s->path, doc, log);
    return pk_doc_parse(s->bytes.data, s->bytes.len, s->path, doc, log);
}

/* pk_model_load of a source (a stream: the model its bytes hold). */
static pk_model *source_model(const cli_source *s, pk_log *log)
{
    if (!s->stream)
        return pk_model_load(s->path, log);
    size_t from = log->count;
    pk_model *m = pk_model_read(s->bytes.data, s->bytes.len, log);
    pk_log_place(log, from, s->path);
    return m;
}

/* m, read with log, once the log's diagnostics are printed; NULL (m
 * freed) on error, and on warnings when strict. */
static pk_model *flushed(pk_model *m, pk_log *log, bool strict)
{
    if (cli_flush_log(log, strict) != EXIT_OK) {
        pk_model_free(m);
        return NULL;
    }
    return m;
}

/* source_model with its diagnostics printed; NULL on error (and on
 * warnings when strict). */
static pk_model *load_source_model(const cli_source *s, bool strict)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = source_model(s, &log);
    return flushed(m, &log, strict);
}

pk_model *cli_load_model(const char *path, bool strict)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    return flushed(m, &log, strict);
}

static const char *encoding_name(pk_text_encoding e)
{
    return e == PK_TEXT_UTF16LE ? "utf-16le" : e == PK_TEXT_UTF8 ? "utf-8" : "cp932";
}

static const char *const PANELS[5] = {"system", "eyebrow", "eye", "mouth", "other"};
static const char *const KINDS[11] = {"group",      "vertex",     "bone",       "uv",
                                      "extra uv 1", "extra uv 2", "extra uv 3", "extra uv 4",
                                      "material",   "flip",       "impulse"};

static const struct {
    uint16_t bit;
    const char *word;
} FLAG_WORDS[] = {
    {PK_BONE_ROTATE, "rotate"},
    {PK_BONE_MOVE, "move"},
    {PK_BONE_VISIBLE, "visible"},
    {PK_BONE_OPERABLE, "operable"},
    {PK_BONE_IK, "ik"},
    {PK_BONE_APPEND_ROTATE, "append-rotate"},
    {PK_BONE_APPEND_MOVE, "append-move"},
    {PK_BONE_LOCAL_APPEND, "local-append"},
    {PK_BONE_FIXED_AXIS, "fixed-axis"},
    {PK_BONE_LOCAL_AXES, "local-axes"},
    {PK_BONE_AFTER_PHYSICS, "after-physics"},
    {PK_BONE_EXTERNAL_PARENT, "external-parent"},
};

static void flag_words(uint16_t flags, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof FLAG_WORDS / sizeof *FLAG_WORDS; i++)
        if (flags & FLAG_WORDS[i].bit) {
            size_t l = strlen(buf);
            snprintf(buf + l, size - l, "%s%s", l ? " " : "", FLAG_WORDS[i].word);
        }
}

static const char *format_title(const pk_model *m)
{
    if (m->format == PK_FMT_BODY)
        return "posekit body 1";
    return m->format == PK_FMT_PMX ? (m->version > 2.05f ? "PMX 2.1" : "PMX 2.0") : "PMD 1.0";
}

/* Rigid bodies per physics mode (PK_RIGID_*; [3]: any other mode). */
static void rigid_modes(const pk_model *m, size_t n[4])
{
    n[0] = n[1] = n[2] = n[3] = 0;
    for (size_t i = 0; i < m->nrigids; i++)
        n[m->rigids[i].mode <= PK_RIGID_PHYSICS_BONE ? m->rigids[i].mode : 3]++;
}

/* The summary: bodies by mode, then the bones physics drives. */
static void print_rigids_text(const pk_model *m)
{
    size_t n[4];
    rigid_modes(m, n);
    printf("  rigid bodies: %zu", m->nrigids);
    if (m->nrigids) {
        printf(" (%zu follow their bone, %zu physics, %zu physics with bone position", n[0], n[1],
               n[2]);
        if (n[3])
            printf(", %zu of an unknown mode", n[3]);
        printf(")");
    }
    printf("\n");
    bool *driven = calloc(m->nbones ? m->nbones : 1, sizeof *driven);
    if (!driven)
        return;
    size_t nd = pk_model_physics_bones(m, driven);
    if (nd) {
        printf("    bones driven by physics (%zu):", nd);
        for (size_t i = 0; i < m->nbones; i++)
            if (driven[i])
                printf(" %s", m->bones[i].name);
        printf("\n");
    }
    free(driven);
}

static void print_model_text(const char *path, const pk_model *m, size_t warnings)
{
    cli_printf_shown(stdout, "%s\n", path);
    printf("  format: %s, %s text", format_title(m), encoding_name(m->encoding));
    if (m->format == PK_FMT_PMX)
        printf(", index sizes vertex %u texture %u material %u bone %u morph %u rigid %u, extra "
               "UVs %d",
               m->index_size[0], m->index_size[1], m->index_size[2], m->index_size[3],
               m->index_size[4], m->index_size[5], m->extra_uv);
    printf("\n  model: %s\n  model (English): %s\n", m->name, m->name_en);
    printf("  counts:");
    for (int s = 0; s < PK_MSEC_COUNT; s++)
        printf("%s %s %zu", s ? "," : "", pk_model_section_name((pk_model_section)s), m->counts[s]);
    printf("\n  warnings: %zu\n", warnings);
    if (m->unencodable)
        printf("  names CP932 cannot hold: %zu\n", m->unencodable);
    printf("  bones:\n");
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        char words[256];
        flag_words(b->flags, words, sizeof words);
        printf("    %4zu  %s", i, b->name);
        if (b->name_en[0] && strcmp(b->name_en, b->name) != 0) /* PMD writers copy it */
            printf(" (%s)", b->name_en);
        if (b->parent >= 0)
            printf("  parent %s", m->bones[b->parent].name);
        else
            printf("  root");
        printf("  [%s]", words);
        if (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE) && b->append_parent >= 0)
            printf("  append %s x%g", m->bones[b->append_parent].name, (double)b->append_ratio);
        printf("\n");
    }
    printf("  IK chains:\n");
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK))
            continue;
        printf("    %s -> %s, %d loops, limit %g rad:", b->name, m->bones[b->ik_target].name,
               (int)b->ik_loops, (double)b->ik_limit);
        for (size_t k = 0; k < b->nik_links; k++)
            printf(" %s%s", m->bones[b->ik_links[k].bone].name, b->ik_links[k].limited ? "*" : "");
        printf("\n");
    }
    printf("  morphs by panel:\n");
    for (int p = 0; p < 6; p++) {
        size_t n = 0;
        for (size_t i = 0; i < m->nmorphs; i++)
            n += (p < 5 ? m->morphs[i].panel == p : m->morphs[i].panel > 4);
        if (!n)
            continue;
        printf("    %s (%zu):", p < 5 ? PANELS[p] : "unknown", n);
        for (size_t i = 0; i < m->nmorphs; i++)
            if (p < 5 ? m->morphs[i].panel == p : m->morphs[i].panel > 4)
                printf(" %s", m->morphs[i].name);
        printf("\n");
    }
    printf("  display frames:\n");
    for (size_t f = 0; f < m->nframes; f++) {
        const pk_model_frame *fr = &m->frames[f];
        size_t nb = 0;
        for (size_t k = 0; k < fr->nitems; k++)
            nb += fr->items[k].kind == 0;
        printf("    %s (%zu bone%s, %zu morph%s)%s", fr->name, nb, nb == 1 ? "" : "s",
               fr->nitems - nb, fr->nitems - nb == 1 ? "" : "s", nb ? ":" : "");
        for (size_t k = 0; k < fr->nitems; k++)
            if (fr->items[k].kind == 0)
                printf(" %s", m->bones[fr->items[k].index].name);
        printf("\n");
    }
    print_rigids_text(m);
}

/* {"follow_bone", "physics", "physics_bone", "unknown": counts of rigid
 * bodies by mode, "driven": [the bones physics drives]}. */
static void physics_json(pki_json *j, const pk_model *m)
{
    size_t n[4];
    rigid_modes(m, n);
    pki_json_open(j, '{');
    pki_json_kint(j, "follow_bone", (long long)n[0]);
    pki_json_kint(j, "physics", (long long)n[1]);
    pki_json_kint(j, "physics_bone", (long long)n[2]);
    pki_json_kint(j, "unknown", (long long)n[3]);
    pki_json_key(j, "driven");
    pki_json_open(j, '[');
    bool *driven = calloc(m->nbones ? m->nbones : 1, sizeof *driven);
    if (driven) {
        pk_model_physics_bones(m, driven);
        for (size_t i = 0; i < m->nbones; i++)
            if (driven[i]) {
                pki_json_item(j);
                pki_json_str(j->b, m->bones[i].name);
            }
        free(driven);
    }
    pki_json_close(j, ']');
    pki_json_close(j, '}');
}

/* A model as info --json describes it. */
static void model_json(pki_json *j, const char *path, const pk_model *m, size_t warnings)
{
    pki_json_open(j, '{');
    pki_json_kstr(j, "path", path); /* the key motions and poses use */
    pki_json_kstr(j, "format", pk_format_name((pk_format)m->format));
    pki_json_key(j, "version");
    pki_json_float(j->b, m->version);
    pki_json_kstr(j, "encoding", encoding_name(m->encoding));
    if (m->format == PK_FMT_PMX) {
        static const char *const ix[6] = {"vertex", "texture", "material",
                                          "bone",   "morph",   "rigid"};
        pki_json_key(j, "index_sizes");
        pki_json_open(j, '{');
        for (int i = 0; i < 6; i++)
            pki_json_kint(j, ix[i], m->index_size[i]);
        pki_json_close(j, '}');
        pki_json_kint(j, "extra_uv", m->extra_uv);
    }
    pki_json_kstr(j, "model", m->name);
    pki_json_kstr(j, "model_en", m->name_en);
    pki_json_key(j, "counts");
    pki_json_open(j, '{');
    for (int s = 0; s < PK_MSEC_COUNT; s++)
        pki_json_kint(j, pk_model_section_name((pk_model_section)s), (long long)m->counts[s]);
    pki_json_close(j, '}');
    pki_json_kint(j, "unencodable", (long long)m->unencodable);
    pki_json_kint(j, "warnings", (long long)warnings);
    pki_json_key(j, "bones");
    pki_json_open(j, '[');
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kstr(j, "name", b->name);
        pki_json_kstr(j, "name_en", b->name_en);
        pki_json_kint(j, "parent", b->parent);
        pki_json_key(j, "flags");
        pki_json_open(j, '[');
        for (size_t k = 0; k < sizeof FLAG_WORDS / sizeof *FLAG_WORDS; k++)
            if (b->flags & FLAG_WORDS[k].bit) {
                pki_json_item(j);
                pki_json_str(j->b, FLAG_WORDS[k].word);
            }
        pki_json_close(j, ']');
        if (b->flags & PK_BONE_IK) {
            pki_json_key(j, "ik");
            pki_json_open(j, '{');
            pki_json_kstr(j, "target", m->bones[b->ik_target].name);
            pki_json_key(j, "links");
            pki_json_open(j, '[');
            for (size_t k = 0; k < b->nik_links; k++) {
                pki_json_item(j);
                pki_json_str(j->b, m->bones[b->ik_links[k].bone].name);
            }
            pki_json_close(j, ']');
            pki_json_close(j, '}');
        }
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
    pki_json_key(j, "morphs");
    pki_json_open(j, '{');
    for (int p = 0; p < 5; p++) {
        pki_json_key(j, PANELS[p]);
        pki_json_open(j, '[');
        for (size_t i = 0; i < m->nmorphs; i++)
            if (m->morphs[i].panel == p) {
                pki_json_item(j);
                pki_json_str(j->b, m->morphs[i].name);
            }
        pki_json_close(j, ']');
    }
    pki_json_close(j, '}');
    pki_json_key(j, "frames");
    pki_json_open(j, '[');
    for (size_t f = 0; f < m->nframes; f++) {
        size_t nm = 0;
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kstr(j, "name", m->frames[f].name);
        pki_json_key(j, "bones");
        pki_json_open(j, '[');
        for (size_t k = 0; k < m->frames[f].nitems; k++) {
            const pk_model_frame_item *it = &m->frames[f].items[k];
            if (it->kind == 0) {
                pki_json_item(j);
                pki_json_str(j->b, m->bones[it->index].name);
            } else {
                nm++;
            }
        }
        pki_json_close(j, ']');
        pki_json_kint(j, "morphs", (long long)nm);
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
    pki_json_key(j, "physics");
    physics_json(j, m);
    pki_json_close(j, '}');
}

int cli_model_info(const cli_source *s, struct pki_json *json, bool first, bool strict)
{
    const char *path = s->path;
    pk_log log;
    pk_log_init(&log);
    pk_model *m = source_model(s, &log);
    size_t warnings = log.warnings;
    if (cli_flush_log(&log, strict) != EXIT_OK || !m) {
        pk_model_free(m);
        return EXIT_ERROR;
    }
    if (json) {
        pki_json_item(json);
        model_json(json, path, m, warnings);
    } else {
        if (!first)
            putchar('\n');
        print_model_text(path, m, warnings);
    }
    pk_model_free(m);
    return EXIT_OK;
}

/* ------------------------------------------------------------------ dump */

static void put_f3_or_null(FILE *f, bool present, const float v[3])
{
    if (present)
        cj_put_floats(f, v, 3);
    else
        fputs("null", f);
}

/* One rigid body as a dump record (every field as stored; position in
 * model space, doc/commands.md "Models (PMX, PMD)"). */
static void put_rigid(FILE *f, const pk_model_rigid *rb, bool first)
{
    fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
    cj_put_string(f, rb->name);
    fputs(",\"name_en\":", f);
    cj_put_string(f, rb->name_en);
    fprintf(f, ",\"bone\":%d,\"group\":%u,\"mask\":%u,\"shape\":%u,\"size\":", (int)rb->bone,
            rb->group, rb->mask, rb->shape);
    cj_put_floats(f, rb->size, 3);
    fputs(",\"position\":", f);
    cj_put_floats(f, rb->pos, 3);
    fputs(",\"rotation\":", f);
    cj_put_floats(f, rb->rot, 3);
    fputs(",\"mass\":", f);
    cj_put_float(f, rb->mass);
    fputs(",\"linear_damping\":", f);
    cj_put_float(f, rb->linear_damping);
    fputs(",\"angular_damping\":", f);
    cj_put_float(f, rb->angular_damping);
    fputs(",\"restitution\":", f);
    cj_put_float(f, rb->restitution);
    fputs(",\"friction\":", f);
    cj_put_float(f, rb->friction);
    fprintf(f, ",\"mode\":%u}", rb->mode);
}

int cli_model_dump(const cli_source *s, bool strict)
{
    pk_model *m = load_source_model(s, strict);
    if (!m)
        return EXIT_ERROR;
    FILE *f = stdout;
    fprintf(f, "{\"format\":\"%s\",\"version\":", pk_format_name((pk_format)m->format));
    cj_put_float(f, m->version);
    fprintf(f, ",\"encoding\":\"%s\",\"model\":", encoding_name(m->encoding));
    cj_put_string(f, m->name);
    fputs(",\"model_en\":", f);
    cj_put_string(f, m->name_en);
    fputs(",\n\"bones\":[", f);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        cj_put_string(f, b->name);
        fputs(",\"name_en\":", f);
        cj_put_string(f, b->name_en);
        fprintf(f, ",\"parent\":%d,\"position\":", (int)b->parent);
        cj_put_floats(f, b->pos, 3);
        fprintf(f, ",\"layer\":%d,\"flags\":%u,\"tail\":", (int)b->layer, b->flags);
        if (b->flags & PK_BONE_TAIL_IS_BONE)
            fprintf(f, "%d", (int)b->tail_bone);
        else
            cj_put_floats(f, b->tail, 3);
        fputs(",\"append\":", f);
        if (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) {
            fprintf(f, "{\"parent\":%d,\"ratio\":", (int)b->append_parent);
            cj_put_float(f, b->append_ratio);
            fprintf(f, ",\"rotate\":%s,\"move\":%s,\"local\":%s}",
                    b->flags & PK_BONE_APPEND_ROTATE ? "true" : "false",
                    b->flags & PK_BONE_APPEND_MOVE ? "true" : "false",
                    b->flags & PK_BONE_LOCAL_APPEND ? "true" : "false");
        } else {
            fputs("null", f);
        }
        fputs(",\"fixed_axis\":", f);
        put_f3_or_null(f, b->flags & PK_BONE_FIXED_AXIS, b->fixed_axis);
        fputs(",\"local_axes\":", f);
        if (b->flags & PK_BONE_LOCAL_AXES) {
            fputs("{\"x\":", f);
            cj_put_floats(f, b->local_x, 3);
            fputs(",\"z\":", f);
            cj_put_floats(f, b->local_z, 3);
            fputs("}", f);
        } else {
            fputs("null", f);
        }
        fputs(",\"ik\":", f);
        if (b->flags & PK_BONE_IK) {
            fprintf(f, "{\"target\":%d,\"loops\":%d,\"limit\":", (int)b->ik_target,
                    (int)b->ik_loops);
            cj_put_float(f, b->ik_limit);
            fputs(",\"links\":[", f);
            for (size_t k = 0; k < b->nik_links; k++) {
                const pk_model_ik_link *l = &b->ik_links[k];
                fprintf(f, "%s{\"bone\":%d,\"min\":", k ? "," : "", (int)l->bone);
                put_f3_or_null(f, l->limited, l->min);
                fputs(",\"max\":", f);
                put_f3_or_null(f, l->limited, l->max);
                fputs("}", f);
            }
            fputs("]}", f);
        } else {
            fputs("null", f);
        }
        fputs("}", f);
    }
    fputs("],\n\"morphs\":[", f);
    for (size_t i = 0; i < m->nmorphs; i++) {
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        cj_put_string(f, m->morphs[i].name);
        fputs(",\"name_en\":", f);
        cj_put_string(f, m->morphs[i].name_en);
        fprintf(f, ",\"panel\":%u,\"kind\":%u}", m->morphs[i].panel, m->morphs[i].kind);
    }
    fputs("],\n\"frames\":[", f);
    for (size_t i = 0; i < m->nframes; i++) {
        const pk_model_frame *fr = &m->frames[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        cj_put_string(f, fr->name);
        for (int kind = 0; kind < 2; kind++) {
            fputs(kind ? "],\"morphs\":[" : ",\"bones\":[", f);
            bool any = false;
            for (size_t k = 0; k < fr->nitems; k++) {
                if (fr->items[k].kind != kind)
                    continue;
                if (any)
                    fputc(',', f);
                any = true;
                cj_put_string(f, kind ? m->morphs[fr->items[k].index].name
                                      : m->bones[fr->items[k].index].name);
            }
        }
        fputs("]}", f);
    }
    fputs("],\n\"rigid_bodies\":[", f);
    for (size_t i = 0; i < m->nrigids; i++)
        put_rigid(f, &m->rigids[i], i == 0);
    fputs("]}\n", f);
    pk_model_free(m);
    (void)KINDS;
    return EXIT_OK;
}
