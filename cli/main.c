/* main.c — posekit's command table: finds the command and hands it argv.
 * The process entry point is per platform: main_posix.c, main_win32.c. */
#include "cli.h"
#include "util/text.h"

#include <string.h>

/* The commands that are not steps: name, entry point, one-line summary,
 * help text.  The steps are the engine's registry (posekit_tool.h):
 * `posekit NAME` runs step NAME through cli_step_main. */
static const cli_command commands[] = {
    {"info", cmd_info, "format, model, counts, frame range, bones and morphs of files", help_info},
    {"dump", cmd_dump, "every record of a file as JSON, in file order", help_dump},
    {"run", cmd_run, "run a job file: inputs, steps, outputs", help_run},
};
enum {
    NFIXED = sizeof commands / sizeof commands[0],
    NFIRST = 2 /* info, dump before the steps */
};

/* Every command in the order help lists them: info, dump, the steps, run.
 * *c receives the k-th; false past the end. */
static bool command_at(size_t k, cli_command *c)
{
    size_t nsteps = 0;
    while (pk_step_op_name(nsteps))
        nsteps++;
    if (k < NFIRST || (k >= NFIRST + nsteps && k < NFIXED + nsteps)) {
        *c = commands[k < NFIRST ? k : k - nsteps];
        return true;
    }
    if (k >= NFIRST + nsteps)
        return false;
    c->name = pk_step_op_name(k - NFIRST);
    c->run = NULL; /* a step */
    c->summary = pk_step_op_about(k - NFIRST);
    c->help = pk_step_op_help(k - NFIRST);
    return true;
}

/* The version's usage: 'posekit help version', 'posekit version --help'. */
static const char help_version[] = "usage: posekit version\n"
                                   "       posekit --version\n"
                                   "\n"
                                   "Prints 'posekit' and its version number, and exits.\n";

static bool find_command(const char *name, cli_command *c)
{
    for (size_t k = 0; command_at(k, c); k++)
        if (strcmp(c->name, name) == 0)
            return true;
    return false;
}

static void print_overview(FILE *f)
{
    fprintf(f, "usage: posekit COMMAND [options] [FILE...]\n\n"
               "MikuMikuDance poses (VPD) and motions (VMD): read, compare, rename,\n"
               "layer and write them losslessly.\n\ncommands:\n");
    cli_command c;
    for (size_t k = 0; command_at(k, &c); k++)
        fprintf(f, "  %-10s %s\n", c.name, c.summary);
    fprintf(f, "\n'posekit help COMMAND' or 'posekit COMMAND --help' describes one command.\n"
               "'posekit --version' (or 'posekit version') prints the version.\n"
               "Exit status: 0 success, 1 differences found (diff) or moved names the\n"
               "model lacks (check), 2 error.\n");
}

bool cli_is_command(const char *name)
{
    cli_command c;
    return find_command(name, &c);
}

/* The words help describes: the commands, then "help" and "version";
 * how many (at most 62). */
static size_t help_words(const char *words[64])
{
    size_t n = 0;
    cli_command c;
    for (size_t k = 0; n < 60 && command_at(k, &c); k++)
        words[n++] = c.name;
    words[n++] = "help";
    words[n++] = "version";
    return n;
}

/* "no such command": with the command a slip away from name, if any;
 * first (the word after "posekit", not after "help"): or the option. */
static int no_such_command(const char *name, bool first)
{
    const char *words[64];
    size_t n = help_words(words);
    if (first) {
        words[n++] = "--help";
        words[n++] = "--version";
    }
    long near = pki_nearest_word(name, words, n);
    if (near >= 0)
        cli_printf_shown(stderr,
                         "posekit: no such command '%s' (did you mean '%s'?); see 'posekit help'\n",
                         name, words[near]);
    else
        cli_printf_shown(stderr, "posekit: no such command '%s'; see 'posekit help'\n", name);
    return EXIT_ERROR;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_ERROR;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0))
            return cli_help(help_version);
        if (argc > 2) /* as a command given an operand it does not take */
            return cli_usage("version", "takes no argument ('%s' is extra)", argv[2]);
        printf("posekit %s\n", PK_VERSION_STRING);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc < 3 || strcmp(name, "help") != 0) {
            print_overview(stdout);
            return EXIT_OK;
        }
        if (argc > 3) {
            cli_printf_shown(stderr,
                    "posekit help: one command name at a time ('%s' is extra); see "
                    "'posekit help help'\n",
                    argv[3]);
            return EXIT_ERROR;
        }
        /* help's own usage, not the overview ("posekit help --help" too) */
        if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 ||
            strcmp(argv[2], "-h") == 0) {
            printf("usage: posekit help [COMMAND]\n\n"
                   "Without COMMAND, lists the commands.  With COMMAND, describes it: its\n"
                   "options and what it prints (the same text as 'posekit COMMAND --help').\n"
                   "COMMAND is one of:\n ");
            const char *words[64];
            size_t n = help_words(words), col = 1;
            for (size_t i = 0; i < n; i++) {
                size_t w = strlen(words[i]) + 2;
                if (col + w > 72) {
                    printf("\n ");
                    col = 1;
                }
                printf(" %s%s", words[i], i + 1 < n ? "," : ".\n");
                col += w;
            }
            return EXIT_OK;
        }
        if (strcmp(argv[2], "version") == 0 || strcmp(argv[2], "--version") == 0)
            return cli_help(help_version);
        cli_command c;
        if (!find_command(argv[2], &c)) {
            return no_such_command(argv[2], false);
        }
        fputs(c.help, stdout);
        return EXIT_OK;
    }
    cli_command c;
    if (!find_command(name, &c)) {
        return no_such_command(name, true);
    }
    cli_cmd_name = c.name;
    cli_cmd_help = c.help;
    return c.run ? c.run(argc - 1, argv + 1) : cli_step_main(c.name, argc - 1, argv + 1);
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
