# convert rewrites every corpus file losslessly:
#  - VMD -> VMD gives back the same bytes (the round-trip law);
#  - VPD -> VPD gives MMD's own layout.  The corpus VPDs were written by MMD
#    or mmd_tools (CRLF) and lost their CRs to git (PROVENANCE.tsv: "LF only
#    (git-normalised)"), so the rewrite must equal the file with CRLF put
#    back, byte for byte.
need_corpus
n=0
for f in "$PK_CORPUS"/*.vmd; do
    remember "$f"
    expect_exit 0 "$POSEKIT" convert "$f" -o out.vmd
    expect_same_bytes "$f" out.vmd
    expect_unchanged "$f"
    n=$((n + 1))
done
# every VMD that PROVENANCE.tsv lists went through (it follows the corpus)
expect_eq "$n" "$(grep -c '^[^[:space:]]*\.vmd[[:space:]]' "$PK_CORPUS/PROVENANCE.tsv")" "corpus VMDs"
for f in keitel_01 keitel_03 keitel_04 keitel_09 keitel_10 keitel_11 imas_makoto_basic mmdtools_test mcmmd_smile_morphonly; do
    sed 's/$/\r/' "$(corpus "vpd_$f.vpd")" >crlf.vpd
    expect_exit 0 "$POSEKIT" convert "$(corpus "vpd_$f.vpd")" -o out.vpd
    expect_stderr_empty
    expect_same_bytes crlf.vpd out.vpd
done
expect_no_temp_files .
