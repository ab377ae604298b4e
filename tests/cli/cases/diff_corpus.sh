# diff on real files: a pose against itself, a motion against itself over
# its whole range, a VMD sampled at a frame against the VPD convert wrote
# at that frame, and --bones with a standard group.
need_corpus
k1=$(corpus vpd_keitel_01.vpd)
k3=$(corpus vpd_keitel_03.vpd)
dance=$(corpus vmd_wavefile_v2.vmd)
expect_exit 0 "$POSEKIT" diff "$k1" "$k1"
expect_stdout_contains '0 of 93 bones differ'
expect_exit 0 "$POSEKIT" diff "$dance" "$dance" --frames all
expect_stdout_contains 'frames 0-2809: 0 of 140 bones differ'
expect_exit 1 "$POSEKIT" diff "$k1" "$k3"
# every row of a @group diff belongs to the group (left arm: shoulder down)
expect_exit 1 "$POSEKIT" diff "$k1" "$k3" --bones @arm_L --json
need_cmd python3
n=$(json_eval _stdout 'len(d["bones"])')
[ "$n" -ge 3 ] || fail "expected the left-arm bones, got $n rows"
json_eval _stdout 'all(b["name"].startswith("左") for b in d["bones"])' | grep -q True ||
    fail "rows outside the left arm"
# sorted largest first
json_eval _stdout 'all(d["bones"][i]["angle_deg"] >= d["bones"][i+1]["angle_deg"] for i in range(len(d["bones"])-1))' |
    grep -q True || fail "not sorted"
