#!/bin/bash
# each.sh — the speed-up of `posekit run JOB --each` on N files at once
# (-j 2, -j N) over one at a time (-j 1): 64 dances made from the corpus
# motions (copied round robin into a temporary folder, never into the
# tree), a job that bakes and reduces each one; wall time, best of REPS
# (the machine may be shared: the best run is the least disturbed one).
# Not a test: nothing passes or fails.  doc/performance.md gives a run.
#
#   tests/bench/each.sh [POSEKIT] [--reps N] [--files N] [--dry-run]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
posekit=$src/build/cli/posekit
reps=3 files=64 dry=
while [ $# -gt 0 ]; do
    case $1 in
    --reps) reps=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --dry-run) dry=--dry-run; shift ;;
    *) posekit=$1; shift ;;
    esac
done
corpus=${PK_CORPUS:-$src/../shared/corpus}
export POSEKIT_RULES_DIR=$src/rules POSEKIT_BODIES_DIR=$src/bodies
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/dances"
# the corpus motions of 10 kB and more (bone motions, up to the 1.6 MB
# vmd_wavefile_v2.vmd)
mapfile -t pool < <(find "$corpus" -name 'vmd_*.vmd' -size +10k | sort)
[ ${#pool[@]} -gt 0 ] || { echo "each.sh: no corpus dances in $corpus" >&2; exit 2; }
for ((i = 0; i < files; i++)); do
    f=${pool[i % ${#pool[@]}]}
    cp "$f" "$work/dances/$(printf %02d "$i")-$(basename "$f")"
done
cat >"$work/job.yaml" <<'YAML'
inputs:
  dance: "{each}"
steps:
  - bake: {in: dance, out: dense}
  - reduce: {in: dense, max_deg: 0.05, max_pos: 0.001, out: light}
outputs:
  light: out/{stem}.vmd
YAML
# best wall time of reps runs of `run --each -j J`, in seconds
best() {
    local j=$1 b= t s e
    for ((r = 0; r < reps; r++)); do
        rm -rf "$work/out"
        s=$(date +%s.%N)
        (cd "$work" && "$posekit" run job.yaml --each 'dances/*.vmd' -j "$j" $dry >/dev/null 2>&1) ||
            { echo "each.sh: posekit failed with -j $j" >&2; exit 2; }
        e=$(date +%s.%N)
        t=$(echo "$e - $s" | bc)
        if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
    done
    echo "$b"
}
echo "$files dances (${#pool[@]} corpus motions, round robin), bake + reduce each${dry:+ (dry run)}; $(nproc) cores; best of $reps"
one=$(best 1)
printf -- '-j 1: %.3f s\n' "$one"
for j in 2 $(nproc); do
    [ "$j" -gt 1 ] || continue
    t=$(best "$j")
    printf -- '-j %s: %.3f s, speed-up %.2fx\n' "$j" "$t" "$(echo "$one / $t" | bc -l)"
    [ "$j" = "$(nproc)" ] && break
done
