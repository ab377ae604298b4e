/* diff_scene.h — the camera, light and self-shadow rows of a diff in
 * diff's three report forms (cli/diff_scene.c). */
#ifndef POSEKIT_CLI_DIFF_SCENE_H
#define POSEKIT_CLI_DIFF_SCENE_H

#include "posekit.h"

#include <jansson.h>
#include <stdio.h>

/* Table block after the morphs: the channels that differ or are keyed on
 * one side only (all: every channel); nothing when d has none. */
void diff_scene_table(FILE *f, const pk_diff *d, bool all);
/* CSV rows of kind "scene" (delta in the delta column, the frame of the
 * maximum in the angle_frame column for ranges); tail ends each line. */
void diff_scene_csv(FILE *f, const pk_diff *d, const char *tail);
/* JSON array of the channels (new reference, NULL on OOM). */
json_t *diff_scene_json(const pk_diff *d);

#endif
