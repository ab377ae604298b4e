#!/bin/bash
# tests/web/web.sh — stage E of tests/run.sh: the page's engine
# (WebAssembly, doc/web.md) in headless Chromium against the native CLI.
#
#  1. builds the site with web/build.sh (-Dwerror=true) into build-web/;
#  2. a Linux reference: $PK_LINUX_BUILD (tests/run.sh passes build A's
#     folder when build A ran) or its own build in build-web/linux;
#  3. checks, each counted once:
#     cp932    tests/windows/cp932_table.c built for WebAssembly (the
#              table of engine/platform/cp932_table.c, run under node) and
#              for Linux (glibc iconv): the same table, both ways;
#     fmath    tests/fmath/fmath_bits.c built for WebAssembly (the engine's
#              elementary functions, run under node) prints
#              tests/fmath/bits.txt, the Linux digests;
#     size     the site compressed (gzip -9) is under 1 MB;
#     the rest tests/web/web_tests.py: every operation in the engine's
#              worker in Chromium, byte for byte against the Linux binary,
#              bad files, the protocol, a download, screenshots of drawn
#              pictures (build-web/artefacts/web_tests/);
#              tests/web/test_page.py: the page itself, each step clicked
#              through and its downloads against the Linux binary
#              (build-web/artefacts/test_page-[12]/page-*.png), in two parts;
#              the three run side by side, a browser each, beside the
#              three checks above.
# Last line: "web: N passed, N failed, N skipped in T s".  Exit status 0
# only when nothing failed.  Logs: build-web/logs/.
#
# Environment: PK_CORPUS_DIR (as tests/run.sh), PK_LINUX_BUILD (a Linux
# build folder of this tree), PK_LINUX_WAIT (a file to wait for first,
# see 2.), PK_WEB_ONLY (a regex: only the checks of
# web_tests.py it matches).
set -uo pipefail
cd "$(dirname "$0")/../.."
src=$(pwd)
out=$src/build-web
logs=$out/logs
art=$out/artefacts
t_start=$(date +%s)
rm -rf "$logs" "$art"
mkdir -p "$logs" "$art"

stage=web
. tests/stage.sh # the checks' counting, stamp and finish

corpus=${PK_CORPUS_DIR:-}
if [ -z "$corpus" ] && [ -d ../shared/corpus ]; then
    corpus=$(cd ../shared/corpus && pwd)
fi

# ---- 1. the site ------------------------------------------------------------
if ! bash web/build.sh >"$logs/build.log" 2>&1; then
    bad "build" "web/build.sh failed: $(tail -n 20 "$logs/build.log")"
    finish
fi
ok "build"
stamp "site built"

# ---- 2. the Linux reference ------------------------------------------------
# tests/run.sh starts this script while it still compiles build A:
# PK_LINUX_WAIT names the file it writes then, "ok" or, when that compile
# failed, anything else (then this script builds its own reference).
if [ -n "${PK_LINUX_WAIT:-}" ]; then
    while [ ! -s "$PK_LINUX_WAIT" ]; do sleep 1; done
    [ "$(cat "$PK_LINUX_WAIT")" = ok ] || PK_LINUX_BUILD=
fi
lb=${PK_LINUX_BUILD:-}
if [ -z "$lb" ] || [ ! -x "$lb/cli/posekit" ]; then
    lb=$out/linux
    if { [ -f "$lb/build.ninja" ] || meson setup "$lb" -Dtests=false -Dman=disabled \
        -Dwerror=true >"$logs/linux-setup.log" 2>&1; } &&
        ninja -C "$lb" >"$logs/linux-build.log" 2>&1; then
        :
    else
        bad "linux reference" "its build failed (see $logs/)"
        finish
    fi
    stamp "Linux reference built"
fi
posekit=$lb/cli/posekit

# ---- 3. checks ---------------------------------------------------------------
# The browser checks wait on Chromium far more than they compute: they
# start first, in the background, the two scripts side by side (a browser
# each), while the table and bits programs below are built and compared.
browser_pids=()
browser_checks=()
if [ -z "$corpus" ]; then
    skip "browser checks" "no corpus: set PK_CORPUS_DIR"
else
    missing=$(python3 -c 'import sys; sys.path.insert(0, "tests/web"); import harness; print(harness.available())')
    if [ -n "$missing" ]; then
        skip "browser checks" "missing: $missing"
    else
        # web_tests.py: the engine's worker; test_page.py: the page, as a
        # user drives it, in two parts (it is the longer by half).
        for t in web_tests test_page-1 test_page-2; do
            part=1/1
            [ "$t" != web_tests ] && part=${t#test_page-}/2
            PK_WEB_PART=$part python3 tests/web/${t%-[12]}.py "$out/site" "$posekit" "$corpus" \
                "$art/$t" >"$logs/$t.log" 2>&1 &
            browser_pids+=($!)
            browser_checks+=("$t")
        done
    fi
fi

# cp932: the whole table both ways, WebAssembly against glibc.
d=$out/cp932
mkdir -p "$d"
wb=$out/posekit
inc=(-I"$src/engine/include" -I"$src/engine")
if ! gcc -std=gnu11 -O2 "${inc[@]}" -I"$lb/engine" tests/windows/cp932_table.c \
    "$lb/engine/libposekit_internal.a" -o "$d/cp932_linux" 2>"$d/cc-linux.log"; then
    bad "cp932: table" "Linux build failed: $(head -c 300 "$d/cc-linux.log")"
elif ! NODE_PATH=/usr/share/nodejs emcc -std=gnu11 -O2 "${inc[@]}" -I"$wb/engine" \
    tests/windows/cp932_table.c "$wb/engine/libposekit_internal.a" -sSINGLE_FILE=1 \
    -sENVIRONMENT=node -o "$d/cp932_web.js" 2>"$d/cc-web.log"; then
    bad "cp932: table" "WebAssembly build failed: $(head -c 300 "$d/cc-web.log")"
else
    "$d/cp932_linux" >"$d/linux.txt"
    node "$d/cp932_web.js" >"$d/web.txt"
    if [ ! -s "$d/linux.txt" ] || ! grep -q '^total d [1-9]' "$d/linux.txt"; then
        bad "cp932: table" "the Linux table is empty"
    elif cmp -s "$d/linux.txt" "$d/web.txt"; then
        ok "cp932: table ($(tail -n 1 "$d/web.txt"))"
    else
        bad "cp932: table" "differs from glibc's: $(diff "$d/linux.txt" "$d/web.txt" | head -n 6 | tr '\n' ' ')"
    fi
fi
stamp "CP932 table compared"

# fmath: posekit's elementary functions (engine/util/fmath.c) in
# WebAssembly give the bits of tests/fmath/bits.txt, as on Linux.
d=$out/fmath
mkdir -p "$d"
if ! NODE_PATH=/usr/share/nodejs emcc -std=gnu11 -O2 -ffp-contract=off "${inc[@]}" \
    tests/fmath/fmath_bits.c "$wb/engine/libposekit_internal.a" -sSINGLE_FILE=1 \
    -sENVIRONMENT=node -o "$d/fmath_web.js" 2>"$d/cc-web.log"; then
    bad "fmath: bits" "WebAssembly build failed: $(head -c 300 "$d/cc-web.log")"
elif node "$d/fmath_web.js" >"$d/web.txt" && cmp -s tests/fmath/bits.txt "$d/web.txt"; then
    ok "fmath: bits (every case of tests/fmath/fmath_cases.h as on Linux)"
else
    bad "fmath: bits" "differ from tests/fmath/bits.txt: $(diff tests/fmath/bits.txt "$d/web.txt" | head -n 6 | tr '\n' ' ')"
fi

# size: the site, compressed, under 1 MB (doc/web.md).
raw=$(cat "$out"/site/* | wc -c)
gz=$(cat "$out"/site/* | gzip -9 | wc -c)
br=-
command -v brotli >/dev/null && br=$(cat "$out"/site/* | brotli -c -q 11 | wc -c)
echo "web: site size: $raw bytes, gzip -9 $gz, brotli $br"
if [ "$gz" -lt 1048576 ]; then
    ok "size: site under 1 MB compressed"
else
    bad "size: site under 1 MB compressed" "gzip -9 gives $gz bytes"
fi

for i in "${!browser_checks[@]}"; do
    t=${browser_checks[$i]}
    wait "${browser_pids[$i]}"
    grep -E '^(PASS|FAIL|SKIP|web:)' "$logs/$t.log" | grep -vE '^web: ([0-9]* passed|failing)'
    line=$(grep -E '^web: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$logs/$t.log" | tail -n 1)
    if [ -z "$line" ]; then
        bad "browser checks ($t)" "$t.py ended without a result line: $(tail -n 15 "$logs/$t.log")"
    else
        read -r p f s < <(sed -E 's/^web: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
        pass=$((pass + p)) failn=$((failn + f)) skipn=$((skipn + s))
        while read -r n; do failed+=("$n"); done < <(grep -E '^web: failing: ' "$logs/$t.log" |
            sed 's/^web: failing: //' | tr ' ' '\n')
    fi
done
stamp "browser checks done"
finish
