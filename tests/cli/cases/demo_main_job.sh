# The README's main job: what samples/demo.sh runs, on a copy of the
# samples.  The demo's own promises: exactly the right-hand fingers change,
# at the frames of the two overlays and their fades, and every other record
# stays byte-identical.
mkdir -p samples/hands rules
cp "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hand-overlay.yaml" samples/
cp "$PK_SOURCE/samples/hands/"*.vpd samples/hands/
cp "$PK_SOURCE/rules/ja-en.yaml" rules/
expect_exit 0 "$POSEKIT" run samples/hand-overlay.yaml
expect_stderr_empty
# The crossed curved finger segments are fitted, not baked: the dance's
# 215 bone keys become 326 (baking them would give 1235).
expect_stdout_contains '30 fitted'
expect_stdout_lacks 'baked into [1-9]'
expect_exit 0 "$POSEKIT" info samples/out/dance-hands.vmd
n=$(sed -n 's/^ *bone keys: \([0-9]*\).*/\1/p' "$OUT")
[ -n "$n" ] && [ "$n" -le 400 ] || fail "the demo writes $n bone keys (fitted: 326, baked: 1235)"
# 15 rows: 親指０-２ and the twelve finger joints of the right hand, nothing else.
# (The report is diff's table: a header, one row per differing bone, the
# summary line.)
n=$(grep -cE '  右(親|人|中|薬|小)指(０|１|２|３)$' samples/out/dance-hands-diff.txt)
expect_eq "$n" 15 "right-finger rows in the diff"
expect_eq "$(grep -cE '^ +[0-9]' samples/out/dance-hands-diff.txt)" 15 "rows in the diff"
# ... and only at the overlays' frames with their fades: 25-65 and 85-125
for r in 0-24 66-84 126-150; do
    expect_exit 0 "$POSEKIT" diff samples/dance.vmd samples/out/dance-hands.vmd --frames $r
done
expect_exit 1 "$POSEKIT" diff samples/dance.vmd samples/out/dance-hands.vmd --frames 25-25
fingers='右(親|人|中|薬|小)指'
"$POSEKIT" dump samples/dance.vmd | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/' >a.txt
"$POSEKIT" dump samples/out/dance-hands.vmd | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/' >b.txt
cmp -s a.txt b.txt || fail "records outside the right fingers changed"
