# help_version: 'posekit --version' and 'posekit version' print the
# version alike, the overview of 'posekit help' tells of them, and
# 'posekit help version' describes them.
expect_exit 0 "$POSEKIT" --version
cp "$OUT" version_dashes
expect_stderr_empty
grep -qE '^posekit [0-9]+\.[0-9]+\.[0-9]+$' version_dashes || fail "--version: $(cat version_dashes)"
expect_exit 0 "$POSEKIT" version
expect_stdout_file version_dashes
expect_stderr_empty
# the overview names both spellings
expect_exit 0 "$POSEKIT" help
expect_stdout_contains "'posekit --version' (or 'posekit version') prints the version."
expect_exit 0 "$POSEKIT" --help
expect_stdout_contains "'posekit --version' (or 'posekit version') prints the version."
# a slip names them as it names a command
expect_exit 2 "$POSEKIT" --verison
expect_stderr <<'ERR'
posekit: no such command '--verison' (did you mean '--version'?); see 'posekit help'
ERR
expect_exit 2 "$POSEKIT" versoin
expect_stderr <<'ERR'
posekit: no such command 'versoin' (did you mean 'version'?); see 'posekit help'
ERR
expect_exit 2 "$POSEKIT" --hlep
expect_stderr <<'ERR'
posekit: no such command '--hlep' (did you mean '--help'?); see 'posekit help'
ERR
# help describes version as it describes a command, and so does
# 'version --help'; help help names it among what help describes
expect_exit 0 "$POSEKIT" help version
expect_stderr_empty
expect_stdout_contains 'usage: posekit version'
expect_stdout_contains '       posekit --version'
cp "$OUT" version_usage
for args in "version --help" "version -h" "--version --help" "help --version"; do
    expect_exit 0 "$POSEKIT" $args
    expect_stdout_file version_usage
done
expect_exit 0 "$POSEKIT" help help
tr '\n' ' ' <"$OUT" | grep -qE ' run, +help, +version\. $' || fail "help help: $(cat "$OUT")"
# an argument after it is a usage error, as after any command
expect_exit 2 "$POSEKIT" version extra
expect_stdout_empty
expect_stderr <<'ERR'
posekit version: takes no argument ('extra' is extra)
Try 'posekit help version'.
ERR
# after help, only commands (and help, version) are looked for
expect_exit 2 "$POSEKIT" help versoin
expect_stderr <<'ERR'
posekit: no such command 'versoin' (did you mean 'version'?); see 'posekit help'
ERR
expect_exit 2 "$POSEKIT" help --hlep
expect_stderr <<'ERR'
posekit: no such command '--hlep'; see 'posekit help'
ERR
