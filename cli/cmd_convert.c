/* cmd_convert.c — `posekit convert IN -o OUT`: VPD<->VMD and rewrites. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

const char help_convert[] =
    "usage: posekit convert IN -o OUT [--frame N] [--layout text|hybrid]\n"
    "                       [--no-morphs] [--strict]\n"
    "\n"
    "Writes IN (VMD or VPD) to OUT in the format OUT's extension names\n"
    "(.vmd or .vpd; '-' writes standard output in IN's format):\n"
    "\n"
    "  VMD -> VMD  rewrite; an unedited motion comes back byte-identical\n"
    "  VPD -> VPD  rewrite in MMD's layout (CP932, CRLF, %f numbers)\n"
    "  VPD -> VMD  one key per bone and per morph at frame N (default 0),\n"
    "              linear curves, the pose's model name; a name longer than\n"
    "              the 15-byte VMD field is an error naming it\n"
    "  VMD -> VPD  the motion's pose sampled at frame N with MMD's curves\n"
    "\n"
    "  -o, --output OUT   output file; may name IN (the write is atomic)\n"
    "  --frame N          frame for VPD<->VMD (default 0)\n"
    "  --layout L         VPD layout: text (default; a VPD input keeps its own)\n"
    "                     or hybrid (the original specification's binary header)\n"
    "  --no-morphs        leave Morph blocks out of a VPD (three.js's parser\n"
    "                     rejects them)\n"
    "  --strict           treat warnings as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The output is written to a temporary file beside OUT and renamed over\n"
    "it; on any error nothing is written.  IN '-' reads standard input.\n";

enum { OPT_FRAME = 256, OPT_LAYOUT, OPT_NO_MORPHS, OPT_STRICT };

int cmd_convert(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"frame", required_argument, NULL, OPT_FRAME},
        {"layout", required_argument, NULL, OPT_LAYOUT},
        {"no-morphs", no_argument, NULL, OPT_NO_MORPHS},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    bool frame_set = false, layout_set = false, no_morphs = false;
    uint32_t frame = 0;
    pk_vpd_layout layout = PK_VPD_TEXT;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_FRAME:
            if (!cli_parse_u32(optarg, &frame))
                return cli_usage("convert", "--frame wants a frame number (0 or more), not '%s'",
                                 optarg);
            frame_set = true;
            break;
        case OPT_LAYOUT:
            if (strcmp(optarg, "text") == 0)
                layout = PK_VPD_TEXT;
            else if (strcmp(optarg, "hybrid") == 0)
                layout = PK_VPD_HYBRID;
            else
                return cli_usage("convert", "--layout is 'text' or 'hybrid', not '%s'", optarg);
            layout_set = true;
            break;
        case OPT_NO_MORPHS:
            no_morphs = true;
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'h':
            return cli_help(help_convert);
        default:
            return cli_bad_option("convert", argv);
        }
    }
    const char *in;
    if (cli_one_operand("convert", "input file", argc, argv, optind, &in) != EXIT_OK)
        return EXIT_ERROR;
    if (!out)
        return cli_usage("convert", "no output given (-o OUT)");
    /* PK_FMT_VPD stands in for "the input's format" until IN is read. */
    if (cli_output_format(out, PK_FMT_VPD) == PK_FMT_UNKNOWN)
        return cli_usage("convert", "cannot tell the output format of '%s': use .vmd or .vpd", out);

    pk_doc doc;
    if (cli_load(in, &doc, cli_strict) != EXIT_OK)
        return EXIT_ERROR;
    pk_format out_fmt = cli_output_format(out, doc.format);
    /* Options that would silently do nothing are mistakes: say so. */
    int rc = EXIT_OK;
    if (out_fmt == PK_FMT_VMD && (layout_set || no_morphs))
        rc = cli_usage("convert", "--layout and --no-morphs apply to VPD output only");
    else if (frame_set && out_fmt == doc.format)
        rc = cli_usage("convert", "--frame applies only between VPD and VMD");
    if (rc == EXIT_OK) {
        cli_save_options opts;
        memset(&opts, 0, sizeof opts);
        opts.frame = frame;
        opts.vpd.layout = layout_set ? layout : doc.pose ? doc.pose->layout : PK_VPD_TEXT;
        opts.vpd.no_morphs = no_morphs;
        rc = cli_save(out, &doc, &opts);
    }
    pk_doc_free(&doc);
    return rc;
}
