# One rule for a bone and morph selection (--bones) in every command that
# takes one (overlay, reduce, bake, diff): matching no bone or morph of
# the files is an error (exit 2, nothing written); a plain name that
# matches nothing beside others that do is a warning (--strict: an
# error); both name the nearest name the files hold, as check finds near
# misses (右人指1 typed with an ASCII digit for 右人指１).  The selection
# limits morphs as it limits bones, in bake and reduce as in diff and
# overlay.
S=$PK_SOURCE/samples
DANCE=$S/dance.vmd
FIST=$S/hands/right_fist.vpd
# (the reason after the name is check's, worded there)
hint="did you mean '右人指１', "

expect_exit 2 "$POSEKIT" overlay "$DANCE" --pose "$FIST" --bones 右人指1 --frames 30-60 -o o.vmd
expect_stderr_contains "the selection '右人指1' matches no bone or morph of the base or the pose: nothing to overlay; $hint"
expect_no_file o.vmd
for cmd in reduce bake; do
    expect_exit 2 "$POSEKIT" $cmd "$DANCE" --bones 右人指1 -o o.vmd
    expect_stderr_contains "the selection '右人指1' matches no bone or morph of the motion: nothing to $cmd; $hint"
    expect_no_file o.vmd
done
expect_exit 2 "$POSEKIT" diff "$DANCE" "$FIST" --bones 右人指1
expect_stderr_contains "the selection '右人指1' matches no bone or morph of either input: nothing to compare; $hint"
expect_stdout_empty

# several names: each near miss named after it
expect_exit 2 "$POSEKIT" bake "$DANCE" --bones 右人指1,左中指1 -o o.vmd
expect_stderr_matches "'右人指1': $hint.*; '左中指1': did you mean '左中指１', "

# one name of several: a warning, the others do their work
expect_exit 0 "$POSEKIT" overlay "$DANCE" --pose "$FIST" --bones 右中指１,右人指1 --frames 30-60 -o o.vmd
expect_stderr_contains "warning: '右人指1' in the selection matches no bone or morph of the base or the pose; $hint"
expect_stderr_contains 'overlay: 1 bone changed'
expect_exit 2 "$POSEKIT" reduce "$DANCE" --bones 右中指１,右人指1 -o s.vmd --strict
expect_no_file s.vmd
# a glob or a group that matches nothing is no typo of one name: not named
expect_exit 0 "$POSEKIT" reduce "$DANCE" --bones '右中指１,nothing*,@fingers_L' -o g.vmd
expect_stderr_lacks 'in the selection'

# --bones selects morphs as it selects bones: a bone group bakes no morph
expect_exit 0 "$POSEKIT" bake "$DANCE" --bones @fingers_R -o f.vmd
expect_stderr_contains 'morph keys 15 -> 15 (15 bone and 0 morph tracks rewritten)'
expect_exit 0 "$POSEKIT" bake "$DANCE" --bones @fingers_R,@eyes -o fe.vmd
expect_stderr_matches 'morph keys 15 -> [0-9]+ \(15 bone and [1-9] morph tracks rewritten\)'
