/* cmd_draw.c — `posekit draw POSE|MOTION --model MODEL -o OUT.svg`: a pose
 * on a model as a stick figure (README "draw").  The step layer
 * (engine/step/, engine/ops/skeleton/draw.c) evaluates and draws; this file is its
 * help. */
#include "cli.h"

const char help_draw[] =
    "usage: posekit draw POSE|MOTION --model MODEL [--frame N | --frames A-B [--every K]]\n"
    "                    [--vs OTHER [--vs-model MODEL2]] [--view front|side|top|all]\n"
    "                    [--bones SPEC [--rules R.yaml]] -o OUT.svg [--strict]\n"
    "       posekit draw ... --json [-o OUT.json]\n"
    "\n"
    "Evaluates the pose (a VPD, or a VMD motion at a frame) on a PMX or PMD\n"
    "model as MMD does (deform order, append/inherit, fixed axes, IK with\n"
    "MMD's CCD solver and the VMD's IK on/off section; no physics) and draws\n"
    "it as a stick figure: a line per visible bone to its tail, joints as\n"
    "dots, left (左) and right (右) bones in two colours, IK goals as green\n"
    "diamonds (hollow where the motion turns that IK off), the ground, a\n"
    "scale bar; every panel at one scale.  Bone names show on hover.\n"
    "\n"
    "  --model MODEL        the PMX or PMD model (required)\n"
    "  --frame N            a motion's frame (default 0)\n"
    "  --frames A-B|all     a strip of small figures, one every K frames; a\n"
    "                       range past the motion's last key stops there\n"
    "                       (warned: after it the last pose holds)\n"
    "  --every K            with --frames: a figure every K frames (default:\n"
    "                       about 8 figures; at most 60)\n"
    "  --vs OTHER           a second pose drawn underneath, each bone shaded by\n"
    "                       its rotation difference (the degrees diff reports)\n"
    "  --vs-model MODEL2    the second pose's model (default: MODEL)\n"
    "  --view V             front (default), side, top, or all three\n"
    "  --bones SPEC         only these bones: names, globs, @groups, @frame:NAME\n"
    "                       (a selection that leaves no bone to draw is an error)\n"
    "  --rules R.yaml       groups for --bones, and which bones are the body\n"
    "                       (drawn in colour; the others light grey)\n"
    "  --json               every bone's world position and rotation as JSON\n"
    "                       (with --bones, the bones it names) instead of a\n"
    "                       picture (standard output without -o)\n"
    "  -o, --output OUT     the picture (.svg) or, with --json, the .json file\n"
    "  --strict             treat warnings as errors\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 drawn, 2 error.\n";

int cmd_draw(int argc, char **argv)
{
    return cli_step_main("draw", argc, argv, help_draw);
}
