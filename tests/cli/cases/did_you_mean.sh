# did_you_mean: an unknown option or command a slip away from one (a
# letter wrong, missing, extra or swapped, one dash for two, a unique
# beginning) names it; one far from all names none.  In a job file, an
# unknown step option names the option as the job spells it.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
slip() { # WANT ARGS...: the first stderr line
    local want=$1
    shift
    expect_exit 2 "$POSEKIT" "$@"
    expect_eq "$(head -n 1 "$ERR")" "$want" "posekit $*"
}
slip "posekit diff: unknown option '--treshold' (did you mean '--threshold'?)" \
    diff dance.vmd dance.vmd --treshold 1
slip "posekit diff: unknown option '--thresh=1' (did you mean '--threshold'?)" \
    diff dance.vmd dance.vmd --thresh=1
slip "posekit convert: unknown option '-frame' (did you mean '--frame'?)" \
    convert dance.vmd -frame 3 -o x.vpd
slip "posekit retarget: unknown option '--form' (did you mean '--from'?)" \
    retarget dance.vmd --form a.pmx --to b.pmx -o x.vmd
slip "posekit smooth: unknown option '--strenght' (did you mean '--strength'?)" \
    smooth dance.vmd --strenght 3 -o x.vmd
slip "posekit info: unknown option '--jsn' (did you mean '--json'?)" info --jsn dance.vmd
slip "posekit run: unknown option '--dry' (did you mean '--dry-run'?)" run --dry job.yaml
expect_stderr_contains "Try 'posekit help run'."
# far from every option: no guess
slip "posekit diff: unknown option '--frobnicate'" diff dance.vmd dance.vmd --frobnicate
slip "posekit diff: unknown option '-x'" diff dance.vmd dance.vmd -x
# commands
slip "posekit: no such command 'mirorr' (did you mean 'mirror'?); see 'posekit help'" mirorr dance.vmd
slip "posekit: no such command 'hlep' (did you mean 'help'?); see 'posekit help'" hlep
slip "posekit: no such command 'dif' (did you mean 'diff'?); see 'posekit help'" help dif
slip "posekit: no such command 'frobnicate'; see 'posekit help'" frobnicate
# a job's step option
cat >job.yaml <<'YAML'
inputs: {d: dance.vmd}
steps:
  - reduce: {in: d, max_dge: 1, out: r}
outputs: {r: out.vmd}
YAML
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr <<'EOF'
posekit: job.yaml:3:21: unknown option 'max_dge' for reduce (did you mean 'max_deg'?)
EOF
expect_no_file out.vmd
# "in", the input of most steps, where a step's input has another name
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
cat >job.yaml <<'YAML'
inputs: {d: dance.vmd, fist: fist.vpd}
steps:
  - overlay: {in: d, pose: fist, bones: "@fingers_R", out: o}
  - diff: {in: d, b: o, out: c}
outputs: {o: out.vmd, c: out.txt}
YAML
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr <<'EOF'
posekit: job.yaml:3:15: unknown option 'in' for overlay (did you mean 'base'?)
EOF
sed -i 's/overlay: {in:/overlay: {base:/' job.yaml
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr <<'EOF'
posekit: job.yaml:4:12: unknown option 'in' for diff (did you mean 'a'?)
EOF
expect_no_file out.vmd
expect_no_file x.vmd
expect_no_file x.vpd
# a group of a selection: the built-in ones and those of --rules
slip "posekit diff: unknown group '@finger_R' (did you mean '@fingers_R'?)" \
    diff dance.vmd dance.vmd --bones 右手首,@finger_R
printf 'groups:\n  my_hands: [右手首, 左手首]\n' >mine.yaml
slip "posekit reduce: unknown group '@my_hand' (did you mean '@my_hands'?)" \
    reduce dance.vmd --rules mine.yaml --bones @my_hand -o x.vmd
slip "posekit diff: unknown group '@frobnicate'" diff dance.vmd dance.vmd --bones @frobnicate
expect_no_file x.vmd
# a long option with one dash is a slip, not -o "utput" (a file named
# 'utput=x.vmd' was written) nor -v with "erbose" ignored
slip "posekit convert: unknown option '-output=x.vmd' (did you mean '--output'?)" \
    convert dance.vmd -output=x.vmd
slip "posekit mirror: unknown option '-verbose' (did you mean '--verbose'?)" \
    mirror dance.vmd -verbose -o x.vmd
slip "posekit mirror: unknown option '-vx'" mirror dance.vmd -vx -o x.vmd
slip "posekit run: unknown option '-jobs' (did you mean '--jobs'?)" run -jobs 2 --each '*.vmd' job.yaml
expect_no_file utput=x.vmd
expect_no_file x.vmd
# -oFILE and -jN still glue their value on
expect_exit 0 "$POSEKIT" convert dance.vmd -oglued.vmd
expect_same_bytes dance.vmd glued.vmd
# -o to a command that writes no file says where its output goes
slip "posekit diff: unknown option '-o': diff prints to standard output (redirect it: > FILE)" \
    diff dance.vmd dance.vmd -o x.txt
slip "posekit info: unknown option '--output=x.txt': info prints to standard output (redirect it: > FILE)" \
    info dance.vmd --output=x.txt
slip "posekit check: unknown option '-ox.yaml': check prints to standard output (redirect it: > FILE)" \
    check dance.vmd -ox.yaml
slip "posekit run: unknown option '-o': a job names its files (outputs: in the job)" run job.yaml -o x
expect_no_file x.txt
# bake and draw name "every N frames" differently (--step, --every): each
# one's error names its own (both said only "unknown option")
slip "posekit bake: unknown option '--every': a key every N frames is --step N" \
    bake dance.vmd --every 3 -o x.vmd
slip "posekit draw: unknown option '--step': a figure every N frames is --every N (with --frames)" \
    draw dance.vmd --model m.pmx --frames 0-30 --step 10 -o x.svg
# a job's unknown step or top-level key a slip away from one names it
# (they listed every step, or every key)
cat >steptypo.yaml <<'YAML'
inputs: {d: dance.vmd}
steps:
  - mirorr: {in: d, out: m}
outputs: {m: m.vmd}
YAML
expect_exit 2 "$POSEKIT" run steptypo.yaml
expect_stderr <<'ERR'
posekit: steptypo.yaml:3:5: unknown step 'mirorr' (did you mean 'mirror'?)
ERR
sed -i 's/^steps:/step:/; s/mirorr/mirror/' steptypo.yaml
expect_exit 2 "$POSEKIT" run steptypo.yaml
expect_stderr <<'ERR'
posekit: steptypo.yaml:2:1: unknown key 'step' (did you mean 'steps'?)
ERR
expect_no_file m.vmd
# a command line's --json, --csv, --svg and --quiet given to a job's step:
# a report's format is its output's extension, quiet the run's option
job_slip() { # STEP-LINE WANT
    printf 'inputs: {d: dance.vmd}\nsteps:\n  - %s\noutputs: {r: out.txt}\n' "$1" >slip.yaml
    expect_exit 2 "$POSEKIT" run slip.yaml
    expect_stderr_contains "$2"
}
job_slip 'diff: {a: d, b: d, json: true, out: r}' \
    "unknown option 'json' for diff: in a job, a report's format is the extension of the output its out names: .txt, .json, .csv or .svg (the picture)"
job_slip 'diff: {a: d, b: d, svg: true, out: r}' "unknown option 'svg' for diff: in a job, a report's format"
job_slip 'reduce: {in: d, json: true, out: r}' \
    "unknown option 'json' for reduce: in a job, reduce's out is a motion or pose, and its summary its line of the run's report"
job_slip 'mirror: {in: d, quiet: true, out: r}' \
    "unknown option 'quiet' for mirror: quiet is the run's option (posekit run JOB.yaml --quiet), not a step's"
expect_no_file out.txt
