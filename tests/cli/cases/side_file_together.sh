# side_file_together: retarget's --report is put in place together with
# the motion (-o), or neither: a report that cannot be written (its folder
# missing) leaves no motion behind, and an existing target untouched; the
# same for a group of dancers.  When both can be written both are, the
# bytes those of a run without the other.
need_corpus
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o out.vmd --report nodir/r.json
expect_stderr_contains "posekit: nodir/r.json: the output folder does not exist"
expect_no_file out.vmd
cp dance.vmd old.vmd
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o old.vmd --report nodir/r.json
expect_same_bytes dance.vmd old.vmd
expect_exit 2 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o a.vmd \
    --and dance.vmd --from mei.pmd --to sd.pmd -o b.vmd --report nodir/r.json
expect_stderr_contains "posekit: nodir/r.json: the output folder does not exist"
expect_no_file a.vmd
expect_no_file b.vmd
expect_no_temp_files .
# both written: the same bytes as each alone
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o out.vmd --report r.json
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o alone.vmd
expect_same_bytes out.vmd alone.vmd
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o - --report r2.json
expect_same_bytes "$OUT" out.vmd
expect_same_bytes r.json r2.json
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to sd.pmd -o a.vmd \
    --and dance.vmd --from mei.pmd --to sd.pmd -o b.vmd --report g.json
expect_file a.vmd
expect_file b.vmd
expect_eq "$(json_eval g.json 'len(d["dancers"])')" 2 "dancers in the group's report"
