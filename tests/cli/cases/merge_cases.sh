# merge: an empty motion changes nothing (byte-identical), offsets, the
# three policies, the JSON report, keys pushed below frame 0.
S=$PK_SOURCE/samples
{ vmd_header 'empty'; pack V 0 0 0 0 0 0; } >empty.vmd

# and, as every run that changes nothing, says so (--strict: an error)
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" empty.vmd -o m1.vmd
expect_same_bytes "$S/dance.vmd" m1.vmd
expect_stderr_contains "posekit: $S/dance.vmd: warning: nothing merged: the output is this input (input 1) unchanged, the other input adds nothing to it"
expect_exit 0 "$POSEKIT" merge empty.vmd "$S/dance.vmd" -o m2.vmd
expect_same_bytes "$S/dance.vmd" m2.vmd
expect_stderr_contains "posekit: $S/dance.vmd: warning: nothing merged: the output is this input (input 2) unchanged"
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" empty.vmd -o m3.vmd --strict
expect_no_file m3.vmd

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
expect_stderr_contains 'warning: nothing merged: the output is this input (input 1) unchanged'

# A VPD is a one-frame motion at its offset: the fist at frame 0 conflicts
# with the dance's 15 right-finger keys at frame 0 (its wrist is equal).
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" -o last.vmd
expect_stderr_contains "conflict: bone '右人指１' at frame 0: kept input 2"
expect_stderr_contains '15 conflicts (--prefer last), 1 identical key kept once'
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --prefer first -o first.vmd
expect_same_bytes "$S/dance.vmd" first.vmd
expect_stderr_contains 'warning: nothing merged: the output is this input (input 1) unchanged'
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --prefer error -o err.vmd
expect_stderr_contains "conflict: bone '右親指０' at frame 0 differs between input 1 ($S/dance.vmd) and input 2 ($S/hands/right_fist.vpd)"
expect_no_file err.vmd

# The JSON report on stdout.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --offset 0 --offset 30 \
    --json -o j.vmd
expect_eq "$(json_eval _stdout 'len(d["conflicts"])')" 0 "conflicts at offset 30"
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --json -o j.vmd
expect_eq "$(json_eval _stdout 'len(d["conflicts"])')" 15 "conflicts"
expect_eq "$(json_eval _stdout 'd["conflicts"][0]["kept"], d["conflicts"][0]["dropped"]')" "(2, 1)" "kept/dropped"

# A negative offset cuts the input (the dance has keys at 0..150; -100
# keeps 100..150) and keeps the pose at the cut: frame 0 of the result is
# frame 100 of the dance, for every bone and morph.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" --offset -100 -o early.vmd
expect_stderr_contains 'dance.vmd: warning: offset -100 cuts it at its frame 100: 144 keys before the cut dropped, the pose at the cut kept as 44 keys at frame 0'
expect_exit 0 "$POSEKIT" convert early.vmd --frame 0 -o early0.vpd
expect_exit 0 "$POSEKIT" convert "$S/dance.vmd" --frame 100 -o dance100.vpd
expect_exit 0 "$POSEKIT" diff early0.vpd dance100.vpd --threshold 0.0001
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" --offset -100 --strict -o strict.vmd
expect_no_file strict.vmd
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" --offset 1 --offset 2 -o x.vmd
expect_stderr_contains '2 --offset options for 1 input'
expect_no_temp_files .

# --offset given fewer times than inputs says which input it shifts.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --offset 30 -o short.vmd
expect_stderr_contains "warning: --offset given 1 time for 2 inputs: it shifts input 1 ($S/dance.vmd); input 2 ($S/hands/right_fist.vpd) is not shifted"

# A one-frame fist merged into the dance at 60.  Key by
# key, the 16 right-hand tracks are re-interpolated through frame 60 and
# change before it: every one is reported as an overlap, naming both files.
expect_exit 0 "$POSEKIT" convert "$S/hands/right_fist.vpd" --frame 60 -o fist60.vmd
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd -o keyed.vmd
expect_stderr_contains "overlap: bone '右人指２' keyed by input 1 ($S/dance.vmd, frames 0-150) and input 2 (fist60.vmd, frame 60)"
expect_stderr_contains '16 overlapping tracks'
# The first 10 of each kind listed and how many more; --verbose lists all.
expect_eq "$(grep -c 'posekit merge: overlap: ' "$ERR")" 10 "overlap lines"
expect_stderr_contains 'posekit merge: ... and 6 more overlapping tracks (--verbose lists them all)'
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd -o keyed_v.vmd --verbose
expect_eq "$(grep -c 'posekit merge: overlap: ' "$ERR")" 16 "overlap lines (--verbose)"
expect_stderr_lacks 'more overlapping tracks'
expect_same_bytes keyed.vmd keyed_v.vmd
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/dance.vmd" --offset 0 --offset 15 -o twice15.vmd
expect_eq "$(grep -c 'posekit merge: conflict: ' "$ERR")" 10 "conflict lines"
expect_stderr_matches 'posekit merge: \.\.\. and [0-9]+ more conflicts \(--verbose lists them all\)'
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --prefer error -o keyed_err.vmd
expect_stderr_contains '0 conflicts, 16 overlapping tracks (--prefer error)'
expect_no_file keyed_err.vmd
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --json -o keyed.vmd
expect_eq "$(json_eval _stdout 'len(d["overlaps"])')" 16 "overlaps"
expect_eq "$(json_eval _stdout '[(i["input"], i["first"], i["last"]) for i in d["overlaps"][0]["inputs"]]')" "[(1, 0, 150), (2, 60, 60)]" "overlap ranges"
# --within 2: the fist replaces the hand at frame 60 only; the dance is kept
# exactly before and after.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --within 2 -o within.vmd
expect_stderr_contains '0 overlapping tracks, 16 tracks laid within'
expect_exit 0 "$POSEKIT" diff "$S/dance.vmd" within.vmd --frames 0-59
expect_stdout_contains '0 of 41 bones differ'
expect_exit 0 "$POSEKIT" diff "$S/dance.vmd" within.vmd --frames 61-150
expect_exit 0 "$POSEKIT" convert within.vmd --frame 60 -o within60.vpd
"$POSEKIT" diff within60.vpd "$S/hands/right_fist.vpd" --bones @fingers_R --threshold 0.0001 >fist_diff.txt || true
grep -q '0 of 15 bones differ' fist_diff.txt || fail "frame 60 is not the fist: $(tail -1 fist_diff.txt)"
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --within 3 -o x.vmd
expect_stderr_contains '--within 3: there are only 2 inputs'

# --sections: a face motion's morphs only (its bones are not taken).
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --sections all --sections morphs -o nofist.vmd
expect_stderr_contains '0 overlapping tracks'
expect_same_bytes "$S/dance.vmd" nofist.vmd
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --sections all --sections faces -o x.vmd
expect_stderr_contains "--sections takes bones, morphs, camera, light, shadow, ik or all (comma-separated), not 'faces'"
expect_no_temp_files .

# A merge that cannot be saved reports nothing: no JSON on stdout, no
# summary on stderr, only the error; a report that cannot be written is an
# error too.  --prefer error prints its summary when it succeeds.
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --json -o nodir/x.vmd
expect_stdout_empty
expect_stderr_contains 'nodir/x.vmd: the output folder does not exist'
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" -o nodir/x.vmd
expect_stderr_lacks 'conflicts (--prefer'
if [ -w /dev/full ]; then
    set +e
    "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --json -o full.vmd >/dev/full 2>"$ERR"
    rc=$?
    set -e
    expect_eq "$rc" 2 "merge --json into /dev/full"
    expect_stderr_contains 'cannot write standard output'
fi
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --offset 0 --offset 200 \
    --prefer error -o pe.vmd
expect_stderr_contains 'merge: 0 conflicts (--prefer error)'
# The JSON names sections as --sections does.
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/hands/right_fist.vpd" --sections all \
    --sections morphs --json -o sm.vmd
expect_eq "$(json_eval _stdout 'd["inputs"][1]["sections"]')" "['morphs']" "sections of input 2"

# A merge of nothing says so (an error with --strict, nothing written).
expect_exit 0 "$POSEKIT" merge "$S/dance.vmd" "$S/dance.vmd" --sections camera --sections camera -o e.vmd
expect_stderr_contains 'warning: nothing to merge: the sections taken from the inputs hold no record'
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" "$S/dance.vmd" --sections light --sections light \
    --strict -o e2.vmd
expect_no_file e2.vmd

# The same input laid within twice does nothing more: refused.
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" fist60.vmd --within 2 --within 2 -o w2.vmd
expect_stderr_contains '--within 2 is given twice'

# An offset that is a whole number, only past what a VMD frame can be,
# says the range rather than "wants a whole number" (as --at says its
# largest); so does time's --shift.
expect_exit 2 "$POSEKIT" merge "$S/dance.vmd" --offset 4294967296 -o big.vmd
expect_stderr <<'ERR'
posekit merge: --offset wants a whole number of frames, not '4294967296' (from -4294967295 to 4294967295)
Try 'posekit help merge'.
ERR
expect_exit 2 "$POSEKIT" time "$S/dance.vmd" --shift -4294967296 -o big.vmd
expect_stderr_contains "posekit time: --shift wants a whole number of frames, not '-4294967296' (from -4294967295 to 4294967295)"
expect_exit 2 "$POSEKIT" time "$S/dance.vmd" --shift 1.5 -o big.vmd
expect_stderr_contains "posekit time: --shift wants a whole number of frames, not '1.5'"
expect_stderr_lacks "from -4294967295"
expect_no_file big.vmd
