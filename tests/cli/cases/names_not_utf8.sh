# A file name or argument that is not UTF-8 (a name in CP932 bytes, as an
# old archive unpacks on Linux) or holds control characters (an escape
# sequence) is shown with those bytes as \xNN, as names that are not
# CP932 are shown, in messages and in the text posekit prints: never raw
# bytes a terminal shows as garbage or obeys.  JSON already escaped them.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
name=$(printf 'dance_\x83\x5f\x83\x93\x83\x58')  # ダンス in CP932
cp dance.vmd "$name.vmd"
shown='dance_\x83_\x83\x93\x83X'
expect_exit 0 "$POSEKIT" info "$name.vmd"
head -n 1 "$OUT" >first
expect_same_bytes first <(printf '%s.vmd\n' "$shown")
expect_exit 2 "$POSEKIT" info "$name.x"
expect_stderr <<ERR
posekit: $shown.x: cannot open: No such file or directory
ERR
expect_exit 2 "$POSEKIT" convert "$name.vmd" -o "$name.txt"
expect_stderr <<ERR
posekit convert: cannot tell the output format of '$shown.txt': use .vmd or .vpd
Try 'posekit help convert'.
ERR
expect_exit 2 "$POSEKIT" mirror "$name.vmd" -o "$name.vmd"
expect_stderr_contains "posekit mirror: -o '$shown.vmd' is an input this command reads"
expect_exit 2 "$POSEKIT" "$name"
expect_stderr <<ERR
posekit: no such command '$shown'; see 'posekit help'
ERR
expect_exit 2 "$POSEKIT" info "--$name"
expect_stderr_contains "posekit info: unknown option '--$shown'"
# a report on standard output names the input the same way
need_corpus
expect_exit 0 "$POSEKIT" check "$name.vmd" --model "$(corpus pmx_gene.pmx)"
head -n 1 "$OUT" >first
expect_same_bytes first <(printf '%s.vmd on %s (ジェネ / Gene)\n' "$shown" "$(corpus pmx_gene.pmx)")
# an escape sequence in a name is not sent to the terminal
expect_exit 2 "$POSEKIT" info "$(printf 'a\033[31mred.vmd')"
expect_stderr <<'ERR'
posekit: a\x1B[31mred.vmd: cannot open: No such file or directory
ERR
# a bone name typed in CP932 bytes is said to be no UTF-8, not a
# character CP932 lacks (which an emoji is)
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --bones "$name"
expect_stderr_contains "posekit diff: name '$shown' in selection is not UTF-8 text (names are given in UTF-8)"
expect_exit 2 "$POSEKIT" diff dance.vmd dance.vmd --bones '😀'
expect_stderr_contains "posekit diff: name '😀' in selection does not encode to CP932"
