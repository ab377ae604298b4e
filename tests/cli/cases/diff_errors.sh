# diff usage errors and bad inputs: exit 2, a message, nothing on stdout.
vpd_text 'mdl' 'a|0,0,0|0,0,0,1' >A.vpd
expect_exit 2 "$POSEKIT" diff A.vpd
expect_stderr_contains 'posekit diff: two files to compare are needed'
expect_stdout_empty
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd A.vpd
expect_stderr_contains "two files at a time ('A.vpd' is extra)"
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --frame 3
expect_stderr_contains '--frame applies to VMD inputs; both files are poses'
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --frame 3 --frames 1-2
expect_stderr_contains '--frame and --frames exclude each other'
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --json --csv
expect_stderr_contains '--json and --csv exclude each other'
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --threshold -1
expect_stderr_contains "--threshold wants a number of 0 or more, not '-1'"
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --frames 9-2
expect_stderr_contains "--frames wants A-B (A <= B), N or 'all', not '9-2'"
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --bogus
expect_stderr_contains "unknown option"
expect_exit 2 "$POSEKIT" diff A.vpd nothere.vpd
expect_stderr_contains 'nothere.vpd'
expect_stdout_empty
expect_exit 2 "$POSEKIT" diff A.vpd A.vpd --bones @no_such_group
expect_stderr_contains 'no_such_group'
expect_stdout_empty
expect_exit 0 "$POSEKIT" diff --help
expect_stdout_contains 'usage: posekit diff A B'

# An empty item in a selection is a mistake, not nothing (a trailing comma
# was dropped silently where selections may name display frames).
expect_exit 2 "$POSEKIT" diff "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hands/right_fist.vpd" --bones '右手首,'
expect_stderr_contains "--bones wants names, globs or @groups, not '右手首,' (a name is empty)"
expect_exit 2 "$POSEKIT" overlay "$PK_SOURCE/samples/dance.vmd" --pose "$PK_SOURCE/samples/hands/right_fist.vpd" \
    --bones '@fingers_R,,@thumb_R' -o x.vmd
expect_stderr_contains "--bones wants names, globs or @groups, not '@fingers_R,,@thumb_R' (a name is empty)"
expect_no_file x.vmd
