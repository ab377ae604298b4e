# output_refusals: a file to write that names a file the command reads is
# refused in one wording, whatever the option (-o, --svg, --report,
# --suggest-rules, draw's -o, a group's -o and --report): "FLAG 'X' is
# WHAT WHO reads: it would be overwritten", WHAT naming the model by its
# option when a command reads two; the group's own --report carries no
# member's "dancer N: ".  Nothing is written, no input changes.
need_corpus
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
remember dance.vmd fist.vpd mei.pmd sd.pmd bow.vmd
tail="this command reads: it would be overwritten"

expect_exit 2 "$POSEKIT" convert dance.vmd -o ./dance.vmd
expect_stderr_contains "posekit convert: -o './dance.vmd' is an input $tail"
expect_exit 2 "$POSEKIT" diff dance.vmd fist.vpd --svg fist.vpd
expect_stderr_contains "posekit diff: --svg 'fist.vpd' is an input $tail"
expect_exit 2 "$POSEKIT" check dance.vmd --model mei.pmd --suggest-rules dance.vmd
expect_stderr_contains "posekit check: --suggest-rules 'dance.vmd' is an input $tail"
expect_exit 2 "$POSEKIT" check dance.vmd --model mei.pmd --suggest-rules mei.pmd
expect_stderr_contains "posekit check: --suggest-rules 'mei.pmd' is the model $tail"
expect_exit 2 "$POSEKIT" draw dance.vmd --model mei.pmd -o dance.vmd
expect_stderr_contains "posekit draw: -o 'dance.vmd' is an input $tail"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o x.vmd --report bow.vmd
expect_stderr_contains "posekit retarget: --report 'bow.vmd' is an input $tail"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o x.vmd --report mei.pmd
expect_stderr_contains "posekit retarget: --report 'mei.pmd' is the --from model $tail"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o sd.pmd
expect_stderr_contains "posekit retarget: -o 'sd.pmd' is the --to model $tail"
expect_stderr_contains "Try 'posekit help retarget'."

# a group: the member whose file it is; the group's --report is no
# member's, wherever it was given
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o dance.vmd \
    --and dance.vmd --from mei.pmd --to sd.pmd -o y.vmd
expect_stderr_contains "posekit retarget: dancer 1: -o 'dance.vmd' is an input dancer 2 reads: it would be overwritten"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o x.vmd \
    --and dance.vmd --from mei.pmd --to sd.pmd -o y.vmd --report dance.vmd
expect_stderr_contains "posekit retarget: --report 'dance.vmd' is an input dancer 2 reads: it would be overwritten"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o x.vmd \
    --and dance.vmd --from mei.pmd --to sd.pmd -o y.vmd --report r.txt
expect_stderr_contains "posekit retarget: --report writes"
expect_stderr_lacks "dancer 1"

expect_unchanged dance.vmd fist.vpd mei.pmd sd.pmd bow.vmd
expect_no_file x.vmd
expect_no_file y.vmd
expect_no_temp_files .

# An output name of no known format: a command that writes a motion whatever
# it reads says .vmd alone (a .vpd it would refuse next), before any input is
# read; one that may write a pose says both.
for cmd in reduce bake smooth; do
    expect_exit 2 "$POSEKIT" $cmd missing.vmd -o out.txt
    expect_stderr <<ERR
posekit $cmd: cannot tell the output format of 'out.txt': use .vmd ($cmd writes a motion)
Try 'posekit help $cmd'.
ERR
done
expect_exit 2 "$POSEKIT" time missing.vmd --shift 3 -o out.vpd
expect_stderr_contains "posekit time: 'out.vpd' would hold one frame of a motion: write a .vmd"
expect_exit 2 "$POSEKIT" mirror missing.vmd -o out.txt
expect_stderr_contains "posekit mirror: cannot tell the output format of 'out.txt': use .vmd or .vpd"
expect_no_file out.txt
expect_no_file out.vpd
