# dump of a VMD built byte by byte here: the expected JSON follows from the
# bytes written (doc/formats.md §12), one record per line.  Covers a
# CP932 name (センター = 83 5A 83 93 83 5E 81 5B), frames, floats that are
# exact in binary32, a verbatim 64-byte interpolation block, every section
# kind, and NaN/Inf printed as null.

{
    vmd_header 'test'
    pack V 2
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 1.5 -2.25 0 0 0 0 1
    vmd_bone 'arm' 10 -0.0 0.25 8 0.5 -0.5 0.5 -0.5
    pack V 2
    vmd_morph blink 5 0.5
    vmd_morph blink 7 1
    pack V 1                                 # camera: frame, distance, pos, rot
    pack V 3; pack 'f<7' -45 0 10 0 0.5 0 -1
    pack 'C*' $(seq 100 123); pack V 30; pack C 0
    pack V 1; pack V 4; pack 'f<6' 0.25 0.5 0.75 -0.5 -1 0.5   # light
    pack V 1; pack V 6; pack C 1; pack 'f<' 0.125               # self-shadow
    pack V 1                                                    # show/IK
    pack V 8; pack C 1; pack V 2
    field 20 'leg IK'; pack C 1
    field 20 '\x89\x45\x91\xab\x82\x68\x82\x6a'; pack C 0
} >g.vmd
# 50 + (4+2*111) + (4+2*23) + (4+61) + (4+28) + (4+9) + (4+9+2*21) = 491 bytes
expect_eq "$(wc -c <g.vmd)" 491 "size of the generated VMD"

expect_exit 0 "$POSEKIT" dump g.vmd
expect_stderr_empty
interp=$(seq -s, 0 63)
expect_stdout <<OUT
{"format":"vmd","version":2,"model":"test",
"bones":[
{"name":"センター","frame":0,"pos":[1.5,-2.25,0.0],"rot":[0.0,0.0,0.0,1.0],"interp":[$interp]},
{"name":"arm","frame":10,"pos":[-0.0,0.25,8.0],"rot":[0.5,-0.5,0.5,-0.5],"interp":[$interp]}],
"morphs":[
{"name":"blink","frame":5,"weight":0.5},
{"name":"blink","frame":7,"weight":1.0}],
"cameras":[
{"frame":3,"distance":-45.0,"pos":[0.0,10.0,0.0],"rot":[0.5,0.0,-1.0],"interp":[$(seq -s, 100 123)],"fov":30,"perspective":0}],
"lights":[
{"frame":4,"color":[0.25,0.5,0.75],"direction":[-0.5,-1.0,0.5]}],
"shadows":[
{"frame":6,"mode":1,"distance":0.125}],
"ik":[
{"frame":8,"show":1,"ik":[{"name":"leg IK","enabled":1},{"name":"右足ＩＫ","enabled":0}]}]}
OUT

# NaN and infinities are not JSON: null.  0.1 is not exact in binary32 but
# prints as the shortest text that reads back to the same float.
{
    vmd_header ''
    pack V 1
    vmd_bone 'x' 0 NaN Inf -Inf 0.1 0.2 0.3 16777216
    pack V 0 0 0 0 0
} >nan.vmd
expect_exit 0 "$POSEKIT" dump nan.vmd
expect_stdout_contains '"pos":[null,null,null],"rot":[0.1,0.2,0.3,16777216.0]'
