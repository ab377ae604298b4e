# bad_yaml.sh — the YAML inputs cut short: every shipped rule file through
# `posekit rename --rules`, the sample job through `posekit run` (dry run,
# and real runs that must write nothing when they fail).  Exit 0 or 2 only,
# no sanitizer report, errors that name their file (with line:col when the
# file is the YAML), and no output written by a failing run.
# run-case.sh runs cases under -e -o pipefail; this case checks exit
# statuses itself.
set -u +e +o pipefail
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -f "$PK_SOURCE/samples/hand-overlay.yaml" ] || { echo "SKIP: no samples/hand-overlay.yaml"; exit 77; }
# The job's paths are relative to it: samples/ -> s/, rules/ -> rules/.
mkdir s
cp -r "$PK_SOURCE/samples/dance.vmd" "$PK_SOURCE/samples/hands" s/
cp -r "$PK_SOURCE/rules" rules

first_error() { grep '^posekit: ' err.txt | grep -v ': warning: ' | head -1; }
check() { # WHAT RC YAML_PATH
    case $2 in 0 | 2) ;; *) bad "$1: exit $2: $(head -3 err.txt)" ;; esac
    if grep -Eq 'Sanitizer|runtime error:' err.txt; then bad "$1: sanitizer report"; fi
    if [ "$2" -eq 2 ]; then
        e=$(first_error)
        case $e in
        "posekit: $3:"*)
            echo "$e" | grep -Eq "^posekit: $3:[0-9]+:[0-9]+: " ||
                bad "$1: YAML error without line:col: $e" ;;
        "posekit: "*) ;; # another file named (an input, an output)
        *) bad "$1: error does not name a file: $e" ;;
        esac
    fi
}
cuts() { # FILE -> offsets: 0, 1, a few spread, the last line partly
    python3 -c 'import sys
n = len(open(sys.argv[1], "rb").read())
print(" ".join(str(c) for c in sorted({0, 1, 7, n // 5, n // 3, n // 2, (2 * n) // 3, n - 10, n - 2} - {n}) if c >= 0))' "$1"
}

# rules files
mkdir r
runs=0
for f in rules/*.yaml; do
    base=$(basename "$f")
    for c in $(cuts "$f"); do
        head -c "$c" "$f" >"r/$base"
        rm -f out.vmd
        "$POSEKIT" rename s/dance.vmd --rules "r/$base" -o out.vmd >/dev/null 2>err.txt
        rc=$?
        runs=$((runs + 1))
        check "rules $base cut at $c" $rc "r/$base"
        [ $rc -eq 0 ] || [ ! -e out.vmd ] || bad "rules $base cut at $c: failed but wrote out.vmd"
    done
done

# the job file
job=$PK_SOURCE/samples/hand-overlay.yaml
for c in $(cuts "$job"); do
    head -c "$c" "$job" >s/cut.yaml
    "$POSEKIT" run s/cut.yaml --dry-run >/dev/null 2>err.txt
    rc=$?
    runs=$((runs + 1))
    check "job cut at $c (dry run)" $rc s/cut.yaml
    [ ! -e s/out ] || bad "job cut at $c: --dry-run wrote s/out"
    "$POSEKIT" run s/cut.yaml >/dev/null 2>err.txt
    rc=$?
    runs=$((runs + 1))
    check "job cut at $c" $rc s/cut.yaml
    if [ $rc -ne 0 ] && [ -e s/out ] && [ -n "$(ls -A s/out)" ]; then
        bad "job cut at $c failed but wrote: $(ls s/out)"
    fi
    rm -rf s/out
done
# A device as a rules file (directly or included) would never end: refused
# at once, naming it, with the include's line:column.
printf 'include: [/dev/zero]\n' >inc_zero.yaml
for rules in /dev/zero inc_zero.yaml; do
    if timeout 10 "$POSEKIT" rename "$PK_SOURCE/samples/dance.vmd" --rules "$rules" \
        -o zero.vmd 2>err.txt; then
        bad "--rules $rules accepted"
    fi
    grep -q "cannot read rules file '/dev/zero': not a regular file" err.txt ||
        bad "--rules $rules: $(cat err.txt)"
    [ ! -e zero.vmd ] || bad "--rules $rules wrote zero.vmd"
    runs=$((runs + 1))
done
grep -q "inc_zero.yaml:1:11:" err.txt || bad "include of /dev/zero without line:col: $(cat err.txt)"

echo "bad_yaml: $runs runs"
exit $fail
