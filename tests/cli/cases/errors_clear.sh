# Clear errors: -o naming a folder says so (before
# guessing a format from the name), -o without a value, `diff - -`,
# `posekit help help` (help's own usage, not the overview), a frame past
# 4294967295, every over-long name listed at once, and --cut-names, which
# cuts such names as MMD does (on a CP932 character boundary), one warning
# per name.
DANCE="$PK_SOURCE/samples/dance.vmd"
FIST="$PK_SOURCE/samples/hands/right_fist.vpd"

mkdir out out.vmd
for cmd in convert mirror reduce bake; do
    expect_exit 2 "$POSEKIT" $cmd "$DANCE" -o out
    expect_stderr_contains "-o names a folder ('out'): name the file to write in it"
    expect_stderr_lacks 'cannot tell the output format'
done
expect_exit 2 "$POSEKIT" convert "$DANCE" -o out.vmd
expect_stderr_contains "-o names a folder ('out.vmd')"
expect_exit 2 "$POSEKIT" diff "$DANCE" "$DANCE" --svg out
expect_stderr_contains "--svg names a folder ('out')"

expect_exit 2 "$POSEKIT" convert "$DANCE" -o
expect_stderr_contains "posekit convert: -o wants a file name"
expect_exit 2 "$POSEKIT" diff - - <"$DANCE"
expect_stderr_contains "standard input ('-') can be read once; 2 inputs name it"

expect_exit 0 "$POSEKIT" help help
expect_stdout_contains 'usage: posekit help [COMMAND]'
expect_stdout_lacks 'usage: posekit COMMAND'
expect_exit 2 "$POSEKIT" help diff merge
expect_stderr_contains "one command name at a time ('merge' is extra)"

# frames past the last a VMD holds are said to be that, not "below frame 0"
expect_exit 2 "$POSEKIT" convert "$DANCE" --frame 4294967296 -o p.vpd
expect_stderr_contains '(the largest is 4294967295)'
expect_exit 0 "$POSEKIT" merge "$DANCE" --offset 4294967200 -o late.vmd
expect_stderr_contains 'dance.vmd: warning: offset 4294967200: 87 keys shifted past frame 4294967295'
expect_stderr_contains '0 keys below frame 0 dropped, 87 past frame 4294967295'

# three bone names of 18 bytes (two ASCII, one Japanese: 右親指ひとつめ関節)
printf 'rename:\n  右手首: right_wrist_very_l\n  右親指０: right_thumb_zero_l\n  右親指１: 右親指ひとつめ関節\n' >long.yaml
expect_exit 0 "$POSEKIT" rename "$FIST" --rules long.yaml -o long.vpd
expect_exit 2 "$POSEKIT" convert long.vpd -o long.vmd
expect_stderr_contains "long.vpd: bone 'right_wrist_very_l' is 18 bytes in CP932; a VMD bone name holds at most 15 (--cut-names cuts it as MMD does)"
expect_stderr_contains "bone 'right_thumb_zero_l' is 18 bytes"
expect_stderr_contains "bone '右親指ひとつめ関節' is 18 bytes"
expect_no_file long.vmd
expect_exit 2 "$POSEKIT" overlay "$DANCE" --pose long.vpd --bones 'right*,右*' -o o.vmd
expect_stderr_contains "bone 'right_wrist_very_l' is 18 bytes"
expect_stderr_contains "bone '右親指ひとつめ関節' is 18 bytes"
expect_exit 2 "$POSEKIT" merge "$DANCE" long.vpd -o m.vmd
expect_stderr_contains "long.vpd: bone 'right_thumb_zero_l' is 18 bytes"
expect_stderr_contains "bone '右親指ひとつめ関節' is 18 bytes"

# --cut-names: cut on a character boundary (右親指ひとつめ is 14 bytes: the
# 15th byte would split 関), one warning per name
expect_exit 0 "$POSEKIT" convert long.vpd -o long.vmd --cut-names
expect_stderr_contains "long.vpd: warning: bone 'right_wrist_very_l' (18 bytes) cut to 'right_wrist_ver' (15 bytes) for the VMD field, as MMD cuts it (--cut-names)"
expect_stderr_contains "bone '右親指ひとつめ関節' (18 bytes) cut to '右親指ひとつめ' (14 bytes)"
expect_eq "$(grep -c 'cut to' "$ERR")" 3 "warnings of --cut-names"
expect_exit 0 "$POSEKIT" dump long.vmd
expect_stdout_contains '"right_thumb_zer"'
expect_stdout_contains '"右親指ひとつめ"'
expect_exit 0 "$POSEKIT" merge "$DANCE" long.vpd -o m.vmd --cut-names
expect_eq "$(grep -c 'cut to' "$ERR")" 3 "warnings of merge --cut-names"
expect_exit 0 "$POSEKIT" overlay "$DANCE" --pose long.vpd --bones 'right*,右*' -o o.vmd --cut-names
expect_stderr_contains "cut to 'right_wrist_ver'"
# --strict: the cut is a warning, so an error
expect_exit 2 "$POSEKIT" convert long.vpd -o strict.vmd --cut-names --strict
expect_no_file strict.vmd
# it does nothing for a VPD output: an error
expect_exit 2 "$POSEKIT" convert long.vpd -o x.vpd --cut-names
expect_stderr_contains '--cut-names applies to VMD output only'
# a job step takes it too
printf 'inputs: {l: long.vpd}\nsteps:\n  - convert: {in: l, to: vmd, cut_names: true, out: v}\noutputs: {v: job.vmd}\n' >job.yaml
expect_exit 0 "$POSEKIT" run job.yaml
expect_stderr_contains "cut to 'right_wrist_ver'"
expect_same_bytes job.vmd long.vmd
