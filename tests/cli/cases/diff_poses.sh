# diff of two poses: angles in degrees (hand-computed), distances, q vs -q,
# a bone on one side only, the table sorted largest first, the summary,
# and exit status like diff(1).
#   a: 90 deg about X vs identity           -> 90.000
#   b: 30 deg about Z vs -60 deg about Z    -> 90.000, moved (1,0,0)->(1,3,4) = 5
#   c: q vs -q                              -> 0 (not listed)
#   d: only in B, 45 deg about Y vs rest    -> 45.000 (only in B)
#   e: only in A, at rest                   -> 0.000, not a difference: not
#                                              listed (said in the summary)
vpd_text 'mdl' \
    'a|0,0,0|0.707107,0,0,0.707107' \
    'b|1,0,0|0,0,0.258819,0.965926' \
    'c|0,0,0|0.5,0.5,0.5,0.5' \
    'e|0,0,0|0,0,0,1' >A.vpd
vpd_text 'mdl' \
    'a|0,0,0|0,0,0,1' \
    'b|1,3,4|0,0,-0.5,0.866025' \
    'c|0,0,0|-0.5,-0.5,-0.5,-0.5' \
    'd|0,0,0|0,0.382683,0,0.923880' >B.vpd

expect_exit 1 "$POSEKIT" diff A.vpd B.vpd
expect_stderr_empty
expect_stdout <<'TXT'
angle_deg  pos_delta  bone
   90.000     5.0000  b
   90.000     0.0000  a
   45.000     0.0000  d  (only in B)
3 of 5 bones differ (largest 90.000 deg: b), 0 of 0 morphs differ; only in A: 1, only in B: 1 (1 of them not differing from rest, not listed: the all option lists them)
TXT

# --all lists the equal bone too
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --all
expect_stdout_contains '    0.000     0.0000  c'

# identical files: nothing differs, exit 0
expect_exit 0 "$POSEKIT" diff A.vpd A.vpd
expect_stdout <<'TXT'
0 of 4 bones differ, 0 of 0 morphs differ
TXT

# thresholds: nothing is above 90.01 degrees and 10 units (the rows on one
# side are not listed either: they do not differ from rest by the
# thresholds; --all lists them); above 44 degrees only the rotations count
expect_exit 0 "$POSEKIT" diff A.vpd B.vpd --threshold 90.01 --pos-threshold 10
expect_stdout <<'TXT'
0 of 5 bones differ, 0 of 0 morphs differ; only in A: 1, only in B: 1 (2 of them not differing from rest, not listed: the all option lists them)
TXT
expect_exit 0 "$POSEKIT" diff A.vpd B.vpd --threshold 90.01 --pos-threshold 10 --all
expect_stdout_contains '   45.000     0.0000  d  (only in B)'
expect_stdout_contains '    0.000     0.0000  e  (only in A)'
expect_stdout_lacks 'not listed'
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --threshold 44 --pos-threshold 10 --bones d
expect_stdout_contains '1 of 1 bones differ (largest 45.000 deg: d)'

# --bones restricts the rows
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --bones 'a,d'
expect_stdout <<'TXT'
angle_deg  pos_delta  bone
   90.000     0.0000  a
   45.000     0.0000  d  (only in B)
2 of 2 bones differ (largest 90.000 deg: a), 0 of 0 morphs differ; only in A: 0, only in B: 1
TXT
