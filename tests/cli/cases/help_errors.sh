# Unknown commands and options are usage errors: exit 2, a message on
# stderr that says what is wrong and where to look, nothing on stdout.

expect_exit 2 "$POSEKIT" frobnicate
expect_stdout_empty
expect_stderr <<'ERR'
posekit: no such command 'frobnicate'; see 'posekit help'
ERR

expect_exit 2 "$POSEKIT" help frobnicate
expect_stderr_contains "no such command 'frobnicate'"

expect_exit 2 "$POSEKIT" info --bogus x.vmd
expect_stdout_empty
expect_stderr <<'ERR'
posekit info: unknown option '--bogus'
Try 'posekit help info'.
ERR

expect_exit 2 "$POSEKIT" info
expect_stderr_contains 'posekit info: no file given'

expect_exit 2 "$POSEKIT" dump
expect_stderr_contains 'posekit dump: no file given'
expect_exit 2 "$POSEKIT" dump a.vmd b.vmd
expect_stderr_contains 'posekit dump: one file at a time'

expect_exit 2 "$POSEKIT" convert
expect_stderr_contains 'posekit convert: no input file given'
expect_exit 2 "$POSEKIT" convert in.vpd
expect_stderr_contains 'no output given (-o OUT)'
expect_exit 2 "$POSEKIT" convert in.vpd -o
expect_stderr_contains 'posekit convert: -o wants a file name'
expect_exit 2 "$POSEKIT" convert in.vpd -o out.txt
expect_stderr_contains "cannot tell the output format of 'out.txt'"
expect_exit 2 "$POSEKIT" convert in.vpd -o out.vmd --frame -3
expect_stderr_contains "--frame wants a frame number (0 or more), not '-3'"
expect_exit 2 "$POSEKIT" convert in.vpd -o out.vmd --frame 4294967296
expect_stderr_contains "not '4294967296'"
expect_exit 2 "$POSEKIT" convert in.vpd -o out.vpd --layout binary
expect_stderr_contains "--layout is 'text' or 'hybrid', not 'binary'"
# Usage errors are found before any file is touched: in.vpd does not exist.
expect_no_file out.vmd
expect_no_file out.vpd

# Standard output that cannot be written is an error for every command,
# help and --version included (a full disk, a closed pipe).
if [ -w /dev/full ]; then
    for args in "--version" "help" "diff --help" "help merge"; do
        set +e
        # shellcheck disable=SC2086
        "$POSEKIT" $args >/dev/full 2>"$ERR"
        rc=$?
        set -e
        expect_eq "$rc" 2 "posekit $args into /dev/full"
        expect_stderr_contains 'cannot write standard output'
    done
fi

# A single-value option given twice is an error in dump and run as in
# every step (the last one silently won)
expect_exit 2 "$POSEKIT" dump --body "$PK_SOURCE/samples/dance.vmd" --bones a --bones b
expect_stderr_contains 'posekit dump: --bones is given twice'
expect_exit 2 "$POSEKIT" run job.yaml --each 'a/*.vmd' --each 'b/*.vmd'
expect_stderr_contains 'posekit run: --each is given twice'
expect_exit 2 "$POSEKIT" run job.yaml --each 'a/*.vmd' -j 2 --jobs 3
expect_stderr_contains 'posekit run: --jobs is given twice'

# 'help --help' (and -h) is help's own usage, as 'help help', not "no such
# command '--help'"
expect_exit 0 "$POSEKIT" help help
cp "$OUT" help_help.txt
for h in --help -h; do
    expect_exit 0 "$POSEKIT" help "$h"
    expect_stdout_file help_help.txt
    expect_stderr_empty
done
