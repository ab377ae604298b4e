# --strict: a warning while reading (here: trailing bytes after a complete
# VMD) becomes an error; exit 2 and nothing is written.  Without --strict
# the same file converts, and the trailing bytes survive the rewrite.
{
    vmd_header 'test'
    pack V 1
    vmd_bone 'arm' 10 0 0 0 0 0 0 1
    pack V 0 0 0 0 0
    printf 'xyz'
} >t.vmd
expect_exit 0 "$POSEKIT" convert t.vmd -o out.vmd
expect_stderr_matches '^posekit: t\.vmd(:[0-9]+)?: warning: '
expect_same_bytes t.vmd out.vmd

for cmd in "convert t.vmd -o strict.vmd" "dump t.vmd" "info t.vmd"; do
    expect_exit 2 "$POSEKIT" $cmd --strict
    expect_stderr_contains "posekit ${cmd%% *}: warnings are errors (--strict)"
    expect_stdout_empty
done
expect_no_file strict.vmd
expect_no_temp_files .
