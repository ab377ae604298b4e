# '-' as output writes the input's format to standard output; '-' as input
# reads standard input (format by content).
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' >p.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o out.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o -
expect_stdout_file out.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o p.vmd
expect_exit_in 0 p.vmd "$POSEKIT" convert - -o -
expect_stdout_file p.vmd
expect_exit_in 0 p.vpd "$POSEKIT" convert - -o s.vmd
expect_same_bytes p.vmd s.vmd
# /dev/stdout is '-', also when the shell sends it to a file (it was
# refused there: a file without an extension)
"$POSEKIT" convert p.vmd -o /dev/stdout >redirected.vmd || fail "-o /dev/stdout into a file failed"
expect_same_bytes p.vmd redirected.vmd
