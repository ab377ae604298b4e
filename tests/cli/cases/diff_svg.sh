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
grep -q '180.000&#176;' bars.svg || fail "the bar label should give the angle"
expect_no_temp_files

# identical poses: still a valid picture, saying so
expect_exit 0 "$POSEKIT" diff A.vpd A.vpd --svg same.svg
xmllint --noout same.svg || fail "same.svg is not well-formed XML"
grep -q 'No bone differs' same.svg || fail "an empty diff should say so"

# a range: heatmap rows per differing bone
need_corpus
expect_exit 1 "$POSEKIT" diff "$(corpus vmd_wavefile_v2.vmd)" "$(corpus vmd_mmdtools_test.vmd)" \
    --frames 0-600 --svg heat.svg
xmllint --noout heat.svg || fail "heat.svg is not well-formed XML"
grep -q 'frames 0-600' heat.svg || fail "the heatmap names its frames"
grep -q 'fill="rgb(' heat.svg || fail "the heatmap has coloured cells"

# an error writes nothing
expect_exit 2 "$POSEKIT" diff A.vpd missing.vpd --svg none.svg
expect_no_file none.svg
