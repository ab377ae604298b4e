# bad_nan.sh — NaN and infinite values in an input are reported as a
# warning (an error with --strict) and never crash an operation.
# run-case.sh runs cases under -e -o pipefail; these cases check exit
# statuses themselves.
set -u +e +o pipefail
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }
python3 - <<'PY'
import struct
LINEAR = bytes([20, 20, 0, 0, 20, 20, 20, 20] + [107] * 8)
ip = b"".join((LINEAR + b"\0\0\0")[r:r + 16] for r in range(4))
head = b"Vocaloid Motion Data 0002" + b"\0" * 5 + b"model".ljust(20, b"\0")
def bone(name, frame, vals):
    return name.ljust(15, b"\0") + struct.pack("<I7f", frame, *vals) + ip
nan, inf = float("nan"), float("inf")
body = (struct.pack("<I", 3) + bone(b"a", 0, (0, 0, 0, 0, 0, 0, 1)) +
        bone(b"a", 10, (nan, inf, -inf, 0, 0, 0, 1)) + bone(b"b", 0, (0, 0, 0, nan, 0, 0, nan)) +
        struct.pack("<I", 1) + b"m".ljust(15, b"\0") + struct.pack("<If", 0, nan) +
        struct.pack("<4I", 0, 0, 0, 0))
open("nan.vmd", "wb").write(head + body)
# the same bone keyed with finite values, for diff against nan.vmd
clean = (struct.pack("<I", 2) + bone(b"a", 0, (0, 0, 0, 0, 0, 0, 1)) +
         bone(b"a", 10, (1, 0, 0, 0, 0, 0, 1)) + struct.pack("<5I", 0, 0, 0, 0, 0))
open("clean.vmd", "wb").write(head + clean)
PY
sanity() { if grep -Eq 'Sanitizer|runtime error:' err.txt; then bad "$1: sanitizer report"; fi; }

"$POSEKIT" info nan.vmd >out.txt 2>err.txt
rc=$?
sanity info
[ $rc -eq 0 ] || bad "info exited $rc: $(head -3 err.txt)"
grep -Eq '^posekit: nan\.vmd:[0-9]+: warning: .*(NaN|nan|infinit|finite)' err.txt ||
    bad "no warning naming the NaN/infinite values: $(head -3 err.txt)"
"$POSEKIT" info --strict nan.vmd >out.txt 2>err.txt
rc=$?
sanity "info --strict"
[ $rc -eq 2 ] || bad "info --strict exited $rc"

# Operations must not crash on them: dump, rewrite, sampling into a VPD
# (which cannot hold NaN: an error naming the output, nothing written).
"$POSEKIT" dump nan.vmd >out.txt 2>err.txt
rc=$?
sanity dump
[ $rc -eq 0 ] || bad "dump exited $rc"
grep -q null out.txt || bad "dump does not print NaN as null"
mkdir o
"$POSEKIT" convert nan.vmd -o o/x.vmd >/dev/null 2>err.txt || bad "convert to VMD failed"
sanity "convert vmd"
cmp -s nan.vmd o/x.vmd || bad "NaN payloads not kept bit-exact"
for f in 0 5 10 20; do
    "$POSEKIT" convert nan.vmd --frame $f -o o/p$f.vpd >/dev/null 2>err.txt
    rc=$?
    sanity "convert --frame $f"
    case $rc in
    0) ;;
    2) [ ! -e o/p$f.vpd ] || bad "failed convert --frame $f wrote o/p$f.vpd" ;;
    *) bad "convert --frame $f exited $rc" ;;
    esac
done
# The same in a VPD: text "nan"/"inf" are read with a warning naming the
# line and column; a VPD cannot be written with them (an error naming the
# output, nothing written), a VMD can.
printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{a\r\n  nan,inf,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n' >nan.vpd
"$POSEKIT" info nan.vpd >out.txt 2>err.txt
rc=$?
sanity "info vpd"
[ $rc -eq 0 ] || bad "info nan.vpd exited $rc: $(head -3 err.txt)"
grep -Eq '^posekit: nan\.vpd:7:[0-9]+: warning: ' err.txt || bad "no positioned warning for nan.vpd: $(head -3 err.txt)"
"$POSEKIT" info --strict nan.vpd >/dev/null 2>err.txt
[ $? -eq 2 ] || bad "info --strict nan.vpd did not fail"
"$POSEKIT" convert nan.vpd -o o/again.vpd >/dev/null 2>err.txt
rc=$?
sanity "convert vpd->vpd"
[ $rc -eq 2 ] || bad "convert nan.vpd -o .vpd exited $rc"
[ ! -e o/again.vpd ] || bad "a VPD with NaN was written"
"$POSEKIT" convert nan.vpd -o o/pose.vmd >/dev/null 2>err.txt
rc=$?
sanity "convert vpd->vmd"
case $rc in 0 | 2) ;; *) bad "convert nan.vpd -o .vmd exited $rc" ;; esac

# A model with a NaN rest position (bone 4 左目 at x = NaN; bone 5 under
# it): reading warns, naming the file, the record's offset and the bone
# (--strict refuses it); draw places every other bone, writes null in its
# JSON (nan is no JSON) and leaves the two out of the SVG, saying so.
python3 - <<'PY'
import struct
def t(s):
    b = s.encode("utf-16le")
    return struct.pack("<i", len(b)) + b
def bone(name, pos, parent, tail):
    return (t(name) + t("") + struct.pack("<3f", *pos) + struct.pack("<bi", parent, 0) +
            struct.pack("<H", 0x1F) + struct.pack("<b", tail))
nan = float("nan")
bones = [bone("センター", (0, 8, 0), -1, 1), bone("左足", (1, 10, 0), 0, 2),
         bone("左ひざ", (1, 5, 0), 1, 3), bone("左足首", (1, 1, 0), 2, -1),
         bone("左目", (nan, 15, 0), 0, 5), bone("左目先", (1, 16, 0), 4, -1)]
pmx = (b"PMX " + struct.pack("<f", 2.0) + bytes([8, 0, 0, 1, 1, 1, 1, 1, 1]) +
       t("nan") + t("nan") + t("") + t("") + struct.pack("<4i", 0, 0, 0, 0) +
       struct.pack("<i", len(bones)) + b"".join(bones) + struct.pack("<4i", 0, 0, 0, 0))
open("nanbone.pmx", "wb").write(pmx)
open("still.vpd", "wb").write(
    "Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{センター\r\n"
    "  0.000000,1.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n"
    .encode("cp932"))
PY
"$POSEKIT" info nanbone.pmx >out.txt 2>err.txt
rc=$?
sanity "info nanbone.pmx"
[ $rc -eq 0 ] || bad "info nanbone.pmx exited $rc: $(head -3 err.txt)"
grep -Eq '^posekit: nanbone\.pmx:[0-9]+: warning: 1 bone with a NaN or infinite position \(first: bone 4 "左目"\)' err.txt ||
    bad "no warning naming the bone with a NaN position: $(head -3 err.txt)"
"$POSEKIT" info --strict nanbone.pmx >/dev/null 2>err.txt
[ $? -eq 2 ] || bad "info --strict nanbone.pmx did not fail"
"$POSEKIT" draw still.vpd --model nanbone.pmx --json -o o/nan.json >/dev/null 2>err.txt
rc=$?
sanity "draw --json"
[ $rc -eq 0 ] || bad "draw --json exited $rc: $(head -3 err.txt)"
grep -q 'warning: 1 bone with a NaN' err.txt || bad "draw does not pass the model's warning on"
python3 - o/nan.json <<'PY' || bad "draw --json with a NaN position: not the JSON expected"
import json, sys
def no_constant(c):
    raise ValueError("not JSON: " + c)
d = json.load(open(sys.argv[1], encoding="utf-8"), parse_constant=no_constant)
pos = {b["name"]: b["pos"] for b in d["figures"][0]["bones"]}
assert pos["左目"] == [None, None, None] and pos["左目先"] == [None, None, None], pos
assert pos["センター"] == [0.0, 9.0, 0.0], pos
PY
"$POSEKIT" draw still.vpd --model nanbone.pmx -o o/nan.svg >/dev/null 2>err.txt
rc=$?
sanity "draw svg"
[ $rc -eq 0 ] || bad "draw exited $rc: $(head -3 err.txt)"
if grep -Eiq '="[^"]*(nan|inf)' o/nan.svg; then bad "nan or inf in the SVG: $(grep -Ei '="[^"]*(nan|inf)' o/nan.svg | head -2)"; fi
# (センター, a root in a model without 上半身, is a control bone's mark)
[ "$(grep -c 'class="joint"' o/nan.svg)" -eq 3 ] || bad "expected the 3 placed joints in the SVG"
[ "$(grep -c 'class="control"' o/nan.svg)" -eq 1 ] || bad "expected センター's mark in the SVG"
# the note may wrap: its lines read together
python3 - o/nan.svg <<'PY' || bad "the SVG does not say which bones are left out"
import re, sys
text = " ".join(re.findall(r'fill="#b00">([^<]*)<', open(sys.argv[1], encoding="utf-8").read()))
assert re.search(r"left out: 2 bones without a position.*: 左目, 左目先$", text), text
PY
"$POSEKIT" draw still.vpd --model nanbone.pmx --strict -o o/strict.svg >/dev/null 2>err.txt
[ $? -eq 2 ] || bad "draw --strict with a NaN model did not fail"
[ ! -e o/strict.svg ] || bad "draw --strict wrote o/strict.svg"

if "$POSEKIT" help diff >/dev/null 2>&1; then
    "$POSEKIT" diff nan.vmd nan.vmd --frames all >out.txt 2>err.txt
    rc=$?
    sanity diff
    case $rc in 0 | 1 | 2) ;; *) bad "diff exited $rc" ;; esac
    # a motion with itself is the same, NaN and infinity included
    [ $rc -eq 0 ] || bad "diff nan.vmd nan.vmd: exit $rc, expected 0: $(tail -1 out.txt)"
    # against a clean motion the NaN translation differs, and the heatmap
    # shows its cells grey (they were white, the row left out)
    "$POSEKIT" diff nan.vmd clean.vmd --frames all --no-morphs --svg nan.svg >out.txt 2>err.txt
    rc=$?
    sanity "diff --svg"
    [ $rc -eq 1 ] || bad "diff nan.vmd clean.vmd: exit $rc, expected 1"
    grep -q 'nan *[0-9]* *nan  a$' out.txt || bad "no nan row for bone a: $(head -4 out.txt)"
    grep -q '#777777' nan.svg || bad "the heatmap has no grey NaN cells"
    grep -q '>nan units<' nan.svg || bad "the heatmap row of bone a lacks its nan value"
fi
exit $fail
