# A report file (draw -o, diff --svg, check --suggest-rules, retarget
# --report) may be a device such as /dev/null, as -o of a motion may: it
# has no name to choose, so its extension is not asked for.  Standard
# output by another name (/dev/stdout) stays refused for a side file: the
# report is written there.
need_corpus
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
[ -w /dev/null ] || skip "no /dev/null"
expect_exit 0 "$POSEKIT" draw dance.vmd --model mei.pmd -o /dev/null
expect_stderr_contains 'posekit draw: 1 figure drawn'
expect_exit 0 "$POSEKIT" draw dance.vmd --model mei.pmd --json -o /dev/null
expect_exit 0 "$POSEKIT" diff dance.vmd dance.vmd --svg /dev/null
expect_stdout_contains '0 of 41 bones differ'
# exit 1: the dance keys names Mei lacks
expect_exit 1 "$POSEKIT" check dance.vmd --model mei.pmd --suggest-rules /dev/null
expect_stdout_contains "dance.vmd on mei.pmd"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o /dev/null --report /dev/null
expect_stderr_contains 'posekit retarget: '
# a regular file is still named for what it holds
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --svg out.txt
expect_stderr_contains "posekit diff: --svg writes an SVG picture: name it NAME.svg, not 'out.txt'"
expect_no_file out.txt
# standard output by its device name is standard output
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --svg /dev/stdout
expect_stderr_contains "posekit diff: --svg - would mix an SVG picture with the report on standard output"
