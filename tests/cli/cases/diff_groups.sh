# diff --groups: the diff summed up per bone group (standard groups and
# those of --rules), hand-checked against rules/standard.yaml:
#   右手首 (right wrist)   90 deg about X vs identity
#   右人指１ (right index) 30 deg about Z vs identity
#   左手首 (left wrist)    the same on both sides
#   センター (centre)      not turned, moved (0,0,0) -> (0,3,4) = 5
# Groups: hand_R, arm_below_R (2 of 2: wrist and index), hands (2 of 3, the
# left wrist too), arm_R (1 of 1), arms (1 of 2), index_R and fingers_R
# (1 of 1, 30 deg), trunk (the centre, 0 deg but moved 5); hand_L, arm_L
# and arm_below_L hold only the unchanged left wrist: listed with --all.
# Order: largest angle, then distance, then how many differ, then the
# groups' own order.
vpd_text 'mdl' \
    '右手首|0,0,0|0.707107,0,0,0.707107' \
    '右人指１|0,0,0|0,0,0.258819,0.965926' \
    '左手首|0,0,0|0,0,0,1' \
    'センター|0,0,0|0,0,0,1' | iconv -f UTF-8 -t CP932 >A.vpd
vpd_text 'mdl' \
    '右手首|0,0,0|0,0,0,1' \
    '右人指１|0,0,0|0,0,0,1' \
    '左手首|0,0,0|0,0,0,1' \
    'センター|0,3,4|0,0,0,1' | iconv -f UTF-8 -t CP932 >B.vpd

expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --groups
expect_stderr_empty
expect_stdout <<'TXT'
angle_deg  pos_delta  bone
   90.000     0.0000  右手首
   30.000     0.0000  右人指１
    0.000     5.0000  センター
  max_deg    max_pos  bones_differ  group (largest)
   90.000     0.0000           2/2  @hand_R (右手首)
   90.000     0.0000           2/2  @arm_below_R (右手首)
   90.000     0.0000           2/3  @hands (右手首)
   90.000     0.0000           1/1  @arm_R (右手首)
   90.000     0.0000           1/2  @arms (右手首)
   30.000     0.0000           1/1  @index_R (右人指１)
   30.000     0.0000           1/1  @fingers_R (右人指１)
    0.000     5.0000           1/1  @trunk (センター)
3 of 4 bones differ (largest 90.000 deg: 右手首), 0 of 0 morphs differ
TXT

# --all also lists the groups where nothing differs
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --groups --all
expect_stdout_contains '    0.000     0.0000           0/1  @hand_L'
expect_stdout_contains '    0.000     0.0000           0/1  @arm_below_L'

# without --groups nothing changes
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd
expect_stdout_lacks 'group'

# a group of --rules is summed up too (after the standard ones it ties with)
cat >mine.yaml <<'YAML'
groups:
  wrists: [右手首, 左手首]
YAML
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --groups --rules mine.yaml
expect_stdout_contains '   90.000     0.0000           1/2  @wrists (右手首)'

# JSON: a "groups" array with the counts and the largest bone; like its
# "bones", every group with a compared bone (the 8 above, then the 3 left)
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --groups --json
expect_eq "$(json_eval _stdout 'len(d["groups"])')" 11 "groups"
expect_eq "$(json_eval _stdout '[g["name"] for g in d["groups"][8:]]')" \
    "['@hand_L', '@arm_L', '@arm_below_L']" "groups where nothing differs (named with @, as in the table)"
expect_eq "$(json_eval _stdout 'd["groups"][0]["name"]')" @hand_R "first group"
expect_eq "$(json_eval _stdout 'd["groups"][2]["bones"], d["groups"][2]["bones_differ"]')" "(3, 2)" "hands"
expect_eq "$(json_eval _stdout 'd["groups"][2]["max_bone"]')" 右手首 "hands' largest"
expect_eq "$(json_eval _stdout 'd["groups"][7]["max_pos_delta"], d["groups"][7]["max_angle_deg"]')" \
    "(5.0, 0.0)" "trunk"
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --json
expect_eq "$(json_eval _stdout '"groups" in d')" False "groups without --groups"

# CSV: group rows with two more columns, empty on the other rows
expect_exit 1 "$POSEKIT" diff A.vpd B.vpd --groups --csv
expect_stdout_contains 'kind,name,angle_deg,pos_delta,angle_frame,angle_mean,pos_frame,pos_mean,weight_a,weight_b,delta,morph_frame,morph_mean,only_in,differs,group_bones,group_differ,group_max_bone'
expect_stdout_contains 'bone,右手首,90.000000,0.000000,,,,,,,,,,,1,,,'
expect_stdout_contains 'group,@hands,90.000000,0.000000,,,,,,,,,,,1,3,2,右手首'
expect_stdout_contains 'group,@trunk,0.000000,5.000000,,,,,,,,,,,1,1,1'

# over a range: the frame of each group's largest angle
expect_exit 0 "$POSEKIT" convert A.vpd -o A.vmd
expect_exit 1 "$POSEKIT" diff A.vmd B.vpd --frames 0-2 --groups
expect_stdout_contains '   90.000      0     0.0000           2/2  @hand_R (右手首)'
