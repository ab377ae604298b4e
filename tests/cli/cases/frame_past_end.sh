# One policy for a frame past a motion's last key, in every command that
# samples at a frame: MMD holds the last key's pose there, so it is legal,
# but most likely a mistyped frame: a warning naming the file (--strict:
# an error, nothing written).  samples/dance.vmd ends at frame 150.
D=$PK_SOURCE/samples/dance.vmd
FIST=$PK_SOURCE/samples/hands/right_fist.vpd
past() { # OPTION VALUE: the warning
    expect_stderr_contains "posekit: $D: warning: $1 $2 "
    expect_stderr_contains " past the motion's last key (frame 150): MMD holds the last key's pose there"
}
expect_exit 0 "$POSEKIT" convert "$D" --frame 200 -o p.vpd
past --frame 200
expect_exit 2 "$POSEKIT" convert "$D" --frame 200 -o p2.vpd --strict
expect_no_file p2.vpd
# the last key's own frame is no warning
expect_exit 0 "$POSEKIT" convert "$D" --frame 150 -o p3.vpd
expect_stderr_empty
expect_exit 0 "$POSEKIT" overlay "$D" --pose "$FIST" --bones @fingers_R --frames 200-260 -o o.vmd
past --frames 200-260
# --frames N is one frame
expect_exit 0 "$POSEKIT" overlay "$D" --pose "$FIST" --bones @fingers_R --frames 200 -o o1.vmd
past --frames 200
expect_stderr_contains "--frames 200 is past the motion's last key"
# a range that only ends past the last key is the usual "to the end"
expect_exit 0 "$POSEKIT" overlay "$D" --pose "$FIST" --bones @fingers_R --frames 100-9999 -o o2.vmd
expect_stderr_lacks 'past the motion'
expect_exit 0 "$POSEKIT" overlay "$D" --pose "$D" --pose-frame 400 --bones @fingers_R --frames 30-60 -o o3.vmd
past --pose-frame 400
expect_exit 0 "$POSEKIT" crossfade "$D" "$D" --at 300 -o c.vmd
past --at 300
expect_exit 2 "$POSEKIT" crossfade "$D" "$D" --at 300 -o c2.vmd --strict
expect_no_file c2.vmd
expect_exit 1 "$POSEKIT" diff "$D" "$FIST" --frame 300
past --frame 300
expect_exit 0 "$POSEKIT" diff "$D" "$D" --frames 300-400
past --frames 300-400
expect_eq "$(grep -c 'past the motion' "$ERR")" 1 "warnings for one file given twice"
expect_exit 2 "$POSEKIT" diff "$D" "$FIST" --frame 300 --strict
# in a job: the step's place and the input's name
cp "$D" dance.vmd
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - convert: {in: dance, to: vpd, frame: 200, out: p}\noutputs: {p: j.vpd}\n' >j.yaml
expect_exit 0 "$POSEKIT" run j.yaml
expect_stderr_contains "j.yaml:3:5: warning: dance: frame 200 is past the motion's last key (frame 150)"
# draw --frame (a model from the corpus)
if [ -n "${PK_CORPUS:-}" ] && [ -f "$PK_CORPUS/pmx_gene.pmx" ]; then
    expect_exit 0 "$POSEKIT" draw "$D" --model "$PK_CORPUS/pmx_gene.pmx" --frame 300 -o d.svg
    past --frame 300
fi
