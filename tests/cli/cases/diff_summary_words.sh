# diff's summary line says what was compared, each remark beside what it
# is about: the rows of one file only that are not listed follow the
# "only in" counts they belong to, not the note on frame 0.
need_corpus
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd --no-contacts --no-avoid --no-twist -o mei.vmd
# the output keys one bone more than the input, at rest: only in B, not listed
expect_exit 1 "$POSEKIT" diff dance.vmd mei.vmd
expect_stdout_matches "^frame 0: [0-9]+ of 141 bones differ \(largest [0-9.]+ deg: [^ ]+\), 0 of 31 morphs differ; only in A: 0, only in B: 1 \(1 of them not differing from rest, not listed: the all option lists them\) \(a motion at frame 0 only: frames all compares every frame\)$"
