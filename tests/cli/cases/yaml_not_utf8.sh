# yaml_not_utf8: a rules, job or body file saved in CP932 (as MMD's own
# files are) is refused at the line:column of its first byte that is not
# UTF-8, saying so and what to do; a control character is placed too
# (libyaml gives these no mark: they were all said at 1:1).
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
tail="a YAML file is UTF-8 (save a CP932 file as UTF-8)"
# センター in CP932 on line 2, after two spaces
printf 'rename:\n  \x83\x5a\x83\x93\x83\x5e\x81\x5b: center\n' >cp.yaml
expect_exit 2 "$POSEKIT" rename dance.vmd --rules cp.yaml -o out.vmd
expect_stderr <<EOF
posekit: cp.yaml:2:3: not UTF-8: invalid leading UTF-8 octet (byte 0x83); $tail
EOF
# a BOM is no column; characters before the byte count one each
printf '\xef\xbb\xbfrename:\n  a: b\n  センター: \x83\x5a\n' >bom.yaml
expect_exit 2 "$POSEKIT" rename dance.vmd --rules bom.yaml -o out.vmd
expect_stderr_contains "posekit: bom.yaml:3:9: not UTF-8: invalid leading UTF-8 octet (byte 0x83)"
printf 'inputs: {d: \x83\x5f.vmd}\n' >job.yaml
expect_exit 2 "$POSEKIT" run job.yaml
expect_stderr_contains "posekit: job.yaml:1:13: not UTF-8: invalid leading UTF-8 octet (byte 0x83); $tail"
printf 'posekit_body: 1\nbones: [{name: \x83\x5a, pos: [0, 0, 0]}]\n' >body.yaml
expect_exit 2 "$POSEKIT" check dance.vmd --model body.yaml
expect_stderr_contains "posekit: body.yaml:2:16: not UTF-8"
printf 'rename:\n  a: "b\x01"\n' >ctl.yaml
expect_exit 2 "$POSEKIT" rename dance.vmd --rules ctl.yaml -o out.vmd
expect_stderr_contains "posekit: ctl.yaml:2:8: YAML syntax error: control characters are not allowed"
expect_no_file out.vmd
