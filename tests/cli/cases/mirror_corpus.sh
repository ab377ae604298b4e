# mirror twice gives back every corpus VMD byte for byte (and every VPD as
# convert writes it); mirroring once changes something.  A file with
# duplicate keys loses them to the first mirror (an editing command's
# output has none): from there on mirroring twice gives the same bytes.
need_corpus
n=0
dups=0
for f in "$PK_CORPUS"/*.vmd "$PK_CORPUS"/*.vpd; do
    ext=${f##*.}
    "$POSEKIT" convert "$f" -o ref.$ext 2>/dev/null || continue
    expect_exit 0 "$POSEKIT" mirror "$f" -o m.$ext
    expect_stderr_matches '^posekit mirror: [0-9]+ of [0-9]+ bones swapped left/right'
    if grep -q "duplicate keys dropped" _stderr; then
        dups=$((dups + 1))
        expect_exit 0 "$POSEKIT" mirror m.$ext -o mm.$ext
        expect_exit 0 "$POSEKIT" mirror mm.$ext -o mmm.$ext
        expect_same_bytes mmm.$ext m.$ext
    else
        expect_exit 0 "$POSEKIT" mirror m.$ext -o mm.$ext
        expect_same_bytes mm.$ext ref.$ext
    fi
    n=$((n + 1))
done
[ "$dups" -ge 3 ] || fail "only $dups corpus files with duplicate keys"
[ "$n" -ge 26 ] || fail "only $n corpus files checked"
# wavefile_v2 has left/right bones: the mirrored file differs.
expect_exit 0 "$POSEKIT" mirror "$(corpus vmd_wavefile_v2.vmd)" -o w.vmd
expect_different_bytes w.vmd "$(corpus vmd_wavefile_v2.vmd)"
