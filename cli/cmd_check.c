/* cmd_check.c — `posekit check MOTION|POSE --model MODEL`: will this
 * motion play on this model?  Which names are missing, which are near
 * misses, which keys the model cannot use; optionally a rules file that
 * renames the missing names onto the model (README "check").  The step
 * layer (engine/step/) checks and reports; this file is its help. */
#include "cli.h"

const char help_check[] =
    "usage: posekit check MOTION|POSE --model MODEL [--json] [--suggest-rules OUT.yaml]\n"
    "                     [--strict]\n"
    "\n"
    "Checks every bone and morph a VMD motion or VPD pose keys against a PMX\n"
    "or PMD model: found, found only through MMD's cut of a longer model name\n"
    "(15 bytes in VMD, 19 in VPD), or missing (MMD ignores those keys).  For\n"
    "a missing name the closest model name is proposed when they differ only\n"
    "by full-width/half-width forms (ＩＫ/IK, ０/0), spaces or case, by a\n"
    "common spelling (人指/人差指, ひじ/肘, ひざ/膝, つま先/爪先), or when the\n"
    "motion uses the model's English name.  Also lists keys the model cannot\n"
    "use (translating a bone that is not movable, rotating one that is not\n"
    "rotatable) and, for information, the model's operable bones the motion\n"
    "never keys, by display frame.\n"
    "\n"
    "  --model MODEL           the PMX or PMD model (required)\n"
    "  --json                  the report as JSON\n"
    "  --suggest-rules OUT     write a rules file renaming each missing name\n"
    "                          that has a near miss to the model's name, one\n"
    "                          comment per rule saying why\n"
    "  --strict                treat warnings as errors\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 every keyed bone and morph exists on the model, 1 some are\n"
    "missing, 2 error.\n";

int cmd_check(int argc, char **argv)
{
    return cli_step_main("check", argc, argv, help_check);
}
