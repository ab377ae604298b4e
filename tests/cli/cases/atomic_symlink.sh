# Writing to a symbolic link writes through it: the file the link names is
# replaced atomically (its temporary file beside it, in its own folder),
# and the link stays a link.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' >p.vpd
mkdir real
expect_exit 0 "$POSEKIT" convert p.vpd -o real/m.vmd
cp real/m.vmd orig.vmd
ln -s real/m.vmd link.vmd
vpd_text 'mdl' 'b|0,0,0|0,0,0,1' >q.vpd
expect_exit 0 "$POSEKIT" convert q.vpd -o want.vmd
expect_exit 0 "$POSEKIT" convert q.vpd -o link.vmd
[ -L link.vmd ] || fail "link.vmd is no longer a symbolic link"
expect_eq "$(readlink link.vmd)" real/m.vmd "link target"
expect_same_bytes want.vmd real/m.vmd
expect_no_temp_files .
expect_no_temp_files real

# A link to a link, and a relative link in another folder; the mode of the
# file is kept.
chmod 640 real/m.vmd
mkdir sub
ln -s ../link.vmd sub/l2.vmd
expect_exit 0 "$POSEKIT" convert p.vpd -o sub/l2.vmd
[ -L sub/l2.vmd ] && [ -L link.vmd ] || fail "a link was replaced"
expect_same_bytes orig.vmd real/m.vmd
expect_eq "$(stat -c %a real/m.vmd)" 640 "mode of the file behind the link"

# A link to an input is the input: refused, the file and the link kept.
expect_exit 2 "$POSEKIT" convert real/m.vmd -o link.vmd
expect_stderr_contains "-o 'link.vmd' is an input this command reads"
expect_exit 2 "$POSEKIT" convert link.vmd -o real/m.vmd
[ -L link.vmd ] || fail "link.vmd replaced when it named the input"
expect_same_bytes orig.vmd real/m.vmd

# A dangling link: the file it names is created.
ln -s real/new.vmd dangling.vmd
expect_exit 0 "$POSEKIT" convert p.vpd -o dangling.vmd
[ -L dangling.vmd ] || fail "dangling link replaced"
expect_same_bytes orig.vmd real/new.vmd
expect_no_temp_files real
