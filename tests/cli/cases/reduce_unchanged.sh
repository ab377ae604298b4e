# reduce and bake that change nothing say so, as rename and mirror do: a
# warning naming the input (with --strict an error, exit 2, nothing
# written), in a job as on the command line; a motion with bone keys and a
# camera, reduced without --camera, is told that --camera takes the
# camera; a motion with camera keys alone has its camera reduced without
# it.  bake counts only the tracks whose keys changed: baking a baked
# motion rewrites none (it said 41 bone and 3 morph tracks, for
# byte-identical output).
S=$PK_SOURCE/samples
# cam_motion N: N bone keys (0 or 1, a one-key track: nothing to reduce),
# then three camera keys on one straight line (reducible to two)
cam_motion() {
    vmd_header 'camera'
    pack V "$1"
    [ "$1" = 0 ] || vmd_bone 'a' 0 0 0 0 0 0 0 1
    pack V 0 3
    for f in 0 30 60; do
        pack V "$f"
        pack 'f<' -45 0 10 "$f" 0 0 0
        pack C 20 107 20 107 20 107 20 107 20 107 20 107 20 107 20 107 20 107 20 107 20 107 20 107
        pack V 30
        pack C 0
    done
    pack V 0 0 0
}
cam_motion 0 >cam.vmd
cam_motion 1 >boned.vmd

# bake of a baked motion: the same bytes, no track rewritten, a warning
expect_exit 0 "$POSEKIT" bake "$S/dance.vmd" --frames all -o y7.vmd
expect_stderr_contains '(41 bone and 3 morph tracks rewritten)'
expect_stderr_lacks 'warning'
expect_exit 0 "$POSEKIT" bake y7.vmd -o y9.vmd
expect_same_bytes y7.vmd y9.vmd
expect_stderr_contains 'y7.vmd: warning: nothing to bake: no key changed, the output is the input unchanged'
expect_stderr_contains '(0 bone and 0 morph tracks rewritten)'
expect_exit 2 "$POSEKIT" bake y7.vmd -o strict.vmd --strict
expect_stderr_contains 'warnings are errors (--strict)'
expect_no_file strict.vmd
# a frame range of a baked motion: the keys around it are already there
expect_exit 0 "$POSEKIT" bake y7.vmd --frames 10-20 -o y10.vmd
expect_stderr_contains 'warning: nothing to bake'
expect_same_bytes y7.vmd y10.vmd

# reduce that keeps every key: the artist's dance needs each of its keys
# at the default tolerances (its baked form does not)
expect_exit 0 "$POSEKIT" reduce y7.vmd -o r1.vmd
expect_stderr_lacks 'warning'
cp "$S/dance.vmd" dance.vmd
expect_exit 0 "$POSEKIT" reduce dance.vmd -o r2.vmd
expect_stderr_contains 'dance.vmd: warning: nothing to reduce: no key changed, the output is the input unchanged'
expect_stderr_lacks 'camera'
expect_same_bytes dance.vmd r2.vmd
expect_exit 2 "$POSEKIT" reduce dance.vmd -o strict.vmd --strict
expect_no_file strict.vmd

# bone keys and a camera, without --camera: the hint; with it, no warning
expect_exit 0 "$POSEKIT" reduce boned.vmd -o c0.vmd
expect_stderr_contains 'boned.vmd: warning: nothing to reduce: no key changed, the output is the input unchanged; its 3 camera keys are left alone without --camera'
expect_same_bytes boned.vmd c0.vmd
expect_exit 2 "$POSEKIT" reduce boned.vmd -o strict.vmd --strict
expect_no_file strict.vmd
expect_exit 0 "$POSEKIT" bake boned.vmd -o c1.vmd
expect_stderr_contains 'warning: nothing to bake: no key changed, the output is the input unchanged; its 3 camera keys are left alone without --camera'
expect_exit 0 "$POSEKIT" reduce boned.vmd --camera -o c2.vmd
expect_stderr_lacks 'warning'
expect_stderr_contains 'camera keys 3 -> 2'
# camera keys alone: the camera is what reduce means, as with --camera
expect_exit 0 "$POSEKIT" reduce cam.vmd -o c3.vmd --strict
expect_stderr_contains 'camera keys 3 -> 2 (a motion with camera keys alone)'
expect_exit 0 "$POSEKIT" reduce cam.vmd --camera -o c4.vmd
expect_same_bytes c3.vmd c4.vmd
expect_exit 0 "$POSEKIT" bake cam.vmd -o c5.vmd
expect_stderr_contains 'camera keys 3 -> 61 (a motion with camera keys alone)'
# a bone selection on it matches nothing: an error, as anywhere
expect_exit 2 "$POSEKIT" reduce cam.vmd --bones センター -o c6.vmd
expect_no_file c6.vmd

# the step layer: a job gets the same warning (and fails it with --strict)
cat >job.yaml <<'YAML'
inputs: {c: boned.vmd}
steps:
  - reduce: {in: c, out: r}
outputs: {r: j.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_stderr_contains 'job.yaml:3:5: warning: c: nothing to reduce: no key changed, the output is the input unchanged; its 3 camera keys are left alone without camera: true'
expect_same_bytes boned.vmd j.vmd
rm j.vmd
expect_exit 2 "$POSEKIT" run job.yaml --strict
expect_no_file j.vmd
