# run: the sample job on a copy of the samples (paths relative to the job
# file), --dry-run writes nothing, an error in the last step writes
# nothing, errors in the job file carry JOB:LINE:COL (outputs that cannot
# be written and missing inputs too, found before any step runs).
mkdir -p samples/hands rules
cp "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hand-overlay.yaml" samples/
cp "$PK_SOURCE/samples/hands/"*.vpd samples/hands/
cp "$PK_SOURCE/rules/ja-en.yaml" rules/

expect_exit 0 "$POSEKIT" run samples/hand-overlay.yaml --dry-run
expect_stdout_contains 'would write samples/out/dance-hands.vmd'
expect_no_file samples/out

expect_exit 0 "$POSEKIT" run samples/hand-overlay.yaml
# each step's summary is the one the command prints
expect_stdout_contains 'overlay dance, fist -> with_fist: 15 bones changed, 0 morphs changed, 30 keys removed'
expect_stdout_contains 'diff dance, hands -> changes: frames 0-150: 15 of 41 bones differ (largest 95.000 deg: 右中指２ at frame 45)'
expect_stdout_contains 'wrote samples/out/dance-hands-en.vmd'
expect_file samples/out/dance-hands.vmd
expect_file samples/out/dance-hands-diff.txt
# the .txt report is diff's table
grep -q '   95.000     45    31.340     0.0000      0     0.0000  右人指２' samples/out/dance-hands-diff.txt ||
    fail "the report file is not diff's table"
expect_exit 0 "$POSEKIT" info samples/out/dance-hands-en.vmd
expect_stdout_contains 'fore1_R'
expect_stdout_lacks '右人指１'
# The English file renamed back is the Japanese one, byte for byte.
expect_exit 0 "$POSEKIT" rename samples/out/dance-hands-en.vmd --rules rules/ja-en.yaml --reverse -o back.vmd
expect_same_bytes samples/out/dance-hands.vmd back.vmd
expect_no_temp_files samples/out

# An error in the last step: nothing is written, existing outputs stay.
rm -rf samples/out
sed 's/^outputs:/  - merge: {in: [hands, fist], prefer: error, out: clash}\noutputs:/' \
    samples/hand-overlay.yaml >samples/bad.yaml
expect_exit 2 "$POSEKIT" run samples/bad.yaml
expect_stderr_contains 'samples/bad.yaml:'
expect_stderr_contains 'step merge -> clash failed'
expect_no_file samples/out

# Mistakes in the job file: JOB:LINE:COL, nothing written.
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - overlay: {base: dance, pose: nope, bones: X, out: r}\noutputs: {r: r.vmd}\n' >samples/typo.yaml
expect_exit 2 "$POSEKIT" run samples/typo.yaml
expect_stderr_contains "posekit: samples/typo.yaml:3:"
expect_stderr_contains "pose 'nope' is not defined"
printf 'inputs: {dance: dance.vmd}\noutputs: {dance: out.gif}\n' >samples/fmt.yaml
expect_exit 2 "$POSEKIT" run samples/fmt.yaml
expect_stderr_contains 'samples/fmt.yaml:2:'
expect_no_file samples/out.gif

# Outputs are checked before any step runs: a target that
# is a folder, and a motion written as .vpd or .txt, are errors at the
# output's JOB:LINE:COL; no step's summary is printed, nothing is written.
mkdir -p samples/out/isdir.vmd
cat >samples/outs.yaml <<'YAML'
inputs:
  dance: dance.vmd
steps:
  - reduce: {in: dance, out: c}
  - bake: {in: dance, out: d}
outputs:
  d: out/keep.vmd
  c: out/isdir.vmd
YAML
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:6: output 'c' names a folder ('out/isdir.vmd'): name the file to write in it
ERR
expect_stdout_empty
expect_no_file samples/out/keep.vmd
sed -i 's|c: out/isdir.vmd|c: out/c.vpd|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:6: samples/out/c.vpd: 'c' is a motion: a .vpd holds one pose (take one with a step convert: {in: c, to: vpd, frame: N, out: ...})
ERR
expect_stdout_empty
sed -i 's|c: out/c.vpd|c: out/c.txt|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:6: samples/out/c.txt: 'c' is a motion: write it as .vmd (or take a pose with a step convert: {..., to: vpd, frame: N} and write that as .vpd)
ERR
expect_no_file samples/out/keep.vmd
# a file where an output's folder would be (missing folders are made):
# at the output's entry too, not after the steps
echo x >samples/out/plain
sed -i 's|c: out/c.txt|c: out/plain/sub/c.vmd|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:6: output 'c' cannot be written: 'samples/out/plain' is a file, not a folder to write in
ERR
expect_stdout_empty
expect_no_file samples/out/keep.vmd
sed -i 's|c: out/plain/sub/c.vmd|c: out/new/sub/c.vmd|' samples/outs.yaml
expect_exit 0 "$POSEKIT" run samples/outs.yaml
expect_file samples/out/new/sub/c.vmd
# output keys that would do nothing are errors (as the commands' options):
# layout and no_morphs on anything but a .vpd, frame on anything but a
# .vmd (at load), and frame on a motion (its keys keep their frames)
sed -i 's|c: out/new/sub/c.vmd|c: {path: out/c2.vmd, layout: hybrid}|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:25: layout and no_morphs apply to a .vpd output; 'out/c2.vmd' is not one
ERR
sed -i 's|layout: hybrid|no_morphs: false|' samples/outs.yaml
expect_exit 0 "$POSEKIT" run samples/outs.yaml
sed -i 's|no_morphs: false|no_morphs: true|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr_contains "samples/outs.yaml:8:25: layout and no_morphs apply to a .vpd output"
sed -i 's|c: {path: out/c2.vmd, no_morphs: true}|c: {path: out/c2.txt, frame: 3}|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr_contains "samples/outs.yaml:8:25: frame applies to a pose written as .vmd (its keys' frame); 'out/c2.txt' is not a .vmd"
sed -i 's|c: {path: out/c2.txt, frame: 3}|c: {path: out/c3.vmd, frame: 3}|' samples/outs.yaml
expect_exit 2 "$POSEKIT" run samples/outs.yaml
expect_stderr <<'ERR'
posekit: samples/outs.yaml:8:13: samples/out/c3.vmd: 'c' is a motion: frame applies to a pose written as .vmd (a motion keeps its keys' frames)
ERR
expect_no_file samples/out/c3.vmd
# a missing input: at its entry
printf 'inputs:\n  dance: nofile.vmd\nsteps:\n  - reduce: {in: dance, out: c}\noutputs:\n  c: out/c.vmd\n' >samples/nofile.yaml
expect_exit 2 "$POSEKIT" run samples/nofile.yaml
expect_stderr <<'ERR'
posekit: samples/nofile.yaml:2:10: input 'dance' (samples/nofile.vmd): cannot open: No such file or directory
ERR
# an empty outputs mapping says so
printf 'inputs:\n  dance: dance.vmd\nsteps: []\noutputs: {}\n' >samples/empty.yaml
expect_exit 2 "$POSEKIT" run samples/empty.yaml
expect_stderr_contains "samples/empty.yaml:4:10: outputs is empty: name at least one result to write (NAME: PATH)"
# a bare rules name means the same from every folder: beside the job
# file, else the shipped rules, whatever the current folder; a missing one lists where it was looked for
mkdir -p jobs && cp samples/dance.vmd jobs/
printf 'inputs: {dance: dance.vmd}\nrules: {s: ja-en.yaml}\nsteps:\n  - rename: {in: dance, rules: s, out: en}\noutputs:\n  en: out/en.vmd\n' >jobs/shipped.yaml
expect_exit 0 "$POSEKIT" run jobs/shipped.yaml
mv jobs/out/en.vmd from_parent.vmd
(cd jobs && "$POSEKIT" run shipped.yaml >/dev/null) || fail "run from the job's folder failed"
expect_same_bytes jobs/out/en.vmd from_parent.vmd
expect_exit 0 "$POSEKIT" run "$PWD/jobs/shipped.yaml" --dry-run
sed -i 's/ja-en.yaml/nope.yaml/' jobs/shipped.yaml
expect_exit 2 "$POSEKIT" run jobs/shipped.yaml
expect_stderr_contains "jobs/shipped.yaml:2:12: rules 's' (jobs/nope.yaml): cannot find rules: looked in jobs/nope.yaml, "
# a key given twice in outputs, or in one output, is an error as elsewhere
# (the last one won); report extensions in any case, as .VMD and the CLI
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: out/a.vmd\n  m: out/b.vmd\n' >samples/twice.yaml
expect_exit 2 "$POSEKIT" run samples/twice.yaml
expect_stderr_contains "samples/twice.yaml:6:3: output 'm' is given twice (first on line 5)"
expect_no_file samples/out/a.vmd
printf 'inputs: {dance: dance.vmd}\noutputs:\n  dance: {path: out/f.vmd, path: out/g.vmd}\n' >samples/twice.yaml
expect_exit 2 "$POSEKIT" run samples/twice.yaml
expect_stderr_contains "samples/twice.yaml:3:28: 'path' is given twice (first on line 3)"
expect_no_file samples/out/g.vmd
printf 'inputs: {dance: dance.vmd, fist: fist.vpd}\nsteps:\n  - diff: {a: dance, b: fist, out: d}\noutputs:\n  d: out/d.JSON\n' >samples/upper.yaml
cp samples/hands/right_fist.vpd samples/fist.vpd
expect_exit 0 "$POSEKIT" run samples/upper.yaml
expect_file samples/out/d.JSON
# a job whose write fails prints no step line: the report
# comes after the outputs are written
ln -sf /dev/full samples/full.vmd
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: full.vmd\n' >samples/full.yaml
expect_exit 2 "$POSEKIT" run samples/full.yaml
expect_stderr_contains 'posekit: samples/full.vmd: '
expect_stdout_empty
# two outputs that land on one new file through a link to a folder or a
# dangling link, and an output inside another output, are refused at
# load; a path through a link's ".." is where it leads
mkdir -p t2/o t2/elsewhere/inner && cp samples/dance.vmd t2/
ln -s o t2/lnk && ln -s o/new2.vmd t2/dangling.vmd && ln -s elsewhere/inner t2/lk
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  dance: o/new.vmd\n  m: lnk/new.vmd\n' >t2/j1.yaml
expect_exit 2 "$POSEKIT" run t2/j1.yaml
expect_stderr_contains "t2/j1.yaml:6:6: 'lnk/new.vmd' is written twice (line 5)"
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: o/new2.vmd\n  dance: dangling.vmd\n' >t2/j2.yaml
expect_exit 2 "$POSEKIT" run t2/j2.yaml
expect_stderr_contains "t2/j2.yaml:6:10: 'dangling.vmd' is written twice (line 5)"
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  dance: o/x.vmd\n  m: o/x.vmd/y.vmd\n' >t2/j3.yaml
expect_exit 2 "$POSEKIT" run t2/j3.yaml --dry-run
expect_stderr_contains "t2/j3.yaml:6:6: output 'm' would be written inside output 'dance' (line 5): a file cannot be a folder too"
expect_no_file t2/o/x.vmd
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: m}\noutputs:\n  m: lk/../dance.vmd\n' >t2/j4.yaml
expect_exit 0 "$POSEKIT" run t2/j4.yaml
expect_file t2/elsewhere/dance.vmd
expect_same_bytes t2/dance.vmd samples/dance.vmd
# verbose, as the command's -v, for rename and mirror steps too: the names
# left alone follow the step's line
printf 'rename:\n  センター: center\n' >samples/one.yaml
printf 'inputs: {dance: dance.vmd}\nrules: {one: one.yaml}\nsteps:\n  - rename: {in: dance, rules: one, verbose: true, out: en}\n  - mirror: {in: dance, verbose: true, out: m}\noutputs:\n  en: out/v-en.vmd\n  m: out/v-m.vmd\n' >samples/verbose.yaml
expect_exit 0 "$POSEKIT" run samples/verbose.yaml
expect_stdout_contains "no rule for '上半身'"
expect_stdout_contains "no partner for '上半身' (mirrored in place)"
"$POSEKIT" rename samples/dance.vmd --rules samples/one.yaml -v -o cli-en.vmd 2>cli-v.txt || fail "rename -v failed"
grep -q "^posekit rename: no rule for '上半身'$" cli-v.txt || fail "rename -v lacks the unmatched names: $(head -3 cli-v.txt)"
# a report used as a step's input is refused when the job is loaded, at
# the reference (it was found only after the earlier steps had run)
printf 'inputs: {dance: dance.vmd, fist: fist.vpd}\nsteps:\n  - diff: {a: dance, b: fist, out: d}\n  - mirror: {in: d, out: m}\noutputs:\n  m: out/m.vmd\n' >samples/rep.yaml
expect_exit 2 "$POSEKIT" run samples/rep.yaml --dry-run
expect_stderr <<'ERR'
posekit: samples/rep.yaml:4:18: in 'd' is a diff report, not a motion or pose
ERR
expect_stdout_empty
# rules and steps given YAML's null are the keys left empty, not errors
printf 'inputs: {dance: dance.vmd}\nrules: ~\nsteps: null\noutputs:\n  dance: out/n.vmd\n' >samples/null.yaml
expect_exit 0 "$POSEKIT" run samples/null.yaml --dry-run
expect_stdout_contains 'would write samples/out/n.vmd'
# a list for a one-value option says so (it said "given twice")
printf 'inputs: {dance: dance.vmd, fist: fist.vpd}\nsteps:\n  - diff: {a: dance, b: fist, threshold: [1, 2], out: d}\noutputs:\n  d: out/d.txt\n' >samples/list.yaml
expect_exit 2 "$POSEKIT" run samples/list.yaml
expect_stderr_contains 'samples/list.yaml:3:42: threshold takes one value, not a list'
# an input, rule set or step result nothing names is a warning at its
# entry (a typo in outputs would go unnoticed)
printf 'inputs: {dance: dance.vmd, fist: fist.vpd}\nsteps:\n  - mirror: {in: dance, out: m}\n  - bake: {in: dance, out: bk}\noutputs:\n  bk: out/bk.vmd\n' >samples/unused.yaml
expect_exit 0 "$POSEKIT" run samples/unused.yaml --dry-run
expect_stderr_contains "samples/unused.yaml:1:28: warning: input 'fist' is never used: no step and no output names it"
expect_stderr_contains "samples/unused.yaml:3:5: warning: step result 'm' is never used: no step and no output names it"
expect_exit 2 "$POSEKIT" run samples/unused.yaml --strict
expect_no_file samples/out/bk.vmd
# a step's out that reuses a name points at that out: value
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - mirror: {in: dance, out: dance}\noutputs:\n  dance: out/x.vmd\n' >samples/reuse.yaml
expect_exit 2 "$POSEKIT" run samples/reuse.yaml
expect_stderr_contains "samples/reuse.yaml:3:30: the name 'dance' is already used (line 1)"
# an output key given in both spellings is given twice
printf 'inputs: {fist: fist.vpd}\noutputs:\n  fist: {path: out/n.vpd, no_morphs: true, no-morphs: false}\n' >samples/spell.yaml
expect_exit 2 "$POSEKIT" run samples/spell.yaml
expect_stderr_contains "samples/spell.yaml:3:44: 'no-morphs' is given twice (first on line 3)"

# A step's strict failure follows the warnings that made it, as the
# command's "warnings are errors (--strict)" follows them.
cp "$PK_SOURCE/samples/dance.vmd" strict_in.vmd
cat >strict.yaml <<'YAML'
inputs:
  d: strict_in.vmd
steps:
  - reduce: {in: d, strict: true, out: r}
outputs:
  r: strict_out.vmd
YAML
expect_exit 2 "$POSEKIT" run strict.yaml
expect_stderr <<'ERR'
posekit: strict.yaml:4:5: warning: d: nothing to reduce: no key changed, the output is the input unchanged
posekit: strict.yaml:4:5: reduce: strict: 1 warning (reading its inputs or running it) is an error
posekit: strict.yaml:4:5: step reduce -> r failed
ERR
expect_no_file strict_out.vmd
