# -o may name the input: the write goes to a temporary file and is renamed,
# so the input is read whole before it is replaced.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' 'b|0,0,0|0.5,0.5,0.5,0.5' >p.vpd
cp p.vpd orig.vpd
expect_exit 0 "$POSEKIT" convert orig.vpd -o want.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o p.vpd
expect_same_bytes want.vpd p.vpd
expect_no_temp_files .

expect_exit 0 "$POSEKIT" convert p.vpd -o m.vmd
cp m.vmd orig.vmd
expect_exit 0 "$POSEKIT" convert m.vmd -o m.vmd
expect_same_bytes orig.vmd m.vmd
# The mode of a replaced file is kept.
chmod 640 m.vmd
expect_exit 0 "$POSEKIT" convert m.vmd -o m.vmd
expect_eq "$(stat -c %a m.vmd)" 640 "mode of the replaced file"

# A failed conversion onto the input leaves it as it was: a 16-byte bone
# name cannot go into a VMD, and the existing target keeps its bytes.
vpd_text 'm' 'abcdefghijklmnop|0,0,0|0,0,0,1' >long.vpd
cp orig.vmd target.vmd
expect_exit 2 "$POSEKIT" convert long.vpd -o target.vmd
expect_same_bytes orig.vmd target.vmd
expect_no_temp_files .
