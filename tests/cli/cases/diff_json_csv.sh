# diff --json and --csv: every row, machine-readable; the same values as
# the table.  Values chosen to be exact: a turns 180 degrees about X
# ((1,0,0,0) vs identity), b moves from (1,0,0) to (1,3,4): distance 5,
# c is only in B, at rest.
vpd_text 'mdl' 'a|0,0,0|1,0,0,0' 'b|1,0,0|0,0,0,1' >A.vpd
vpd_text 'mdl' 'a|0,0,0|0,0,0,1' 'b|1,3,4|0,0,0,1' 'c|0,0,0|0,0,0,1' >B.vpd

expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --json
expect_stderr_empty
expect_stdout <<'TXT'
{"a":"A.vpd","b":"B.vpd","frame":0,"thresholds":{"deg":0.01,"pos":0.0001,"morph":0.0001},"bones":[{"name":"a","angle_deg":180.0,"pos_delta":0.0,"differs":true},{"name":"b","angle_deg":0.0,"pos_delta":5.0,"differs":true},{"name":"c","angle_deg":0.0,"pos_delta":0.0,"only_in":"b","differs":false}],"morphs":[],"summary":{"bones":3,"bones_differ":2,"morphs":0,"morphs_differ":0,"only_in_a":0,"only_in_b":1,"max_angle_deg":180.0,"differ":true}}
TXT

expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --csv
expect_stdout <<'TXT'
kind,name,angle_deg,pos_delta,angle_frame,angle_mean,pos_frame,pos_mean,weight_a,weight_b,delta,morph_frame,morph_mean,only_in,differs
bone,a,180.000000,0.000000,,,,,,,,,,,1
bone,b,0.000000,5.000000,,,,,,,,,,,1
bone,c,0.000000,0.000000,,,,,,,,,,b,0
TXT

# morphs in JSON: weight_a, weight_b, delta = B - A
printf 'Vocaloid Pose Data file\n\nm.osm;\n0;\n\nMorph0{smile\n  0.25;\n}\n\n' >M1.vpd
printf 'Vocaloid Pose Data file\n\nm.osm;\n0;\n\nMorph0{smile\n  1;\n}\n\n' >M2.vpd
expect_exit 1 "$POSEKIT" diff M1.vpd M2.vpd --json
expect_stdout_contains '"morphs":[{"name":"smile","weight_a":0.25,"weight_b":1.0,"delta":0.75,"differs":true}]'
expect_exit 1 "$POSEKIT" diff M1.vpd M2.vpd
expect_stdout_contains '  +0.7500  0.2500 -> 1.0000  smile'

# CSV morph rows over frames: the frame and the mean in the morph columns
# (not in angle_frame), as the table shows them
expect_exit 0 "$POSEKIT" convert M2.vpd -o M2.vmd
expect_exit 1 "$POSEKIT" diff M1.vpd M2.vmd --frames 0-3 --csv
expect_stdout_contains 'morph,smile,,,,,,,0.250000,1.000000,0.750000,0,0.750000,,1'
