# curve: a --like whose frame is not a number is a usage error before any
# file is read, as one without '@' is; camera@F on a motion without camera
# keys says so; --axes naming only camera channels (d, v) on a motion
# without camera keys, or with --like a bone key, says why nothing changed
# (not "no key of the selected bones").
DANCE="$PK_SOURCE/samples/dance.vmd"
expect_exit 2 "$POSEKIT" curve "$DANCE" --like 'センター@x' -o out.vmd
expect_stderr <<'ERR'
posekit curve: --like wants BONE@FRAME or camera@FRAME (a key of the motion), not 'センター@x'
Try 'posekit help curve'.
ERR
expect_exit 2 "$POSEKIT" curve missing.vmd --like 'センター@-1' -o out.vmd
expect_stderr_contains "posekit curve: --like wants BONE@FRAME or camera@FRAME (a key of the motion), not 'センター@-1'"
expect_no_file out.vmd

expect_exit 2 "$POSEKIT" curve "$DANCE" --like camera@0 -o out.vmd
expect_stderr_contains "--like camera@0: the motion has no camera keys, and no key of bone 'camera' at frame 0"

expect_exit 0 "$POSEKIT" curve "$DANCE" --set ease --axes d -o out.vmd
expect_stderr_contains 'warning: nothing to change: --axes d names only camera channels and the motion has no camera keys; the output is the input unchanged'
expect_same_bytes "$DANCE" out.vmd
expect_exit 0 "$POSEKIT" curve "$DANCE" --like 'センター@15' --axes v -o out.vmd
expect_stderr_contains "warning: nothing to change: --axes v names only a camera's distance and view angle, which the bone key センター@15 has no curves for"
expect_exit 2 "$POSEKIT" curve "$DANCE" --like 'センター@15' --axes v --strict -o out2.vmd
expect_no_file out2.vmd

# A --like bone name typed in CP932 bytes (a shell in a CP932 locale) is the
# usage error --bones gives such a name, before the motion is read, not a
# "no key of bone" found after.
SJIS=$(printf 'センター' | iconv -f UTF-8 -t CP932)
expect_exit 2 "$POSEKIT" curve missing.vmd --like "$SJIS@0" -o out3.vmd
expect_stderr <<'ERR'
posekit curve: --like: name '\x83Z\x83\x93\x83^\x81[' is not UTF-8 text (names are given in UTF-8)
Try 'posekit help curve'.
ERR
expect_no_file out3.vmd

# In a job a bad value of a step's option is placed at the value, as a
# bad `frames` is: the curve's like and set, the time step's shift, trim
# and bpm (not at the step's line:column)
for opt in "like: 'センター@x'" "set: foo" "axes: q"; do
    printf 'inputs: {d: %s}\nsteps:\n  - curve:\n      in: d\n      %s\n      out: a\noutputs: {a: a.vmd}\n' \
        "$DANCE" "$opt" >job.yaml
    expect_exit 2 "$POSEKIT" run job.yaml
    expect_stderr_matches "^posekit: job\.yaml:5:1[0-9]: ${opt%%:*} "
done
for opt in "shift: abc" "trim: x-y" "bpm: 1"; do
    printf 'inputs: {d: %s}\nsteps:\n  - time:\n      in: d\n      %s\n      out: a\noutputs: {a: a.vmd}\n' \
        "$DANCE" "$opt" >job.yaml
    expect_exit 2 "$POSEKIT" run job.yaml
    expect_stderr_matches "^posekit: job\.yaml:5:1[0-9]: ${opt%%:*} wants "
done
expect_no_file a.vmd

# a channel named twice is a slip for another: a usage error naming it
expect_exit 2 "$POSEKIT" curve "$DANCE" --set ease --axes x,r,x -o twice.vmd
expect_stderr <<'ERR'
posekit curve: --axes x,r,x names 'x' twice
Try 'posekit help curve'.
ERR
expect_no_file twice.vmd
