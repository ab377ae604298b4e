# diff's summary line says what was compared, each remark beside what it
# is about: the rows of one file only that are not listed follow the
# "only in" counts they belong to, not the note on frame 0; in the world
# (--vs-model) no morph is compared, and the line says so instead of
# "0 of 0 morphs differ" for two motions that key 31 morphs; its --json
# names the two models.
need_corpus
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd --no-contacts --no-avoid --no-twist -o mei.vmd
# the output keys one bone more than the input, at rest: only in B, not listed
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd
expect_stdout_matches "^frame 0: [0-9]+ of 141 bones differ \(largest [0-9.]+ deg: [^ ]+\), 0 of 31 morphs differ; only in A: 0, only in B: 1 \(1 of them not differing from rest, not listed: the all option lists them\) \(a motion at frame 0 only: frames all compares every frame\)$"
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd --model gene.pmx --vs-model mei.pmd --frames 0-30
expect_stdout_lacks "0 of 0 morphs differ"
expect_stdout_matches "^frames 0-30: [0-9]+ of [0-9]+ bones differ in the world \(largest [0-9.]+ deg: [^ ]+ at frame [0-9]+\), morphs not compared \(in the world only bones are: without --vs-model the keys' weights are\)$"
# its --json names the models each input was played on (it named neither)
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd --model gene.pmx --vs-model mei.pmd --frames 0-30 --json
expect_eq "$(json_eval _stdout 'd["models"]')" "{'a': 'gene.pmx', 'b': 'mei.pmd'}" "the world's models"
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd --json
expect_eq "$(json_eval _stdout '"models" in d')" False "no models without --vs-model"
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd --model gene.pmx --vs-model mei.pmd --no-morphs
expect_stdout_lacks "morphs"
# the picture's title says so too (it read as a diff of the keys)
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd --model gene.pmx --vs-model mei.pmd --frames 0-30 --svg world.svg
grep -qF '>dance.vmd vs mei.vmd in the world, frames 0-30<' world.svg || fail "the world picture's title does not say 'in the world'"
expect_exit 0 "$POSEKIT" diff dance.vmd dance.vmd --frames 0-30 --svg keys.svg
grep -qF '>dance.vmd vs dance.vmd, frames 0-30<' keys.svg || fail "the keys' picture's title changed"
