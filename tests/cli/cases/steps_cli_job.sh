# steps_cli_job: every command run both ways on the same inputs — as a
# command and as a job step — gives the same output bytes and the same
# report (issue 18: one step layer for the CLI and job files).  Inputs are
# named in the job by their file names, so that diff's JSON, which names
# its inputs, is the same too.
S=$PK_SOURCE/samples
cp "$S/dance.vmd" dance.vmd
cp "$S/hands/right_fist.vpd" fist.vpd
cp "$S/hands/right_peace.vpd" peace.vpd
cp "$PK_SOURCE/rules/ja-en.yaml" en.yaml
cp "$PK_SOURCE/rules/a-to-t-stance.yaml" stance.yaml
# A pose with a bone name over 15 bytes (a VMD field holds 15)...
vpd_text 'mdl' 'abcdefghijklmnopq|0,0,0|0,0,0,1' '右手首|0,0,0|0,0.2,0,0.98' >long.vpd
# ... and a motion whose keys start at frame 100 (the dance shifted).
expect_exit 0 "$POSEKIT" merge dance.vmd --offset 100 -o late.vmd

# job STEP OUTPUT-EXT [OUTPUT-KEYS]: writes job.yaml with every input and
# rule file, one step (the YAML mapping given) whose result is `r`,
# written to job_out.EXT.
job() {
    cat >job.yaml <<YAML
inputs: {dance.vmd: dance.vmd, fist.vpd: fist.vpd, peace.vpd: peace.vpd, long.vpd: long.vpd, late.vmd: late.vmd}
rules: {en.yaml: en.yaml, stance.yaml: stance.yaml}
steps:
  - $1
outputs: {r: job_out.$2}
YAML
    rm -f job_out.*
    expect_exit 0 "$POSEKIT" run job.yaml
    # the step's summary: what follows "-> r: " on its report line
    sed -n 's/^[a-z]* .* -> r: //p' "$OUT" >job_summary.txt
}

# cli_summary PREFIX: the command's summary line on stderr (its last line
# with PREFIX: merge lists conflicts and overlaps first), without PREFIX.
cli_summary() {
    grep "^$1" "$ERR" | tail -n 1 | sed "s/^$1//" >cli_summary.txt
}

same_summary() {
    cmp -s cli_summary.txt job_summary.txt || {
        echo "--- CLI:"; cat cli_summary.txt; echo "--- job:"; cat job_summary.txt
        fail "$1: the job's summary is not the command's"
    }
    [ -s cli_summary.txt ] || fail "$1: no summary"
}

# ---- convert: a motion's pose at a frame, and a pose as a motion
expect_exit 0 "$POSEKIT" convert dance.vmd --frame 40 -o cli.vpd
job '{convert: {in: dance.vmd, to: vpd, frame: 40, out: r}}' vpd
expect_same_bytes cli.vpd job_out.vpd
expect_exit 0 "$POSEKIT" convert fist.vpd --frame 7 -o cli.vmd
job '{convert: {in: fist.vpd, to: vmd, frame: 7, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
expect_exit 0 "$POSEKIT" convert fist.vpd --layout hybrid -o cli.vpd
job '{convert: {in: fist.vpd, to: vpd, layout: hybrid, out: r}}' vpd
expect_same_bytes cli.vpd job_out.vpd

# ---- rename, mirror, retarget
expect_exit 0 "$POSEKIT" rename dance.vmd --rules en.yaml -o cli.vmd
cli_summary 'posekit rename: '
job '{rename: {in: dance.vmd, rules: en.yaml, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary rename
expect_exit 0 "$POSEKIT" mirror fist.vpd -o cli.vpd
cli_summary 'posekit mirror: '
job '{mirror: {in: fist.vpd, out: r}}' vpd
expect_same_bytes cli.vpd job_out.vpd
same_summary mirror
expect_exit 0 "$POSEKIT" retarget dance.vmd --rules stance.yaml -o cli.vmd
cli_summary 'posekit retarget: '
job '{retarget: {in: dance.vmd, rules: stance.yaml, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary retarget

# ---- overlay: a motion base with a range and fades; --frames all too
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose fist.vpd --bones @fingers_R --frames 30-60 \
    --fade 6 --mode add -o cli.vmd
cli_summary 'posekit: overlay: '
job '{overlay: {base: dance.vmd, pose: fist.vpd, bones: "@fingers_R", frames: 30-60, fade: 6, mode: add, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary overlay
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose late.vmd --pose-frame 120 --bones @arms \
    --frames all -o cli.vmd
cli_summary 'posekit: overlay: '
job '{overlay: {base: dance.vmd, pose: late.vmd, pose_frame: 120, bones: "@arms", frames: all, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'overlay --frames all'

# ---- merge (the summary names the policy as each side spells options)
expect_exit 0 "$POSEKIT" merge dance.vmd fist.vpd peace.vpd --offset 0 --offset 0 --offset 40 \
    --prefer first -o cli.vmd
cli_summary 'posekit: merge: '
sed -i 's/(--prefer /(prefer /' cli_summary.txt
job '{merge: {in: [dance.vmd, fist.vpd, peace.vpd], offsets: [0, 0, 40], prefer: first, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary merge

expect_exit 0 "$POSEKIT" merge dance.vmd peace.vpd --offset 0 --offset 40 --sections all \
    --sections bones --within 2 -o cli.vmd
cli_summary 'posekit: merge: '
sed -i 's/(--prefer /(prefer /' cli_summary.txt
job '{merge: {in: [dance.vmd, peace.vpd], offsets: [0, 40], sections: [all, bones], within: 2, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'merge --within'

# ---- diff: the table, JSON and CSV reports, byte for byte
for fmt in txt json csv; do
    flag=
    [ $fmt = json ] && flag=--json
    [ $fmt = csv ] && flag=--csv
    expect_exit 1 "$POSEKIT" diff dance.vmd late.vmd --frames all --groups --all $flag
    cp "$OUT" cli.$fmt
    job '{diff: {a: dance.vmd, b: late.vmd, frames: all, groups: true, all: true, out: r}}' $fmt
    expect_same_bytes cli.$fmt job_out.$fmt
done
# the table's last line is the step's summary
tail -n 1 cli.txt >cli_summary.txt
same_summary diff
# every diff option, the same way: thresholds in any notation, bones,
# rules, morphs off, a single frame
expect_exit 1 "$POSEKIT" diff dance.vmd fist.vpd --frame 10 --threshold 1e-3 --pos-threshold 0.5 \
    --bones @hand_R,@fingers_R --rules en.yaml --no-morphs --json
cp "$OUT" cli.json
job '{diff: {a: dance.vmd, b: fist.vpd, frame: 10, threshold: 1e-3, pos_threshold: 0.5, bones: "@hand_R,@fingers_R", rules: en.yaml, no_morphs: true, out: r}}' json
expect_same_bytes cli.json job_out.json
expect_eq "$(json_eval job_out.json 'd["thresholds"]["deg"]')" 0.001 "threshold 1e-3 in a job"

# "all frames" is every frame of either motion, both ways (100-250 here,
# not 0-250)
expect_exit 1 "$POSEKIT" diff late.vmd fist.vpd --frames all
expect_stdout_contains 'frames 100-250: '
job '{diff: {a: late.vmd, b: fist.vpd, frames: all, out: r}}' txt
grep -q '^frames 100-250: ' job_out.txt || fail "a job's 'all frames' is not the command's"

# a pose with a bone name over 15 bytes compares over frames both ways
expect_exit 1 "$POSEKIT" diff long.vpd dance.vmd --frames 0-5
cp "$OUT" cli.txt
job '{diff: {a: long.vpd, b: dance.vmd, frames: 0-5, out: r}}' txt
expect_same_bytes cli.txt job_out.txt
grep -q 'abcdefghijklmnopq' job_out.txt || fail "the long name is not in the job's report"
