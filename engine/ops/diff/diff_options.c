/* diff_options.c — a diff's default options, which diff.c (bones and
 * morphs) and diff_scene.c (camera, light, self-shadow, IK) both fall
 * back to when given none. */
#include "posekit.h"

#include <string.h>

void pk_diff_options_init(pk_diff_options *o)
{
    memset(o, 0, sizeof *o);
    o->threshold_deg = 0.01;
    o->pos_threshold = 0.0001;
    o->morph_threshold = 0.0001;
}
