# completion_bash.sh — completion/posekit.bash offers every option of every
# command (the switch tables of cli/cmd_*.c, every command's help), and
# completes commands, option values and @groups.
# run-case.sh runs cases under -e -o pipefail; these cases check exit
# statuses themselves.
set -u +e +o pipefail
export LC_ALL=C
comp="$PK_SOURCE/completion/posekit.bash"
fail=0
shopt -s extglob
# shellcheck source=/dev/null
. "$comp" || { echo "cannot source $comp"; exit 1; }

# 1. Each switch of the commands that are not steps (their cli_switch
# tables, cli/cmd_*.c) appears in that command's list; the steps' options
# are checked against their help below.
for src in "$PK_SOURCE"/cli/cmd_*.c; do
    cmd=$(basename "$src" .c)
    cmd=${cmd#cmd_}
    var="_posekit_opts_$cmd"
    list=" ${!var-} "
    if [ "$list" = "  " ]; then
        echo "FAIL: no option list for command '$cmd' in the completion"
        fail=1
        continue
    fi
    opts=$(grep -oE '\{"[a-z][a-z0-9-]*", *&[a-z_]+\}' "$src" | sed -E 's/^\{"([^"]*)".*/\1/')
    # a command that takes option values (dump --bones) walks them with
    # cli_walk and a function: its options are checked by its help (1b)
    [ -n "$opts" ] || grep -q 'cli_walk(' "$src" ||
        { echo "FAIL: cli/cmd_$cmd.c: no switch table found"; fail=1; }
    for opt in $opts; do
        case "$list" in
        *" --$opt "*) ;;
        *) echo "FAIL: $cmd: --$opt (cli/cmd_$cmd.c) missing from the completion"; fail=1 ;;
        esac
    done
done

# 1b. Each option line of each command's help text ("  -o, --output OUT")
# is offered too: the steps' help comes from their descriptors
# (engine/step/step_NAME.c), so this covers every step's option rows.
for cmd in $("$POSEKIT" help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    var="_posekit_opts_$cmd"
    list=" ${!var-} "
    [ "$list" = "  " ] && { echo "FAIL: no option list for command '$cmd'"; fail=1; continue; }
    for opt in $("$POSEKIT" help "$cmd" | grep -E '^ +-' | grep -oE '(^| )--?[a-z][a-z0-9-]*' |
                 tr -d ' '); do
        [ "$opt" = -h ] && continue # offered as --help
        case "$list" in
        *" $opt "*) ;;
        *) echo "FAIL: $cmd: $opt (posekit help $cmd) missing from the completion"; fail=1 ;;
        esac
    done
done

# 2. Completion results for typed command lines.
complete_line() { # words...; the last word is being completed
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _posekit 2>/dev/null
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
expect() { # description, expected, actual
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected '$2', got '$3'"
        fail=1
    fi
}
expect "commands starting with m" "merge mirror " "$(complete_line posekit m)"
expect "convert options --l" "--layout " "$(complete_line posekit convert --l)"
expect "layout values" "hybrid text " "$(complete_line posekit convert a.vmd --layout '')"
expect "overlay modes" "add replace " "$(complete_line posekit overlay --mode '')"
expect "merge policies" "error first last " "$(complete_line posekit merge --prefer '')"
expect "groups after --bones @hand" "@hand_L @hand_R @hands " \
    "$(complete_line posekit overlay --bones @hand)"
expect "groups after a comma" "center,@leg_L center,@leg_R center,@legs " \
    "$(complete_line posekit overlay --bones center,@leg)"
expect "help topics" "dump " "$(complete_line posekit help du)"
# the version command, as --version; help describes it
expect "commands starting with v" "version " "$(complete_line posekit v)"
expect "--version" "--version " "$(complete_line posekit --v)"
expect "help topic version" "version " "$(complete_line posekit help v)"
expect "no file after version" " " "$(complete_line posekit version '')"
expect "version's --help" "--help " "$(complete_line posekit version --)"

mkdir -p d
touch a.vmd b.vpd c.yaml notes.txt
expect "input files" "a.vmd b.vpd c.yaml d " "$(complete_line posekit info '')"
expect "rules files" "c.yaml d " "$(complete_line posekit rename a.vmd --rules '')"
expect "job files" "c.yaml d " "$(complete_line posekit run '')"
touch m.pmx m2.PMD
expect "retarget models after --from" "c.yaml d m.pmx m2.PMD " "$(complete_line posekit retarget a.vmd --from '')"
expect "retarget models after --to" "c.yaml d m.pmx m2.PMD " "$(complete_line posekit retarget a.vmd --from m.pmx --to '')"
expect "built-in bodies after --from" "@auto @classic @standard " "$(complete_line posekit retarget a.vmd --from @)"
expect "built-in bodies after --to" "@classic @standard " "$(complete_line posekit retarget a.vmd --to @)"
expect "check's --model @a" "@auto " "$(complete_line posekit check a.vmd --model @a)"
expect "draw's --model @a" " " "$(complete_line posekit draw a.vmd --model @a)"
expect "the dance a camera frames" "a.vmd b.vpd d " "$(complete_line posekit retarget a.vmd --motion '')"
expect "dump --body" "c.yaml d m.pmx m2.PMD " "$(complete_line posekit dump --body '')"
# info and dump read models and bodies too; convert does not
expect "info reads models" "a.vmd b.vpd c.yaml d m.pmx m2.PMD " "$(complete_line posekit info a.vmd '')"
expect "dump reads models" "a.vmd b.vpd c.yaml d m.pmx m2.PMD " "$(complete_line posekit dump '')"
expect "convert reads motions and poses" "a.vmd b.vpd d " "$(complete_line posekit convert '')"
expect "convert reads no model" "a.vmd b.vpd d " "$(complete_line posekit convert '')"
# an option that takes a number offers no file
for opt in "draw a.vmd --every" "bake a.vmd --step" "bake a.vmd --max-move" \
    "merge a.vmd b.vmd --within" "retarget a.vmd --feet-apart" "diff a.vmd b.vpd --threshold"; do
    # shellcheck disable=SC2086 # the words of the line
    expect "no file after $opt" " " "$(complete_line posekit $opt '')"
done
expect "retarget options --no-s" "--no-scale --no-shoulders --no-stance " "$(complete_line posekit retarget a.vmd --no-s)"
printf 'groups:\n  my_hand: [a]\n  "other": [b]\nrename:\n  x: y\n' > r.yaml
expect "groups from --rules" "@my_hand " "$(complete_line posekit overlay --rules r.yaml --bones @my)"

[ $fail -eq 0 ] && echo "completion: all checks passed"
exit $fail
