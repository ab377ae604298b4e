# Every command that writes a file refuses an -o naming one of its inputs
# ("is an input this command reads: it would be overwritten"), so its help
# must not promise that -o "may name IN": each help says "never an input",
# and each command refuses -o IN as the help says.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
for c in convert crossfade curve merge mirror overlay reduce bake rename retarget smooth time; do
    expect_exit 0 "$POSEKIT" help "$c"
    expect_stdout_lacks "may name IN"
    expect_stdout_contains "never an input"
done
expect_exit 2 "$POSEKIT" convert dance.vmd -o dance.vmd
expect_stderr_contains "-o 'dance.vmd' is an input this command reads: it would be overwritten"
expect_exit 2 "$POSEKIT" reduce dance.vmd -o dance.vmd
expect_stderr_contains "-o 'dance.vmd' is an input this command reads: it would be overwritten"
expect_exit 2 "$POSEKIT" mirror dance.vmd -o dance.vmd
expect_stderr_contains "-o 'dance.vmd' is an input this command reads: it would be overwritten"
expect_exit 2 "$POSEKIT" retarget dance.vmd --rules "$PK_SOURCE/rules/a-to-t-stance.yaml" -o dance.vmd
expect_stderr_contains "-o 'dance.vmd' is an input this command reads: it would be overwritten"
expect_same_bytes dance.vmd "$PK_SOURCE/samples/dance.vmd"
