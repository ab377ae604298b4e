/* cmd_mirror.c — `posekit mirror IN [--rules R] -o OUT`. */
#include "cli.h"

const char help_mirror[] =
    "usage: posekit mirror IN [--rules R.yaml] -o OUT [--strict] [--verbose]\n"
    "\n"
    "Swaps left and right in a VMD motion or VPD pose:\n"
    "\n"
    "  names       each mirror pair of the rules (default: 左/右) is swapped at\n"
    "              the start of a bone name (左腕 <-> 右腕) or at its end\n"
    "              (腰キャンセル左 <-> 腰キャンセル右); IK names too; morphs\n"
    "              keep their names\n"
    "  bones       translation (x,y,z) -> (-x,y,z), rotation (x,y,z,w) ->\n"
    "              (x,-y,-z,w); bones without a partner mirror in place\n"
    "  camera      centre x -> -x, rotation y and z negated (yaw and roll)\n"
    "  light       direction x -> -x\n"
    "\n"
    "Only signs change, so mirroring twice gives back the same bytes.  A\n"
    "swap that would give two bones one name, or a name that would not fit\n"
    "its field, is an error and nothing is written.\n"
    "\n"
    "  --rules R.yaml   rules whose `mirror` pairs replace the default\n"
    "                   (rules/mirror.yaml adds _L/_R)\n"
    "  -o, --output OUT output file (.vmd or .vpd; a motion written as .vpd is\n"
    "                   an error: convert --frame takes one pose); may name IN\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the bones that have no partner\n"
    "  -h, --help       this text\n";

int cmd_mirror(int argc, char **argv)
{
    return cli_step_main("mirror", argc, argv, help_mirror);
}
