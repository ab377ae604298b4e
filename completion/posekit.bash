# bash completion for posekit(1)                          -*- shell-script -*-
#
# Installed to share/bash-completion/completions/posekit.  Completes the
# command, each command's options (the steps' option rows,
# engine/step/step_NAME.c, and each command's help; the test
# tests/cli/cases/completion_bash.sh checks they agree), option values
# (layouts, modes, policies, @groups), and files by kind: motions and poses
# (.vmd/.vpd), models (.pmx/.pmd), rule and job files (.yaml/.yml).

_posekit_commands="info dump convert diff rename mirror retarget overlay reduce bake time crossfade curve smooth merge run check draw help"

# Options per command, as in each command's help.  A job file's step OP
# (posekit run) takes the options of the command OP without the leading
# dashes ("--max-deg 0.05" is "max_deg: 0.05" or "max-deg: 0.05"); its
# inputs (in, a, b, base, pose), rules and model name entries of the job's
# inputs and rules; -o/--json/--csv/--svg/--suggest-rules are the job's
# outputs (doc/jobs.md; retarget's --report is the command line's only).
_posekit_opts_info="--json --strict --help"
_posekit_opts_dump="--body --bones --strict --help"
_posekit_opts_convert="-o --output --frame --layout --no-morphs --cut-names --strict --help"
_posekit_opts_diff="--frame --frames --bones --model --vs-model --rules --threshold --pos-threshold --json --csv --svg --all --groups --no-morphs --strict --help"
_posekit_opts_rename="--rules --reverse -o --output -v --verbose --strict --help"
_posekit_opts_mirror="--rules -o --output -v --verbose --strict --help"
_posekit_opts_retarget="--from --to --motion --and --scale --rules --no-stance --no-scale --no-fold --no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes --feet-apart --fingers --feet-from-source --keep-absent --max-deg --max-pos -o --output --report --json -v --verbose --strict --help"
_posekit_opts_overlay="--pose --pose-frame --bones --model --rules --frames --mode --fade -o --output --json --cut-names --strict --help"
_posekit_opts_merge="-o --output --offset --sections --within --prefer --json --cut-names --strict -v --verbose --help"
_posekit_opts_reduce="-o --output --max-deg --max-pos --max-morph --bones --rules --frames --no-morphs --camera --json --quiet --strict --help"
_posekit_opts_bake="-o --output --bones --rules --frames --step --no-morphs --camera --ik-to-fk --fk-to-ik --model --max-move --keep-ik-keys --json --quiet --strict --help"
_posekit_opts_time="-o --output --trim --shift --stretch --bpm --fps --json --strict --help"
_posekit_opts_crossfade="-o --output --at --fade --skip --json --strict --help"
_posekit_opts_curve="-o --output --set --like --axes --bones --model --rules --frames --json --strict --help"
_posekit_opts_smooth="-o --output --strength --bones --rules --noise-deg --noise-pos --noise-morph --no-morphs --no-contacts --json --quiet --strict --help"
_posekit_opts_run="--dry-run --strict --quiet --each -j --jobs --help"
_posekit_opts_check="--model --json --suggest-rules --strict --help"
_posekit_opts_draw="--model --frame --frames --every --vs --vs-model --view --bones --rules --json -o --output --strict --help"

# Groups every rule set has (rules/standard.yaml, built in).
_posekit_std_groups="root trunk head eyes thumb_L index_L middle_L ring_L little_L thumb_R index_R middle_R ring_R little_R fingers_L fingers_R hand_L hand_R arm_L arm_R arm_below_L arm_below_R leg_L leg_R ik hands arms legs"

# Group names defined in the --rules file already on the command line
# (the keys indented under a top-level "groups:").
_posekit_rule_groups()
{
    local i rules=""
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        if [[ ${COMP_WORDS[i]} == --rules ]]; then
            rules=${COMP_WORDS[i + 1]}
        elif [[ ${COMP_WORDS[i]} == --rules=* ]]; then
            rules=${COMP_WORDS[i]#--rules=}
        fi
    done
    rules=${rules/#\~/$HOME}
    [[ -r $rules ]] || return 0
    awk '/^groups:/ { g = 1; next }
         /^[^ #]/   { g = 0 }
         g && /^  [^ #-][^:]*:/ { sub(/^  /, ""); sub(/:.*/, ""); gsub(/"/, ""); print }' \
        "$rules" 2>/dev/null
}

_posekit_files()
{
    # $1: extglob pattern of extensions, e.g. '@(vmd|vpd|VMD|VPD)'
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -X "!*.$1" -- "$cur") $(compgen -d -- "$cur"))
    compopt -o filenames 2>/dev/null
}

_posekit()
{
    local cur prev cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    # The command is the first word after "posekit" that is not an option.
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then
            cmd=${COMP_WORDS[i]}
            break
        fi
    done
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$_posekit_commands version --help --version" -- "$cur"))
        return 0
    fi
    if [[ $cmd == help ]]; then
        # what help describes: the commands, help and version
        [[ $COMP_CWORD -eq $((i + 1)) ]] &&
            COMPREPLY=($(compgen -W "$_posekit_commands version" -- "$cur"))
        return 0
    fi
    if [[ $cmd == version ]]; then
        # no file: only its --help
        [[ $COMP_CWORD -eq $((i + 1)) && $cur == -* ]] &&
            COMPREPLY=($(compgen -W "--help" -- "$cur"))
        return 0
    fi

    local mm='@(vmd|vpd|VMD|VPD)' yaml='@(yaml|yml|YAML|YML)'
    case $prev in
        -o | --output | --pose)
            if [[ $cmd == draw ]]; then
                _posekit_files '@(svg|SVG|json|JSON)'
            else
                _posekit_files "$mm"
            fi
            return 0
            ;;
        --rules | --suggest-rules)
            _posekit_files "$yaml"
            return 0
            ;;
        --model | --vs-model | --from | --to | --body)
            # models, body files, and the built-in bodies (@auto: the one
            # the input fits, for retarget's --from and check's --model)
            if [[ $cur == @* ]]; then
                local bodies="@classic @standard"
                [[ $prev == --from || ($prev == --model && $cmd == check) ]] && bodies="@auto $bodies"
                COMPREPLY=($(compgen -W "$bodies" -- "$cur"))
            else
                _posekit_files '@(pmx|pmd|PMX|PMD|yaml|yml|YAML|YML)'
            fi
            return 0
            ;;
        --vs | --motion | --and)
            # --and: the next dancer's dance
            _posekit_files "$mm"
            return 0
            ;;
        --scale)
            COMPREPLY=($(compgen -W "own" -- "$cur"))
            return 0
            ;;
        --view)
            COMPREPLY=($(compgen -W "front side top all" -- "$cur"))
            return 0
            ;;
        --svg)
            _posekit_files '@(svg|SVG)'
            return 0
            ;;
        --report)
            _posekit_files '@(json|JSON)'
            return 0
            ;;
        --layout)
            COMPREPLY=($(compgen -W "text hybrid" -- "$cur"))
            return 0
            ;;
        --mode)
            COMPREPLY=($(compgen -W "replace add" -- "$cur"))
            return 0
            ;;
        --set)
            COMPREPLY=($(compgen -W "linear ease ease-in ease-out" -- "$cur"))
            return 0
            ;;
        --axes)
            COMPREPLY=($(compgen -W "x y z r d v x,y,z r d,v" -- "$cur"))
            return 0
            ;;
        --fps)
            COMPREPLY=($(compgen -W "30:60 60:30" -- "$cur"))
            return 0
            ;;
        --prefer)
            COMPREPLY=($(compgen -W "first last error" -- "$cur"))
            return 0
            ;;
        --sections)
            COMPREPLY=($(compgen -W "all bones morphs camera light shadow ik" -- "$cur"))
            return 0
            ;;
        --frames)
            COMPREPLY=($(compgen -W "all" -- "$cur")) # diff and overlay alike
            return 0
            ;;
        --bones)
            # The last comma-separated item is the one being completed.
            local head="" item=$cur groups
            if [[ $cur == *,* ]]; then
                head=${cur%,*},
                item=${cur##*,}
            fi
            if [[ $item == @* ]]; then
                groups="$_posekit_std_groups $(_posekit_rule_groups)"
                COMPREPLY=($(compgen -P "$head@" -W "$groups" -- "${item#@}"))
                compopt -o nospace 2>/dev/null
            fi
            return 0
            ;;
        --each)
            # a pattern: the folders and motions, for a start
            _posekit_files "$mm"
            return 0
            ;;
        --frame | --pose-frame | --threshold | --pos-threshold | --fade | --offset | --max-deg | --max-pos | --max-morph | --trim | --shift | --stretch | --bpm | --at | --skip | --like | --strength | --noise-deg | --noise-pos | --noise-morph | --every | --step | --max-move | --within | --feet-apart | -j | --jobs)
            return 0 # a number
            ;;
    esac

    if [[ $cur == -* ]]; then
        local var="_posekit_opts_${cmd//-/_}"
        COMPREPLY=($(compgen -W "${!var}" -- "$cur"))
        return 0
    fi
    if [[ $cmd == run ]]; then
        _posekit_files "$yaml"
    elif [[ $cmd == info || $cmd == dump ]]; then
        # they read models and bodies too
        _posekit_files '@(vmd|vpd|pmx|pmd|yaml|yml|VMD|VPD|PMX|PMD|YAML|YML)'
    else
        _posekit_files "$mm"
    fi
    return 0
} &&
    complete -F _posekit posekit

# ex: filetype=sh
