#!/bin/bash
# tests/run.sh — THE test command (doc/testing.md; .ci/run calls it).
#
# From a fresh clone on Debian 12 as root: installs what is missing
# (.ci/setup.sh), then builds and tests three times:
#   A  gcc, -Dwerror=true, -O2 -g1, its prefix build-test-a/prefix
#      (cli/install_prefix installs it there instead of compiling the
#      tree again)
#   B  gcc, -Dwerror=true, -O2 -g1, ASan + UBSan, UBSan trapping
#      (-fsanitize-undefined-trap-on-error: a check fails on an illegal
#      instruction, which ASan reports with its stack; without UBSan's
#      runtime and its 5 MB of check descriptors a program starts and ends
#      for 2,200 page faults instead of 5,400) (-g1: the line tables stack
#      traces need, without -g's types and variables, which cost a third
#      of the compile)
#   A and B link with gold (-fuse-ld=gold) where it is installed: each
#      test program links the engine's archive, about 130 links, which
#      take half ld.bfd's CPU with it (doc/testing.md)
#   W  Windows: the zip of .ci/build-windows.sh (mingw-w64, -Dwerror=true),
#      posekit.exe run under Wine against build A's Linux binary
#      (tests/windows/wine.sh; its checks count like test cases)
#   E  the browser: the site of web/build.sh (Emscripten, -Dwerror=true),
#      its engine run in headless Chromium against build A's Linux binary
#      (tests/web/web.sh; its checks count like test cases)
# B, W and E run in the background beside build A from the start; W and
# E compile first and wait for A's binary only for their checks.
# The shared corpus is passed with -Dcorpus_dir when ../shared/corpus (or
# $PK_CORPUS_DIR) exists.  Prints the results of each build and the time
# each stage took (wall, and the CPU time of its commands), then the
# skipped tests on a line of their own, and last one plain line
# "N passed, N failed" counting individual test cases: each cmocka case
# counts (from the "[  PASSED  ] n test(s)." lines of each suite), every
# other test counts once.  On CI (CI=true) a skipped test counts as
# failed: CI has every tool and the corpus, so a skip there would hide a
# check.  Exit status 0 only when nothing failed.
#
# Environment: PK_CORPUS_DIR (corpus folder), PK_BUILDS ("a b w e" by
# default; "a" runs build A only), PK_JOBS (parallel tests; default: cores),
# PK_TESTS (names of the tests builds A and B run; default all), CI (true:
# skips fail), PK_RUSAGE=N (each test's CPU time, by tests/rusage.py, in
# DIR-logs/cpu.txt; the N dearest of each build listed after its tests).
set -uo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
start_all=$(date +%s)

# Stage times: wall seconds and the CPU time (user, system) of the commands
# a stage ran, from this shell's totals for its finished children
# (/proc/PID/stat fields cutime and cstime, in clock ticks).
tick=$(getconf CLK_TCK 2>/dev/null || echo 100)
stage_times=()
cpu_now() { # sets cpu_u, cpu_s: this (sub)shell's finished children, in ticks
    local st
    read -r -a st </proc/$BASHPID/stat
    cpu_u=${st[15]} cpu_s=${st[16]}
}
stage_begin() {
    stage_t0=$(date +%s.%N)
    cpu_now
    stage_u0=$cpu_u stage_s0=$cpu_s
}
stage_line() { # NAME: sets stage_text, the line for the stage begun last
    cpu_now
    local u=$((cpu_u - stage_u0)) s=$((cpu_s - stage_s0))
    stage_text=$(awk -v n="$1" -v t0="$stage_t0" -v t1="$(date +%s.%N)" -v tk="$tick" \
        -v u="$u" -v s="$s" \
        'BEGIN { printf "%-24s %7.1f s wall %8.1f s CPU (%.1f user, %.1f system)", n, t1 - t0, (u + s) / tk, u / tk, s / tk }')
}
stage_end() {
    stage_line "$1"
    stage_times+=("$stage_text")
}

builds=${PK_BUILDS:-a b w e}
want_a=0 want_b=0 want_w=0 want_e=0
for b in $builds; do
    case $b in
        a) want_a=1 ;;
        b) want_b=1 ;;
        w) want_w=1 ;;
        e) want_e=1 ;;
        *) echo "tests/run.sh: unknown build '$b'" >&2; exit 2 ;;
    esac
done

# Setup in parts: what builds A and B compile and test with first; then,
# in the background beside build A, what only stages W and E need
# (mingw-w64, Wine, Emscripten, Chromium: on a fresh machine most of the
# download and of the unpacking), and after it node and the npm package
# of the interop test (node is already there when the first installed
# Emscripten).  One apt at a time:
# the background parts run one after the other, and W's and E's own
# scripts (their `apt-get source`) start after the first.  W and E wait
# for the first ($stages_ready): they are long chains (a compile, then
# checks that wait on Wine and Chromium), so they get their packages
# first.  Only the interop test waits for the second ($interop_ready, in
# the tests' environment as PK_SETUP_INTEROP_READY): it runs last in
# builds A and B (its priority) and waits there.  Each file reads "ok" or
# "failed".
stage_begin
bash .ci/setup.sh core || { echo "tests/run.sh: setup failed" >&2; exit 2; }
stage_end setup
interop_ready='' stages_ready='' setup_pid=''
if [ "$want_a" = 1 ] || [ "$want_b" = 1 ] || [ "$want_w" = 1 ] || [ "$want_e" = 1 ]; then
    mkdir -p build-setup-logs
    rm -f build-setup-logs/*
    { [ "$want_a" = 1 ] || [ "$want_b" = 1 ]; } && interop_ready=$src/build-setup-logs/interop-ready
    { [ "$want_w" = 1 ] || [ "$want_e" = 1 ]; } && stages_ready=$src/build-setup-logs/stages-ready
    echo "=== setup of the rest: .ci/setup.sh${stages_ready:+ stages}${interop_ready:+ interop}, beside build A (build-setup-logs/)"
    (
        # setup_part PART READY-FILE: .ci/setup.sh PART, its stage line
        setup_part() {
            local r=failed
            stage_begin
            bash .ci/setup.sh "$1" >"build-setup-logs/$1.log" 2>&1 && r=ok
            stage_line "setup ($1)"
            echo "$stage_text" >>build-setup-logs/stages.txt
            echo "$r" >"$2"
        }
        [ -n "$stages_ready" ] && setup_part stages "$stages_ready"
        [ -n "$interop_ready" ] && setup_part interop "$interop_ready"
        true
    ) &
    setup_pid=$!
fi
# setup_wait READY-FILE: waits for a background part of the setup; status
# 0 when it installed everything.  A part that ended without writing its
# result (its shell killed) counts as failed.
setup_wait() {
    [ -n "$1" ] || return 0
    local state=''
    while [ ! -s "$1" ]; do
        # (a child that ended but is not yet reaped reads Z)
        read -r _ _ state _ 2>/dev/null </proc/"$setup_pid"/stat && [ "$state" != Z ] || break
        sleep 1
    done
    [ "$(cat "$1" 2>/dev/null)" = ok ]
}

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
# Builds A and B link with gold where it is installed (binutils has it
# on Debian): the same programs for about half ld.bfd's CPU.
link_opt=()
command -v ld.gold >/dev/null 2>&1 && link_opt=(-Dc_link_args=-fuse-ld=gold)
jobs=${PK_JOBS:-$(nproc 2>/dev/null || echo 2)}
on_ci=0
[ "${CI:-}" = true ] && on_ci=1

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

# count_results LOG: "passed failed skipped failing skipping" for one meson
# test log (testlog.json; testlog-rusage.py.json when the tests ran under
# tests/rusage.py: meson names the log after the wrapper) (the last two:
# test names joined by commas, or -).
count_results() {
    python3 - "$1" <<'PY'
import json, re, sys
passed = failed = skipped = 0
bad, skips = [], []
try:
    lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
except OSError:
    print(0, 1, 0, 'no-testlog', '-'); sys.exit()
for line in lines:
    if not line.strip():
        continue
    t = json.loads(line)
    res = t.get('result', '')
    name = t['name'].replace(' ', '')
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
            bad.append(name)
        if s:
            skips += [name + ':' + c for c in re.findall(r'^\[  SKIPPED \] (\S+)', out, re.M)]
    elif res in ('OK', 'EXPECTEDFAIL'):
        passed += 1
    elif res == 'SKIP':
        skipped += 1
        skips.append(name)
    else:
        failed += 1
        bad.append(name)
print(passed, failed, skipped, ','.join(bad) or '-', ','.join(skips) or '-')
PY
}

total_p=0 total_f=0 total_s=0
summary=() skipped_names=()
# add_counts NAME P F S FAILING SKIPPING: adds one build's counts to the
# totals (on CI, skips as failures) and its line to the summary.
add_counts() {
    local name=$1 p=$2 f=$3 s=$4 bad=$5 skips=$6 line
    total_p=$((total_p + p)) total_f=$((total_f + f))
    line="build $name: $p passed, $f failed, $s skipped"
    [ "$bad" != "-" ] && line="$line; failing: $bad"
    if [ "$skips" != "-" ]; then
        line="$line; skipped: $skips"
        skipped_names+=("${skips//,/ }")
    fi
    if [ "$on_ci" = 1 ] && [ "$s" -gt 0 ]; then
        total_f=$((total_f + s))
        line="$line (failures on CI)"
    else
        total_s=$((total_s + s))
    fi
    summary+=("$line")
}

# configure_and_compile NAME DIR MESON-OPTIONS...: sets built_ok.
configure_and_compile() {
    local name=$1 dir=$2 logs="$2-logs"
    shift 2
    built_ok=0
    mkdir -p "$logs"
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
}

# run_build NAME DIR DESCRIPTION MESON-OPTIONS...: compiles and tests one
# Linux build.  Build A writes "ok" (or "failed") into $linux_ready when
# its compile ends: stages W and E, started before it, wait for that file
# to compare with its binary.
run_build() {
    local name=$1 dir=$2 desc=$3
    shift 3
    local p f s bad skips
    echo
    echo "=== build $name: $desc"
    stage_begin
    configure_and_compile "$name" "$dir" "$@"
    stage_end "$name compile"
    if [ "$name" = A ] && [ -n "$linux_ready" ]; then
        [ "$built_ok" = 1 ] && echo ok >"$linux_ready" || echo failed >"$linux_ready"
    fi
    [ "$built_ok" = 1 ] || return
    # From here on build A is work that waits for nothing: it yields to
    # the checks of W and E (see "Every stage" below).
    [ "$name" = A ] && batch
    stage_begin
    local log="$dir/meson-logs/testlog.json"
    # shellcheck disable=SC2086 # PK_TESTS: names, split on spaces
    local wrap=()
    if [ -n "${PK_RUSAGE:-}" ]; then
        rm -f "$dir-logs/cpu.txt"
        wrap=(--wrapper "$src/tests/rusage.py")
        log="$dir/meson-logs/testlog-rusage.py.json"
    fi
    rm -f "$log"
    PK_SETUP_INTEROP_READY=$interop_ready \
        PK_RUSAGE_LOG=$src/$dir-logs/cpu.txt meson test -C "$dir" --no-rebuild --print-errorlogs \
        --num-processes "$jobs" "${wrap[@]}" ${PK_TESTS:-}
    read -r p f s bad skips < <(count_results "$log")
    stage_end "$name tests"
    [ -n "${PK_RUSAGE:-}" ] && python3 tests/rusage.py --top "$PK_RUSAGE" "$dir-logs/cpu.txt"
    add_counts "$name ($desc)" "$p" "$f" "$s" "$bad" "$skips"
}

# Every stage runs in a subshell of its own, so that its CPU time is its
# own commands' (a subshell counts the children it waited for): build A
# in the foreground, its output on the console; B, W and E in the
# background, beside A from the start, their output in a log shown when
# they end.  The longest chain is B's: its compile and its tests under
# the sanitizers take half the run's CPU; E's comes next (its site,
# build A's binary, then checks that wait on Chromium far more than they
# compute; W's the same with Wine).  So B, A's compile, W and E run at
# the normal priority, and A's tests at nice 10 (batch): they fill the
# cores and never keep B or a check of W or E waiting.  A stage leaves its results in
# DIR-logs/: its summary lines, stage lines and skipped tests, and
# "passed failed skipped" (on CI, skips already counted as failures).
batch() { # this (sub)shell and what it starts yield the cores to the rest
    renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true
}
stage_save() { # DIR-LOGS
    printf '%s\n' "${summary[@]}" >"$1/summary.txt"
    printf '%s\n' "${stage_times[@]}" >"$1/stages.txt"
    printf '%s\n' "${skipped_names[@]}" >"$1/skipped.txt"
    echo "$total_p $total_f $total_s" >"$1/counts.txt"
}
stage_merge() { # DIR-LOGS NAME: adds a finished stage's results to this shell's
    local l p f s
    if [ ! -s "$1/counts.txt" ]; then
        summary+=("build $2: ended without results (see $1/)")
        total_f=$((total_f + 1))
        return
    fi
    while IFS= read -r l; do [ -n "$l" ] && summary+=("$l"); done <"$1/summary.txt"
    while IFS= read -r l; do [ -n "$l" ] && stage_times+=("$l"); done <"$1/stages.txt"
    while IFS= read -r l; do [ -n "$l" ] && skipped_names+=("$l"); done <"$1/skipped.txt"
    read -r p f s <"$1/counts.txt"
    total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
}
stage_fresh() { # DIR-LOGS: empty results, in a stage's subshell
    mkdir -p "$1"
    rm -f "$1/counts.txt"
    summary=() stage_times=() skipped_names=()
    total_p=0 total_f=0 total_s=0
}

# Stages W and E: each is a script printing "PASS NAME" / "FAIL NAME:
# WHY" / "SKIP NAME (WHY)" lines, "TAG: failing: NAMES" and last "TAG: N
# passed, N failed, N skipped in T s" into DIR/TAG.log; it is compared
# with build A's binary when build A is built in this run (else the
# script builds a Linux reference itself).
bg_stage() { # LETTER: sets the stage's bg_* description
    case $1 in
        W) bg_dir=build-windows bg_tag=wine bg_script=tests/windows/wine.sh bg_env=(${PK_JOBS:+"PK_JOBS=$PK_JOBS"})
            bg_start="Windows (mingw-w64 -Dwerror=true) under Wine" bg_title="Windows under Wine"
            bg_time="W (zip and Wine)" bg_name="W (Windows under Wine)" ;;
        E) bg_dir=build-web bg_tag=web bg_script=tests/web/web.sh bg_env=()
            bg_start="the browser (Emscripten -Dwerror=true) in headless Chromium" bg_title="the browser"
            bg_time="E (site and Chromium)" bg_name="E (browser)" ;;
    esac
}
check_stage() { # LETTER: runs stage W or E, counts its checks
    local bg_dir bg_tag bg_script bg_env bg_start bg_title bg_time bg_name
    local p f s line bad skips log ref=()
    bg_stage "$1"
    log=$bg_dir/$bg_tag.log
    [ "$want_a" = 1 ] && ref=("PK_LINUX_BUILD=$src/build-test-a" "PK_LINUX_WAIT=$linux_ready")
    if ! setup_wait "$stages_ready"; then
        echo
        echo "=== build $1: $bg_title"
        echo "its packages are missing: .ci/setup.sh stages failed (build-setup-logs/stages.log):"
        tail -n 20 build-setup-logs/stages.log
        summary+=("build $1: not run: .ci/setup.sh stages failed (build-setup-logs/stages.log)")
        total_f=$((total_f + 1))
        return
    fi
    stage_begin
    env "${ref[@]}" PK_CORPUS_DIR="$corpus" "${bg_env[@]}" bash "$bg_script" >"$log" 2>&1
    stage_end "$bg_time"
    echo
    echo "=== build $1: $bg_title ($log)"
    grep -E "^($bg_tag:|FAIL|SKIP|FLAKY)" "$log"
    line=$(grep -E "^$bg_tag: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped" "$log" | tail -n 1)
    if [ -z "$line" ]; then
        tail -n 20 "$log"
        summary+=("build $1: $bg_script ended without a result line")
        total_f=$((total_f + 1))
        return
    fi
    read -r p f s < <(sed -E "s/^$bg_tag: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/" <<<"$line")
    bad=$(grep -E "^$bg_tag: failing: " "$log" | tail -n 1 | sed "s/^$bg_tag: failing: //; s/ /,/g")
    skips=$(grep -E '^SKIP ' "$log" | sed 's/^SKIP //; s/ (.*//; s/ /_/g' | paste -sd, -)
    add_counts "$bg_name" "$p" "$f" "$s" "${bad:--}" "${skips:--}"
}

declare -A bg_pid=() bg_logs=()
start_bg() { # LETTER: stage B, W or E in the background
    local logs bg_dir bg_tag bg_script bg_env bg_start bg_title bg_time bg_name
    case $1 in
        B) logs=build-test-b-logs
            echo "=== build B: gcc -Dwerror=true ASan+UBSan, beside build A ($logs/run.log)" ;;
        *) bg_stage "$1"
            logs=$bg_dir/logs-stage
            mkdir -p "$bg_dir"
            echo "=== build $1: $bg_start, beside build A ($bg_dir/$bg_tag.log)" ;;
    esac
    bg_logs[$1]=$logs
    mkdir -p "$logs"
    (
        stage_fresh "$logs"
        case $1 in
            B) run_build B build-test-b "gcc -Dwerror=true ASan+UBSan" -Dwerror=true \
                -Db_sanitize=address \
                "-Dc_args=-fsanitize=undefined -fsanitize-undefined-trap-on-error -g1" \
                -Db_lundef=false "${link_opt[@]}" >"$logs/run.log" 2>&1 ;;
            *) check_stage "$1" >"$logs/run.log" 2>&1 ;;
        esac
        stage_save "$logs"
    ) &
    bg_pid[$1]=$!
}
finish_bg() { # LETTER: waits for a background stage, shows its output, counts it
    wait "${bg_pid[$1]}"
    cat "${bg_logs[$1]}/run.log"
    stage_merge "${bg_logs[$1]}" "$1"
}

linux_ready=
if [ "$want_a" = 1 ]; then
    mkdir -p build-test-a-logs
    linux_ready=$src/build-test-a-logs/compiled
    rm -f "$linux_ready"
fi
started=()
for b in B W E; do
    eval "[ \"\$want_${b,}\" = 1 ]" && start_bg "$b" && started+=("$b")
done
if [ "$want_a" = 1 ]; then
    (
        stage_fresh build-test-a-logs
        run_build A build-test-a "gcc -Dwerror=true" -Dwerror=true -Dbuildtype=debugoptimized \
            -Dc_args=-g1 "-Dprefix=$src/build-test-a/prefix" "${link_opt[@]}"
        stage_save build-test-a-logs
    )
    stage_merge build-test-a-logs A
fi
if [ ${#started[@]} -gt 0 ]; then
    stage_begin
    for b in B W E; do
        [ -n "${bg_pid[$b]:-}" ] && finish_bg "$b"
    done
    [ "$want_a" = 1 ] && stage_line "after A: the rest of ${started[*]}" &&
        stage_times+=("${stage_text%% s wall*} s wall")
fi
if [ -n "$setup_pid" ]; then
    wait "$setup_pid"
    [ -f build-setup-logs/stages.txt ] &&
        while IFS= read -r l; do [ -n "$l" ] && stage_times+=("$l"); done <build-setup-logs/stages.txt
fi

echo
echo "=== results"
for l in "${summary[@]}"; do echo "$l"; done
echo
echo "stage times:"
for l in "${stage_times[@]}"; do echo "  $l"; done
cpu_now
echo "total time: $(($(date +%s) - start_all)) s wall, $(((cpu_u + cpu_s) / tick)) s CPU" \
    "($((cpu_u / tick)) user, $((cpu_s / tick)) system)"
if [ "$total_s" -gt 0 ]; then
    echo "$total_s skipped: ${skipped_names[*]}"
else
    echo "0 skipped"
fi
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
