/* rules_cmd.h — what rename, mirror and retarget share (cmd_rename.c):
 * one option parser and one run loop, since the three differ only in the
 * engine call, in whether --rules is required and in --reverse. */
#ifndef POSEKIT_RULES_CMD_H
#define POSEKIT_RULES_CMD_H

#include "cli.h"

typedef enum rules_op { OP_RENAME, OP_MIRROR, OP_RETARGET } rules_op;

/* Parses `posekit CMD IN [--rules R] [--reverse] -o OUT [--strict]
 * [--verbose]`, loads, edits, prints the summary and saves.  Returns the
 * exit status. */
int rules_cmd_run(rules_op op, int argc, char **argv);

#endif
