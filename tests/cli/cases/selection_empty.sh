# selection_empty: a --bones list with an empty name ("," "a,,b" "a,"
# " , ") is a usage error said before any file is read, naming the option,
# with the "Try" line of every other usage error; in a job, at the value's
# line:column.  Nothing is written.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
for v in ',' 'a,,b' '右手首,' ' , '; do
    expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --bones "$v"
    expect_stderr <<EOF
posekit diff: --bones wants names, globs or @groups, not '$v' (a name is empty)
Try 'posekit help diff'.
EOF
done
for cmd in curve reduce smooth overlay; do
    extra=()
    case $cmd in
        curve) extra=(--set linear) ;;
        overlay) extra=(--pose fist.vpd) ;;
    esac
    expect_exit 2 "$POSEKIT" "$cmd" dance.vmd "${extra[@]}" --bones ',' -o out.vmd
    expect_stderr_contains "posekit $cmd: --bones wants names, globs or @groups, not ',' (a name is empty)"
    expect_stderr_contains "Try 'posekit help $cmd'."
done
# said before the input is read: a missing input is not reached
expect_exit 2 "$POSEKIT" reduce missing.vmd --bones 'a,,b' -o out.vmd
expect_stderr_contains "--bones wants names, globs or @groups, not 'a,,b'"
expect_stderr_lacks 'missing.vmd'
cat >job.yaml <<'YAML'
inputs: {d: dance.vmd}
steps:
  - reduce: {in: d, bones: "a,,b", out: r}
outputs: {r: out.vmd}
YAML
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr_contains "posekit: job.yaml:3:28: bones wants names, globs or @groups, not 'a,,b' (a name is empty)"
expect_no_file out.vmd
