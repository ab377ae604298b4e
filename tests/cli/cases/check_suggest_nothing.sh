# check --suggest-rules with nothing to suggest: the rules file is still
# written (a script's later rename --rules reads it; no earlier run's rules
# stay behind under its name), holding comments only, and a note on
# standard error names it and says why; a note, not a warning: --strict
# passes a check that found nothing wrong.
need_corpus
model=$(corpus pmx_nanoem_miku_bones.pmx)
only_comments() { # FILE: no line but comments
    ! grep -qv '^#' "$1" || fail "$1 holds more than comments: $(cat "$1")"
}

# every name it moves is on the model (左肘 is missing, but at rest)
{
    vmd_header 'test'
    pack V 2
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1   # センター, moved
    vmd_bone '\x8d\xb6\x95\x49' 0 0 0 0 0 0 0 1                   # 左肘, at rest
    pack V 0 0 0 0 0
} >fits.vmd
echo 'rename: {old: older}' >r.yaml
expect_exit 0 "$POSEKIT" check fits.vmd --model "$model" --suggest-rules r.yaml --strict
expect_stderr <<'TXT'
posekit check: r.yaml: no rule to suggest: every bone and morph fits.vmd moves is on the model (the file holds comments only)
TXT
only_comments r.yaml
expect_exit 0 "$POSEKIT" rename fits.vmd --rules r.yaml -o same.vmd

# nothing keyed at all
{
    vmd_header 'test'
    pack V 0 0 0 0 0
} >empty.vmd
expect_exit 0 "$POSEKIT" check empty.vmd --model "$model" --suggest-rules e.yaml
expect_stderr <<'TXT'
posekit check: e.yaml: no rule to suggest: empty.vmd keys no bone or morph (the file holds comments only)
TXT
only_comments e.yaml

# missing names that move, none with a near miss: exit 1 as ever, the
# file's comments say why
{
    vmd_header 'test'
    pack V 1
    vmd_bone '\x82\xc8\x82\xa2' 0 0 0 0 0.2 0 0 0.98              # ない: nothing near
    pack V 0 0 0 0
} >one.vmd
expect_exit 1 "$POSEKIT" check one.vmd --model "$model" --suggest-rules one.yaml
expect_stderr <<'TXT'
posekit check: one.yaml: no rule to suggest for the one missing name that moves (the file's comment says why)
TXT
grep -q '^  # ない (1 key, 1 off rest): no near miss' one.yaml || fail "no comment for ない: $(cat one.yaml)"
{
    vmd_header 'test'
    pack V 2
    vmd_bone '\x82\xc8\x82\xa2' 0 0 0 0 0.2 0 0 0.98              # ない
    vmd_bone '\x82\xc8\x82\xa2\x82\xc8\x82\xa2' 0 0 0 0 0.2 0 0 0.98  # ないない
    pack V 0 0 0 0
} >two.vmd
expect_exit 1 "$POSEKIT" check two.vmd --model "$model" --suggest-rules two.yaml
expect_stderr_contains "two.yaml: no rule to suggest for the 2 missing names that move (the file's comments say why for each)"

# a file with a rule: no note
{
    vmd_header 'test'
    pack V 1
    vmd_bone '\x8d\xb6\x91\xab\x49\x4b' 0 0 1 0 0 0 0 1           # 左足IK -> 左足ＩＫ
    pack V 0 0 0 0
} >near.vmd
expect_exit 1 "$POSEKIT" check near.vmd --model "$model" --suggest-rules near.yaml
expect_stderr_empty
grep -q '^  "左足IK": "左足ＩＫ"$' near.yaml || fail "no rule: $(cat near.yaml)"

# a job's check writing its rules says it on the run's report
cat >job.yaml <<YAML
inputs:
  fits: fits.vmd
  miku: $model
steps:
  - check: {in: fits, model: miku, out: fix}
outputs:
  fix: job.rules.yaml
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_stdout_contains 'job.rules.yaml: no rule to suggest: every bone and morph fits moves is on the model (the file holds comments only)'
expect_stdout_contains 'wrote job.rules.yaml ('
only_comments job.rules.yaml
