# A VPD saved as UTF-8 (several exporters do) is read as UTF-8 when it is
# valid UTF-8 with non-ASCII text and not valid CP932: names are converted
# to CP932 in the model, so they match the CP932 original; info says so;
# writers write CP932.
need_cmd iconv
H=$PK_SOURCE/samples/hands
iconv -f cp932 -t utf-8 "$H/right_fist.vpd" >u.vpd
expect_exit 0 "$POSEKIT" diff u.vpd "$H/right_fist.vpd"
expect_stdout_contains '0 of 16 bones differ'
expect_stderr_empty
expect_exit 0 "$POSEKIT" info u.vpd
expect_stdout_contains '  encoding: UTF-8 (names converted to CP932; written as CP932)'
expect_stdout_contains '右親指０'
expect_exit 0 "$POSEKIT" info "$H/right_fist.vpd"
expect_stdout_contains '  encoding: CP932'
expect_exit 0 "$POSEKIT" info --json u.vpd
expect_stdout_contains '"encoding": "utf-8"'
expect_exit 0 "$POSEKIT" info --json "$H/right_fist.vpd"
expect_stdout_contains '"encoding": "cp932"'
# Written back as CP932: MMD's own bytes.
expect_exit 0 "$POSEKIT" convert u.vpd -o back.vpd
expect_same_bytes "$H/right_fist.vpd" back.vpd
# With a BOM too.
printf '\xef\xbb\xbf' | cat - u.vpd >bom.vpd
expect_exit 0 "$POSEKIT" diff bom.vpd "$H/right_fist.vpd"
# A UTF-8 name with no CP932 form is an error at its line and column.
vpd_text 'm' '笑😀|0,0,0|0,0,0,1' >emoji.vpd
expect_exit 2 "$POSEKIT" info emoji.vpd
expect_stderr_contains "posekit: emoji.vpd:6:7: name '"
expect_stderr_contains "has no CP932 form"
# the name shown as the UTF-8 it is, not as \xNN escapes of its bytes
expect_stderr_contains "posekit: emoji.vpd:6:7: name '笑😀' (the file is UTF-8) has no CP932 form"
