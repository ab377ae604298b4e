# convert --frame N on a real dance, checked by diff: the VPD written at
# frame N equals the motion sampled at N (within VPD's six decimals, far
# under diff's thresholds), and differs from frame N+15.
need_corpus
dance=$(corpus vmd_wavefile_v2.vmd)
expect_exit 0 "$POSEKIT" convert "$dance" -o f100.vpd --frame 100
expect_exit 0 "$POSEKIT" diff f100.vpd "$dance" --frame 100
expect_stdout_contains '0 of 140 bones differ'
expect_stdout_contains '0 of 31 morphs differ'
expect_exit 1 "$POSEKIT" diff f100.vpd "$dance" --frame 115
expect_exit 0 "$POSEKIT" info f100.vpd
expect_stdout_contains 'bones: 140'
