/* svg.h — pictures of diffs as plain SVG text (cli/svg.c), viewable in
 * any browser; no drawing library. */
#ifndef POSEKIT_CLI_SVG_H
#define POSEKIT_CLI_SVG_H

#include "posekit.h"

/* Appends an SVG document for d (sorted with pk_diff_sort) to out:
 *  - a pose diff: one horizontal bar per bone, length = angle in degrees,
 *    distance and one-side marks in the label;
 *  - a range diff (d->range, made with keep_frames): a heatmap, one row
 *    per bone and one column per frame (neighbouring frames share a column
 *    when there are more than fit; a column shows their maximum).
 * Rows: the bones that differ, largest first (at most 200); `title`
 * (UTF-8) heads the picture.  Returns 0, or -1 on OOM. */
int svg_diff(const pk_diff *d, const char *title, pk_buf *out);

#endif
