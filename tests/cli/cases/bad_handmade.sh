# bad_handmade.sh — hand-made bad inputs through the CLI.  Each gives exit 2
# and a message naming the file (and the position where there is one), or
# the documented warning; none leaves an output file or changes its input.
# Cases: count 0xFFFFFFFF, comma decimal separator, missing '}', a name
# that does not fit the 15-byte VMD field when a VPD becomes a VMD, invalid
# CP932, an empty file, a directory, unreadable inputs, a missing file.
# (NaN/Inf: bad_nan.sh; output-side failures: bad_output.sh.)
# run-case.sh runs cases under -e -o pipefail; these cases check exit
# statuses themselves.
set -u +e +o pipefail
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# run EXPECTED_RC REGEX_ON_STDERR CMD...: checks the status and that stderr
# matches; also that no sanitizer spoke.
run() {
    want=$1 re=$2
    shift 2
    "$@" >out.txt 2>err.txt
    rc=$?
    [ "$rc" -eq "$want" ] || bad "'$*' exited $rc, expected $want: $(head -3 err.txt)"
    if [ -n "$re" ] && ! grep -Eq -- "$re" err.txt; then
        bad "'$*': stderr does not match /$re/: $(head -3 err.txt)"
    fi
    if grep -Eq 'Sanitizer|runtime error:' err.txt; then
        bad "'$*': sanitizer report"
        head -20 err.txt
    fi
}
nothing_written() { # folder
    extra=$(ls -A "$1")
    [ -z "$extra" ] || bad "files left in $1: $extra"
}

python3 - <<'PY'
import struct
def field(raw, n):
    return (raw + b"\0" * n)[:n]
LINEAR = bytes([20, 20, 0, 0, 20, 20, 20, 20] + [107] * 8)
ip = b"".join((LINEAR + b"\0\0\0")[r:r + 16] for r in range(4))
head = b"Vocaloid Motion Data 0002" + b"\0" * 5 + field(b"model", 20)
def bone(name, frame=0, vals=(0, 0, 0, 0, 0, 0, 1)):
    return field(name, 15) + struct.pack("<I7f", frame, *vals) + ip
# count 0xFFFFFFFF with one real record after it
open("huge_count.vmd", "wb").write(head + struct.pack("<I", 0xFFFFFFFF) + bone(b"a"))
# a bone name that is not CP932 (0x85 0x40: unassigned row) and a lone lead byte
open("bad_cp932.vmd", "wb").write(head + struct.pack("<I", 2) + bone(b"\x85\x40x") +
                                  bone(b"ab\x83") + struct.pack("<5I", 0, 0, 0, 0, 0))
vpd = ("Vocaloid Pose Data file\r\n\r\nm.osm;\t\t// x\r\n1;\t\t\t\t// y\r\n\r\n"
       "Bone0{%s\r\n  0.500000,1.000000,2.000000;\t\t\t\t// trans x,y,z\r\n"
       "  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\n")
open("good.vpd", "wb").write((vpd % "a").encode())
# comma decimal separator (a German-locale writer), on the translation line
open("comma.vpd", "wb").write((vpd % "a").replace("0.500000,1.000000,2.000000",
                                                  "0,500000,1,000000,2,000000").encode())
# the closing brace missing
open("nobrace.vpd", "wb").write((vpd % "a").replace("}\r\n", "").encode())
# a 16-byte CP932 name: fine in a VPD (MMD allows 19 bytes), too long for VMD
open("name16.vpd", "wb").write((vpd % "左人差し指先端先").encode("cp932"))
PY

# count 0xFFFFFFFF: refused at the count's offset, before any allocation
run 2 '^posekit: huge_count\.vmd:50: .*4294967295' "$POSEKIT" info huge_count.vmd
mkdir o1
run 2 '^posekit: huge_count\.vmd:50: ' "$POSEKIT" convert huge_count.vmd -o o1/x.vmd
nothing_written o1

# comma decimal separator: line 7 (the translation line), with a column
run 2 '^posekit: comma\.vpd:7:[0-9]+: ' "$POSEKIT" info comma.vpd

# missing '}': an error with line:col that mentions the brace
run 2 "^posekit: nobrace\.vpd:[0-9]+:[0-9]+: .*'\}'" "$POSEKIT" info nobrace.vpd

# a name longer than the VMD field when a VPD becomes a VMD (an edit that
# creates a name): an error naming the bone; nothing written
name16=$(printf '左人差し指先端先' | iconv -f UTF-8 -t CP932 | wc -c)
[ "$name16" -eq 16 ] || bad "test setup: expected a 16-byte name, got $name16"
run 0 '' "$POSEKIT" info name16.vpd
mkdir o2
run 2 '左人差し指先端先' "$POSEKIT" convert name16.vpd -o o2/x.vmd
nothing_written o2

# the same through a rename rule: the error points at the rule
printf 'rename:\n  "%s": "0123456789abcdef"\n' "$(printf '\x83\x5a\x83\x93\x83\x5e\x81\x5b' | iconv -f CP932 -t UTF-8)" >long.yaml
cp "$PK_SOURCE/tests/fuzz/corpus/vmd/seed_dance.vmd" dance.vmd
mkdir o5
run 2 '^posekit: long\.yaml:2:[0-9]+: .*16 bytes' "$POSEKIT" rename dance.vmd --rules long.yaml -o o5/x.vmd
nothing_written o5

# invalid CP932: read (names kept byte-exact) with a warning naming the
# offset; --strict makes it an error; a rewrite keeps the bytes
run 0 '^posekit: bad_cp932\.vmd:[0-9]+: warning: .*CP932' "$POSEKIT" info bad_cp932.vmd
run 2 'warning' "$POSEKIT" info --strict bad_cp932.vmd
mkdir o3
run 0 '' "$POSEKIT" convert bad_cp932.vmd -o o3/x.vmd
cmp -s bad_cp932.vmd o3/x.vmd || bad "invalid CP932 names not kept byte-exact"
run 2 '' "$POSEKIT" convert --strict bad_cp932.vmd -o o3/y.vmd
[ ! -e o3/y.vmd ] || bad "--strict failure wrote o3/y.vmd"

# an empty file, as VMD and as VPD
: >empty.vmd
: >empty.vpd
run 2 '^posekit: empty\.vmd:0: ' "$POSEKIT" info empty.vmd
run 2 '^posekit: empty\.vpd:' "$POSEKIT" info empty.vpd

# a directory given as a file
mkdir dir.vmd
run 2 '^posekit: dir\.vmd: .*directory' "$POSEKIT" info dir.vmd
mkdir o4
run 2 '^posekit: dir\.vmd: .*directory' "$POSEKIT" convert dir.vmd -o o4/x.vmd
nothing_written o4

# unreadable input.  Tests usually run as root, for whom mode 000 does not
# stop reads: then a symlink loop (cannot open) and standard input opened
# write-only (cannot read) stand in for it.
ln -s loop.vmd loop.vmd
run 2 '^posekit: loop\.vmd: ' "$POSEKIT" info loop.vmd
run 2 '^posekit: -: .*(read|Bad file)' sh -c '"$0" info - 0>wo.vmd' "$POSEKIT"
if [ "$(id -u)" -ne 0 ]; then
    cp good.vpd noperm.vpd
    chmod 000 noperm.vpd
    run 2 '^posekit: noperm\.vpd: .*Permission denied' "$POSEKIT" info noperm.vpd
    chmod 644 noperm.vpd
else
    echo "note: running as root: the mode-000 sub-case is replaced by the two above"
fi

# a file that does not exist
run 2 '^posekit: missing\.vmd: .*No such file' "$POSEKIT" info missing.vmd
exit $fail
