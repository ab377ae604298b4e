# info on corpus VPDs: counts and facts from PROVENANCE.tsv and doc/formats.md §8.
need_corpus

# keitel_01: "LF only (git-normalised); 93 bones; model 初音ミク.osm"
expect_exit 0 "$POSEKIT" info "$(corpus vpd_keitel_01.vpd)"
expect_stderr_empty
expect_stdout_contains '  format: VPD text layout, LF line endings'
expect_stdout_contains '  model: 初音ミク'
expect_stdout_contains '  bones: 93 (93 names)'
expect_stdout_contains '  morphs: 0 (0 names)'
expect_stdout_contains '  warnings: 0'
# Bones are listed in file order: the first BoneN{ names of the file.
first=$(grep -a -m1 '^Bone0{' "$(corpus vpd_keitel_01.vpd)" | cut -d'{' -f2- | iconv -f CP932 -t UTF-8)
expect_eq "$(sed -n '/bones (entries):/{n;p}' "$OUT" | sed 's/^ *1  //')" "$first" "first bone"

# mmdtools_test: 188 bones, model "4.5A3_arm"
expect_exit 0 "$POSEKIT" info "$(corpus vpd_mmdtools_test.vpd)"
expect_stdout_contains '  model: 4.5A3_arm'
expect_stdout_contains '  bones: 188 ('

# makoto: 55 bones
expect_exit 0 "$POSEKIT" info "$(corpus vpd_imas_makoto_basic.vpd)"
expect_stdout_contains '  bones: 55 ('

# morph-only file: "0 bones, 6 Morph blocks"
expect_exit 0 "$POSEKIT" info "$(corpus vpd_mcmmd_smile_morphonly.vpd)"
expect_stdout_contains '  bones: 0 (0 names)'
expect_stdout_contains '  morphs: 6 (6 names)'

# The damaged file kept its CRLF ("CRLF preserved"), and reading it warns
# (its names were destroyed by a UTF-8 round trip, doc/formats.md §1.5).
expect_exit 0 "$POSEKIT" info "$(corpus vpd_damaged_utf8_fffd_pose.vpd)"
expect_stdout_contains 'CRLF line endings'
expect_stderr_contains 'warning: '
expect_stdout_lacks '  warnings: 0'
# --strict turns those warnings into an error: exit 2, no report.
expect_exit 2 "$POSEKIT" info --strict "$(corpus vpd_damaged_utf8_fffd_pose.vpd)"
expect_stderr_contains 'posekit info: warnings are errors (--strict)'
expect_stdout_empty
