# draw_unfit: a motion or pose keying bones none of which the model holds
# (here renamed to English) draws the model at rest: a warning naming the
# input says so, and --strict fails it with nothing written; a pose the
# model fits draws without it, and a camera motion (no bone key) with a
# warning of its own.  Retarget from such a source model warns too (at the end).
need_corpus
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus vmd_vmd2xml_camera.vmd)" camera.vmd
expect_exit 0 "$POSEKIT" rename dance.vmd --rules "$PK_SOURCE/rules/ja-en.yaml" -o en.vmd
expect_exit 0 "$POSEKIT" rename fist.vpd --rules "$PK_SOURCE/rules/ja-en.yaml" -o en.vpd
expect_exit 0 "$POSEKIT" draw en.vmd --model mei.pmd -o en.svg
expect_stderr <<'EOF'
posekit: en.vmd: warning: mei.pmd holds none of the bones it keys: drawn at rest (posekit check en.vmd --model mei.pmd lists the names it lacks)
posekit draw: 1 figure drawn
EOF
expect_exit 0 "$POSEKIT" draw dance.vmd --model mei.pmd --vs en.vpd -o vs.svg
expect_stderr_contains "posekit: en.vpd: warning: mei.pmd holds none of the bones it poses: drawn at rest"
expect_stderr_lacks "dance.vmd: warning"
expect_exit 2 "$POSEKIT" draw en.vmd --model mei.pmd -o strict.svg --strict
expect_no_file strict.svg
# in a job: at the step, naming the input
cat >job.yaml <<'YAML'
inputs: {d: en.vmd, m: mei.pmd}
steps:
  - draw: {in: d, model: m, out: p}
outputs: {p: job.svg}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_stderr_contains "job.yaml:3:5: warning: d: m holds none of the bones it keys: drawn at rest (a check step lists the names it lacks)"
# no warning where the model fits; a camera motion is not said to be
# unfit (it keys no bone the model could lack), but a camera (below)
expect_exit 0 "$POSEKIT" draw dance.vmd --model mei.pmd -o ok.svg
expect_stderr_lacks warning
expect_exit 0 "$POSEKIT" draw camera.vmd --model mei.pmd -o cam.svg
expect_stderr_lacks "holds none"

# retarget from a source model that holds none of the motion's bones: its
# steps measure the source's rest pose; a warning asks whether it is the
# model the motion was made for (an error with --strict)
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
expect_exit 0 "$POSEKIT" retarget en.vmd --from mei.pmd --to sd.pmd -o r.vmd
expect_stderr_contains "posekit: en.vmd: warning: mei.pmd holds none of the bones the motion keys: is it the model the motion was made for? (posekit check en.vmd --model mei.pmd lists the names it lacks)"
expect_exit 2 "$POSEKIT" retarget en.vmd --from mei.pmd --to sd.pmd -o r_strict.vmd --strict
expect_no_file r_strict.vmd
expect_exit 0 "$POSEKIT" retarget dance.vmd --from mei.pmd --to sd.pmd -o r_ok.vmd
expect_stderr_lacks "holds none"

# A camera motion given as the pose (or as --vs) keys no bone: the model
# at rest, as if the dance stood still, is said (--strict: an error, no
# picture); the picture is drawn as before.
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
expect_exit 0 "$POSEKIT" draw camera.vmd --model "$(corpus pmx_gene.pmx)" -o cam.svg
expect_stderr_contains "camera.vmd: warning: a camera motion (70 camera keys, no bone key): "
expect_stderr_contains "pmx_gene.pmx is drawn at rest (draw the dance the camera frames)"
expect_file cam.svg
expect_exit 0 "$POSEKIT" draw "$(corpus vmd_wavefile_v2.vmd)" --model "$(corpus pmx_gene.pmx)" --frame 838 --vs camera.vmd -o vs.svg
expect_stderr_contains "camera.vmd: warning: a camera motion (70 camera keys, no bone key)"
expect_exit 2 "$POSEKIT" draw camera.vmd --model "$(corpus pmx_gene.pmx)" --strict -o cam2.svg
expect_no_file cam2.svg
