/* main.c — posekit's command table: finds the command and hands it argv.
 * The process entry point is per platform: main_posix.c, main_win32.c. */
#include "cli.h"

#include <string.h>

/* Every command: name, entry point, one-line summary, help text. */
static const cli_command commands[] = {
    {"info", cmd_info, "format, model, counts, frame range, bones and morphs of files", help_info},
    {"dump", cmd_dump, "every record of a file as JSON, in file order", help_dump},
    {"convert", cmd_convert, "VPD<->VMD, rewrite, or a motion's pose at a frame", help_convert},
    {"diff", cmd_diff, "compare two poses or motions bone by bone, in degrees", help_diff},
    {"rename", cmd_rename, "rename bones and morphs by YAML rules", help_rename},
    {"mirror", cmd_mirror, "swap left and right: names and transforms", help_mirror},
    {"retarget", cmd_retarget, "to another model: fold, stance and scale from the models", help_retarget},
    {"overlay", cmd_overlay, "lay a pose over chosen bones and frames of a motion", help_overlay},
    {"reduce", cmd_reduce, "the fewest keys within tolerances (MMD curves fitted)", help_reduce},
    {"bake", cmd_bake, "a key at every frame (or every N) with linear curves", help_bake},
    {"merge", cmd_merge, "combine motions, conflicts resolved by policy", help_merge},
    {"run", cmd_run, "run a job file: inputs, steps, outputs", help_run},
    {"check", cmd_check, "does a motion or pose fit a model (PMX/PMD)? missing names, near misses",
     help_check},
    {"draw", cmd_draw, "a pose on a model as a stick-figure picture (SVG), or world positions",
     help_draw},
};
static const size_t ncommands = sizeof commands / sizeof commands[0];

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < ncommands; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_overview(FILE *f)
{
    fprintf(f, "usage: posekit COMMAND [options] [FILE...]\n\n"
               "MikuMikuDance poses (VPD) and motions (VMD): read, compare, rename,\n"
               "layer and write them losslessly.\n\ncommands:\n");
    for (size_t i = 0; i < ncommands; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'posekit help COMMAND' or 'posekit COMMAND --help' describes one command.\n"
               "Exit status: 0 success, 1 differences found (diff), 2 error.\n");
}

bool cli_is_command(const char *name)
{
    return find_command(name) != NULL;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_ERROR;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("posekit %s\n", PK_VERSION_STRING);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc < 3 || strcmp(name, "help") != 0) {
            print_overview(stdout);
            return EXIT_OK;
        }
        if (argc > 3) {
            fprintf(stderr, "posekit help: one command name at a time ('%s' is extra); see "
                            "'posekit help help'\n",
                    argv[3]);
            return EXIT_ERROR;
        }
        if (strcmp(argv[2], "help") == 0) { /* help's own usage, not the overview */
            printf("usage: posekit help [COMMAND]\n\n"
                   "Without COMMAND, lists the commands.  With COMMAND, describes it: its\n"
                   "options and what it prints (the same text as 'posekit COMMAND --help').\n"
                   "COMMAND is one of:\n ");
            size_t col = 1;
            for (size_t i = 0; i < ncommands; i++) {
                size_t w = strlen(commands[i].name) + 2;
                if (col + w > 72) {
                    printf("\n ");
                    col = 1;
                }
                printf(" %s%s", commands[i].name, i + 1 < ncommands ? "," : ".\n");
                col += w;
            }
            return EXIT_OK;
        }
        const cli_command *c = find_command(argv[2]);
        if (!c) {
            fprintf(stderr, "posekit: no such command '%s'; see 'posekit help'\n", argv[2]);
            return EXIT_ERROR;
        }
        fputs(c->help, stdout);
        return EXIT_OK;
    }
    const cli_command *c = find_command(name);
    if (!c) {
        fprintf(stderr, "posekit: no such command '%s'; see 'posekit help'\n", name);
        return EXIT_ERROR;
    }
    cli_cmd_name = c->name;
    return c->run(argc - 1, argv + 1);
}

int cli_main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* Whatever went to standard output (help, --version, run's report) must
     * have got there: a full disk or a closed pipe is an error, once. */
    if (rc != EXIT_ERROR && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "posekit%s%s: cannot write standard output\n", cli_cmd_name ? " " : "",
                cli_cmd_name ? cli_cmd_name : "");
        rc = EXIT_ERROR;
    }
    return rc;
}
