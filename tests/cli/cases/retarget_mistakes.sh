# A new user's slips with retarget, each an error (exit 2, nothing
# written) whose message points at what retarget takes: a model given
# where the dance goes names --from and --to (retarget has no --model).
need_corpus
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd

expect_exit 2 "$POSEKIT" retarget gene.pmx --from gene.pmx --to mei.pmd -o out.vmd
expect_stderr_contains "posekit: gene.pmx: a PMX model, not a motion or pose (models go with --model, and retarget's with --from and --to)"
expect_no_file out.vmd
expect_exit 2 "$POSEKIT" retarget camera.vmd --from gene.pmx --to mei.pmd --motion mei.pmd -o out.vmd
expect_stderr_contains "posekit: mei.pmd: a PMD model, not a motion or pose (models go with --model, and retarget's with --from and --to)"
expect_no_file out.vmd

# a step's --no-X named after a line of the summary that belongs to
# another step: the error names the options that leave it out, not a
# look-alike ('--no-floor' is not '--no-fold'); the same in a job
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o out.vmd --no-floor
expect_stderr_contains "posekit retarget: unknown option '--no-floor': the floor line is the centre step's: --no-centre leaves both out"
expect_stderr_lacks "no-fold"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o out.vmd --no-body
expect_stderr_contains "the body steps are left out one by one: --no-centre, --no-upper, --no-shoulders, --no-toes"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o out.vmd --no-hands
expect_stderr_contains "the contacts step moves the hands: --no-contacts leaves it out"
expect_no_file out.vmd
cat > job.yaml <<'JOB'
inputs: {bow: bow.vmd, gene: gene.pmx, mei: mei.pmd}
steps:
  - retarget: {in: bow, from: gene, to: mei, no_floor: true, out: r}
outputs: {r: out.vmd}
JOB
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr_contains "unknown option 'no_floor' for retarget: the floor line is the centre step's: no_centre leaves both out"
expect_no_file out.vmd
# --no-centre leaves the floor line out with the centre's
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o out.vmd --no-centre
expect_stderr_lacks "floor:"

# the dance and its camera given the other way round: the error says to
# swap them, not only that the dance has no camera key
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd --motion camera.vmd -o swapped.vmd
expect_stderr_contains "posekit: dance.vmd: no camera key: with --motion the input is the camera that frames the dance; camera.vmd is the camera and this the dance: swap them"
expect_no_file swapped.vmd
# a pose given as the camera: said to be a pose, not "no camera key"
cp "$(corpus vpd_keitel_01.vpd)" pose.vpd
expect_exit 2 "$POSEKIT" retarget pose.vpd --from gene.pmx --to mei.pmd --motion camera.vmd -o posecam.vmd
expect_stderr_contains "posekit: pose.vpd: a pose: with --motion the input is the camera (a VMD) that frames the dance"
expect_no_file posecam.vmd
# check --model @auto --suggest-rules: --model was given, @auto has no
# names of a model's own to rename to; the error says what it wants
expect_exit 2 "$POSEKIT" check dance.vmd --model @auto --suggest-rules auto.yaml
expect_stderr_contains "the suggested rules rename to a model's names: give --model MODEL (a file; @auto only tells which built-in body fits)"
expect_no_file auto.yaml

# a target whose leg IK is named otherwise (here SD Mei's body with its
# 足ＩＫ renamed): its legs cannot follow the dance's leg IK keys; a
# warning says so and where to see the names, where every line read as a
# sizing (--strict: an error, nothing written)
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
"$POSEKIT" dump --body sd.pmd | sed 's/左足ＩＫ/leg IK_L/g; s/右足ＩＫ/leg IK_R/g' > sd_en_ik.yaml
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sd_en_ik.yaml -o noik.vmd
expect_stderr_contains "posekit: bow.vmd: warning: the target model sd_en_ik.yaml has no 左足ＩＫ or 右足ＩＫ (the source has): its legs cannot follow the motion's leg IK keys as the source's do (is its leg IK named otherwise? posekit check bow.vmd --model sd_en_ik.yaml lists the names it lacks, --rules renames them)"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sd_en_ik.yaml -o noik2.vmd --strict
expect_no_file noik2.vmd
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sd.pmd -o ik.vmd
expect_stderr_lacks "足ＩＫ (the source has)"

# --report and --json together (the man page's synopsis had them as one
# or the other): the same JSON in the file and on standard output
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o both.vmd --report both.json --json
cmp -s both.json "$OUT" || fail "--report and --json wrote different JSON"
grep -qF '[*--report* _R.json_] [*--json*]' "$PK_SOURCE/doc/posekit.1.scd" || fail "the man page's retarget synopsis has --report and --json as one or the other"

# a dance whose bone names were renamed to English: none of its bones
# moves on the target, and every step would run on the rest pose; a
# warning says so and how to name them back (--strict: an error), and
# the dance named back sizes without it
expect_exit 0 "$POSEKIT" rename bow.vmd --rules "$PK_SOURCE/rules/ja-en.yaml" -o bow_en.vmd
expect_exit 0 "$POSEKIT" retarget bow_en.vmd --from @auto --to mei.pmd -o en_out.vmd
expect_stderr_matches "posekit: bow_en.vmd: warning: [0-9]+ of the [0-9]+ bones the motion moves are not on the target model, and none of センター, 上半身, 腕 and 足 by those names: no step sizes them; are its bone names another model's\? \(posekit check bow_en.vmd --model mei.pmd lists them; English names get their Japanese ones back from rename --rules ja-en.yaml --reverse\)"
expect_exit 2 "$POSEKIT" retarget bow_en.vmd --from @auto --to mei.pmd -o en_strict.vmd --strict
expect_no_file en_strict.vmd
expect_exit 0 "$POSEKIT" rename bow_en.vmd --rules "$PK_SOURCE/rules/ja-en.yaml" --reverse -o bow_ja.vmd
expect_same_bytes bow_ja.vmd bow.vmd
expect_exit 0 "$POSEKIT" retarget bow_ja.vmd --from @auto --to mei.pmd -o ja_out.vmd
expect_stderr_lacks "are its bone names another model's"
# check without a model says the same of it, by the same test on the body
# it fits best (it listed the bodies as for any dance, @classic best);
# --strict fails; the dance named back is not
# warned about (nor, run by hand, any of the corpus's 27 motions and poses)
expect_exit 0 "$POSEKIT" check bow_en.vmd
expect_stderr_contains "posekit: bow_en.vmd: warning: 9 of the 9 bones the motion moves are not on @classic, the built-in body it fits best, and none of センター, 上半身, 腕 and 足 by those names: are its bone names another model's? (English names get their Japanese ones back from rename --rules ja-en.yaml --reverse)"
expect_stdout_contains "best: @classic"
expect_exit 2 "$POSEKIT" check bow_en.vmd --strict
expect_exit 0 "$POSEKIT" check bow_ja.vmd
expect_stderr_lacks "another model's"

# a rules file given where a model goes, and a body where rules go: each
# says which it is and where it goes, in one error at the key that tells
# (not "unknown key 'rename'" for a body, nor an error for every key of
# a body read as rules)
expect_exit 2 "$POSEKIT" retarget bow.vmd --from "$PK_SOURCE/rules/ja-en.yaml" --to mei.pmd -o rk.vmd
expect_stderr_matches "ja-en\.yaml:[0-9]+:1: a rules file \(its key 'rename'\), not a body: rules go with --rules; a body is a model's skeleton as posekit dump --body MODEL writes it \(posekit_body: 1, bones: \[\.\.\.\]\)$"
expect_no_file rk.vmd
"$POSEKIT" dump --body mei.pmd >mei_body.yaml
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd --rules mei_body.yaml -o rk.vmd
expect_stderr_contains "posekit: mei_body.yaml:1:1: a body (a model's skeleton), not a rules file: a body goes where a model goes (--from, --to, --model)"
expect_eq "$(grep -c 'mei_body.yaml' "$ERR")" 1 "one error for the body given as rules"
expect_no_file rk.vmd

# --report or --json with retarget by rules alone: there is no sizing to
# measure (the file was written holding the input's name and two nulls,
# exit 0); refused, nothing written
expect_exit 2 "$POSEKIT" retarget bow.vmd --rules "$PK_SOURCE/rules/a-to-t-stance.yaml" -o rr.vmd --report rr.json
expect_stderr_contains "posekit retarget: the measures of the sizing (--report, --json) need --from and --to: retarget by rules alone measures nothing (its line says what changed)"
expect_no_file rr.json
expect_no_file rr.vmd
expect_exit 2 "$POSEKIT" retarget bow.vmd --rules "$PK_SOURCE/rules/a-to-t-stance.yaml" -o rr.vmd --json
expect_stdout_empty
expect_no_file rr.vmd

# -o naming a model: the format is told (a model, which posekit never
# writes), not "cannot tell the output format"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to mei.pmd -o sized.pmx
expect_stderr_contains "posekit retarget: 'sized.pmx' is named as a model (.pmx, .pmd), which posekit never writes: use .vmd or .vpd"
expect_no_file sized.pmx
