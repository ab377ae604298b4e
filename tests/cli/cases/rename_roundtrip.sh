# rename with rules/ja-en.yaml, then --reverse, over every corpus file:
# VMDs come back byte for byte; VPDs come back as `convert` writes them
# (the VPD writer normalises layout, so the reference is the rewrite).  A
# file with duplicate keys loses them to the first rename (an editing
# command's output has none): from there on the round trip is exact.
need_corpus
rules="$PK_SOURCE/rules/ja-en.yaml"
n=0
for f in "$PK_CORPUS"/*.vmd "$PK_CORPUS"/*.vpd; do
    ext=${f##*.}
    # The damaged VPD cannot be written at all (20-byte names): skip it.
    "$POSEKIT" convert "$f" -o ref.$ext 2>/dev/null || continue
    expect_exit 0 "$POSEKIT" rename "$f" --rules "$rules" -o en.$ext
    expect_stderr_matches '^posekit rename: [0-9]+ of [0-9]+ bones renamed, [0-9]+ of [0-9]+ morphs renamed'
    dups=$(grep -c "duplicate keys dropped" _stderr || true)
    expect_exit 0 "$POSEKIT" rename en.$ext --rules "$rules" --reverse -o back.$ext
    if [ "$dups" = 0 ]; then
        expect_same_bytes back.$ext ref.$ext
        if [ "$ext" = vmd ]; then expect_same_bytes back.vmd "$f"; fi
    else
        expect_exit 0 "$POSEKIT" rename back.$ext --rules "$rules" -o en2.$ext
        expect_same_bytes en2.$ext en.$ext
    fi
    n=$((n + 1))
done
[ "$n" -ge 26 ] || fail "only $n corpus files checked"

# The English names are really there: センター became center.
expect_exit 0 "$POSEKIT" rename "$(corpus vmd_wavefile_v2.vmd)" --rules "$rules" -o w.vmd
expect_stderr <<'ERR'
posekit rename: 83 of 140 bones renamed, 18 of 31 morphs renamed
ERR
expect_exit 0 "$POSEKIT" info w.vmd
expect_stdout_contains 'center'
expect_stdout_lacks 'センター'
