# tests/stage.sh — the counting shared by the stage scripts of tests/run.sh
# that are not meson tests: tests/windows/wine.sh (W) and tests/web/web.sh
# (E).  Sourced after the script sets `stage` (the prefix of its lines,
# "wine", "web") and `t_start` (its start, date +%s).  A script may define
# stage_cleanup, which finish runs first.
#   ok NAME          a check passed:  "PASS NAME"
#   bad NAME WHY     a check failed:  "FAIL NAME: WHY"
#   skip NAME WHY    a check skipped: "SKIP NAME (WHY)"
#   stamp WHAT       "STAGE: WHAT (T s; CPU U s user, S s system)": the time
#                    since the start and the CPU time of the commands run
#                    since the last stamp (this shell's finished children)
#   finish           the last line, "STAGE: N passed, N failed, N skipped
#                    in T s", and exit: status 0 only when nothing failed
pass=0 failn=0 skipn=0
failed=()
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { # NAME WHY
    failn=$((failn + 1))
    failed+=("$1")
    echo "FAIL $1: $2"
}
skip() { skipn=$((skipn + 1)); echo "SKIP $1 ($2)"; }
finish() {
    declare -F stage_cleanup >/dev/null && stage_cleanup
    local t=$(($(date +%s) - t_start))
    [ ${#failed[@]} -gt 0 ] && echo "$stage: failing: ${failed[*]}"
    echo "$stage: $pass passed, $failn failed, $skipn skipped in $t s"
    [ "$failn" -eq 0 ]
    exit
}
tick=$(getconf CLK_TCK 2>/dev/null || echo 100)
read -r -a cpu0 </proc/$$/stat
stamp() {
    local st
    read -r -a st </proc/$$/stat
    echo "$stage: $1 ($(($(date +%s) - t_start)) s; CPU $(awk -v u=$((st[15] - cpu0[15])) \
        -v s=$((st[16] - cpu0[16])) -v t="$tick" 'BEGIN { printf "%.1f s user, %.1f s system", u / t, s / t }'))"
    cpu0=("${st[@]}")
}
