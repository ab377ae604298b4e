# diff --svg: a bar chart for poses, a heatmap for ranges; well-formed XML
# (checked with xmllint from libxml2-utils), written atomically, and not
# written at all when the diff fails.
need_cmd xmllint
vpd_text 'mdl' 'a|0,0,0|1,0,0,0' 'b&<x>|1,0,0|0,0,0,1' >A.vpd
vpd_text 'mdl' 'a|0,0,0|0,0,0,1' 'b&<x>|1,3,4|0,0,0,1' >B.vpd
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --svg bars.svg
expect_file bars.svg
xmllint --noout bars.svg || fail "bars.svg is not well-formed XML"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' bars.svg || fail "not an SVG document"
grep -q '>b&amp;&lt;x&gt;</text>' bars.svg || fail "names must be XML-escaped"
grep -q '180.000°' bars.svg || fail "the bar label should give the angle"
# translations are drawn too, in their own column with units
grep -q 'Bone translation (units)' bars.svg || fail "translations need their own column"
grep -q '>5.0000</text>' bars.svg || fail "the translation bar should give the distance"
# fonts that cover Japanese come first
grep -q "font-family=\"'Noto Sans CJK JP', 'Noto Sans JP', 'IPAexGothic'" bars.svg ||
    fail "the font list should name fonts with Japanese"
# the canvas is as wide as its title
long=$(printf 'x%.0s' $(seq 1 150))
cp A.vpd "$long.vpd"
expect_exit 1 "$POSEKIT" diff "$long.vpd" B.vpd --svg long.svg
w=$(sed -n 's/.*<svg [^>]* width="\([0-9]*\)".*/\1/p' long.svg)
[ "$w" -gt 900 ] || fail "a 160-character title needs a canvas wider than 900 px, got $w"
# --all draws every bone, not only those that differ
vpd_text 'mdl' 'a|0,0,0|1,0,0,0' 'same|0,0,0|0,0,0,1' >C.vpd
vpd_text 'mdl' 'a|0,0,0|0,0,0,1' 'same|0,0,0|0,0,0,1' >D.vpd
expect_exit 1 "$POSEKIT" diff C.vpd D.vpd --svg few.svg
grep -q '>same</text>' few.svg && fail "a bone that does not differ is drawn without --all"
expect_exit 1 "$POSEKIT" diff C.vpd D.vpd --all --svg every.svg
grep -q '>same</text>' every.svg || fail "--all should draw every bone"
# morphs are drawn: a face diff is not "nothing differs"
{ cat "$PK_SOURCE/samples/hands/right_fist.vpd"; printf 'Morph0{\x82\xa0\r\n  0.500000;\t\t\t\t// weight\r\n}\r\n\r\n'; } >M.vpd
expect_exit 1 "$POSEKIT" diff "$PK_SOURCE/samples/hands/right_fist.vpd" M.vpd --svg face.svg
xmllint --noout face.svg || fail "face.svg is not well-formed XML"
grep -q 'Morph weight difference' face.svg || fail "morphs need their own panel"
grep -q '+0.5000 (0.000 → 0.500)' face.svg || fail "the morph bar should give the weights"
grep -q 'Nothing differs' face.svg && fail "a morph difference is a difference"
# a pose sampled from a motion says which frame
expect_exit 1 "$POSEKIT" diff "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hands/right_fist.vpd" \
    --frame 42 --svg frame.svg
grep -q 'right_fist.vpd, frame 42</text>' frame.svg || fail "the picture should name the frame"
expect_no_temp_files

# identical poses: still a valid picture, saying so
expect_exit 0 "$POSEKIT" diff A.vpd A.vpd --svg same.svg
xmllint --noout same.svg || fail "same.svg is not well-formed XML"
grep -q 'Nothing differs beyond the thresholds' same.svg || fail "an empty diff should say so"

# a range: heatmap rows per differing bone
need_corpus
expect_exit 1 "$POSEKIT" diff "$(corpus vmd_wavefile_v2.vmd)" "$(corpus vmd_mmdtools_test.vmd)" \
    --frames 0-600 --svg heat.svg
xmllint --noout heat.svg || fail "heat.svg is not well-formed XML"
grep -q 'frames 0-600' heat.svg || fail "the heatmap names its frames"
grep -q 'fill="rgb(' heat.svg || fail "the heatmap has coloured cells"
# translations and morphs get their own heatmaps, each with a colour scale;
# the frame axis is labelled every 100 frames, not only at both ends
grep -q 'Bone translation distance (units)' heat.svg || fail "translations need a heatmap"
grep -q 'Morph weight difference' heat.svg || fail "morphs need a heatmap"
[ "$(grep -c 'stroke="#999"' heat.svg)" -ge 3 ] || fail "each heatmap needs a colour scale"
for f in 100 200 300 400 500; do
    grep -q "fill=\"#555\">$f</text>" heat.svg || fail "the frame axis should label frame $f"
done

# memory does not grow with the range: a million frames
# in 200 MB of address space (ASan builds reserve terabytes: skipped there)
if [ -z "${PK_SANITIZED:-}" ]; then
    A="$(corpus vmd_wavefile_v2.vmd)" B="$(corpus vmd_mmdtools_test.vmd)"
    (ulimit -v 200000 && exec "$POSEKIT" diff "$A" "$B" --frames 0-999999 --svg million.svg) \
        >million.out 2>million.err && fail "the dances differ: exit 1 expected" || rc=$?
    [ "$rc" = 1 ] || { cat million.err >&2; fail "a million-frame --svg diff should fit in 200 MB (exit $rc)"; }
    grep -q 'frames 0-999999: 190 of 270 bones differ' million.out || fail "wrong summary for the million frames"
    xmllint --noout million.svg || fail "million.svg is not well-formed XML"
fi

# an error writes nothing
expect_exit 2 "$POSEKIT" diff A.vpd missing.vpd --svg none.svg
expect_no_file none.svg
