#!/bin/sh
# run.sh — builds a release tree and prints the whole benchmark table
# (doc/performance.md): the machine, then bench_io, bench_ops and
# bench_sample, and bench_model when PK_CORPUS is set.  Benchmarks are not
# tests: nothing here passes or fails.
#
#   tests/bench/run.sh [BUILD_DIR] [--reps N]
#
# BUILD_DIR defaults to build-bench/ beside the sources (configured with
# --buildtype=release when it does not exist).  Inputs are generated; the
# shared corpus (PK_CORPUS, default ../shared/corpus) adds a real motion to
# the sampling figures when present.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$src/build-bench
reps=5
while [ $# -gt 0 ]; do
    case $1 in
    --reps) reps=$2; shift 2 ;;
    *) build=$1; shift ;;
    esac
done
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$src" --buildtype=release >/dev/null
fi
ninja -C "$build" >/dev/null
if [ -z "${PK_CORPUS:-}" ] && [ -d "$src/../shared/corpus" ]; then
    PK_CORPUS=$(cd "$src/../shared/corpus" && pwd)
fi
export PK_CORPUS=${PK_CORPUS:-}

echo "## machine"
echo
printf -- '- CPU: %s, %s cores\n' \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" "$(nproc)"
printf -- '- memory: %s\n' "$(free -h | awk '/^Mem:/ {print $2}')"
printf -- '- kernel: %s; file system of %s: %s\n' "$(uname -r)" "${TMPDIR:-/tmp}" \
    "$(df -T "${TMPDIR:-/tmp}" | awk 'NR == 2 {print $2}')"
printf -- '- compiler: %s, meson buildtype %s\n' "$(cc --version | head -1)" \
    "$(meson introspect --buildoptions "$build" 2>/dev/null |
       python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"][0])' 2>/dev/null || echo '?')"
printf -- '- transparent huge pages: %s\n' \
    "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not offered')"
printf -- '- load average at start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## I/O (best of $reps; peak RSS per case, in its own process)"
echo
"$build/tests/bench/bench_io" --reps "$reps" --posekit "$build/cli/posekit"
echo
echo "## operations"
echo
"$build/tests/bench/bench_ops" --reps "$reps"
echo
echo "## sampling (pk_cursor, every bone at every frame)"
echo
if [ -x "$build/tests/bench/bench_sample" ]; then
    "$build/tests/bench/bench_sample" --reps "$reps"
else
    echo "(bench_sample not built)"
fi
echo
echo "## models (pmx_gene.pmx, pmd_gene.pmd into the skeleton; needs PK_CORPUS)"
echo
if [ -n "${PK_CORPUS:-}" ]; then
    "$build/tests/bench/bench_model" --reps "$reps"
else
    echo "(PK_CORPUS not set: bench_model skipped)"
fi
echo
echo "## retarget between two models (a 4 MB dance, the corpus models; needs PK_CORPUS)"
echo
if [ -n "${PK_CORPUS:-}" ]; then
    "$build/tests/bench/bench_retarget" --reps "$reps"
else
    echo "(PK_CORPUS not set: bench_retarget skipped)"
fi
