#!/bin/sh
# fuzz.sh — fuzz one target for N seconds with libFuzzer under ASan+UBSan,
# then keep the inputs that add coverage in the saved corpus.
#
#   tests/fuzz/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   TARGET: vmd vpd_text vpd_hybrid rules job roundtrip pmx pmd body;  SECONDS default 600
#
# Builds build-fuzz/ with clang (-Dfuzz=true) when it does not exist.  New
# inputs go to build-fuzz/fuzz-work/TARGET/ while fuzzing; afterwards
# `-merge=1` copies into tests/fuzz/corpus/TARGET/ only those that add
# coverage.  Crashes are written to tests/fuzz/crashes/TARGET/, which the
# replay test then runs on every build until the bug is fixed.
set -eu
target=${1:?usage: fuzz.sh TARGET [SECONDS] [libFuzzer flags...]}
secs=${2:-600}
shift
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${PK_FUZZ_BUILD:-$src/build-fuzz}
if ! command -v clang >/dev/null 2>&1; then
    # Not part of .ci/setup.sh (CI only replays the saved inputs).
    echo "fuzz.sh: installing clang and its libFuzzer runtime"
    apt-get update -q && apt-get install -y -q clang libclang-rt-14-dev
fi
if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$src" -Dfuzz=true -Db_lundef=false
fi
ninja -C "$build" "tests/fuzz/fuzz_$target"
work="$build/fuzz-work/$target"
mkdir -p "$work" "$here/crashes/$target" "$here/corpus/$target"
exe="$build/tests/fuzz/fuzz_$target"
# Leak checks stay on; a slow input (> 10 s) counts as a hang.
# A crash stops libFuzzer with a non-zero status (add -fork=1
# -ignore_crashes=1 to keep going); the corpus is merged either way.
status=0
"$exe" -max_total_time="$secs" -timeout=10 -dict="$here/posekit.dict" \
    -artifact_prefix="$here/crashes/$target/" -print_final_stats=1 "$@" \
    "$work" "$here/corpus/$target" || status=$?
# Leak checks off while merging: a leaking input is already saved as a
# crash and must not stop the merge.
"$exe" -merge=1 -detect_leaks=0 -dict="$here/posekit.dict" "$here/corpus/$target" "$work"
rmdir "$here/crashes/$target" 2>/dev/null || true
du -sh --apparent-size "$here/corpus/$target"
[ "$status" -eq 0 ] || echo "fuzz.sh: the fuzzer stopped with status $status: see crashes/$target/"
exit "$status"
