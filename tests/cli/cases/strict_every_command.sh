# --strict means the same in every command: a warning
# (here: duplicate keys, told when the file is read) is an error, exit 2,
# nothing written; without --strict the same command warns and succeeds.
# Duplicate keys are told when the file is read, so every command sees
# them, not only those that build tracks (info, diff).
FIST="$PK_SOURCE/samples/hands/right_fist.vpd"
{
    vmd_header 'test'
    pack V 3
    vmd_bone '\x89\x45\x8e\xe8\x8e\xf1' 0 0 0 0 0 0 0 1   # 右手首
    vmd_bone '\x89\x45\x8e\xe8\x8e\xf1' 0 0 0 0 0.1 0 0 0.99
    vmd_bone '\x89\x45\x8e\xe8\x8e\xf1' 10 0 0 0 0 0 0 1
    pack V 0 0 0 0 0
} >dup.vmd
printf 'rename:\n  右手首: wrist_R\n' >r.yaml

# command and its arguments (OUT is the output it would write, if any)
run_both() { # EXIT_WITHOUT OUT ARGS...
    local ok=$1 out=$2
    shift 2
    rm -f "$out"
    expect_exit "$ok" "$POSEKIT" "$@"
    expect_stderr_contains 'dup.vmd: warning: bone "右手首": 1 duplicate key'
    [ "$out" = - ] || expect_file "$out"
    rm -f "$out"
    expect_exit 2 "$POSEKIT" "$@" --strict
    expect_stderr_contains 'dup.vmd: warning: bone "右手首": 1 duplicate key'
    expect_stderr_contains 'warnings are errors (--strict)'
    [ "$out" = - ] || expect_no_file "$out"
}

run_both 0 - info dup.vmd
run_both 0 - dump dup.vmd
run_both 1 - diff dup.vmd "$FIST"
run_both 0 o.vmd convert dup.vmd -o o.vmd
run_both 0 o.vpd convert dup.vmd --frame 5 -o o.vpd
run_both 0 o.vmd mirror dup.vmd -o o.vmd
run_both 0 o.vmd rename dup.vmd --rules r.yaml -o o.vmd
run_both 0 o.vmd retarget dup.vmd --rules a-to-t-stance.yaml -o o.vmd
run_both 0 o.vmd overlay dup.vmd --pose "$FIST" --bones @hand_R -o o.vmd
run_both 0 o.vmd merge dup.vmd "$FIST" -o o.vmd
run_both 0 o.vmd reduce dup.vmd -o o.vmd
run_both 0 o.vmd bake dup.vmd -o o.vmd

# a job: run --strict, and a step's own strict
printf 'inputs: {d: dup.vmd}\nsteps:\n  - mirror: {in: d, out: m}\noutputs: {m: j.vmd}\n' >job.yaml
expect_exit 0 "$POSEKIT" run job.yaml
expect_file j.vmd
rm -f j.vmd
expect_exit 2 "$POSEKIT" run job.yaml --strict
expect_no_file j.vmd
printf 'inputs: {d: dup.vmd}\nsteps:\n  - mirror: {in: d, out: m, strict: true}\noutputs: {m: j.vmd}\n' >job2.yaml
expect_exit 2 "$POSEKIT" run job2.yaml
expect_no_file j.vmd
