# run: an output that is a device or pipe (/dev/null, a FIFO) takes what
# its step makes, as the commands' -o /dev/null does: a motion as VMD, a
# pose as VPD, a report as its text; the bytes are the command's.
need_cmd mkfifo
cp "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hands/right_fist.vpd" .

cat >null.yaml <<'YAML'
inputs:
  dance: dance.vmd
  fist: right_fist.vpd
steps:
  - mirror: {in: dance, out: m}
  - mirror: {in: fist, out: p}
  - diff: {a: dance, b: m, out: d}
outputs:
  m: /dev/null
  p: {path: /dev/null}
  d: ./d.txt
YAML
expect_exit 0 "$POSEKIT" run null.yaml
expect_stdout_contains 'wrote /dev/null ('
expect_stderr_empty
# a report to the device, and the pose to a file, in a second job (two
# outputs may not name one file)
sed -e 's|  d: ./d.txt|  d: /dev/null|' -e 's|  p: {path: /dev/null}|  p: p.vpd|' \
    -e 's|  m: /dev/null|  m: m.vmd|' null.yaml >report.yaml
expect_exit 0 "$POSEKIT" run report.yaml
expect_stdout_contains 'wrote /dev/null ('
expect_file m.vmd

# The bytes through a pipe are the command's own output's.
mkfifo pipe
expect_exit 0 "$POSEKIT" mirror dance.vmd -o want.vmd
sed -e 's|  m: /dev/null|  m: pipe|' -e '/  p:/d' -e '/  d:/d' -e '/- mirror: {in: fist/d' \
    -e '/- diff:/d' -e '/  fist:/d' null.yaml >pipe.yaml
cat pipe >got.vmd &
reader=$!
# a failed run never opens the pipe: the reader is not left waiting
trap 'kill "$reader" 2>/dev/null || true' EXIT
expect_exit 0 "$POSEKIT" run pipe.yaml
wait "$reader"
expect_same_bytes want.vmd got.vmd

# Every file of a run of many may write /dev/null: it overwrites nothing.
cp dance.vmd d2.vmd
sed -e 's|  dance: dance.vmd|  dance: "{each}"|' pipe.yaml | sed 's|  m: pipe|  m: /dev/null|' >each.yaml
expect_exit 0 "$POSEKIT" run each.yaml --each 'd*.vmd'
expect_stdout_contains 'd2.vmd: wrote /dev/null ('
expect_stdout_contains '2 files: 2 written, 0 failed'
