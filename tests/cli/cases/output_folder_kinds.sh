# An output whose temporary file cannot be made says why: a folder that
# does not exist, or one that exists and takes no new files (/proc on
# Linux answers "No such file or directory" to a new file: the folder is
# there, so the message must not say it is missing).  Exit 2, nothing
# written, for -o and a side file alike.
[ -d /proc/self ] || skip "no /proc"
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
expect_exit 2 "$POSEKIT" convert dance.vmd -o /proc/x.vmd
expect_stderr <<'ERR'
posekit: /proc/x.vmd: cannot create a file in the output folder: it takes no new files (No such file or directory)
ERR
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --svg /proc/x.svg
expect_stderr <<'ERR'
posekit: /proc/x.svg: cannot create a file in the output folder: it takes no new files (No such file or directory)
ERR
# a folder that is not there, under /proc or here: it does not exist
expect_exit 2 "$POSEKIT" convert dance.vmd -o /proc/nothere/x.vmd
expect_stderr <<'ERR'
posekit: /proc/nothere/x.vmd: the output folder does not exist
ERR
expect_exit 2 "$POSEKIT" convert dance.vmd -o nothere/x.vmd
expect_stderr <<'ERR'
posekit: nothere/x.vmd: the output folder does not exist
ERR
expect_no_file nothere
# a path written as a folder ("out/") names one, there or not: not a file
# whose format cannot be told, nor the input of that name
expect_exit 2 "$POSEKIT" convert dance.vmd -o newdir/
expect_stderr <<'ERR'
posekit convert: -o names a folder ('newdir/'): name the file to write in it
Try 'posekit help convert'.
ERR
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --svg newdir/
expect_stderr_contains "posekit diff: --svg names a folder ('newdir/')"
expect_exit 2 "$POSEKIT" mirror dance.vmd -o dance.vmd/
expect_stderr_contains "posekit mirror: -o names a folder ('dance.vmd/')"
expect_no_file newdir
