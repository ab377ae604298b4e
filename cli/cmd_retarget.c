/* cmd_retarget.c — `posekit retarget IN --rules R -o OUT`. */
#include "cli.h"

const char help_retarget[] =
    "usage: posekit retarget IN --rules R.yaml -o OUT [--strict] [--verbose]\n"
    "\n"
    "Adapts a VMD motion or VPD pose made for one model to another, in three\n"
    "steps, all from the rules file:\n"
    "\n"
    "  1. rename   bones by `rename`, morphs by `morphs` (as posekit rename)\n"
    "  2. stance   for each `stance` entry {bone, rotate: [X,Y,Z] degrees,\n"
    "              chain}: the bone's rotations q become q*r^-1 and those of\n"
    "              the chain's bones r*q*r^-1 (their translations r*t), so an\n"
    "              arm made for an A-stance model points the same way on a\n"
    "              T-stance one (rules/a-to-t-stance.yaml); a bone without\n"
    "              keys gets one at frame 0\n"
    "  3. scale    translations times `scale` (default, and per bone)\n"
    "\n"
    "Stance and scale name bones as they are after the rename.\n"
    "\n"
    "  --rules R.yaml   the rules (required)\n"
    "  -o, --output OUT output file (.vmd or .vpd; a motion written as .vpd is\n"
    "                   an error: convert --frame takes one pose); may name IN\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the names no rename rule matched\n"
    "  -h, --help       this text\n";

int cmd_retarget(int argc, char **argv)
{
    return cli_step_main("retarget", argc, argv, help_retarget);
}
