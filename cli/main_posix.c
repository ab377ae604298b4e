/* main_posix.c — the entry point on POSIX systems: arguments are already
 * the bytes the user typed (UTF-8 on every system posekit supports). */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
