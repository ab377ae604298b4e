# bad_truncate.sh — every sample, corpus file and fuzz seed, cut at several
# offsets and with random byte flips (fixed seed), through `posekit info`
# and `posekit convert`:
#   - exit status 0 or 2, nothing else (no crash, no abort);
#   - no sanitizer report on stderr;
#   - exit 2: the first message is "posekit: FILE:POSITION: ..." naming the
#     file and an offset or line:col;
#   - convert failing: no output file and no temporary file left behind;
#   - convert of a VMD succeeding: the output is the input byte for byte
#     (the round-trip law holds for any file the reader accepts);
#   - the input file is never changed;
#   - --strict succeeding: no warning was printed.
# bad_flip.sh runs the same checks on the flipped variants (BAD_MODE=flip),
# so the two halves run in parallel.
# Which cuts are legal is checked precisely by the unit suites
# (test_vmd_bad.c, test_bad_inputs.c); here the whole CLI is exercised.
# run-case.sh runs cases under -e -o pipefail; these cases check exit
# statuses themselves.
set -u +e +o pipefail
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir -p in var
n=0
for f in "$PK_SOURCE"/samples/*.vmd "$PK_SOURCE"/samples/*.vpd \
         "$PK_SOURCE"/samples/*/*.vmd "$PK_SOURCE"/samples/*/*.vpd \
         "${PK_CORPUS:-/nonexistent}"/*.vmd "${PK_CORPUS:-/nonexistent}"/*.vpd \
         "$PK_SOURCE"/tests/fuzz/corpus/vmd/seed_*.vmd \
         "$PK_SOURCE"/tests/fuzz/corpus/vpd_text/seed_*.vpd \
         "$PK_SOURCE"/tests/fuzz/corpus/vpd_hybrid/seed_*.vpd; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    ext=${f##*.}
    cp "$f" "in/$n.$ext"
done
[ "$n" -gt 0 ] || { echo "no input files found"; exit 1; }
[ -n "${PK_CORPUS:-}" ] || echo "note: PK_CORPUS unset, corpus files not included"

# Variants: cuts at fixed places (inside the signature, the model name, the
# first count, the first record, the middle, one byte short) and a fixed
# seeded spread; flips of 1-4 bytes.
mode=${BAD_MODE:-cut}
python3 - in var "$mode" <<'PY'
import os, random, sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
rnd = random.Random(20240601)
for name in sorted(os.listdir(src)):
    data = open(os.path.join(src, name), "rb").read()
    base, ext = name.rsplit(".", 1)
    L = len(data)
    cuts = {0, 24, 40, 52, 120, L // 2, L - 1}
    cuts |= {rnd.randrange(0, L + 1) for _ in range(2)} if L else set()
    for c in sorted(x for x in cuts if 0 <= x < L and mode == "cut"):
        open(os.path.join(dst, "%s.cut%d.%s" % (base, c, ext)), "wb").write(data[:c])
    for k in range(5 if L and mode == "flip" else 0):
        m = bytearray(data)
        for _ in range(rnd.randint(1, 4)):
            m[rnd.randrange(L)] = rnd.choice([rnd.randrange(256), 0, 0xFF, ord("{"), ord("}"),
                                              ord(";"), ord("\n"), ord(",")])
        open(os.path.join(dst, "%s.flip%d.%s" % (base, k, ext)), "wb").write(bytes(m))
PY

sanitizer='Sanitizer|runtime error:|AddressSanitizer|LeakSanitizer'
runs=0
for v in var/*; do
    ext=${v##*.}
    sum=$(cksum <"$v")
    # info
    "$POSEKIT" info "$v" >out.txt 2>err.txt
    rc=$?
    runs=$((runs + 1))
    case $rc in 0 | 2) ;; *) bad "$v: info exited $rc"; head -5 err.txt ;; esac
    if grep -Eq "$sanitizer" err.txt; then bad "$v: sanitizer report"; head -20 err.txt; fi
    # The first error (warnings may come before it, with or without a
    # position) names the file and a position.
    first_error() { grep '^posekit: ' err.txt | grep -v ': warning: ' | head -1; }
    if [ $rc -eq 2 ] && ! first_error | grep -Eq "^posekit: $v:[0-9]+(:[0-9]+)?: "; then
        bad "$v: info error without file:position: $(first_error)"
    fi
    warned=0
    grep -q ': warning: ' err.txt && warned=1
    # convert to the same format
    rm -rf outdir && mkdir outdir
    "$POSEKIT" convert "$v" -o "outdir/out.$ext" >/dev/null 2>err.txt
    rc=$?
    runs=$((runs + 1))
    case $rc in 0 | 2) ;; *) bad "$v: convert exited $rc"; head -5 err.txt ;; esac
    if grep -Eq "$sanitizer" err.txt; then bad "$v: sanitizer report (convert)"; head -20 err.txt; fi
    if [ $rc -eq 2 ]; then
        [ -z "$(ls -A outdir)" ] || bad "$v: convert failed but left: $(ls -A outdir)"
        # An input error names the input and a position; an error while
        # encoding (a name too long for the output format) names the output.
        first_error | grep -Eq "^posekit: ($v:[0-9]+(:[0-9]+)?|outdir/out\.$ext): " ||
            bad "$v: convert error without file:position: $(first_error)"
    elif [ "$ext" = vmd ]; then
        cmp -s "$v" "outdir/out.$ext" || bad "$v: VMD accepted but not written back byte-identical"
    fi
    # --strict: a file that gives warnings fails
    if [ $warned -eq 1 ]; then
        "$POSEKIT" info --strict "$v" >/dev/null 2>err.txt
        rc=$?
        runs=$((runs + 1))
        [ $rc -eq 2 ] || bad "$v: warnings, but info --strict exited $rc"
    fi
    [ "$(cksum <"$v")" = "$sum" ] || bad "$v: input changed"
done
echo "bad_$mode: $(ls var | wc -l) variants of $n files, $runs runs"
exit $fail
