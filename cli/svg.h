/* svg.h — pictures of diffs as plain SVG text (cli/svg.c), viewable in
 * any browser; no drawing library. */
#ifndef POSEKIT_CLI_SVG_H
#define POSEKIT_CLI_SVG_H

#include "posekit.h"

/* Heatmap columns at most: a range diff drawn with svg_diff is made with
 * pk_diff_options.bins = SVG_COLUMNS, so its memory does not grow with
 * the range. */
#define SVG_COLUMNS 600

/* Appends an SVG document for d (sorted with pk_diff_sort; o: the options
 * it was made with, whose thresholds pick the rows) to out, sized to its
 * text, fonts that cover Japanese first:
 *  - a pose diff (or a range diff made without bins): per bone a rotation
 *    bar (degrees) and a translation bar (units), per morph a bar of
 *    B - A around 0, the camera/light/shadow channels as numbers;
 *  - a range diff made with bins: one heatmap per kind (bone rotation,
 *    bone translation, morph weight, camera/light/shadow), one row per
 *    row that differs and one column per bin (the largest difference of
 *    its frames), each with a colour scale, the frame axis labelled every
 *    few frames, and the row's maximum on the right.
 * Rows: those that differ, largest first (all: every row), at most 200
 * per kind; `title` (UTF-8) heads the picture and should name the frame
 * or range.  Returns 0, or -1 on OOM. */
int svg_diff(const pk_diff *d, const pk_diff_options *o, const char *title, bool all,
             pk_buf *out);

/* One SVG document of two: `top`'s picture above `bottom`'s (each written
 * by svg_diff or pk_draw_svg), the canvas as wide as the wider.  Returns
 * 0, or -1 on OOM or when either is not such a document. */
int svg_stack(const pk_buf *top, const pk_buf *bottom, pk_buf *out);

#endif
