# Built-in bodies (rules/bodies/): the shipped classic.yaml and standard.yaml
# are what rules/bodies/derive.sh makes of the corpus models, byte for byte;
# `--from @classic` retargets exactly as the model it came from does, on
# the command line and in a job (an input named "@standard"); a body file
# of one's own is a model anywhere (info, check, retarget); a damaged body
# is an error at its LINE:COL naming the file, exit 2, nothing written.
need_corpus
mkdir derived
sh "$PK_SOURCE/rules/bodies/derive.sh" "$POSEKIT" "$PK_CORPUS" derived
expect_same_bytes derived/classic.yaml "$PK_SOURCE/rules/bodies/classic.yaml"
expect_same_bytes derived/standard.yaml "$PK_SOURCE/rules/bodies/standard.yaml"

cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
cp "$(corpus pmx_gene.pmx)" gene.pmx
expect_exit 0 "$POSEKIT" retarget dance.vmd --from classic.pmx --to gene.pmx -o model.vmd
expect_exit 0 "$POSEKIT" retarget dance.vmd --from @classic --to gene.pmx -o body.vmd
expect_same_bytes body.vmd model.vmd
expect_stderr_contains 'posekit retarget: stance: 左腕->左ひじ 4.74 deg'

# a job names a built-in body as an input
cat > job.yaml <<'YAML'
inputs: {dance: dance.vmd, src: "@classic", dst: "@standard"}
steps:
  - retarget: {in: dance, from: src, to: dst, out: r}
outputs: {r: job.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_exit 0 "$POSEKIT" retarget dance.vmd --from @classic --to @standard -o cli.vmd
expect_same_bytes job.vmd cli.vmd

# one's own body: written from a model, read wherever a model is
"$POSEKIT" dump --body gene.pmx --bones '@arms,@legs,@ik' > mine.yaml
expect_exit 0 "$POSEKIT" info mine.yaml
expect_stdout_contains 'format: posekit body 1, utf-8 text'
expect_exit 1 "$POSEKIT" check dance.vmd --model mine.yaml # no trunk, hair, fingers
expect_stdout_contains 'bones keyed: 140, missing on the model: 115'
# JSON is YAML: the same body as a flow mapping in a .json file
printf '{"posekit_body": 1, "bones": [{"name": "センター", "pos": [0, 8, 0]}]}' > tiny.json
expect_exit 0 "$POSEKIT" info tiny.json
expect_stdout_contains 'bones 1,'
expect_exit 2 "$POSEKIT" dump --body gene.pmx --bones 'ないボーン'
expect_stderr_contains 'matches no bone'
expect_exit 2 "$POSEKIT" dump --bones '@arms' gene.pmx
expect_stderr_contains '--bones goes with --body'

# a damaged body: LINE:COL, exit 2, no output
printf 'posekit_body: 1\nbones:\n  - {name: a, pos: [0, 0, 0]}\n  - {name: b, parent: c, pos: [0, 0, 0]}\n' > bad.yaml
expect_exit 2 "$POSEKIT" retarget dance.vmd --from bad.yaml --to gene.pmx -o never.vmd
expect_stderr_contains "posekit: bad.yaml:4:23: parent 'c' names no bone of the body"
expect_no_file never.vmd
printf 'posekit_body: 1\nbones: [{name: a, pos: [0, 0, 0]}\n' > syntax.yaml
expect_exit 2 "$POSEKIT" check dance.vmd --model syntax.yaml
expect_stderr_contains 'posekit: syntax.yaml:3:1: YAML syntax error'
expect_exit 2 "$POSEKIT" check dance.vmd --model @nobody
expect_stderr_contains '@nobody is not a built-in body'
# a body is a model, not a motion
expect_exit 2 "$POSEKIT" convert mine.yaml -o x.vmd
expect_stderr_contains 'a body (a model described as text), not a motion or pose'
expect_no_file x.vmd

# @auto: the body the dance fits (check without --model tells which)
expect_exit 0 "$POSEKIT" check dance.vmd
expect_stdout_contains '@classic   has 140 of the 140 bones it keys (初音ミク, 140 bones; overlap 1.00)'
expect_stdout_contains 'best: @classic'
cp "$OUT" no_model
# --model @auto reports the same, its first line naming no missing model
expect_exit 0 "$POSEKIT" check dance.vmd --model @auto
expect_stdout_contains 'dance.vmd on @auto: the built-in bodies it fits:'
expect_stdout_lacks 'no model given'
tail -n +2 no_model >no_model_rest
tail -n +2 "$OUT" >auto_rest
expect_same_bytes auto_rest no_model_rest
expect_exit 0 "$POSEKIT" retarget dance.vmd --from @auto --to gene.pmx -o auto.vmd
expect_stderr_contains 'posekit retarget: from: @auto is @classic (it has 140 of the 140 bones the input keys; @standard 66)'
expect_stderr_lacks 'picked by overlap'
expect_same_bytes auto.vmd body.vmd
cp "$(corpus vmd_mmdagent_stand.vmd)" stand.vmd
expect_exit 0 "$POSEKIT" check stand.vmd
expect_stdout_contains 'best: @standard'
expect_exit 0 "$POSEKIT" retarget stand.vmd --from @auto --to classic.pmx -o stand_auto.vmd --report auto.json
expect_stderr_contains 'from: @auto is @standard'
# no body has every bone: the line gives the overlaps the pick is made by
expect_stderr_contains 'posekit retarget: from: @auto is @standard (it has 78 of the 222 bones the input keys; @classic 73; none has them all: picked by overlap, the bones both have over the bones either has, 0.35; @classic 0.25)'
# ... which is why a body with fewer of the dance's bones can be picked
# (YYB Miku's 439 bones: @standard has 75 of them in 78, @classic 76 in 140)
cp "$(corpus vmd_babylon_physics_toggle_yyb10th.vmd)" yyb.vmd
expect_exit 0 "$POSEKIT" retarget yyb.vmd --from @auto --to classic.pmx -o yyb_auto.vmd
expect_stderr_contains 'posekit retarget: from: @auto is @standard (it has 75 of the 439 bones the input keys; @classic 76; none has them all: picked by overlap, the bones both have over the bones either has, 0.17; @classic 0.15)'
expect_eq "$(json_eval auto.json '(d["from"], d["picked"])')" "('@auto', '@standard')" "the report names the body @auto picked"
expect_exit 0 "$POSEKIT" retarget stand.vmd --from @standard --to classic.pmx -o stand_std.vmd --report std.json
expect_same_bytes stand_auto.vmd stand_std.vmd
expect_eq "$(json_eval std.json '"picked" in d')" "False" "a named body is not picked"
# what retarget says of the source names the body @auto picked
cp "$(corpus vmd_mmdtools_test.vmd)" mmt_dance.vmd
expect_exit 0 "$POSEKIT" retarget mmt_dance.vmd --from @auto --to "$(corpus pmx_mmt_test_model.pmx)" -o mmt_auto.vmd
expect_stderr_contains 'is @standard the model it was made for?'
expect_stderr_contains 'bones the source model (@standard) lacks'
if grep -q '(@auto)\|is @auto' "$ERR"; then
    echo "FAIL: a message names @auto, not the body it picked"
    exit 1
fi
# in a job: from: "@auto" names no input
cat > job2.yaml <<'YAML'
inputs: {dance: dance.vmd, gene: gene.pmx}
steps:
  - retarget: {in: dance, from: "@auto", to: gene, out: r}
outputs: {r: job2.vmd}
YAML
expect_exit 0 "$POSEKIT" run job2.yaml
expect_stdout_contains 'from: @auto is @classic'
expect_same_bytes job2.vmd auto.vmd
# nothing to fit: a motion of camera keys, or of names no body has
cp "$(corpus vmd_wavefile_camera.vmd)" cam.vmd
expect_exit 2 "$POSEKIT" retarget cam.vmd --from @auto --to gene.pmx -o never.vmd
expect_stderr_contains 'cam.vmd: the motion keys no bone: there is nothing to fit a body to'
expect_no_file never.vmd
expect_exit 2 "$POSEKIT" check cam.vmd
expect_stderr_contains 'the motion keys no bone'
# @auto is retarget's --from (and check's), not a model to load elsewhere
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to @auto -o never.vmd
expect_stderr_contains '--from @auto picks the model the input was made for; --to names the one it is for'
expect_no_file never.vmd
expect_exit 2 "$POSEKIT" draw dance.vmd --model @auto --frame 0 -o never.svg
expect_stderr_contains '@auto is not a built-in body'
expect_no_file never.svg
# an uninstalled build finds the built-in bodies in its own build tree
# (BUILD/rules/bodies, copied by meson), with no variable set
expect_exit 0 env -u POSEKIT_BODIES_DIR -u POSEKIT_RULES_DIR "$POSEKIT" check "$(corpus vmd_wavefile_v2.vmd)"
expect_stdout_contains '@classic'
