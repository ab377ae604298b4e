/* cmd_diff.c — `posekit diff A B`: bone-by-bone differences, in degrees. */
#include "cli.h"

const char help_diff[] =
    "usage: posekit diff A B [--frame N | --frames A-B | --frames all]\n"
    "                    [--bones LIST|@GROUP] [--rules R] [--model MODEL]\n"
    "                    [--threshold DEG] [--pos-threshold U] [--json | --csv]\n"
    "                    [--svg FILE] [--all] [--groups] [--no-morphs] [--strict]\n"
    "\n"
    "Compares A and B (each a VPD or a VMD) bone by bone: the rotation\n"
    "difference in degrees (the geodesic angle 2*acos|q1.q2|; q and -q are the\n"
    "same rotation), the translation distance, and each morph's weight\n"
    "difference (B - A).  A bone or morph in one file only is listed as such and\n"
    "measured against the rest pose, which is what the model shows for it.\n"
    "Two motions also compare their camera, light and self-shadow.\n"
    "\n"
    "  --frame N          sample each VMD at frame N (default 0) and compare poses\n"
    "  --frames A-B|all   compare frame by frame over A..B (all: every frame of\n"
    "                     either motion); per bone the maximum, the frame where\n"
    "                     it occurs, and the mean.  A VPD counts as a motion that\n"
    "                     holds its pose\n"
    "  --bones SPEC       only these bones and morphs: comma-separated names, globs\n"
    "                     with one '*', @group (standard groups, or from --rules);\n"
    "                     matching nothing is an error\n"
    "  --rules R          rule file whose groups --bones may name\n"
    "  --model MODEL      PMX/PMD model whose display frames --bones may name\n"
    "                     as @frame:NAME\n"
    "  --threshold DEG    a rotation differs above DEG degrees (default 0.01)\n"
    "  --pos-threshold U  a translation differs above U units (default 0.0001);\n"
    "                     morph weights differ above 0.0001\n"
    "  --json, --csv      machine-readable output (every row) instead of the table\n"
    "  --svg FILE         also draw a picture: bars per bone and morph (poses) or\n"
    "                     heatmaps of rows x frames (--frames)\n"
    "  --all              the table lists every bone, not only those that differ\n"
    "  --groups           also sum up per bone group (standard groups and those of\n"
    "                     --rules): how many of its bones differ, and which most\n"
    "  --no-morphs        compare bones only\n"
    "  --strict           treat warnings (duplicate keys, ...) as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The table is sorted by difference, largest first, and ends with a one-line\n"
    "summary.  Exit status, as diff(1): 0 nothing differs beyond the thresholds,\n"
    "1 something does, 2 error.\n";

int cmd_diff(int argc, char **argv)
{
    return cli_step_main("diff", argc, argv, help_diff);
}
