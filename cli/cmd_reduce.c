/* cmd_reduce.c — `posekit reduce IN -o OUT`: the fewest keys within
 * tolerances (engine/ops/keys/reduce.c), run as a step (engine/step/). */
#include "cli.h"

const char help_reduce[] =
    "usage: posekit reduce IN -o OUT [--max-deg D] [--max-pos U] [--max-morph W]\n"
    "                      [--bones SEL] [--rules R] [--frames A-B|N] [--no-morphs]\n"
    "                      [--camera] [--json] [--strict]\n"
    "\n"
    "Removes keys from a VMD motion: per bone track the fewest keys (each\n"
    "with the MMD curves fitted to what it replaces) such that every integer\n"
    "frame stays within the tolerances of IN, checked by sampling the result\n"
    "with MMD's interpolation; per morph track the fewest linear keys.  The\n"
    "first and last key of every track are kept, and both keys of every\n"
    "jump (keys on adjacent frames with a step much larger than around it).\n"
    "A track that never leaves its first key's value becomes that one key.\n"
    "No track gets more keys than it had.  Other tracks, keys outside\n"
    "--frames, the camera (without --camera), light, shadow and IK records\n"
    "stay byte-identical.\n"
    "\n"
    "  --max-deg D      rotation tolerance in degrees (default 0.1)\n"
    "  --max-pos U      translation tolerance in MMD units, a distance (as\n"
    "                   diff measures it), not per axis (default 0.005)\n"
    "  --max-morph W    morph weight tolerance (default 0.002)\n"
    "  --bones SEL      bone names, globs and @groups (default: every bone)\n"
    "  --rules R        rule file for @groups\n"
    "  --frames A-B|N   only the keys inside A..B (their first key is kept)\n"
    "  --no-morphs      leave morph tracks alone\n"
    "  --camera         the camera too, with its six curves: centre (a\n"
    "                   distance) and distance within --max-pos, angles\n"
    "                   within --max-deg, fov and the perspective switch\n"
    "                   exact\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  -o, --output OUT output (.vmd); written atomically; may name IN\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary goes to stderr: keys before and after per section and the\n"
    "largest error met at any frame.\n";

int cmd_reduce(int argc, char **argv)
{
    return cli_step_main("reduce", argc, argv, help_reduce);
}
