/* diff_scene.c — camera, light and self-shadow rows of `posekit diff`. */
#include "diff_scene.h"

#include "json.h"

#include <math.h>

static const char *only_text(int only_in)
{
    return only_in == PK_DIFF_ONLY_A ? "a" : only_in == PK_DIFF_ONLY_B ? "b" : "";
}

void diff_scene_table(FILE *f, const pk_diff *d, bool all)
{
    bool head = false;
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        if (!all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                fprintf(f, "%9s %6s %9s  %s\n", "max", "frame", "mean", "camera, light, shadow");
            else
                fprintf(f, "%9s  %s\n", "delta", "camera, light, shadow");
            head = true;
        }
        if (d->range)
            fprintf(f, "%9.4f %6u %9.4f  %s", r->delta, r->frame, r->mean, r->name);
        else
            fprintf(f, "%9.4f  %s", r->delta, r->name);
        if (*r->unit)
            fprintf(f, " (%s)", r->unit);
        if (r->only_in)
            fprintf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        fputc('\n', f);
    }
}

void diff_scene_csv(FILE *f, const pk_diff *d, const char *tail)
{
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        if (d->range)
            fprintf(f, "scene,%s,,,%u,,,,,,%.6f,%s,%d%s\n", r->name, r->frame, r->delta,
                    only_text(r->only_in), r->differs, tail);
        else
            fprintf(f, "scene,%s,,,,,,,,,%.6f,%s,%d%s\n", r->name, r->delta, only_text(r->only_in),
                    r->differs, tail);
    }
}

static double round6(double x)
{
    return round(x * 1e6) / 1e6;
}

json_t *diff_scene_json(const pk_diff *d)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        json_t *o = json_object();
        if (!o) {
            json_decref(arr);
            return NULL;
        }
        json_object_set_new(o, "name", json_string(r->name));
        json_object_set_new(o, "unit", json_string(r->unit));
        json_object_set_new(o, "delta", json_real(round6(r->delta)));
        if (d->range) {
            json_object_set_new(o, "frame", json_integer(r->frame));
            json_object_set_new(o, "mean", json_real(round6(r->mean)));
        }
        if (r->only_in)
            json_object_set_new(o, "only_in", json_string(only_text(r->only_in)));
        json_object_set_new(o, "differs", json_boolean(r->differs));
        json_array_append_new(arr, o);
    }
    return arr;
}
