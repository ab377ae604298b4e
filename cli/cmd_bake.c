/* cmd_bake.c — `posekit bake IN -o OUT`: a key at every frame (or every
 * N) with linear curves (engine/ops/keys/reduce.c), run as a step
 * (engine/step/). */
#include "cli.h"

const char help_bake[] = "usage: posekit bake IN -o OUT [--bones SEL] [--rules R] [--frames A-B|N]\n"
                         "                    [--step N] [--no-morphs] [--camera] [--json] [--strict]\n"
                         "\n"
                         "Writes a key at every frame (or every N frames, and at the last) of\n"
                         "the selected bone tracks and of every morph track, each with linear\n"
                         "curves holding MMD's interpolated value: dense data for tools that want\n"
                         "it, and the input of `reduce`'s tests.  With --frames the baked span\n"
                         "grows to the keys around A..B so that frames outside keep their values.\n"
                         "Other tracks, the camera (without --camera), light, shadow and IK\n"
                         "records stay byte-identical.\n"
                         "\n"
                         "  --bones SEL      bone names, globs and @groups (default: every bone)\n"
                         "  --rules R        rule file for @groups\n"
                         "  --frames A-B|N   the range (all, the default: the whole motion)\n"
                         "  --step N         a key every N frames (default 1)\n"
                         "  --no-morphs      leave morph tracks alone\n"
                         "  --camera         the camera too (a key per frame: MMD takes keys one\n"
                         "                   frame apart as a cut, so every frame keeps its value)\n"
                         "  --json           the summary as JSON on stdout (one line)\n"
                         "  -o, --output OUT output (.vmd); written atomically; may name IN\n"
                         "  --strict         warnings are errors\n"
                         "  -h, --help       this text\n";

int cmd_bake(int argc, char **argv)
{
    return cli_step_main("bake", argc, argv, help_bake);
}
