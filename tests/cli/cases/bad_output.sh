# bad_output.sh — output-side failures: a missing output folder, a
# read-only output folder, a full disk (/dev/full).  Each gives exit 2 and a
# message naming the output; nothing is left behind, an existing target is
# untouched, and the input never changes.  A failed run with -o naming the
# input leaves the input as it was.
# run-case.sh runs cases under -e -o pipefail; these cases check exit
# statuses themselves.
set -u +e +o pipefail
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() { # EXPECTED_RC REGEX CMD...
    want=$1 re=$2
    shift 2
    "$@" >out.txt 2>err.txt
    rc=$?
    [ "$rc" -eq "$want" ] || bad "'$*' exited $rc, expected $want: $(head -3 err.txt)"
    if [ -n "$re" ] && ! grep -Eq -- "$re" err.txt; then
        bad "'$*': stderr does not match /$re/: $(head -3 err.txt)"
    fi
    if grep -Eq 'Sanitizer|runtime error:' err.txt; then bad "'$*': sanitizer report"; fi
}
cp "$PK_SOURCE/tests/fuzz/corpus/vmd/seed_dance.vmd" in.vmd
cp "$PK_SOURCE/tests/fuzz/corpus/vpd_text/seed_mmd_crlf.vpd" in.vpd
sum_vmd=$(cksum <in.vmd)
sum_vpd=$(cksum <in.vpd)

# a missing output folder
run 2 '^posekit: nodir/out\.vmd: ' "$POSEKIT" convert in.vmd -o nodir/out.vmd
[ ! -e nodir ] || bad "convert created nodir"

# a full disk: every write is checked
if [ -w /dev/full ]; then
    run 2 '^posekit: /dev/full: .*(No space|space)' "$POSEKIT" convert in.vmd -o /dev/full
    run 2 '^posekit: /dev/full: ' "$POSEKIT" convert in.vpd -o /dev/full
else
    echo "SKIP sub-case: /dev/full not writable here"
fi

# a read-only output folder.  Mode 555 does not stop root; the immutable
# attribute (chattr +i) does, on file systems that have it.
mkdir ro
cp in.vmd ro/existing.vmd
sum_existing=$(cksum <ro/existing.vmd)
ro_ok=0
if [ "$(id -u)" -ne 0 ]; then
    chmod 555 ro && ro_ok=1
elif command -v chattr >/dev/null && chattr +i ro 2>/dev/null; then
    ro_ok=2
    trap 'chattr -i ro 2>/dev/null' EXIT # never leave an undeletable folder
fi
if [ $ro_ok -ne 0 ]; then
    run 2 '^posekit: ro/out\.vmd: ' "$POSEKIT" convert in.vmd -o ro/out.vmd
    run 2 '^posekit: ro/existing\.vmd: ' "$POSEKIT" convert in.vpd -o ro/existing.vmd
    [ $ro_ok -eq 2 ] && chattr -i ro
    [ $ro_ok -eq 1 ] && chmod 755 ro
    [ "$(ls -A ro)" = existing.vmd ] || bad "read-only folder now holds: $(ls -A ro)"
    [ "$(cksum <ro/existing.vmd)" = "$sum_existing" ] || bad "ro/existing.vmd changed"
else
    echo "SKIP sub-case: read-only folder (running as root without chattr +i support)"
fi

# a failing conversion onto an existing file leaves it untouched: a
# 16-byte name cannot become a VMD bone
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{0123456789abcdef\r\n  0.000000,0.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n' >long.vpd
cp in.vmd target.vmd
run 2 '0123456789abcdef' "$POSEKIT" convert long.vpd -o target.vmd
cmp -s in.vmd target.vmd || bad "failed convert changed the existing target"

# -o naming the input: refused before anything is read, the input kept;
# a failure (--strict with a warning) leaves an existing target alone
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n5;\r\n\r\nBone0{a\r\n  0.000000,0.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n' >warn.vpd
sum_warn=$(cksum <warn.vpd)
run 2 'is an input this command reads' "$POSEKIT" convert --strict warn.vpd -o warn.vpd
[ "$(cksum <warn.vpd)" = "$sum_warn" ] || bad "convert warn.vpd -o warn.vpd changed its input"
cp in.vpd existing.vpd
run 2 'warning' "$POSEKIT" convert --strict warn.vpd -o existing.vpd
cmp -s in.vpd existing.vpd || bad "failed --strict convert changed the existing target"
run 2 'is an input this command reads' "$POSEKIT" convert in.vmd -o in.vmd
[ "$(cksum <in.vmd)" = "$sum_vmd" ] || bad "convert in.vmd -o in.vmd changed the bytes"
[ "$(cksum <in.vpd)" = "$sum_vpd" ] || bad "in.vpd changed"

# no temporary files left anywhere here
left=$(ls -A | grep -v -E '^(in\.vmd|in\.vpd|ro|long\.vpd|target\.vmd|existing\.vpd|warn\.vpd|out\.txt|err\.txt)$')
[ -z "$left" ] || bad "left behind: $left"
exit $fail
