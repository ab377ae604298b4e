/* cmd_check.c — `posekit check MOTION|POSE --model MODEL`: will this
 * motion play on this model?  Which names are missing, which are near
 * misses, which keys the model cannot use; optionally a rules file that
 * renames the missing names onto the model (README "check"). */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_check[] =
    "usage: posekit check MOTION|POSE --model MODEL [--json] [--suggest-rules OUT.yaml]\n"
    "\n"
    "Checks every bone and morph a VMD motion or VPD pose keys against a PMX\n"
    "or PMD model: found, found only through MMD's cut of a longer model name\n"
    "(15 bytes in VMD, 19 in VPD), or missing (MMD ignores those keys).  For\n"
    "a missing name the closest model name is proposed when they differ only\n"
    "by full-width/half-width forms (ＩＫ/IK, ０/0), spaces or case, by a\n"
    "common spelling (人指/人差指, ひじ/肘, ひざ/膝, つま先/爪先), or when the\n"
    "motion uses the model's English name.  Also lists keys the model cannot\n"
    "use (translating a bone that is not movable, rotating one that is not\n"
    "rotatable) and, for information, the model's operable bones the motion\n"
    "never keys, by display frame.\n"
    "\n"
    "  --model MODEL           the PMX or PMD model (required)\n"
    "  --json                  the report as JSON\n"
    "  --suggest-rules OUT     write a rules file renaming each missing name\n"
    "                          that has a near miss to the model's name, one\n"
    "                          comment per rule saying why\n"
    "  --strict                treat warnings as errors\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 every keyed bone and morph exists on the model, 1 some are\n"
    "missing, 2 error.\n";

static const char *status_word(pk_check_status s)
{
    return s == PK_CHECK_FOUND ? "found" : s == PK_CHECK_CUT ? "cut" : "missing";
}

static const char *model_name(const pk_model *m, const pk_check_item *it)
{
    if (it->index < 0)
        return NULL;
    return it->morph ? m->morphs[it->index].name : m->bones[it->index].name;
}

static void print_text(const char *path, const char *model_path, const pk_model *m,
                       const pk_check_report *r, size_t cut)
{
    size_t nb = 0, nm = 0, mb = 0, mm = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        *(it->morph ? &nm : &nb) += 1;
        if (it->status == PK_CHECK_MISSING)
            *(it->morph ? &mm : &mb) += 1;
    }
    printf("%s on %s (%s)\n", path, model_path, m->name);
    printf("  bones keyed: %zu, missing on the model: %zu\n", nb, mb);
    printf("  morphs keyed: %zu, missing on the model: %zu\n", nm, mm);
    if (r->missing) {
        printf("missing (MMD ignores their keys):\n");
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->status != PK_CHECK_MISSING)
                continue;
            printf("  %-5s %s (%zu keys)", it->morph ? "morph" : "bone", it->name, it->keys);
            if (it->index >= 0)
                printf("  near miss: %s (%s)", model_name(m, it), it->why);
            printf("\n");
        }
    }
    if (r->cut) {
        printf("found through MMD's %zu-byte cut of the model's name:\n", cut);
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->status == PK_CHECK_CUT)
                printf("  %-5s %s (%zu keys) = %s\n", it->morph ? "morph" : "bone", it->name,
                       it->keys, model_name(m, it));
        }
    }
    if (r->unusable) {
        printf("keys the model cannot use:\n");
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->move_unusable)
                printf("  bone  %s: %zu keys translate it; the model does not let it move\n",
                       it->name, it->move_unusable);
            if (it->rotate_unusable)
                printf("  bone  %s: %zu keys rotate it; the model does not let it rotate\n",
                       it->name, it->rotate_unusable);
        }
    }
    /* informative: operable bones never keyed, by display frame */
    bool header = false;
    for (size_t f = 0; f < m->nframes; f++) {
        const pk_model_frame *fr = &m->frames[f];
        bool any = false;
        for (size_t k = 0; k < fr->nitems; k++) {
            const pk_model_frame_item *x = &fr->items[k];
            if (x->kind != 0 || r->keyed[x->index] ||
                !(m->bones[x->index].flags & PK_BONE_OPERABLE))
                continue;
            if (!header)
                printf("model bones the motion never keys (by display frame):\n");
            header = true;
            if (!any)
                printf("  %s:", fr->name);
            any = true;
            printf(" %s", m->bones[x->index].name);
        }
        if (any)
            printf("\n");
    }
}

static json_t *report_json(const char *path, const char *model_path, const pk_model *m,
                           const pk_check_report *r)
{
    json_t *o = json_object(), *bones = json_array(), *morphs = json_array();
    json_object_set_new(o, "file", cj_string(path));
    json_object_set_new(o, "model_file", cj_string(model_path));
    json_object_set_new(o, "model", cj_string(m->name));
    json_object_set_new(o, "missing", json_integer((json_int_t)r->missing));
    json_object_set_new(o, "cut", json_integer((json_int_t)r->cut));
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", cj_string(it->name));
        json_object_set_new(j, "keys", json_integer((json_int_t)it->keys));
        json_object_set_new(j, "status", json_string(status_word(it->status)));
        const char *mn = model_name(m, it);
        if (it->status != PK_CHECK_MISSING) {
            json_object_set_new(j, "model_name", cj_string(mn));
        } else if (mn) {
            json_t *near = json_object();
            json_object_set_new(near, "name", cj_string(mn));
            json_object_set_new(near, "why", cj_string(it->why));
            json_object_set_new(j, "near_miss", near);
        } else {
            json_object_set_new(j, "near_miss", json_null());
        }
        if (!it->morph) {
            json_object_set_new(j, "move_unusable", json_integer((json_int_t)it->move_unusable));
            json_object_set_new(j, "rotate_unusable",
                                json_integer((json_int_t)it->rotate_unusable));
        }
        json_array_append_new(it->morph ? morphs : bones, j);
    }
    json_object_set_new(o, "bones", bones);
    json_object_set_new(o, "morphs", morphs);
    json_t *unkeyed = json_array();
    for (size_t f = 0; f < m->nframes; f++) {
        const pk_model_frame *fr = &m->frames[f];
        json_t *names = json_array();
        for (size_t k = 0; k < fr->nitems; k++) {
            const pk_model_frame_item *x = &fr->items[k];
            if (x->kind == 0 && !r->keyed[x->index] &&
                (m->bones[x->index].flags & PK_BONE_OPERABLE))
                json_array_append_new(names, cj_string(m->bones[x->index].name));
        }
        if (json_array_size(names) == 0) {
            json_decref(names);
            continue;
        }
        json_t *g = json_object();
        json_object_set_new(g, "frame", cj_string(fr->name));
        json_object_set_new(g, "bones", names);
        json_array_append_new(unkeyed, g);
    }
    json_object_set_new(o, "unkeyed", unkeyed);
    return o;
}

static void yaml_quoted(pk_buf *b, const char *s)
{
    pk_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            pk_buf_putc(b, '\\');
        pk_buf_putc(b, (uint8_t)*s);
    }
    pk_buf_putc(b, '"');
}

/* The rules file: for each missing name with a near miss, a rename to
 * the model's name (cut to the field on a character boundary when the
 * model's name is longer, which MMD then matches by its cut). */
static int suggest(const char *out, const char *path, const char *model_path, const pk_model *m,
                   const pk_check_report *r, size_t field)
{
    pk_buf b;
    pk_buf_init(&b);
    pk_buf_printf(&b,
                  "# Suggested by `posekit check %s --model %s`:\n"
                  "# each missing name renamed to the model's closest name.\n"
                  "# Apply with: posekit rename %s --rules THIS_FILE -o OUT\n",
                  path, model_path, path);
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->morph != (pass == 1) || it->status != PK_CHECK_MISSING)
                continue;
            if (!any)
                pk_buf_puts(&b, pass ? "morphs:\n" : "rename:\n");
            any = true;
            if (it->index < 0) {
                pk_buf_printf(&b, "  # %s (%zu keys): no near miss on the model; left as is\n",
                              it->name, it->keys);
                continue;
            }
            pk_name_id id = it->morph ? m->morphs[it->index].cp932 : m->bones[it->index].cp932;
            const char *target = model_name(m, it);
            /* a target another keyed name already has, or a second source
             * for one target, would make the rename fail */
            bool clash = false;
            for (size_t k = 0; k < r->nitems; k++) {
                const pk_check_item *o = &r->items[k];
                if (k == i || o->morph != it->morph || o->index != it->index)
                    continue;
                if (o->status != PK_CHECK_MISSING || k < i)
                    clash = true;
            }
            if (clash || id == PK_NO_NAME) {
                pk_buf_printf(&b, "  # %s -> %s not suggested: %s\n", it->name, target,
                              clash ? "the motion already keys that name (or an earlier rule "
                                      "maps to it)"
                                    : "CP932 cannot hold the model's name");
                continue;
            }
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, id, &len);
            char *cut = NULL;
            if (len > field) {
                cut = pk_cp932_to_utf8(raw, pk_cp932_boundary(raw, field), NULL);
                if (!cut) {
                    pk_buf_free(&b);
                    fprintf(stderr, "posekit: out of memory\n");
                    return EXIT_ERROR;
                }
            }
            pk_buf_printf(&b, "  # %s (%zu keys) -> %s: %s%s\n", it->name, it->keys, target,
                          it->why, cut ? "; cut to the field, which MMD matches" : "");
            pk_buf_puts(&b, "  ");
            yaml_quoted(&b, it->name);
            pk_buf_puts(&b, ": ");
            yaml_quoted(&b, cut ? cut : target);
            pk_buf_putc(&b, '\n');
            free(cut);
        }
    }
    int rc = cli_write(out, &b);
    pk_buf_free(&b);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'j'},
        {"suggest-rules", required_argument, NULL, 'r'},
        {"strict", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *model_path = NULL, *rules_out = NULL;
    bool as_json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm':
            model_path = optarg;
            break;
        case 'j':
            as_json = true;
            break;
        case 'r':
            rules_out = optarg;
            break;
        case 's':
            cli_strict = true;
            break;
        case 'h':
            return cli_help(help_check);
        default:
            return cli_bad_option("check", argv);
        }
    }
    const char *path;
    if (cli_one_operand("check", "motion or pose", argc, argv, optind, &path) != EXIT_OK)
        return EXIT_ERROR;
    if (!model_path)
        return cli_usage("check", "no model given (--model MODEL)");
    pk_model *m = cli_load_model(model_path, cli_strict);
    if (!m)
        return EXIT_ERROR;
    pk_doc doc;
    if (cli_load(path, &doc, cli_strict) != EXIT_OK) {
        pk_model_free(m);
        return EXIT_ERROR;
    }
    pk_log log;
    pk_log_init(&log);
    pk_check_report *r =
        doc.motion ? pk_check_motion(m, doc.motion, &log) : pk_check_pose(m, doc.pose, &log);
    int status = cli_flush_log(&log, cli_strict);
    size_t field = doc.motion ? PK_VMD_NAME_BYTES : PK_VPD_NAME_BYTES;
    if (r && status == EXIT_OK) {
        if (as_json) {
            json_t *o = report_json(path, model_path, m, r);
            cj_print(stdout, o, 2);
            json_decref(o);
        } else {
            print_text(path, model_path, m, r, field);
        }
        if (rules_out && suggest(rules_out, path, model_path, m, r, field) != EXIT_OK)
            status = EXIT_ERROR;
        if (status == EXIT_OK && r->missing)
            status = EXIT_DIFF;
    } else {
        status = EXIT_ERROR;
    }
    pk_check_free(r);
    pk_doc_free(&doc);
    pk_model_free(m);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "posekit: cannot write to standard output\n");
        return EXIT_ERROR;
    }
    return status;
}
