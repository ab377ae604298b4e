# help_version: 'posekit --version' and 'posekit version' print the
# version alike, and the overview of 'posekit help' tells of them.
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
# after help, only commands are looked for
expect_exit 2 "$POSEKIT" help version
expect_stderr <<'ERR'
posekit: no such command 'version'; see 'posekit help'
ERR
