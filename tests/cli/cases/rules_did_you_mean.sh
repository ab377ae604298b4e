# A rules file given by a name that is not there, near the name of a
# shipped one ("ja-en" without its extension, "ja-en.yml", "ja-eng"),
# names that one; a name near none says where it looked, as before.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
for name in ja-en ja-en.yml ja-eng; do
    expect_exit 2 "$POSEKIT" rename dance.vmd --rules "$name" -o out.vmd
    expect_stderr_contains "posekit: $name: cannot find rules: looked in $name, "
    expect_stderr_contains "(did you mean 'ja-en.yaml'?)"
done
expect_exit 2 "$POSEKIT" mirror dance.vmd --rules mirorr -o out.vmd
expect_stderr_contains "(did you mean 'mirror.yaml'?)"
expect_exit 2 "$POSEKIT" rename dance.vmd --rules zzzzzz -o out.vmd
expect_stderr_contains "posekit: zzzzzz: cannot find rules: looked in zzzzzz, "
expect_stderr_lacks "did you mean"
expect_no_file out.vmd
# the name it gives works
expect_exit 0 "$POSEKIT" rename dance.vmd --rules ja-en.yaml -o out.vmd
