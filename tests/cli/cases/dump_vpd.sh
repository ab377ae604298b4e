# dump of a VPD written here, and of one with a Morph block and a name MMD
# cut in the middle of a character (a lone CP932 lead byte, shown as \xNN).
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' 'b|0.1,-0.000001,1e-3|0.5,0.5,0.5,0.5' > p.vpd
expect_exit 0 "$POSEKIT" dump p.vpd
expect_stderr_empty
expect_stdout <<'OUT'
{"format":"vpd","layout":"text","model":"mdl",
"bones":[
{"name":"a","pos":[1.5,2.0,3.0],"rot":[0.0,0.0,0.0,1.0]},
{"name":"b","pos":[0.1,-1e-6,0.001],"rot":[0.5,0.5,0.5,0.5]}],
"morphs":[]}
OUT

# Name "ア" + lone lead byte 0x83; a morph block; LF line endings; a
# quote and a backslash in the model name are JSON-escaped.
printf 'Vocaloid Pose Data file\n\nq"\\.osm;\n1;\n\nBone0{\x83\x41\x83\n  0,0,0;\n  0,0,0,1;\n}\n\nMorph0{\x82\xa0\n  0.25;\n}\n' > m.vpd
expect_exit 0 "$POSEKIT" dump m.vpd
expect_stdout <<'OUT'
{"format":"vpd","layout":"text","model":"q\"\\",
"bones":[
{"name":"ア\\x83","pos":[0.0,0.0,0.0],"rot":[0.0,0.0,0.0,1.0]}],
"morphs":[
{"name":"あ","weight":0.25}]}
OUT
# And it is valid JSON.
need_cmd python3
expect_eq "$(json_eval "$OUT" 'd["bones"][0]["name"]')" 'ア\x83' "escaped name"
