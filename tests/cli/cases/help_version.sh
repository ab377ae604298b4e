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
