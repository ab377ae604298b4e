# diff --frames: two motions compared frame by frame.  A turns bone 'arm'
# from identity to 90 degrees about X over frames 0..10 with linear curves
# (slerp: 9 degrees per frame); B holds it at identity.  So over 0..10 the
# maximum is 90 at frame 10 and the mean 45; over 2..4 it is 36 at 4, mean
# 27.  Morph 'blink': A none, B 1.0 from frame 4 (held before: 1.0).

# bone NAME FRAME X Y Z QX QY QZ QW — linear curves.
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
    pack V 3
    bone arm 0 0 0 0 0 0 0 1
    bone arm 10 0 0 0 0.70710678 0 0 0.70710678
    bone leg 0 0 1 0 0 0 0 1
    pack V 0 0 0 0 0
} >A.vmd
{
    vmd_header 'mdl'
    pack V 2
    bone arm 0 0 0 0 0 0 0 1
    bone leg 0 0 1 0 0 0 0 1
    pack V 1
    vmd_morph blink 4 1
    pack V 0 0 0 0
} >B.vmd

expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frames 0-10
expect_stderr_empty
expect_stdout <<'TXT'
  max_deg  frame  mean_deg    max_pos  frame   mean_pos  bone
   90.000     10    45.000     0.0000      0     0.0000  arm
    delta  frame      mean            A -> B  morph
  +1.0000      0    1.0000  0.0000 -> 1.0000  blink  (only in B)
frames 0-10: 1 of 2 bones differ (largest 90.000 deg: arm at frame 10), 1 of 1 morphs differ; only in A: 0, only in B: 1
TXT

# all = every frame of either motion: 0..10 here
expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frames all --no-morphs
expect_stdout_contains '   90.000     10    45.000'
expect_stdout_contains 'frames 0-10: 1 of 2 bones differ'

expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frames 2-4 --no-morphs
expect_stdout_contains '   36.000      4    27.000     0.0000      2     0.0000  arm'

# a single frame as a range
expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frames 5 --no-morphs
expect_stdout_contains '   45.000      5    45.000'

# --frame compares the poses at one frame: 9 * 7 = 63 degrees
expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frame 7 --no-morphs
expect_stdout_contains '   63.000     0.0000  arm'
expect_stdout_contains 'frame 7: 1 of 2 bones differ'

# a VPD against a motion range: the pose holds at every frame
vpd_text 'mdl' 'arm|0,0,0|0,0,0,1' 'leg|0,1,0|0,0,0,1' >rest.vpd
expect_exit 1 "$POSEKIT" diff rest.vpd A.vmd --frames 0-10 --no-morphs
expect_stdout_contains '   90.000     10    45.000'
expect_exit 0 "$POSEKIT" diff rest.vpd A.vmd --frames 0-0
# two motions without --frame/--frames: frame 0 only, and the summary says
# so ("0 of 1 bones differ" alone reads as "the same")
expect_exit 1 "$POSEKIT" diff A.vmd B.vmd
expect_stdout_contains 'frame 0: '
expect_stdout_contains '(a motion at frame 0 only: frames all compares every frame)'
expect_exit 1 "$POSEKIT" diff A.vmd B.vmd --frame 0
expect_stdout_lacks 'a motion at frame 0 only'

# Two versions of a facial motion: F1 keys many morphs at weight 0 (an
# exporter's frame-0 keys) that F2 lacks, and both key 'smile', which
# changed.  The table lists the change alone; the morphs of one file that
# do not differ from rest are counted in the summary (--all lists them).
{
    vmd_header 'face'
    pack V 0 7
    for m in m1 m2 m3 m4 m5 m6; do vmd_morph "$m" 0 0; done
    vmd_morph smile 5 0.5
    pack V 0 0 0 0
} >F1.vmd
{
    vmd_header 'face'
    pack V 0 1
    vmd_morph smile 5 0.75
    pack V 0 0 0 0
} >F2.vmd
expect_exit 1 "$POSEKIT" diff F1.vmd F2.vmd --frames all
expect_stdout_contains '  smile'
expect_stdout_lacks 'm1'
expect_stdout_lacks '(only in A)'
expect_stdout_contains 'only in A: 6, only in B: 0 (6 of them not differing from rest, not listed: the all option lists them)'
expect_exit 1 "$POSEKIT" diff F1.vmd F2.vmd --frames all --all
expect_stdout_contains 'm1  (only in A)'
expect_stdout_lacks 'not listed'
