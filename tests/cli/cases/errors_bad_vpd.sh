# A broken VPD: exit 2, "posekit: PATH:LINE:COL: message", no output.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' 'b|0.1,2.x,3|0,0,0,1' >bad.vpd
remember bad.vpd
expect_exit 2 "$POSEKIT" convert bad.vpd -o out.vmd
expect_stdout_empty
# Line 12 is "  0.1,2.x,3;..." (lines: signature, blank, model, count,
# blank, Bone0, 2 values, }, blank, Bone1, values); "2.x" starts at col 7.
expect_stderr_matches '^posekit: bad\.vpd:12:[0-9]+: '
col=$(sed -n 's/^posekit: bad\.vpd:12:\([0-9]*\): .*/\1/p' "$ERR" | head -n 1)
[ "$col" -ge 7 ] && [ "$col" -le 10 ] || fail "column $col does not point at '2.x' (7-9)"
expect_no_file out.vmd
expect_unchanged bad.vpd

# Missing numbers, a missing '}' at the end, no signature.
vpd_text 'mdl' 'a|1.5,2|0,0,0,1' >few.vpd
expect_exit 2 "$POSEKIT" info few.vpd
expect_stderr_matches '^posekit: few\.vpd:7:[0-9]+: '
printf 'Vocaloid Pose Data file\n\nm.osm;\n1;\n\nBone0{a\n  0,0,0;\n  0,0,0,1;\n' >open.vpd
expect_exit 2 "$POSEKIT" dump open.vpd
expect_stderr_matches '^posekit: open\.vpd:[0-9]+:[0-9]+: '
printf 'hello\n' >nosig.vpd
expect_exit 2 "$POSEKIT" info nosig.vpd
expect_stderr_matches '^posekit: nosig\.vpd(:[0-9]+)+: '
