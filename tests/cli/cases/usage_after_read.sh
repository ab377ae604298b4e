# usage_after_read: an option found to do nothing only once the inputs
# are read (convert --frame between two VMDs, overlay --frames on a VPD
# base, --pose-frame with a VPD pose) is a usage error like any other:
# exit 2, the "Try" line, nothing written.  An error about a file keeps
# no "Try" line.
S=$PK_SOURCE/samples
cp "$S/dance.vmd" dance.vmd
cp "$S/hands/right_fist.vpd" fist.vpd
cp "$S/hands/right_open.vpd" open.vpd
expect_exit 2 "$POSEKIT" convert dance.vmd --frame 3 -o x.vmd
expect_stderr <<'EOF'
posekit convert: --frame applies only between VPD and VMD
Try 'posekit help convert'.
EOF
expect_exit 2 "$POSEKIT" overlay open.vpd --pose fist.vpd --bones @fingers_R --frames 30-60 -o x.vpd
expect_stderr <<'EOF'
posekit overlay: --frames and --fade do not apply to a VPD base (open.vpd)
Try 'posekit help overlay'.
EOF
expect_exit 2 "$POSEKIT" overlay dance.vmd --pose fist.vpd --bones @fingers_R --pose-frame 3 -o x.vmd
expect_stderr <<'EOF'
posekit overlay: --pose-frame applies to a VMD pose only; fist.vpd is a VPD
Try 'posekit help overlay'.
EOF
# about a file: no "Try"
expect_exit 2 "$POSEKIT" bake fist.vpd -o x.vmd
expect_stderr <<'EOF'
posekit: fist.vpd: bake works on a VMD motion (a pose has no keys to bake)
EOF
expect_no_file x.vmd
expect_no_file x.vpd
expect_no_temp_files .
