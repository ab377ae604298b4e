/* cmd_rename.c — `posekit rename IN --rules R [--reverse] -o OUT`. */
#include "cli.h"

const char help_rename[] =
    "usage: posekit rename IN --rules R.yaml [--reverse] -o OUT [--strict]\n"
    "                      [--verbose]\n"
    "\n"
    "Renames the bones (and IK names) of a VMD motion or VPD pose by the\n"
    "rules' `rename` map and its morphs by `morphs`.  A rule is an exact name\n"
    "or a glob with one '*' whose match is put where the target's '*' is:\n"
    "\n"
    "  rename:\n"
    "    センター: center\n"
    "    \"右*\": \"*_R\"\n"
    "\n"
    "Names no rule matches are kept.  Names MMD cut at 15 bytes (VMD) or 19\n"
    "(VPD) still match the rule for the full name.  Key order, values and\n"
    "name padding are kept, so `rename` then `rename --reverse` gives back\n"
    "the original file byte for byte.  Errors, with nothing written: a new\n"
    "name that does not fit its field (15 bytes in VMD, 20 for IK names, 19\n"
    "in VPD), and two bones (or morphs) that would end up with one name.\n"
    "\n"
    "  --rules R.yaml   the rules (rules/README.md; ja-en.yaml is shipped)\n"
    "  --reverse        invert the maps: target -> source (a glob inverts when\n"
    "                   its target has a '*')\n"
    "  -o, --output OUT output file (.vmd or .vpd; a motion written as .vpd is\n"
    "                   an error: convert --frame takes one pose); may name IN\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the names that no rule matched\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary (tracks renamed) goes to standard error.\n";

int cmd_rename(int argc, char **argv)
{
    return cli_step_main("rename", argc, argv, help_rename);
}
