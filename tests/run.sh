#!/bin/bash
# tests/run.sh — THE test command (README "Tests"; .ci/run calls it).
#
# From a fresh clone on Debian 12 as root: installs what is missing
# (.ci/setup.sh), then builds and tests three times:
#   A  gcc, -Dwerror=true
#   B  gcc, -Dwerror=true, ASan + UBSan with -fno-sanitize-recover=all
#   W  Windows: the zip of .ci/build-windows.sh (mingw-w64, -Dwerror=true),
#      posekit.exe run under Wine against build A's Linux binary
#      (tests/windows/wine.sh; its checks count like test cases)
# The shared corpus is passed with -Dcorpus_dir when ../shared/corpus (or
# $PK_CORPUS_DIR) exists.  Prints the results of each build, then one plain
# line "N passed, N failed, N skipped" counting individual test cases: each
# cmocka case counts (from the "[  PASSED  ] n test(s)." lines of each
# suite), every other test counts once.  Exit status 0 only when nothing
# failed.
#
# Environment: PK_CORPUS_DIR (corpus folder), PK_BUILDS ("a b w" by
# default; "a" runs build A only), PK_JOBS (parallel tests; default: cores).
set -uo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
start_all=$(date +%s)

# Stage times: wall seconds and the CPU time (user, system) of the
# commands the stage ran, from this shell's children totals
# (/proc/self/stat fields cutime and cstime, in clock ticks).
tick=$(getconf CLK_TCK 2>/dev/null || echo 100)
stage_times=()
stage_begin() {
    local st
    read -r -a st </proc/$$/stat
    stage_t0=$(date +%s.%N) stage_u0=${st[15]} stage_s0=${st[16]}
}
stage_end() { # NAME
    local st
    read -r -a st </proc/$$/stat
    stage_times+=("$(awk -v n="$1" -v t0="$stage_t0" -v t1="$(date +%s.%N)" -v tk="$tick" \
        -v u="$((st[15] - stage_u0))" -v s="$((st[16] - stage_s0))" \
        'BEGIN { printf "%-22s %7.1f s wall %8.1f s CPU (%.1f user, %.1f system)", n, t1 - t0, (u + s) / tk, u / tk, s / tk }')")
}

stage_begin
bash .ci/setup.sh || { echo "tests/run.sh: setup failed" >&2; exit 2; }
stage_end setup

corpus=${PK_CORPUS_DIR:-}
if [ -z "$corpus" ] && [ -d ../shared/corpus ]; then
    corpus=$(cd ../shared/corpus && pwd)
fi
corpus_opt=()
if [ -n "$corpus" ]; then
    corpus_opt=("-Dcorpus_dir=$corpus")
    echo "corpus: $corpus"
else
    echo "corpus: none (corpus tests are reported as skipped)"
fi
jobs=${PK_JOBS:-$(nproc 2>/dev/null || echo 2)}

# The tests start python3 a few hundred times (standard library only).
# They get the interpreter .ci/setup.sh installs, Debian's /usr/bin/python3
# (about 10 ms a start), else the one python3 resolves to, through a link
# in build-test-bin/ first on PATH: where python3 is a version manager's
# shim (pyenv's is a bash script that starts about ten programs before the
# interpreter, 100 ms), each start would cost ten.
py=/usr/bin/python3
[ -x "$py" ] || py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
    mkdir -p build-test-bin && ln -sfn "$py" build-test-bin/python3 &&
        export PATH="$src/build-test-bin:$PATH"
fi

# count.py BUILD_DIR: "passed failed skipped" for one meson testlog.json.
count_results() {
    python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, re, sys
passed = failed = skipped = 0
bad = []
try:
    lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
except OSError:
    print(0, 1, 0, 'no-testlog'); sys.exit()
for line in lines:
    if not line.strip():
        continue
    t = json.loads(line)
    res = t.get('result', '')
    out = (t.get('stdout') or '') + '\n' + (t.get('stderr') or '')
    p = sum(int(n) for n in re.findall(r'^\[  PASSED  \] (\d+) test', out, re.M))
    f = sum(int(n) for n in re.findall(r'^\[  FAILED  \] (\d+) test\(s\)', out, re.M))
    s = sum(int(n) for n in re.findall(r'^\[  SKIPPED \] (\d+) test\(s\)', out, re.M))
    cmocka = re.search(r'^\[==========\] (\d+) test\(s\) run', out, re.M) is not None
    if cmocka and res not in ('TIMEOUT',):
        # A suite that failed without a FAILED line (crash, sanitizer abort,
        # leak report at exit) still counts one failure.
        if res in ('FAIL', 'ERROR', 'UNEXPECTEDPASS') and f == 0:
            f = 1
        passed += p; failed += f; skipped += s
        if f:
            bad.append(t['name'])
    elif res in ('OK', 'EXPECTEDFAIL'):
        passed += 1
    elif res == 'SKIP':
        skipped += 1
    else:
        failed += 1
        bad.append(t['name'])
print(passed, failed, skipped, ','.join(bad) or '-')
PY
}

total_p=0 total_f=0 total_s=0
summary=()
run_build() { # NAME DIR DESCRIPTION MESON-OPTIONS...
    local name=$1 dir=$2 desc=$3
    shift 3
    local t0 t1 p f s bad logs="$dir-logs"
    t0=$(date +%s)
    built_ok=0
    stage_begin
    mkdir -p "$logs"
    echo
    echo "=== build $name: $desc"
    if [ -f "$dir/build.ninja" ]; then
        meson setup --reconfigure "$dir" "$@" "${corpus_opt[@]}" >"$logs/setup.log" 2>&1 ||
            meson setup --wipe "$dir" "$@" "${corpus_opt[@]}" >"$logs/setup.log" 2>&1
    else
        rm -rf "$dir"
        meson setup "$dir" "$@" "${corpus_opt[@]}" >"$logs/setup.log" 2>&1
    fi
    if [ $? -ne 0 ]; then
        cat "$logs/setup.log" >&2
        summary+=("build $name: meson setup FAILED")
        total_f=$((total_f + 1))
        return
    fi
    if ! ninja -C "$dir" >"$logs/build.log" 2>&1; then
        grep -E 'error|FAILED' "$logs/build.log" | head -n 40 >&2
        summary+=("build $name: compile FAILED (see $logs/build.log)")
        total_f=$((total_f + 1))
        return
    fi
    built_ok=1
    stage_end "$name compile"
    stage_begin
    rm -f "$dir/meson-logs/testlog.json"
    meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs"
    read -r p f s bad < <(count_results "$dir")
    stage_end "$name tests"
    t1=$(date +%s)
    total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
    local line="build $name ($desc): $p passed, $f failed, $s skipped in $((t1 - t0)) s"
    [ "$bad" != "-" ] && line="$line; failing: $bad"
    summary+=("$line")
}

# Stage W: tests/windows/wine.sh, compared with build A's binary when build
# A was built in this run (else wine.sh builds a Linux reference itself).
a_built=0
run_wine() {
    local t0 p f s line
    t0=$(date +%s)
    stage_begin
    echo
    echo "=== build W: Windows (mingw-w64 -Dwerror=true) under Wine"
    mkdir -p build-windows
    local ref=()
    [ "$a_built" = 1 ] && ref=(env "PK_LINUX_BUILD=$src/build-test-a")
    "${ref[@]}" env PK_CORPUS_DIR="$corpus" PK_JOBS="$jobs" bash tests/windows/wine.sh |
        tee build-windows/wine.log
    stage_end "W (zip and Wine)"
    line=$(grep -E '^wine: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' build-windows/wine.log | tail -n 1)
    if [ -z "$line" ]; then
        summary+=("build W: tests/windows/wine.sh ended without a result line")
        total_f=$((total_f + 1))
        return
    fi
    read -r p f s < <(sed -E 's/^wine: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
    total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
    line="build W (Windows under Wine): $p passed, $f failed, $s skipped in $(($(date +%s) - t0)) s"
    local bad
    bad=$(grep -E '^wine: failing: ' build-windows/wine.log | sed 's/^wine: failing: //')
    [ -n "$bad" ] && line="$line; failing: $bad"
    summary+=("$line")
}

builds=${PK_BUILDS:-a b w}
for b in $builds; do
    case $b in
        a) run_build A build-test-a "gcc -Dwerror=true" -Dwerror=true -Dbuildtype=debugoptimized
            a_built=$built_ok ;;
        b) run_build B build-test-b "gcc -Dwerror=true ASan+UBSan" -Dwerror=true \
            -Db_sanitize=address,undefined -Dc_args=-fno-sanitize-recover=all -Db_lundef=false ;;
        w) run_wine ;;
        *) echo "tests/run.sh: unknown build '$b'" >&2; exit 2 ;;
    esac
done

echo
echo "=== results"
for l in "${summary[@]}"; do echo "$l"; done
echo
echo "stage times:"
for l in "${stage_times[@]}"; do echo "  $l"; done
read -r -a st </proc/$$/stat
echo "total time: $(($(date +%s) - start_all)) s wall, $(((st[15] + st[16]) / tick)) s CPU ($((st[15] / tick)) user, $((st[16] / tick)) system)"
echo "$total_s skipped"
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
