/*
 * yaml_extra.h — private: the one set of libyaml helpers of the YAML
 * readers: rule files, job files and body files (engine/rules/rules.c,
 * engine/job/job_load.c, engine/format/body.c).
 */
#ifndef PKI_COMMON_YAML_EXTRA_H
#define PKI_COMMON_YAML_EXTRA_H

#include "posekit.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* What an MMD file given where a YAML file goes is ("a VMD motion"), by
 * its signature, or NULL: said instead of the YAML reader's complaint
 * about its first binary byte ("control characters are not allowed"). */
static inline const char *pki_yaml_mmd_file(const void *data, size_t len)
{
    switch (pk_format_detect(data, len, NULL)) {
    case PK_FMT_VMD:
        return "a VMD motion";
    case PK_FMT_VPD:
        return "a VPD pose";
    case PK_FMT_PMX:
        return "a PMX model";
    case PK_FMT_PMD:
        return "a PMD model";
    default:
        return NULL;
    }
}

/* YAML's null, the one rule for rule, job and body files: a plain
 * (unquoted) scalar that is empty, `~`, `null`, `Null` or `NULL` (YAML
 * 1.2's core schema); a key given with no value is as if it were not
 * there.  A quoted "" or "null" is a string. */
static inline bool pki_yaml_is_null(const yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = (const char *)n->data.scalar.value;
    return !*v || strcmp(v, "~") == 0 || strcmp(v, "null") == 0 || strcmp(v, "Null") == 0 ||
           strcmp(v, "NULL") == 0;
}

/* libyaml's reason for a failed load, worded one way for rule files and
 * job files alike: "YAML syntax error: PROBLEM CONTEXT" into buf (the
 * caller places it with pki_yaml_problem_at).  Bytes that are not UTF-8
 * (a CP932 file, as MMD's own files are) say so and what to do. */
static inline const char *pki_yaml_syntax_error(const yaml_parser_t *parser, char *buf, size_t size)
{
    if (parser->error == YAML_READER_ERROR && parser->problem &&
        strstr(parser->problem, "UTF-8")) {
        snprintf(buf, size,
                 "not UTF-8: %s (byte 0x%02X); a YAML file is UTF-8 (save a CP932 file as UTF-8)",
                 parser->problem, (unsigned)parser->problem_value & 0xFFu);
        return buf;
    }
    /* a brace or comma in a plain value inside { } ends it: libyaml then
     * says only that the mapping did not go on (a job's out/{stem}.vmd) */
    bool flow = parser->problem && parser->context &&
                strcmp(parser->problem, "did not find expected ',' or '}'") == 0 &&
                strcmp(parser->context, "while parsing a flow mapping") == 0;
    snprintf(buf, size, "YAML syntax error: %s%s%s%s",
             parser->problem ? parser->problem : "malformed", parser->context ? " " : "",
             parser->context ? parser->context : "",
             flow ? " (inside { }, a value holding '{', '}' or ',' needs quotes: "
                    "\"out/{stem}.vmd\")"
                  : "");
    return buf;
}

/* Where a failed load went wrong, 1-based: libyaml's problem mark, or for
 * bytes the reader refused (not UTF-8, a control character), which get no
 * mark, the line and column (in characters) of the offset it gives in
 * data. */
static inline void pki_yaml_problem_at(const yaml_parser_t *parser, const unsigned char *data,
                                       size_t len, int *line, int *col)
{
    *line = (int)parser->problem_mark.line + 1;
    *col = (int)parser->problem_mark.column + 1;
    if (parser->error != YAML_READER_ERROR)
        return;
    size_t end = parser->problem_offset < len ? parser->problem_offset : len;
    size_t start = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a BOM */
    *line = *col = 1;
    for (size_t i = start; i < end; i++) {
        if (data[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if ((data[i] & 0xC0) != 0x80) { /* a character's first byte */
            (*col)++;
        }
    }
}

/* The deepest nesting of collections a rule, job or body file may have.
 * libyaml's scanner spends time quadratic in the nesting depth (it
 * rescans every open flow level at each token), so a file of 100,000
 * `[` takes minutes; real files nest a few levels. */
#define PKI_YAML_MAX_DEPTH 64

/* Reads data into *doc with an initialized parser, as yaml_parser_load,
 * after a first pass that stops at the first collection nested deeper
 * than PKI_YAML_MAX_DEPTH (a pass that costs little: it reads events and
 * keeps none).  Returns true when *doc was loaded; false with the reason
 * in parser->problem and its place in parser->problem_mark, for
 * pki_yaml_syntax_error, as libyaml leaves them. */
static inline bool pki_yaml_load(yaml_parser_t *parser, const unsigned char *data, size_t len,
                                 yaml_document_t *doc)
{
    yaml_parser_t probe;
    if (yaml_parser_initialize(&probe)) {
        yaml_parser_set_input_string(&probe, data, len);
        int depth = 0;
        bool deep = false, done = false;
        yaml_mark_t where = {0, 0, 0};
        while (!done && !deep) {
            yaml_event_t ev;
            if (!yaml_parser_parse(&probe, &ev))
                break; /* the load below reports it */
            if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
                deep = ++depth > PKI_YAML_MAX_DEPTH;
                where = ev.start_mark;
            } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
                depth--;
            }
            done = ev.type == YAML_STREAM_END_EVENT;
            yaml_event_delete(&ev);
        }
        yaml_parser_delete(&probe);
        if (deep) {
            parser->error = YAML_PARSER_ERROR;
            parser->problem = "collections nested deeper than 64 levels";
            parser->context = NULL;
            parser->problem_mark = where;
            return false;
        }
    }
    yaml_parser_set_input_string(parser, data, len);
    return yaml_parser_load(parser, doc) != 0;
}

/* After the first document was loaded: true when the stream holds a
 * second one (a `---` the user probably did not mean), with its 1-based
 * position in *line and *col.  A syntax error after the first document counts
 * as a second document too, at the error's position.  Silently ignoring
 * the rest of a file would drop rules without a word. */
static inline bool pki_yaml_has_second_document(yaml_parser_t *parser, int *line, int *col)
{
    yaml_document_t next;
    if (!yaml_parser_load(parser, &next)) {
        *line = (int)parser->problem_mark.line + 1;
        *col = (int)parser->problem_mark.column + 1;
        return true;
    }
    yaml_node_t *root = yaml_document_get_root_node(&next);
    bool more = root != NULL;
    if (more) {
        *line = (int)next.start_mark.line + 1;
        *col = (int)next.start_mark.column + 1;
    }
    yaml_document_delete(&next);
    return more;
}

/* In a mapping, the earlier pair whose key is the same scalar as pair p's,
 * or NULL.  libyaml keeps duplicate keys; a loader that took the last one
 * (or both) would silently drop what the user wrote first. */
static inline const yaml_node_t *pki_yaml_earlier_key(yaml_document_t *doc, const yaml_node_t *map,
                                                      const yaml_node_pair_t *p)
{
    const yaml_node_t *k = yaml_document_get_node(doc, p->key);
    if (!k || k->type != YAML_SCALAR_NODE)
        return NULL;
    for (const yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
        const yaml_node_t *e = yaml_document_get_node(doc, q->key);
        if (e && e->type == YAML_SCALAR_NODE && e->data.scalar.length == k->data.scalar.length &&
            memcmp(e->data.scalar.value, k->data.scalar.value, k->data.scalar.length) == 0)
            return e;
    }
    return NULL;
}

#endif
