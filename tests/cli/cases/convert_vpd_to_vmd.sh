# VPD -> VMD: one key per bone and per morph at --frame N (default 0),
# linear curves, the model name carried over.
vpd_text '\x83\x65\x83\x58\x83\x67' 'a|1.5,2,3|0,0,0,1' '\x83\x5a\x83\x93\x83\x5e\x81\x5b|0,-0.25,0|0.5,0.5,0.5,0.5' >p.vpd
printf 'Morph0{blink\r\n  0.75;\r\n}\r\n\r\n' >>p.vpd

expect_exit 0 "$POSEKIT" convert p.vpd -o p.vmd
expect_stderr_empty
expect_exit 0 "$POSEKIT" info p.vmd
expect_stdout_contains '  model: テスト'
expect_stdout_contains '  bone keys: 2 (2 bones)'
expect_stdout_contains '  morph keys: 1 (1 morphs)'
expect_stdout_contains '  frames: 0-0'
expect_stdout_contains '  ended: complete (6 of 6 sections)'
# Size: 50 + 4 + 2*111 + 4 + 23 + 4*4 = 319 bytes (doc/formats.md §3.1).
expect_eq "$(wc -c <p.vmd)" 319 "VMD size"

# The default linear block of a modern file (doc/formats.md §3.4): canonical
# B = 20 x8, 107 x8; row r = B[r..r+15] with zero filler; bytes 2-3 = 0.
lin="20,20,0,0,20,20,20,20,107,107,107,107,107,107,107,107"
lin="$lin,20,20,20,20,20,20,20,107,107,107,107,107,107,107,107,0"
lin="$lin,20,20,20,20,20,20,107,107,107,107,107,107,107,107,0,0"
lin="$lin,20,20,20,20,20,107,107,107,107,107,107,107,107,0,0,0"
expect_exit 0 "$POSEKIT" dump p.vmd
expect_stdout <<OUT
{"format":"vmd","version":2,"model":"テスト",
"bones":[
{"name":"a","frame":0,"pos":[1.5,2.0,3.0],"rot":[0.0,0.0,0.0,1.0],"interp":[$lin]},
{"name":"センター","frame":0,"pos":[0.0,-0.25,0.0],"rot":[0.5,0.5,0.5,0.5],"interp":[$lin]}],
"morphs":[
{"name":"blink","frame":0,"weight":0.75}],
"cameras":[],
"lights":[],
"shadows":[],
"ik":[]}
OUT

expect_exit 0 "$POSEKIT" convert p.vpd -o f.vmd --frame 300
expect_exit 0 "$POSEKIT" info f.vmd
expect_stdout_contains '  frames: 300-300'

# A bone name longer than the 15-byte VMD field is an error naming it;
# nothing is written.  (19 bytes fit a VPD.)
vpd_text 'm' 'abcdefghijklmnop|0,0,0|0,0,0,1' >long.vpd
expect_exit 2 "$POSEKIT" convert long.vpd -o long.vmd
expect_stderr_contains "bone 'abcdefghijklmnop' is 16 bytes"
expect_no_file long.vmd
expect_no_temp_files .

# an empty pose makes an empty motion: no silent success (as a motion
# with no keys makes an empty pose), an error with --strict
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n\r\n' >zero.vpd
expect_exit 0 "$POSEKIT" convert zero.vpd -o zero.vmd
expect_stderr <<'EOF'
posekit: zero.vpd: warning: the pose has no bones or morphs: the motion is empty
EOF
expect_exit 2 "$POSEKIT" convert zero.vpd -o zero_strict.vmd --strict
expect_no_file zero_strict.vmd
