# steps_cli_job: every command run both ways on the same inputs — as a
# command and as a job step — gives the same output bytes and the same
# report (one step layer for the CLI and job files, doc/jobs.md).  Inputs are
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
# ... and the dance with a key on every frame (reduce's input).
expect_exit 0 "$POSEKIT" bake dance.vmd -o baked.vmd
# Models (check's) when the corpus is there: more inputs for every job.
MODEL_INPUTS=

# job STEP OUTPUT-EXT [OUTPUT-KEYS]: writes job.yaml with every input and
# rule file, one step (the YAML mapping given) whose result is `r`,
# written to job_out.EXT.
job() {
    cat >job.yaml <<YAML
inputs: {dance.vmd: dance.vmd, fist.vpd: fist.vpd, peace.vpd: peace.vpd, long.vpd: long.vpd, late.vmd: late.vmd, baked.vmd: baked.vmd$MODEL_INPUTS}
rules: {en.yaml: en.yaml, stance.yaml: stance.yaml}
steps:
  - $1
outputs: {r: job_out.$2}
YAML
    rm -f job_out.*
    expect_exit "${JOB_EXIT:-0}" "$POSEKIT" run job.yaml
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
cli_summary 'posekit overlay: '
job '{overlay: {base: dance.vmd, pose: fist.vpd, bones: "@fingers_R", frames: 30-60, fade: 6, mode: add, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary overlay
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose late.vmd --pose-frame 120 --bones @arms \
    --frames all -o cli.vmd
cli_summary 'posekit overlay: '
job '{overlay: {base: dance.vmd, pose: late.vmd, pose_frame: 120, bones: "@arms", frames: all, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'overlay --frames all'

# ---- merge (the summary names the policy as each side spells options)
expect_exit 0 "$POSEKIT" merge dance.vmd fist.vpd peace.vpd --offset 0 --offset 0 --offset 40 \
    --prefer first -o cli.vmd
cli_summary 'posekit merge: '
sed -i 's/(--prefer /(prefer /' cli_summary.txt
job '{merge: {in: [dance.vmd, fist.vpd, peace.vpd], offsets: [0, 0, 40], prefer: first, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary merge

expect_exit 0 "$POSEKIT" merge dance.vmd peace.vpd --offset 0 --offset 40 --sections all \
    --sections bones --within 2 -o cli.vmd
cli_summary 'posekit merge: '
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
# (all: its row does not differ from rest, so only all lists it)
expect_exit 1 "$POSEKIT" diff long.vpd dance.vmd --frames 0-5 --all
cp "$OUT" cli.txt
job '{diff: {a: long.vpd, b: dance.vmd, frames: 0-5, all: true, out: r}}' txt
expect_same_bytes cli.txt job_out.txt
grep -q 'abcdefghijklmnopq' job_out.txt || fail "the long name is not in the job's report"

# ---- reduce and bake: every option of each, both ways
expect_exit 0 "$POSEKIT" bake dance.vmd --step 3 --frames 10-80 --bones @arms,@fingers_R \
    --rules en.yaml --no-morphs -o cli.vmd
cli_summary 'posekit bake: '
job '{bake: {in: dance.vmd, step: 3, frames: 10-80, bones: "@arms,@fingers_R", rules: en.yaml, no_morphs: true, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary bake
expect_exit 0 "$POSEKIT" reduce baked.vmd --max-deg 5e-2 --max-pos 0.001 --max-morph 1e-3 -o cli.vmd
cli_summary 'posekit reduce: '
job '{reduce: {in: baked.vmd, max_deg: 5e-2, max-pos: 0.001, max_morph: 1e-3, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary reduce
grep -q 'worst error' job_summary.txt || fail "reduce's summary has no worst error: $(cat job_summary.txt)"
expect_exit 0 "$POSEKIT" reduce baked.vmd --bones @hand_R --rules en.yaml --frames 20-90 --no-morphs -o cli.vmd
cli_summary 'posekit reduce: '
job '{reduce: {in: baked.vmd, bones: "@hand_R", rules: en.yaml, frames: 20-90, no_morphs: true, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'reduce --bones --frames'
expect_exit 0 "$POSEKIT" reduce baked.vmd --camera -o cli.vmd
cli_summary 'posekit reduce: '
job '{reduce: {in: baked.vmd, camera: true, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'reduce --camera'
grep -q 'camera keys 0 -> 0' job_summary.txt || fail "reduce --camera's summary: $(cat job_summary.txt)"
# the same checks, the same messages (the job's at its LINE:COL)
bad_both() { # CLI-ARGS... -- JOB-STEP MESSAGE
    local args=() step msg
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    step=$2 msg=$3
    expect_exit 2 "$POSEKIT" "${args[@]}"
    expect_stderr_contains "$msg"
    cat >job.yaml <<YAML
inputs: {dance.vmd: dance.vmd, fist.vpd: fist.vpd}
steps:
  - $step
outputs: {r: job_out.vmd}
YAML
    rm -f job_out.*
    expect_exit 2 "$POSEKIT" run job.yaml
    expect_stderr_contains "${msg//--/}"
    expect_no_file job_out.vmd
}
bad_both reduce dance.vmd --max-deg 0 -o x.vmd -- '{reduce: {in: dance.vmd, max-deg: 0, out: r}}' \
    "wants a positive number of degrees, not '0'"
bad_both bake dance.vmd --step 0 -o x.vmd -- '{bake: {in: dance.vmd, step: 0, out: r}}' \
    "step wants a number of frames (1 or more), not '0'"
bad_both reduce dance.vmd --step 2 -o x.vmd -- '{reduce: {in: dance.vmd, step: 2, out: r}}' \
    "unknown option"
bad_both bake dance.vmd --max-pos 1 -o x.vmd -- '{bake: {in: dance.vmd, max_pos: 1, out: r}}' \
    "unknown option"
bad_both bake fist.vpd -o x.vmd -- '{bake: {in: fist.vpd, out: r}}' \
    "bake works on a VMD motion (a pose has no keys to bake)"
expect_no_file x.vmd

# ---- check (a motion and a pose against a model): the text report, the
# JSON and the suggested rules, byte for byte; strict both ways
need_corpus
cp "$(corpus pmx_nanoem_miku_bones.pmx)" miku.pmx
cp "$(corpus vmd_mmdagent_stand.vmd)" stand.vmd
cp "$(corpus vpd_damaged_utf8_fffd_pose.vpd)" damaged.vpd
MODEL_INPUTS=", miku.pmx: miku.pmx, stand.vmd: stand.vmd, damaged.vpd: damaged.vpd"
for fmt in txt json; do
    flag=
    [ $fmt = json ] && flag=--json
    expect_exit 0 "$POSEKIT" check stand.vmd --model miku.pmx $flag --suggest-rules cli.yaml
    cp "$OUT" cli.$fmt
    job '{check: {in: stand.vmd, model: miku.pmx, out: r}}' $fmt
    expect_same_bytes cli.$fmt job_out.$fmt
    job '{check: {in: stand.vmd, model: miku.pmx, out: r}}' yaml
    expect_same_bytes cli.yaml job_out.yaml
done
# every name the classic model lacks is keyed at rest only: no rule
grep -q '^# 303 missing names whose keys are all at rest left out' job_out.yaml ||
    fail "rest misses: $(cat job_out.yaml)"
expect_exit 1 "$POSEKIT" check fist.vpd --model miku.pmx
cp "$OUT" cli.txt
job '{check: {in: fist.vpd, model: miku.pmx, strict: true, out: r}}' txt
expect_same_bytes cli.txt job_out.txt
# the job's report line is the step's summary (a check needs no out)
cat >job2.yaml <<YAML
inputs: {stand.vmd: stand.vmd, miku.pmx: miku.pmx, fist.vpd: fist.vpd}
steps:
  - check: {in: stand.vmd, model: miku.pmx}
outputs: {fist.vpd: job_out.vpd}
YAML
expect_exit 0 "$POSEKIT" run job2.yaml
grep -q '^check stand.vmd: bones keyed: 222, missing on the model: 149 (0 moving); morphs keyed: 178, missing on the model: 154 (0 moving)' "$OUT" ||
    fail "check's report line: $(cat "$OUT")"
# strict: the pose's warnings (read) are errors, both ways
expect_exit 1 "$POSEKIT" check damaged.vpd --model miku.pmx
expect_exit 2 "$POSEKIT" check damaged.vpd --model miku.pmx --strict
expect_stderr_contains 'warnings are errors'
job '{check: {in: damaged.vpd, model: miku.pmx, out: r}}' txt
JOB_EXIT=2 job '{check: {in: damaged.vpd, model: miku.pmx, strict: true, out: r}}' txt
expect_stderr_contains 'check: strict: 3 warnings (reading its inputs or running it) are errors'
expect_no_file job_out.txt
# no model: which built-in body fits, the same report both ways (model
# "@auto" is the same, but for the text's first line naming it); a model
# must be a model input
for fmt in txt json; do
    flag=
    [ $fmt = json ] && flag=--json
    expect_exit 0 "$POSEKIT" check stand.vmd $flag
    cp "$OUT" cli.$fmt
    job '{check: {in: stand.vmd, out: r}}' $fmt
    expect_same_bytes cli.$fmt job_out.$fmt
    expect_exit 0 "$POSEKIT" check stand.vmd --model @auto $flag
    cp "$OUT" cli_auto.$fmt
    [ $fmt = json ] && expect_same_bytes cli.$fmt cli_auto.$fmt
    job '{check: {in: stand.vmd, model: "@auto", out: r}}' $fmt
    expect_same_bytes cli_auto.$fmt job_out.$fmt
done
grep -q '^best: @standard' cli.txt || fail "check without a model: $(cat cli.txt)"
expect_exit 2 "$POSEKIT" check stand.vmd --suggest-rules s.yaml
expect_stderr_contains 'the suggested rules rename to a model'"'"'s names: give --model MODEL'
JOB_EXIT=2 job '{check: {in: stand.vmd, model: dance.vmd, out: r}}' txt
expect_stderr_contains "model 'dance.vmd' names a motion, pose or report, not a model"
JOB_EXIT=2 job '{check: {in: miku.pmx, model: miku.pmx, out: r}}' txt
expect_stderr_contains "in 'miku.pmx' names a model, not a motion or pose"
# a check report is .txt, .json or .yaml
JOB_EXIT=2 job '{check: {in: stand.vmd, model: miku.pmx, out: r}}' csv
expect_stderr_contains "'r' is a check report: write it as .txt, .json or .yaml"

# ---- bake and reduce a camera motion (--camera / camera: true) both ways
cp "$(corpus vmd_wavefile_camera.vmd)" cam.vmd
MODEL_INPUTS="$MODEL_INPUTS, cam.vmd: cam.vmd, cam_baked.vmd: cam_baked.vmd"
expect_exit 0 "$POSEKIT" bake cam.vmd --camera -o cam_baked.vmd
cli_summary 'posekit bake: '
job '{bake: {in: cam.vmd, camera: true, out: r}}' vmd
expect_same_bytes cam_baked.vmd job_out.vmd
same_summary 'bake --camera'
expect_exit 0 "$POSEKIT" reduce cam_baked.vmd --camera --max-deg 0.05 --max-pos 0.001 -o cli.vmd
cli_summary 'posekit reduce: '
job '{reduce: {in: cam_baked.vmd, camera: true, max_deg: 0.05, max_pos: 0.001, out: r}}' vmd
expect_same_bytes cli.vmd job_out.vmd
same_summary 'reduce --camera'
grep -q 'camera keys 2817 -> ' job_summary.txt || fail "camera keys: $(cat job_summary.txt)"
