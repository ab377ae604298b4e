# run --each: one job over a folder of corpus dances and one broken file:
# every other file is written (the same bytes as running the job on it
# alone), the broken one is reported with its error and writes nothing,
# exit status 2; one line per file in the pattern's order whatever -j;
# a pattern that names nothing, outputs that clash and {each} misused are
# errors before anything runs.
need_corpus
mkdir dances
for f in vmd_mmdagent_stand vmd_imas_azusa_bow1 vmd_mmd4unity_IK_Test vmd_mmdagent_00_normal; do
    cp "$(corpus $f.vmd)" dances/
done
printf 'not a motion' >dances/broken.vmd
cat >job.yaml <<'YAML'
inputs:
  dance: "{each}"
steps:
  - bake: {in: dance, out: dense}
  - reduce: {in: dense, max_deg: 0.05, max_pos: 0.001, out: light}
outputs:
  light: out/{stem}-light.vmd
  dense: {path: "out/dense/{stem}.vmd"}
YAML

expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vmd' -j 2
expect_stderr_contains 'posekit: dances/broken.vmd:0: not a VMD file'
head -n 1 "$OUT" | grep -qx 'dances/broken.vmd: failed: not a VMD file.*' ||
    fail "the broken file's line is not first, or does not say why"
expect_stdout_contains 'dances/vmd_mmdagent_stand.vmd: wrote out/vmd_mmdagent_stand-light.vmd ('
expect_stdout_contains 'out/dense/vmd_mmdagent_stand.vmd ('
expect_eq "$(tail -n 1 "$OUT")" '5 files: 4 written, 1 failed' 'the total'
expect_eq "$(wc -l <"$OUT")" 6 'lines on stdout'
expect_no_file out/broken-light.vmd
expect_no_file out/dense/broken.vmd
expect_no_temp_files out
cp "$OUT" j2.out
# each output is what the job writes for that file alone
for f in vmd_mmdagent_stand vmd_imas_azusa_bow1 vmd_mmd4unity_IK_Test vmd_mmdagent_00_normal; do
    sed -e "s|\"{each}\"|dances/$f.vmd|" -e "s|{stem}|$f|g" -e 's|out/|one/|' job.yaml >one.yaml
    expect_exit 0 "$POSEKIT" run one.yaml
    expect_same_bytes "one/$f-light.vmd" "out/$f-light.vmd"
done

# the same lines, in the same order, one file at a time
rm -rf out
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vmd' -j 1
expect_same_bytes "$OUT" j2.out
# --dry-run writes nothing
rm -rf out
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vmd' --dry-run
expect_stdout_contains 'dances/vmd_mmdagent_stand.vmd: would write out/vmd_mmdagent_stand-light.vmd ('
expect_stdout_contains '5 files: 4 would be written, 1 failed'
expect_no_file out
# --strict fails a file on its warnings (vmd_mmdagent_stand.vmd has
# duplicate keys; so have two others), each alone
rm -rf out
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vmd' --strict
expect_stdout_contains 'dances/vmd_mmdagent_stand.vmd: failed: strict: 2 warnings are errors'
expect_stdout_contains 'dances/vmd_imas_azusa_bow1.vmd: wrote out/vmd_imas_azusa_bow1-light.vmd ('
expect_stdout_contains '5 files: 1 written, 4 failed'
expect_no_file out/vmd_mmdagent_stand-light.vmd
# every file fine: exit 0
rm dances/broken.vmd
expect_exit 0 "$POSEKIT" run job.yaml --each 'dances/*.vmd'
expect_stdout_contains '4 files: 4 written, 0 failed'

# errors before anything runs: nothing written
rm -rf out
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vpd'
expect_stderr_contains "posekit run: --each 'dances/*.vpd' names no file"
expect_stdout_empty
sed 's|out/{stem}-light.vmd|out/light.vmd|' job.yaml >clash.yaml
expect_exit 2 "$POSEKIT" run clash.yaml --each 'dances/*.vmd'
expect_stderr_contains "posekit: clash.yaml:7:10: output 'light' would be"
expect_stderr_contains 'name it from each file ({stem} in its path)'
sed 's|out/{stem}-light.vmd|dances/{stem}x.vmd|' job.yaml >over.yaml
cp dances/vmd_mmdagent_stand.vmd dances/vmd_imas_azusa_bow1x.vmd
expect_exit 2 "$POSEKIT" run over.yaml --each 'dances/*.vmd'
expect_stderr_contains "would be written over 'dances/vmd_imas_azusa_bow1x.vmd', another file of --each"
rm dances/vmd_imas_azusa_bow1x.vmd
expect_no_file out
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr_contains "posekit: job.yaml:2:10: input 'dance' is {each}: the job runs once per file, with --each PATTERN"
expect_exit 2 "$POSEKIT" run job.yaml -j 2
expect_stderr_contains 'posekit run: -j applies to a run of many files (--each PATTERN)'
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*.vmd' -j 0
expect_stderr_contains 'posekit run: -j takes a number of files at once, 1 or more'
expect_exit 2 "$POSEKIT" run job.yaml --each '*/x.vmd'
expect_stderr_contains 'wildcards'
expect_no_file out

# a file the job cannot take among the dances (a model where the steps
# want a motion): the error names that file; nothing runs
cp "$(corpus pmx_gene.pmx)" dances/
expect_exit 2 "$POSEKIT" run job.yaml --each 'dances/*' -j 2
expect_stderr_contains "posekit: job.yaml:4:16: dances/pmx_gene.pmx: in 'dance' names a model"
expect_stdout_empty
expect_no_file out
rm dances/pmx_gene.pmx

# {stem} unquoted inside a flow mapping ends the value at its brace:
# libyaml's "did not find expected ','" comes with the way out
cat >flow.yaml <<'YAML'
inputs:
  dance: "{each}"
steps:
  - mirror: {in: dance, out: m}
outputs:
  m: {path: out/{stem}.vmd}
YAML
expect_exit 2 "$POSEKIT" run flow.yaml --each 'dances/*.vmd'
expect_stderr_contains "posekit: flow.yaml:6:17: YAML syntax error: did not find expected ',' or '}' while parsing a flow mapping (inside { }, a value holding '{', '}' or ',' needs quotes: \"out/{stem}.vmd\")"
expect_no_file out
