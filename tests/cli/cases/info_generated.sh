# info on files built here (no corpus needed): exact text output.
{
    vmd_header 'test'
    pack V 3
    vmd_bone 'arm' 10 0 0 0 0 0 0 1
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 2 0 0 0 0 0 0 1
    vmd_bone 'arm' 30 0 0 0 0 0 0 1
    pack V 1
    vmd_morph blink 40 0.5
    pack V 0 0
} >g.vmd
expect_exit 0 "$POSEKIT" info g.vmd
expect_stderr_empty
expect_stdout <<'OUT'
g.vmd
  format: VMD version 2
  model: test
  ended: after the lights (4 of 6 sections)
  trailing bytes: 0
  frames: 2-40
  bone keys: 3 (2 bones)
  morph keys: 1 (1 morphs)
  camera keys: 0
  light keys: 0
  shadow keys: 0
  ik keys: 0
  duplicate keys: 0
  warnings: 0
  bones (keys):
         2  arm
         1  センター
  morphs (keys):
         1  blink
OUT

# Trailing bytes after a complete file are reported (and warned about).
{ cat g.vmd; pack V 0 0; printf 'xyz'; } >t.vmd
expect_exit 0 "$POSEKIT" info t.vmd
expect_stdout_contains '  ended: complete (6 of 6 sections)'
expect_stdout_contains '  trailing bytes: 3'

vpd_text 'mdl' 'a|1,2,3|0,0,0,1' 'b|0,0,0|0,0,0,1' 'a|0,0,0|0,0,0,1' >p.vpd
expect_exit 0 "$POSEKIT" info p.vpd
expect_stdout <<'OUT'
p.vpd
  format: VPD text layout, CRLF line endings
  encoding: CP932
  model: mdl
  bones: 3 (2 names)
  morphs: 0 (0 names)
  warnings: 1
  bones (entries):
         2  a
         1  b
OUT
# The duplicate bone name is the warning, with its line and column.
expect_stderr_matches '^posekit: p\.vpd:[0-9]+:[0-9]+: warning: .*duplicate'

# Several files, one unreadable: the others are still described, exit 2.
expect_exit 2 "$POSEKIT" info g.vmd missing.vmd p.vpd
expect_stdout_contains 'g.vmd'
expect_stdout_contains 'p.vpd'
expect_stderr_contains 'posekit: missing.vmd: cannot open: No such file or directory'
