# "-o -" with standard output on a terminal: a VMD is binary, bytes the
# terminal shows as garbage or obeys as control sequences, so it is refused
# (exit 2, nothing written), as gzip refuses; a VPD is text and is
# written; redirected, a VMD goes to standard output as ever.
need_cmd script
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
on_tty tty.txt "\"$POSEKIT\" mirror dance.vmd -o - 2>err.txt; [ \$? = 2 ]"
grep -q 'Vocaloid Motion Data' tty.txt && fail "a VMD was written to the terminal"
expect_same_bytes err.txt <(printf '%s\n' "posekit mirror: -o - would write a binary VMD to the terminal: redirect standard output (> FILE.vmd) or name the file" "Try 'posekit help mirror'.")
on_tty tty.txt "\"$POSEKIT\" convert fist.vpd -o - 2>err.txt"
grep -q 'Vocaloid Pose Data file' tty.txt || fail "the VPD should be on the terminal: $(cat tty.txt)"
# redirected: written
expect_exit 0 "$POSEKIT" convert dance.vmd -o -
expect_same_bytes "$OUT" dance.vmd
