# VMD -> VPD at a frame: with one key per track, every frame holds that
# key's value (doc/formats.md §5: hold before the first and after the last
# key), so the pose equals the keys, printed with six decimals.
{
    vmd_header 'mdl'
    pack V 2
    vmd_bone 'a' 10 1.5 2 3 0 0 0 1
    vmd_bone 'b' 10 0 0 0 0.5 0.5 0.5 0.5
    pack V 1
    vmd_morph blink 10 0.25
    pack V 0 0 0 0
} >g.vmd
expect_exit 0 "$POSEKIT" convert g.vmd -o p.vpd --frame 0
expect_stderr_empty
{
    printf 'Vocaloid Pose Data file\n\nmdl.osm;\t\t// 親ファイル名\n2;\t\t\t\t// 総ポーズボーン数\n\n'
    printf 'Bone0{a\n  1.500000,2.000000,3.000000;\t\t\t\t// trans x,y,z\n'
    printf '  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\n}\n\n'
    printf 'Bone1{b\n  0.000000,0.000000,0.000000;\t\t\t\t// trans x,y,z\n'
    printf '  0.500000,0.500000,0.500000,0.500000;\t\t// Quaternion x,y,z,w\n}\n\n'
    printf 'Morph0{blink\n  0.250000;\t\t\t\t// weight\n}\n\n'
} >want.vpd
# MMD's layout: CP932 and CRLF.
iconv -f UTF-8 -t CP932 want.vpd | sed 's/$/\r/' >want_cp932.vpd
expect_same_bytes want_cp932.vpd p.vpd

# --no-morphs leaves the Morph block out (for three.js's parser).
expect_exit 0 "$POSEKIT" convert g.vmd -o nm.vpd --no-morphs
expect_exit 0 "$POSEKIT" info nm.vpd
expect_stdout_contains '  morphs: 0 (0 names)'
expect_stdout_contains '  bones: 2 (2 names)'

# Between two keys the pose is interpolated: linear curves, halfway.
{
    vmd_header 'mdl'
    pack V 2
    vmd_bone 'a' 0 0 0 0 0 0 0 1
    vmd_bone 'a' 10 2 4 -8 0 0 0 1
    pack V 0 0 0 0 0
} >lin.vmd
# Give both keys the linear curve by a VPD round trip is not possible, so
# patch the interpolation bytes: 64 bytes at offset 54+47 and 54+111+47.
perl -e 'binmode STDIN; binmode STDOUT; local $/; my $b = <STDIN>;
  my @r = (20,20,0,0,20,20,20,20,107,107,107,107,107,107,107,107);
  my $row = pack("C*", @r, 20,20,20,20,20,20,20,107,107,107,107,107,107,107,107,0,
                 20,20,20,20,20,20,107,107,107,107,107,107,107,107,0,0,
                 20,20,20,20,20,107,107,107,107,107,107,107,107,0,0,0);
  substr($b, 54+47, 64) = $row; substr($b, 54+111+47, 64) = $row; print $b' <lin.vmd >linear.vmd
expect_exit 0 "$POSEKIT" convert linear.vmd -o half.vpd --frame 5
grep -a -q '^  1.000000,2.000000,-4.000000;' half.vpd || { cat -A half.vpd >&2; fail "frame 5 should be halfway"; }

# A pose holds bones and morphs: a motion's camera keys are not in it, and
# a camera-only motion gives an empty pose; both said (error with --strict).
{
    vmd_header 'cam'
    pack V 0 0 1
    pack 'V f f3 f3 C24 V C' 0 -45 0 10 0 0 0 0 $(printf '20 %.0s' $(seq 12)) $(printf '107 %.0s' $(seq 12)) 30 0
    pack V 0 0
} >camonly.vmd
expect_exit 0 "$POSEKIT" convert camonly.vmd --frame 0 -o cam.vpd
expect_stderr_contains "warning: a VPD holds bones and morphs only: the motion's 1 camera key is not in the pose, which is empty"
expect_exit 2 "$POSEKIT" convert camonly.vmd --frame 0 --strict -o cam2.vpd
expect_no_file cam2.vpd
# a motion with no keys at all: the empty pose is said too, not written
# as a silent success
{ vmd_header 'm'; pack V 0 0 0 0 0; } >nokeys.vmd
expect_exit 0 "$POSEKIT" convert nokeys.vmd --frame 0 -o none.vpd
expect_stderr_contains "posekit: nokeys.vmd: warning: the motion has no keys: the pose is empty"
expect_exit 2 "$POSEKIT" convert nokeys.vmd --frame 0 --strict -o none2.vpd
expect_no_file none2.vpd
