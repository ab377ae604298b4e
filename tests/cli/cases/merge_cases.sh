# merge: an empty motion changes nothing (byte-identical), offsets, the
# three policies, the JSON report, keys pushed below frame 0.
S=$PK_SOURCE/samples
{ vmd_header 'empty'; pack V 0 0 0 0 0 0; } >empty.vmd

expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" empty.vmd -o m1.vmd
expect_same_bytes "$S/dance.vmd" m1.vmd
expect_exit 0 "$POSEKIT" merge empty.vmd "$S/dance.vmd" -o m2.vmd
expect_same_bytes "$S/dance.vmd" m2.vmd

# Offsets: the dance twice, the second copy 200 frames later.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/dance.vmd" --offset 0 --offset 200 -o twice.vmd
expect_stderr_contains '0 conflicts'
expect_exit 0 "$POSEKIT" info twice.vmd
expect_stdout_contains 'frames: 0-350'
expect_stdout_contains 'bone keys: 430 (41 bones)'

# Same keys, same values: kept once, not conflicts.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/dance.vmd" -o same.vmd
expect_stderr_contains '0 conflicts (--prefer last), 230 identical keys kept once'
expect_same_bytes "$S/dance.vmd" same.vmd

# A VPD is a one-frame motion at its offset: the fist at frame 0 conflicts
# with the dance's 15 right-finger keys at frame 0 (its wrist is equal).
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" -o last.vmd
expect_stderr_contains "conflict: bone '右人指１' at frame 0: kept input 2"
expect_stderr_contains '15 conflicts (--prefer last), 1 identical key kept once'
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --prefer first -o first.vmd
expect_same_bytes "$S/dance.vmd" first.vmd
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --prefer error -o err.vmd
expect_stderr_contains "conflict: bone '右親指０' at frame 0 differs between inputs 1 and 2"
expect_no_file err.vmd

# The JSON report on stdout.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --offset 0 --offset 30 \
    --json -o j.vmd
expect_eq "$(json_eval _stdout 'len(d["conflicts"])')" 0 "conflicts at offset 30"
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --json -o j.vmd
expect_eq "$(json_eval _stdout 'len(d["conflicts"])')" 15 "conflicts"
expect_eq "$(json_eval _stdout 'd["conflicts"][0]["kept"], d["conflicts"][0]["dropped"]')" "(2, 1)" "kept/dropped"

# Keys below frame 0 are dropped with a warning (the dance has keys at
# 0..150; -100 keeps 100..150).
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" --offset -100 -o early.vmd
expect_stderr_contains 'warning: input 1:'
expect_stderr_contains 'shifted below frame 0 dropped'
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" --offset -100 --strict -o strict.vmd
expect_no_file strict.vmd
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" --offset 1 --offset 2 -o x.vmd
expect_stderr_contains '2 --offset options for 1 inputs'
expect_no_temp_files .
