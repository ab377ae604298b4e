# -o never names a file the command reads: an input is never changed, by
# its own name, another path to it, a symbolic or a hard link; the refusal
# is exit status 2 before anything is read or written.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' 'b|0,0,0|0.5,0.5,0.5,0.5' >p.vpd
cp p.vpd orig.vpd
expect_exit 2 "$POSEKIT" convert p.vpd -o p.vpd
expect_stderr_contains "posekit convert: -o 'p.vpd' is an input this command reads: it would be overwritten"
expect_same_bytes orig.vpd p.vpd
expect_no_temp_files .
expect_exit 2 "$POSEKIT" convert p.vpd -o ./p.vpd
expect_same_bytes orig.vpd p.vpd

expect_exit 0 "$POSEKIT" convert p.vpd -o m.vmd
cp m.vmd orig.vmd
expect_exit 2 "$POSEKIT" reduce m.vmd -o m.vmd
expect_same_bytes orig.vmd m.vmd
ln -s m.vmd link.vmd
expect_exit 2 "$POSEKIT" reduce m.vmd -o link.vmd
expect_stderr_contains "-o 'link.vmd' is an input"
ln m.vmd hard.vmd
expect_exit 2 "$POSEKIT" reduce m.vmd -o hard.vmd
expect_stderr_contains "-o 'hard.vmd' is an input"
expect_same_bytes orig.vmd m.vmd
# any input, not only the first: merge's second, overlay's pose
expect_exit 2 "$POSEKIT" merge orig.vmd m.vmd -o m.vmd
expect_stderr_contains "-o 'm.vmd' is an input this command reads"
expect_exit 2 "$POSEKIT" overlay m.vmd --pose p.vpd -o p.vpd
expect_same_bytes orig.vpd p.vpd
expect_same_bytes orig.vmd m.vmd
expect_no_temp_files .

# An existing file that is not an input is replaced atomically, its mode
# kept.
cp orig.vmd target.vmd
chmod 640 target.vmd
expect_exit 0 "$POSEKIT" convert p.vpd -o target.vmd
expect_eq "$(stat -c %a target.vmd)" 640 "mode of the replaced file"
expect_exit 0 "$POSEKIT" convert p.vpd -o want.vmd
expect_same_bytes want.vmd target.vmd

# A failed conversion onto an existing file leaves it as it was: a 16-byte
# bone name cannot go into a VMD, and the existing target keeps its bytes.
vpd_text 'm' 'abcdefghijklmnop|0,0,0|0,0,0,1' >long.vpd
cp orig.vmd target.vmd
expect_exit 2 "$POSEKIT" convert long.vpd -o target.vmd
expect_same_bytes orig.vmd target.vmd
expect_no_temp_files .
