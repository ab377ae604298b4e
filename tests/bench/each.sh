#!/bin/bash
# each.sh — the speed-up of `posekit run JOB --each` on N files at once
# (-j 2, -j N) over one at a time (-j 1): 64 dances made from the corpus
# motions (copied round robin into a temporary folder, never into the
# tree), a job that bakes and reduces each one; wall time, best of REPS
# (the machine may be shared: the best run is the least disturbed one).
# Not a test: nothing passes or fails.  doc/performance.md gives a run.
#
#   tests/bench/each.sh [POSEKIT] [--reps N] [--files N] [--dry-run]
# (needs /usr/bin/time and bc)
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
# best wall time of reps runs of `run --each -j J`: "WALL CPU" in
# seconds (CPU: user + system of that run).  Linux schedules a session's
# threads as one group against the other sessions (autogroup): on a busy
# shared machine the best run is the one that found the cores free.
best() {
    local j=$1 b= c= w u s
    for ((r = 0; r < reps; r++)); do
        rm -rf "$work/out"
        read -r w u s < <(cd "$work" && /usr/bin/time -f '%e %U %S' -o "$work/time" \
            "$posekit" run job.yaml --each 'dances/*.vmd' -j "$j" $dry >/dev/null 2>&1;
            cat "$work/time") ||
            { echo "each.sh: posekit failed with -j $j" >&2; exit 2; }
        if [ -z "$b" ] || [ "$(echo "$w < $b" | bc)" = 1 ]; then
            b=$w
            c=$(echo "$u + $s" | bc)
        fi
    done
    echo "$b $c"
}
echo "$files dances (${#pool[@]} corpus motions, round robin), bake + reduce each${dry:+ (dry run)}; $(nproc) cores; best of $reps; load average $(cut -d' ' -f1-3 /proc/loadavg)"
read -r one cpu < <(best 1)
printf -- '-j 1: %.2f s (%.2f s CPU)\n' "$one" "$cpu"
for j in 2 $(nproc); do
    [ "$j" -gt 1 ] || continue
    read -r t cpu < <(best "$j")
    printf -- '-j %s: %.2f s (%.2f s CPU), speed-up %.2fx\n' "$j" "$t" "$cpu" "$(echo "$one / $t" | bc -l)"
    [ "$j" = "$(nproc)" ] && break
done
