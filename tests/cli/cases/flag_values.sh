# Flags take an optional =true/=false in every command, as step booleans
# (--all=false) do: --json=false must not print JSON, and any other value
# is a usage error naming it.
S=$PK_SOURCE/samples
expect_exit 1 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --json=false
expect_stdout_contains 'angle_deg  pos_delta  bone'
expect_exit 1 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --csv=no
expect_stdout_lacks 'angle_deg,'
expect_exit 1 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --json=true
expect_stdout_contains '"thresholds":'
expect_exit 2 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --json=banana
expect_stderr_contains "--json is true or false, not 'banana'"
expect_exit 2 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --csv=1
expect_stderr_contains "--csv is true or false, not '1'"

expect_exit 0 "$POSEKIT" info "$S/dance.vmd" --json=true
expect_stdout_contains '"path":'
expect_exit 0 "$POSEKIT" info "$S/dance.vmd" --json=false
expect_stdout_contains 'format: VMD version 2'
expect_exit 2 "$POSEKIT" info "$S/dance.vmd" --json=maybe
expect_stderr_contains "--json is true or false, not 'maybe'"
expect_exit 0 "$POSEKIT" dump "$S/dance.vmd" --strict=no
expect_exit 2 "$POSEKIT" dump "$S/dance.vmd" --strict=sure
expect_stderr_contains "--strict is true or false, not 'sure'"

# --strict=false is not strict: a warning stays a warning.
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n3;\r\n\r\n' >count.vpd
expect_exit 0 "$POSEKIT" convert count.vpd -o c1.vpd --strict=false
expect_exit 2 "$POSEKIT" convert count.vpd -o c2.vpd --strict=true
expect_no_file c2.vpd

# A flag said false is the flag left out: never "an option that does nothing".
expect_exit 0 "$POSEKIT" convert "$S/dance.vmd" -o nm.vmd --no-morphs=false
expect_same_bytes "$S/dance.vmd" nm.vmd
expect_exit 2 "$POSEKIT" convert "$S/dance.vmd" -o nm2.vmd --no-morphs
expect_stderr_contains 'apply to VPD output only'
expect_exit 0 "$POSEKIT" retarget "$S/dance.vmd" --rules "$PK_SOURCE/rules/ja-en.yaml" \
    --no-stance=false -o r.vmd

# A flag given twice: the last one wins, as in GNU tools (--strict
# --strict=false is not strict), for the command's own flags and the
# step's switches alike.
expect_exit 0 "$POSEKIT" convert count.vpd -o c3.vpd --strict --strict=false
expect_exit 2 "$POSEKIT" convert count.vpd -o c4.vpd --strict=false --strict
expect_no_file c4.vpd
expect_exit 0 "$POSEKIT" convert "$S/dance.vmd" -o nm3.vmd --no-morphs --no-morphs=false
expect_same_bytes "$S/dance.vmd" nm3.vmd
expect_exit 1 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --json --json=false
expect_stdout_contains 'angle_deg  pos_delta  bone'
expect_exit 1 "$POSEKIT" diff "$S/dance.vmd" "$S/hands/right_fist.vpd" --csv=false --csv
expect_stdout_contains 'angle_deg,'
vpd_text 'mdl' 'x|1,2,3|0,0,0,1' >x.vpd
printf 'rename:\n  "y": "z"\n' >yz.yaml
expect_exit 0 "$POSEKIT" rename x.vpd --rules yz.yaml -o x2.vpd -v --verbose=false
expect_stderr_lacks "no rule for 'x'"
expect_exit 0 "$POSEKIT" rename x.vpd --rules yz.yaml -o x3.vpd --verbose=false -v
expect_stderr_contains "no rule for 'x'"
expect_exit 0 "$POSEKIT" info "$S/dance.vmd" --json --json=no
expect_stdout_contains 'format: VMD version 2'
