# A broken VMD: exit 2, "posekit: PATH:OFFSET: message", no output file,
# the input untouched.
{
    vmd_header 'test'
    pack V 2                                  # count at offset 50
    vmd_bone 'a' 0 0 0 0 0 0 0 1              # only one of the two keys
} >short.vmd
remember short.vmd
expect_exit 2 "$POSEKIT" convert short.vmd -o out.vmd
expect_stdout_empty
# Two bone keys need 222 bytes; 111 are left after the count at offset 50.
expect_stderr_matches '^posekit: short\.vmd:(50|54|165): '
expect_no_file out.vmd
expect_no_temp_files .
expect_unchanged short.vmd
for cmd in info dump; do
    expect_exit 2 "$POSEKIT" $cmd short.vmd
    expect_stdout_empty
    expect_stderr_matches '^posekit: short\.vmd:[0-9]+: '
done

# A header that claims 4 billion keys in a 100-byte file: a clean error
# at the count, not an allocation.
{ vmd_header 'x'; pack V 4294967295; head -c 46 /dev/zero; } >huge.vmd
expect_exit 2 "$POSEKIT" info huge.vmd
expect_stderr_matches '^posekit: huge\.vmd:(50|54): '

# Cut inside the header: the position is inside the file.
printf 'Vocaloid Motion Data 0002\0\0\0\0\0abc' >cut.vmd
expect_exit 2 "$POSEKIT" dump cut.vmd
expect_stderr_matches '^posekit: cut\.vmd:[0-9]+: '
off=$(sed -n 's/^posekit: cut\.vmd:\([0-9]*\): .*/\1/p' "$ERR" | head -n 1)
[ "$off" -le 33 ] || fail "offset $off lies beyond the 33-byte file"

# Truncating a real file at many offsets: every cut inside a record or a
# count is an error with an offset no larger than the file (never a crash).
# (Only with the corpus; the checks above run without it.)
[ -n "${PK_CORPUS:-}" ] || exit 0
src=$(corpus vmd_imas_face16.vmd)
size=$(wc -c <"$src")
for cut in 10 49 51 53 60 100 164 165 200 387 400 $((size - 1)); do
    head -c "$cut" "$src" >t.vmd
    set +e
    "$POSEKIT" convert t.vmd -o t_out.vmd >"$OUT" 2>"$ERR"
    rc=$?
    set -e
    [ "$rc" = 2 ] || [ "$rc" = 0 ] || fail "cut at $cut: exit $rc"
    if [ "$rc" = 2 ]; then
        expect_no_file t_out.vmd
        off=$(sed -n 's/^posekit: t\.vmd:\([0-9]*\): .*/\1/p' "$ERR" | head -n 1)
        [ -n "$off" ] || fail "cut at $cut: no offset in: $(cat "$ERR")"
        [ "$off" -le "$cut" ] || fail "cut at $cut: offset $off beyond the end"
    fi
    rm -f t_out.vmd
done
