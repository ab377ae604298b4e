/* overlay.h — pk_overlay_motion in two parts (overlay.c; not part of the
 * public API), so that the overlay step can say each part of the story of
 * its own file.
 */
#ifndef PKI_OPS_KEYS_OVERLAY_H
#define PKI_OPS_KEYS_OVERLAY_H

#include "posekit.h"

/* What is said of the range and its fades: an error (an empty range, one
 * running past the last frame number), or a fade cut short at frame 0, a
 * warning.  They are about the base's frames.  False on an error. */
bool pki_overlay_window(const pk_overlay_options *opt, pk_log *log);

/* The overlay itself, once pki_overlay_window has passed: what it says is
 * about the pose (what it lacks, what it changed). */
pk_motion *pki_overlay_motion_in(const pk_motion *base, const pk_pose *pose,
                                 const pk_selection *sel, const pk_overlay_options *opt,
                                 pk_overlay_stats *stats, pk_log *log);

#endif
