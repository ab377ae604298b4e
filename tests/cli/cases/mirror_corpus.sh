# mirror twice gives back every corpus VMD byte for byte (and every VPD as
# convert writes it); mirroring once changes something.
need_corpus
n=0
for f in "$PK_CORPUS"/*.vmd "$PK_CORPUS"/*.vpd; do
    ext=${f##*.}
    "$POSEKIT" convert "$f" -o ref.$ext 2>/dev/null || continue
    expect_exit 0 "$POSEKIT" mirror "$f" -o m.$ext
    expect_stderr_matches '^posekit mirror: [0-9]+ of [0-9]+ bones swapped left/right'
    expect_exit 0 "$POSEKIT" mirror m.$ext -o mm.$ext
    expect_same_bytes mm.$ext ref.$ext
    n=$((n + 1))
done
[ "$n" -ge 26 ] || fail "only $n corpus files checked"
# wavefile_v2 has left/right bones: the mirrored file differs.
expect_exit 0 "$POSEKIT" mirror "$(corpus vmd_wavefile_v2.vmd)" -o w.vmd
expect_different_bytes w.vmd "$(corpus vmd_wavefile_v2.vmd)"
