# --layout hybrid writes the specification's hybrid VPD (30-byte magic,
# 20-byte model name, binary bone count, 15-byte names + text lines); it
# reads back as the same pose, and converts back to the same text layout.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' 'b|0,0,0|0.5,0.5,0.5,0.5' >p.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o h.vpd --layout hybrid
expect_exit 0 "$POSEKIT" info h.vpd
expect_stdout_contains 'format: VPD hybrid layout'
# Header bytes: magic NUL-padded to 30, then the model name field.
expect_eq "$(head -c 30 h.vpd | tr '\000' '.')" 'Vocaloid Pose Data file.......' "magic"
expect_eq "$(head -c 50 h.vpd | tail -c 20 | tr '\000' '.')" 'mdl.................' "model field"
expect_eq "$(head -c 54 h.vpd | tail -c 4 | od -An -tu4 | tr -d ' ')" 2 "bone count"
# A hybrid input stays hybrid when rewritten; --layout text turns it back.
expect_exit 0 "$POSEKIT" convert h.vpd -o h2.vpd
expect_same_bytes h.vpd h2.vpd
expect_exit 0 "$POSEKIT" convert h.vpd -o t.vpd --layout text
expect_exit 0 "$POSEKIT" convert p.vpd -o t0.vpd
expect_same_bytes t0.vpd t.vpd
expect_exit 0 "$POSEKIT" dump h.vpd
expect_stdout_contains '"layout":"hybrid"'
expect_stdout_contains '{"name":"a","pos":[1.5,2.0,3.0],"rot":[0.0,0.0,0.0,1.0]}'

# VPD-only options on a VMD output, --frame on a same-format rewrite.
expect_exit 2 "$POSEKIT" convert p.vpd -o x.vmd --layout hybrid
expect_stderr_contains 'apply to VPD output only'
expect_exit 2 "$POSEKIT" convert p.vpd -o x.vpd --frame 3
expect_stderr_contains '--frame applies only between VPD and VMD'
expect_no_file x.vmd
expect_no_file x.vpd
