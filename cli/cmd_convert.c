/* cmd_convert.c — `posekit convert IN -o OUT`: VPD<->VMD and rewrites. */
#include "cli.h"

const char help_convert[] =
    "usage: posekit convert IN -o OUT [--frame N] [--layout text|hybrid]\n"
    "                       [--no-morphs] [--cut-names] [--strict]\n"
    "\n"
    "Writes IN (VMD or VPD) to OUT in the format OUT's extension names\n"
    "(.vmd or .vpd; '-' writes standard output in IN's format):\n"
    "\n"
    "  VMD -> VMD  rewrite; an unedited motion comes back byte-identical\n"
    "  VPD -> VPD  rewrite in MMD's layout (CP932, CRLF, %f numbers)\n"
    "  VPD -> VMD  one key per bone and per morph at frame N (default 0),\n"
    "              linear curves, the pose's model name; names longer than\n"
    "              the 15-byte VMD field are errors naming every one\n"
    "              (--cut-names cuts them instead)\n"
    "  VMD -> VPD  the motion's pose sampled at frame N with MMD's curves\n"
    "\n"
    "  -o, --output OUT   output file; may name IN (the write is atomic)\n"
    "  --frame N          frame for VPD<->VMD (default 0)\n"
    "  --layout L         VPD layout: text (default; a VPD input keeps its own)\n"
    "                     or hybrid (the original specification's binary header)\n"
    "  --no-morphs        leave Morph blocks out of a VPD (three.js's parser\n"
    "                     rejects them)\n"
    "  --cut-names        cut names longer than a VMD field (15 bytes) as MMD\n"
    "                     does, on a character boundary, with a warning per\n"
    "                     name (VMD output only)\n"
    "  --strict           treat warnings as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The output is written to a temporary file beside OUT and renamed over\n"
    "it; on any error nothing is written.  IN '-' reads standard input.\n";

int cmd_convert(int argc, char **argv)
{
    return cli_step_main("convert", argc, argv, help_convert);
}
