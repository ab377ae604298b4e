# convert --frame N samples a VMD with MMD's curves (doc/formats.md §5):
# the LATER key's curve, per axis, control bytes from the first byte of
# rows 0-3 (bytes 2-3 of row 0 are the physics flag, here 63 0F).
# Hand-computed at t = 1/2 of each Bezier (see tests/unit/test_bezier.c):
#   ease-in  (127,0,127,127): s = 7/8 -> 1/2
#   ease-out (0,127,0,127):   s = 1/8 -> 7/8
# Keys: 'a' at 0 (0,0,0, identity) and at 8 ((8,8,8), 90 deg about X);
# the frame-8 key has X ease-in, Y linear, Z ease-out, R ease-out.

# bone NAME FRAME X Y Z QX QY QZ QW PHYSICS B0..B15 — a 111-byte key whose
# interpolation block is the canonical B[] in MMD's shifted-row layout.
bone() {
    field 15 "$1"
    pack V "$2"
    pack 'f<' "$3" "$4" "$5" "$6" "$7" "$8" "$9"
    local phys=${10}
    shift 10
    perl -e 'my ($p, @b) = @ARGV; push @b, 0, 0, 0; my @ip;
      for my $r (0..3) { push @ip, @b[$r .. $r + 15] }
      if ($p) { $ip[2] = 0x63; $ip[3] = 0x0F } else { $ip[2] = $ip[3] = 0 }
      binmode STDOUT; print pack("C*", @ip)' "$phys" "$@"
}
LIN='20 20 20 20 20 20 20 20 107 107 107 107 107 107 107 107'
# B = x1(X Y Z R), y1(X Y Z R), x2(X Y Z R), y2(X Y Z R)
CURVED='127 20 0 0  0 20 127 127  127 107 0 0  127 107 127 127'
{
    vmd_header 'mdl'
    pack V 2
    bone a 0 0 0 0 0 0 0 1 0 $LIN
    bone a 8 8 8 8 0.70710678 0 0 0.70710678 1 $CURVED
    pack V 0 0 0 0 0
} >m.vmd

expect_exit 0 "$POSEKIT" convert m.vmd -o f7.vpd --frame 7
expect_stderr_empty
# X: ease-in at s = 7/8 -> 8 * 1/2; Y: linear -> 7
grep -a -q '^  4.000000,7.000000,' f7.vpd || { cat -A f7.vpd >&2; fail "frame 7: X should be 4 and Y 7"; }

expect_exit 0 "$POSEKIT" convert m.vmd -o f1.vpd --frame 1
# Z: ease-out at s = 1/8 -> 8 * 7/8 = 7; Y linear -> 1
grep -a -q '^  [0-9.]*,1.000000,7.000000;' f1.vpd || { cat -A f1.vpd >&2; fail "frame 1: Y 1, Z 7"; }
# R: ease-out -> 7/8 of 90 = 78.75 degrees about X: (sin 39.375, 0, 0, cos 39.375)
grep -a -q '^  0.634393,0.000000,0.000000,0.773010;' f1.vpd || { cat -A f1.vpd >&2; fail "frame 1 rotation"; }

# Before the first key and after the last: hold.
expect_exit 0 "$POSEKIT" convert m.vmd -o f99.vpd --frame 99
grep -a -q '^  8.000000,8.000000,8.000000;' f99.vpd || fail "after the last key: hold it"
grep -a -q '^  0.707107,0.000000,0.000000,0.707107;' f99.vpd || fail "after the last key: its rotation"

# The physics flag changes nothing: the same block without it samples the same.
{
    vmd_header 'mdl'
    pack V 2
    bone a 0 0 0 0 0 0 0 1 0 $LIN
    bone a 8 8 8 8 0.70710678 0 0 0.70710678 0 $CURVED
    pack V 0 0 0 0 0
} >nophys.vmd
expect_exit 0 "$POSEKIT" convert nophys.vmd -o g1.vpd --frame 1
expect_same_bytes f1.vpd g1.vpd
