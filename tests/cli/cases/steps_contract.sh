# steps_contract: the command/job contract (doc/commands.md "Every
# command"): side outputs never replace an input, one stream per stdout, a
# motion becomes one pose only through convert, the summary says what
# differs, clear errors, one option grammar.
S=$PK_SOURCE/samples
cp "$S/hands/right_fist.vpd" f.vpd
cp "$S/hands/right_open.vpd" o.vpd
cp "$S/dance.vmd" dance.vmd

# 1. --svg never overwrites an input (any spelling of it, a link too), and
# names a .svg
remember f.vpd
expect_exit 2 "$POSEKIT" diff f.vpd o.vpd --svg f.vpd
expect_stderr_contains "--svg 'f.vpd' is an input"
expect_exit 2 "$POSEKIT" diff --svg ./f.vpd f.vpd o.vpd
expect_stderr_contains 'is an input'
ln -s f.vpd link.svg
expect_exit 2 "$POSEKIT" diff f.vpd o.vpd --svg link.svg
expect_stderr_contains 'is an input'
expect_unchanged f.vpd
expect_exit 2 "$POSEKIT" diff f.vpd o.vpd --svg picture.png
expect_stderr_contains 'name it NAME.svg'
expect_no_file picture.png
# ... nor does a job output
mkdir j
cp f.vpd j/in.vpd
cat >j/job.yaml <<'YAML'
inputs: {p: in.vpd}
steps:
  - mirror: {in: p, out: m}
outputs: {m: ./in.vpd}
YAML
remember j/in.vpd
expect_exit 2 "$POSEKIT" run j/job.yaml
expect_stderr_contains "is the job's input 'p': it would be overwritten"
expect_unchanged j/in.vpd

# 2. one stream on standard output
expect_exit 2 "$POSEKIT" merge dance.vmd f.vpd -o - --json
expect_stderr_contains '--json and -o - would both write standard output'
expect_stdout_empty
expect_exit 2 "$POSEKIT" diff f.vpd o.vpd --svg -
expect_stderr_contains 'name a .svg file'
expect_stdout_empty

# 4. a .vpd output does not silently turn a motion into one pose
for cmd in "mirror dance.vmd" "rename dance.vmd --rules $PK_SOURCE/rules/ja-en.yaml" \
    "overlay dance.vmd --pose f.vpd --bones @fingers_R" "merge dance.vmd f.vpd"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$POSEKIT" $cmd -o x.vpd
    expect_stderr_contains 'convert --frame N takes one pose out of a motion'
    expect_no_file x.vpd
done
expect_exit 0 "$POSEKIT" convert dance.vmd --frame 10 -o x.vpd
expect_exit 0 "$POSEKIT" mirror f.vpd -o y.vpd # a pose stays a pose
cat >job2.yaml <<'YAML'
inputs: {d: dance.vmd}
outputs: {d: d.vpd}
YAML
expect_exit 2 "$POSEKIT" run job2.yaml
expect_stderr_contains "'d' is a motion: a .vpd holds one pose"
expect_no_file d.vpd

# 11. only translations differ: the summary names the largest one
vpd_text 'mdl' 'center|0,0,0|0,0,0,1' >t1.vpd
vpd_text 'mdl' 'center|0,2.5,0|0,0,0,1' >t2.vpd
expect_exit 1 "$POSEKIT" diff t1.vpd t2.vpd
expect_stdout_contains '1 of 1 bones differ (largest 2.5000 units: center)'
expect_stdout_lacks 'largest 0.000 deg'

# 17. clearer errors
expect_exit 2 "$POSEKIT" mirror f.vpd -o
expect_stderr_contains "posekit mirror: -o wants a file name"
mkdir folder.vpd
expect_exit 2 "$POSEKIT" mirror f.vpd -o folder.vpd
expect_stderr_contains "-o names a folder ('folder.vpd')"
expect_exit 2 "$POSEKIT" diff - - </dev/null
expect_stderr_contains "standard input ('-') can be read once"
expect_exit 0 "$POSEKIT" help help
expect_stdout_contains 'usage: posekit help [COMMAND]'
expect_exit 2 "$POSEKIT" convert dance.vmd --frame 4294967296 -o z.vpd
expect_stderr_contains '(the largest is 4294967295)'
expect_stderr_lacks 'below frame 0'

# 18. one option grammar: --frames all wherever --frames is, a repeated
# single-value option is an error (a repeated flag takes the last value),
# options that do nothing are errors
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose f.vpd --bones @fingers_R --frames all -o all.vmd
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose f.vpd --bones @fingers_R -o default.vmd
expect_same_bytes all.vmd default.vmd
expect_exit 2 "$POSEKIT" diff f.vpd o.vpd --threshold 1 --threshold 2
expect_stderr_contains '--threshold is given twice'
expect_exit 2 "$POSEKIT" mirror f.vpd -o a.vpd -o b.vpd
expect_stderr_contains '-o is given twice'
# a flag given again is no error: the last value wins (flag_values.sh)
expect_exit 1 "$POSEKIT" diff f.vpd o.vpd --csv --csv
expect_stdout_contains 'angle_deg,'
expect_exit 1 "$POSEKIT" diff f.vpd o.vpd --json=false --json
expect_stdout_contains '"thresholds":'
expect_exit 2 "$POSEKIT" overlay f.vpd --pose o.vpd --bones @fingers_R --frames 3-9 -o v.vpd
expect_stderr_contains 'posekit overlay: --frames and --fade do not apply to a VPD base'
expect_no_file v.vpd
expect_exit 2 "$POSEKIT" overlay f.vpd --pose o.vpd --bones @fingers_R --fade 5 -o v.vpd
expect_stderr_contains '--fade needs --frames A-B (the whole motion has no edges to fade; a VPD base takes neither)'
expect_exit 2 "$POSEKIT" overlay dance.vmd --pose o.vpd --bones @fingers_R --fade 5 -o v.vmd
expect_stderr_contains '--fade needs --frames A-B'
expect_no_file v.vpd
expect_no_file v.vmd
expect_exit 2 "$POSEKIT" overlay dance.vmd --pose o.vpd --pose-frame 3 --bones @fingers_R -o v.vmd
expect_stderr_contains '--pose-frame applies to a VMD pose only'
expect_no_file v.vmd
# the same option spelled the job's way is the same option
expect_exit 1 "$POSEKIT" diff f.vpd o.vpd --pos_threshold 0.5

# 14. a step's warning names the job file and the step (JOB:LINE:COL)
cat >warn.yaml <<'YAML'
inputs: {d: dance.vmd, f: f.vpd}
steps:
  - overlay: {base: d, pose: f, bones: "@fingers_R,nosuchbone", out: r}
outputs: {r: r.vmd}
YAML
expect_exit 0 "$POSEKIT" run warn.yaml --dry-run
expect_stderr_contains "posekit: warn.yaml:3:5: warning: d: 'nosuchbone' in the selection matches no bone or morph of the base or the pose"

# a command that would change nothing says so: merge of one input without
# an offset, sections or a range is refused (CLI and job); rename whose
# rules match nothing warns (--strict: an error, nothing written)
expect_exit 2 "$POSEKIT" merge dance.vmd -o one.vmd
expect_stderr_contains 'one input and no --offset, --sections or --within: merge would only copy it'
expect_no_file one.vmd
cat >one.yaml <<'YAML'
inputs: {d: dance.vmd}
steps:
  - merge: {in: [d], out: m}
outputs: {m: one.vmd}
YAML
expect_exit 2 "$POSEKIT" run one.yaml
expect_stderr_contains 'one.yaml:3:5: one input and no offset, sections or within'
expect_no_file one.vmd
# a job's output never replaces the job file itself
cat >self.txt <<'YAML'
inputs: {d: dance.vmd}
steps:
  - diff: {a: d, b: d, out: r}
outputs: {r: ./self.txt}
YAML
remember self.txt
expect_exit 2 "$POSEKIT" run self.txt
expect_stderr_contains "self.txt:4:14: './self.txt' is the job file itself: it would be overwritten"
expect_unchanged self.txt
# two outputs spelled differently that are one file: refused, nothing written
cat >twice.yaml <<'YAML'
inputs: {d: dance.vmd}
steps:
  - mirror: {in: d, out: m}
  - convert: {in: d, to: vmd, out: c}
outputs:
  m: o6/x.vmd
  c: ./o6/sub/..//x.vmd
YAML
expect_exit 2 "$POSEKIT" run twice.yaml
expect_stderr_contains "twice.yaml:7:6: './o6/sub/..//x.vmd' is written twice (line 6)"
expect_no_file o6/x.vmd
printf 'rename:\n  "nosuchbone": "other"\n' >none.yaml
expect_exit 0 "$POSEKIT" rename dance.vmd --rules none.yaml -o same.vmd
expect_stderr_contains 'warning: no rename rule matched a bone or morph of the input'
expect_exit 2 "$POSEKIT" rename dance.vmd --rules none.yaml --strict -o strict_same.vmd
expect_no_file strict_same.vmd

# 1, 2, 4 for check, reduce and bake: --suggest-rules never replaces an
# input nor goes to standard output; reduce and bake write motions (.vmd);
# --json and -o - are one stream too many
need_corpus
cp "$(corpus pmx_nanoem_miku_bones.pmx)" m.pmx
remember dance.vmd
expect_exit 2 "$POSEKIT" check dance.vmd --model m.pmx --suggest-rules ./dance.vmd
expect_stderr_contains "--suggest-rules './dance.vmd' is an input this command reads: it would be overwritten"
expect_unchanged dance.vmd
expect_exit 2 "$POSEKIT" check dance.vmd --model m.pmx --suggest-rules -
expect_stderr_contains 'name a .yaml file'
expect_stdout_empty
# ... nor the model, nor a file that is not named .yaml (it holds rules)
remember m.pmx
expect_exit 2 "$POSEKIT" check dance.vmd --model m.pmx --suggest-rules m.pmx
expect_stderr_contains "--suggest-rules 'm.pmx' is the model this command reads: it would be overwritten"
expect_unchanged m.pmx
expect_exit 2 "$POSEKIT" check dance.vmd --model m.pmx --suggest-rules fix.txt
expect_stderr_contains "--suggest-rules writes a rules file: name it NAME.yaml, not 'fix.txt'"
expect_no_file fix.txt
expect_exit 1 "$POSEKIT" check dance.vmd --model m.pmx --suggest-rules FIX.YML
expect_file FIX.YML
# diff --svg never replaces the model either; .SVG is a picture name too
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --model m.pmx --svg ./m.pmx
expect_stderr_contains "--svg './m.pmx' is the model this command reads: it would be overwritten"
expect_unchanged m.pmx
expect_exit 0 "$POSEKIT" diff dance.vmd dance.vmd --frames 0-10 --svg PIC.SVG
expect_file PIC.SVG
# reduce and bake that would do nothing say so: a selection that matches
# no bone, a range that holds no key
for cmd in reduce bake; do
    expect_exit 2 "$POSEKIT" $cmd dance.vmd -o z.vmd --bones nosuchbone
    expect_stderr_contains "the selection 'nosuchbone' matches no bone or morph of the motion: nothing to $cmd"
    expect_exit 2 "$POSEKIT" $cmd dance.vmd -o z.vmd --frames 900-1000
    expect_stderr_contains 'frames 900-1000 hold no key of the motion (its keys are at frames 0-'
    expect_no_file z.vmd
done
# a motion with no key holds none in a range either: the same error (a
# run without --frames stays a warning, the output the input unchanged)
{ vmd_header 'm'; pack V 0 0 0 0 0; } >nokeys.vmd
for cmd in reduce bake 'curve --set ease'; do
    expect_exit 2 "$POSEKIT" $cmd nokeys.vmd -o z.vmd --frames 10-20
    expect_stderr_contains "nokeys.vmd: frames 10-20 hold no key of the motion (it has no keys): nothing to ${cmd%% *}"
    expect_no_file z.vmd
    expect_exit 0 "$POSEKIT" $cmd nokeys.vmd -o z.vmd
    expect_stderr_contains 'warning: nothing to'
    rm z.vmd
done
for cmd in reduce bake; do
    expect_exit 2 "$POSEKIT" $cmd dance.vmd -o z.vpd
    expect_stderr_contains 'convert --frame N takes one pose out of a motion'
    expect_no_file z.vpd
    expect_exit 2 "$POSEKIT" $cmd dance.vmd -o - --json
    expect_stderr_contains '--json and -o - would both write standard output'
    expect_stdout_empty
done
# a model is not a motion, a motion not a model
expect_exit 2 "$POSEKIT" check m.pmx --model dance.vmd
expect_stderr_contains 'a PMX model, not a motion or pose'

# -o never names the input, the rules file or a model the command reads
# (a rules file misnamed .vmd would be replaced by a motion).
cp "$PK_SOURCE/rules/ja-en.yaml" rules-as.vmd
expect_exit 2 "$POSEKIT" rename "$PK_SOURCE/samples/dance.vmd" --rules rules-as.vmd -o rules-as.vmd
expect_stderr_contains "-o 'rules-as.vmd' is the rules file this command reads"
expect_same_bytes "$PK_SOURCE/rules/ja-en.yaml" rules-as.vmd
