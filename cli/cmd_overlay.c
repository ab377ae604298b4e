/* cmd_overlay.c — `posekit overlay BASE --pose P --bones SEL -o OUT`. */
#include "cli.h"

const char help_overlay[] =
    "usage: posekit overlay BASE --pose P [--pose-frame N] --bones LIST|@GROUP\n"
    "                       [--rules R] [--frames A-B|N|all] [--mode replace|add]\n"
    "                       [--fade F] -o OUT [--strict]\n"
    "\n"
    "Lays the pose P over the selected bones of BASE and writes OUT.\n"
    "\n"
    "BASE a VMD: for frames A..B (without --frames: the whole motion)\n"
    "  replace  the selected bones take the pose's values\n"
    "  add      base rotation x pose rotation, base translation + pose's\n"
    "           (the base's own keys inside the range are kept, multiplied)\n"
    "  outside A-F..B+F every selected bone samples exactly as in BASE at\n"
    "  every frame (within 1e-4 degrees / 1e-5 units): keys are added at the\n"
    "  edges and a crossed curve segment is split (de Casteljau, re-fitted\n"
    "  to MMD's 0..127 curve grid) or, when no grid curve is exact enough,\n"
    "  baked into one key per frame.  The fades are one segment each with an\n"
    "  ease-in/ease-out curve (53,0,74,127) from the base value at A-F to the\n"
    "  overlay at A, and from the overlay at B to the base at B+F.  Records\n"
    "  of other bones, morphs, camera, light, shadow and IK stay\n"
    "  byte-identical and in order.\n"
    "BASE a VPD: the selected bones take (replace) or compose with (add) the\n"
    "  pose's values; --frames and --fade do not apply (an error).\n"
    "\n"
    "  --pose P           a VPD, or a VMD sampled at --pose-frame (default 0;\n"
    "                     an error with a VPD pose)\n"
    "  --bones SEL        comma-separated names, globs (右*指*) and @groups\n"
    "  --rules R          rule file for @groups (standard groups always exist)\n"
    "  --frames A-B|N|all the range (N = a single frame; all, the default: the\n"
    "                     whole motion)\n"
    "  --mode M           replace (default) or add\n"
    "  --fade F           frames of fade on each side (default 0)\n"
    "  -o, --output OUT   output (.vmd, or .vpd for a VPD base); atomic\n"
    "  --strict           warnings are errors (e.g. a selected bone the pose\n"
    "                     lacks)\n"
    "  -h, --help         this text\n"
    "\n"
    "A summary goes to stderr: bones changed, keys removed and added, and\n"
    "how many crossed segments were split or baked.  Overlays compose: run\n"
    "a second overlay on the first one's output.\n";

int cmd_overlay(int argc, char **argv)
{
    return cli_step_main("overlay", argc, argv, help_overlay);
}
