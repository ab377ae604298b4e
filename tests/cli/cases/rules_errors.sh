# Rule-file errors as the CLI prints them: posekit: FILE:LINE:COL: message,
# exit 2, nothing written.
vpd_text 'mdl' 'x|0,0,0|0,0,0,1' > p.vpd
check() { # FILE EXPECTED-STDERR-LINE
    expect_exit 2 "$POSEKIT" rename p.vpd --rules "$1" -o out.vpd
    expect_stderr_contains "$2"
    expect_no_file out.vpd
}
printf 'rename:\n  "a*b*": x\n' > glob.yaml
check glob.yaml "posekit: glob.yaml:2:3: name 'a*b*' has more than one '*'"
printf 'groups:\n  g: ["@nope"]\n' > group.yaml
check group.yaml "posekit: group.yaml:2:7: group 'g' references unknown group @nope"
printf 'rename:\n  a: x\n  b: x\n' > dup.yaml
check dup.yaml "posekit: dup.yaml:3:6: bones 'a' and 'b' both map to 'x' (rules must be one-to-one)"
printf 'rename: [a]\n' > type.yaml
check type.yaml "posekit: type.yaml:1:9: rename must be a mapping, not a list"
printf 'include: [b.yaml]\n' > a.yaml
printf 'include: [a.yaml]\n' > b.yaml
check a.yaml "posekit: b.yaml:1:11: include cycle: 'a.yaml' is already being loaded"
printf 'rename: {a: [\n' > syntax.yaml
expect_exit 2 "$POSEKIT" rename p.vpd --rules syntax.yaml -o out.vpd
expect_stderr_matches '^posekit: syntax.yaml:[0-9]+:[0-9]+: YAML syntax error: '
printf 'rename:\n  a: "\xf0\x9f\x98\x80"\n' > enc.yaml
check enc.yaml "posekit: enc.yaml:2:6: target '😀' does not encode to CP932"
# A bare name found nowhere says every place it was looked for: here, the
# folder $POSEKIT_RULES_DIR names (the tests set it to the source tree's
# rules/) and the installed folder.
expect_exit 2 "$POSEKIT" rename p.vpd --rules missing.yaml -o out.vpd
expect_stderr_contains "posekit: missing.yaml: cannot find rules: looked in missing.yaml, $PK_SOURCE/rules/missing.yaml, "
expect_stderr_matches "share/posekit/rules/missing.yaml\$"
expect_no_file out.vpd
# Without it the source tree is not looked in: no path of the tree it was
# built in is compiled in.  A binary in the build tree looks in the build
# tree's copy of rules/ (found from the executable), then the installed one.
POSEKIT_RULES_DIR= expect_exit 2 "$POSEKIT" rename p.vpd --rules missing.yaml -o out.vpd
expect_stderr_lacks "$PK_SOURCE/rules/missing.yaml"
build_tree=$(dirname "$(dirname "$(readlink -f "$POSEKIT")")")
expect_stderr_contains "looked in missing.yaml, $build_tree/rules/missing.yaml, "
expect_stderr_matches "looked in missing.yaml, [^,]*, [^,]*share/posekit/rules/missing.yaml\$"
# A path that names a folder is not looked for elsewhere.
expect_exit 2 "$POSEKIT" rename p.vpd --rules ./missing.yaml -o out.vpd
expect_stderr_contains "posekit: ./missing.yaml: cannot open rules: No such file or directory"
printf 'include: [zz_nowhere.yaml]\n' > inc.yaml
check inc.yaml "posekit: inc.yaml:1:11: cannot find included file 'zz_nowhere.yaml' (looked in zz_nowhere.yaml, $PK_SOURCE/rules/zz_nowhere.yaml, "
# Before `meson install`, the binary in the build tree finds the shipped
# rule files by their bare names (README examples) from any folder, through
# $POSEKIT_RULES_DIR.
[ ! -e ja-en.yaml ] || fail "test setup: ja-en.yaml here"
vpd_text 'mdl' 'センター|0,0,0|0,0,0,1' | iconv -f utf-8 -t cp932 > c.vpd
expect_exit 0 "$POSEKIT" rename c.vpd --rules ja-en.yaml -o en.vpd
expect_exit 0 "$POSEKIT" dump en.vpd
expect_stdout_contains 'center'
# The standard groups are available through the shipped files too.
expect_exit 0 "$POSEKIT" rename p.vpd --rules "$PK_SOURCE/rules/standard.yaml" -o out.vpd

# rules are read by name, not from standard input: '-' is a usage error,
# not "-: cannot open rules: No such file or directory"
printf 'rename:\n  a: b\n' >stdin_rules.yaml
expect_exit_in 2 stdin_rules.yaml "$POSEKIT" mirror "$PK_SOURCE/samples/dance.vmd" --rules - -o stdin_out.vmd
expect_stderr <<'EOF'
posekit mirror: --rules wants a rules file by its name, not '-' (standard input)
Try 'posekit help mirror'.
EOF
expect_no_file stdin_out.vmd

# A rules file holding no rule (empty, comments alone, an empty mapping)
# is told, naming the file, whatever the command; an error with --strict.
: >empty.yaml
printf '# nothing yet\n' >comments.yaml
printf '{}\n' >braces.yaml
for f in empty.yaml comments.yaml braces.yaml; do
    expect_exit 0 "$POSEKIT" rename p.vpd --rules $f -o out.vpd
    expect_stderr_contains "posekit: $f: warning: the rules file holds no rule"
    expect_exit 0 "$POSEKIT" mirror "$PK_SOURCE/samples/dance.vmd" --rules $f -o m.vmd
    expect_stderr_contains "posekit: $f: warning: the rules file holds no rule"
    rm -f out.vpd m.vmd
    expect_exit 2 "$POSEKIT" mirror "$PK_SOURCE/samples/dance.vmd" --rules $f -o m.vmd --strict
    expect_stderr_contains "posekit: $f: warning: the rules file holds no rule"
    expect_stderr_contains "warnings are errors (--strict)"
    expect_no_file m.vmd
done
# an included file holding none is named too
printf 'include: [empty.yaml]\nrename:\n  x: y\n' >inc_empty.yaml
expect_exit 0 "$POSEKIT" rename p.vpd --rules inc_empty.yaml -o out.vpd
expect_stderr_contains "posekit: empty.yaml: warning: the rules file holds no rule"
# A motion, pose or model given as the rules (the two swapped, or the
# wrong file picked) says what it is, not what YAML makes of its first
# binary byte ("control characters are not allowed"); so does one given as
# a job to run, and a YAML file given where a motion goes
{ vmd_header m; pack V 0 0 0 0 0; } > m.vmd
rm -f out.vpd
check m.vmd "posekit: m.vmd: a VMD motion, not rules (a rules file is YAML: rules/README.md)"
check p.vpd "posekit: p.vpd: a VPD pose, not rules (a rules file is YAML: rules/README.md)"
expect_exit 2 "$POSEKIT" run m.vmd
expect_stderr <<'ERR'
posekit: m.vmd: a VMD motion, not a job file (a job is YAML: doc/jobs.md; the files it works on are its inputs)
ERR
expect_exit 2 "$POSEKIT" mirror glob.yaml -o out.vpd
expect_stderr_contains "posekit: glob.yaml: a YAML file, not a motion or pose (rules go with --rules; a job file runs with posekit run)"
