# convert --frame: rotation by slerp on the SHORT path even when the later
# key is stored as -q (w < 0), and duplicate (name, frame) keys: the later
# record in the file wins, with a warning naming the bone and frame.

# bone NAME FRAME X Y Z QX QY QZ QW — linear curves (x1=y1=20, x2=y2=107).
bone() {
    field 15 "$1"
    pack V "$2"
    pack 'f<' "$3" "$4" "$5" "$6" "$7" "$8" "$9"
    perl -e 'my @b = ((20) x 8, (107) x 8, 0, 0, 0); my @ip;
      for my $r (0..3) { push @ip, @b[$r .. $r + 15] } $ip[2] = $ip[3] = 0;
      binmode STDOUT; print pack("C*", @ip)'
}
{
    vmd_header 'mdl'
    pack V 4
    bone a 0 0 0 0 0 0 0 1
    # 90 degrees about Z stored as -q
    bone a 10 0 0 0 0 0 -0.70710678 -0.70710678
    bone b 0 0 0 0 0 0 0 1
    bone b 0 5 0 0 0 0 0 1
    pack V 0 0 0 0 0
} >m.vmd
expect_exit 0 "$POSEKIT" convert m.vmd -o p.vpd --frame 5
# halfway on the short path: 45 degrees about Z (sin 22.5 = 0.382683,
# cos 22.5 = 0.923880), up to the sign of the whole quaternion
grep -a -E -q '^  (-?0.000000,-?0.000000,0.382683,0.923880|-?0.000000,-?0.000000,-0.382683,-0.923880);' p.vpd ||
    { cat -A p.vpd >&2; fail "short-path slerp"; }
# the duplicate: the second 'b' at frame 0 wins
grep -a -A1 -F 'Bone1{b' p.vpd | grep -a -q '^  5.000000,0.000000,0.000000;' ||
    { cat -A p.vpd >&2; fail "the later duplicate key should win"; }
expect_stderr_contains 'bone "b": 1 duplicate key (first at frame 0); the later record in the file wins'
# --strict makes that warning an error, and nothing is written
expect_exit 2 "$POSEKIT" convert m.vmd -o strict.vpd --frame 5 --strict
expect_no_file strict.vpd
