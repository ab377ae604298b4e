# man_synopsis: every option a command's help lists ('posekit help CMD')
# appears in one of that command's synopsis lines of the man page
# (doc/posekit.1.scd), but --help, --strict (the page's OPTIONS) and
# --output (the synopsis says -o).
man="$PK_SOURCE/doc/posekit.1.scd"
fail=0
for cmd in $("$POSEKIT" help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    synopsis=$(grep -E "^\*$cmd\* " "$man" | grep -oE -- '\*--?[a-z][a-z0-9-]*\*' | tr -d '*' |
        sort -u)
    [ -n "$synopsis" ] || { echo "FAIL: no synopsis line for $cmd in the man page"; fail=1; continue; }
    for opt in $("$POSEKIT" help "$cmd" | grep -E '^ +-' | grep -oE '(^| )--?[a-z][a-z0-9-]*' |
                 tr -d ' ' | sort -u); do
        case $opt in -h | --help | --strict | --output | -v) continue ;; esac
        grep -qxF -- "$opt" <<<"$synopsis" ||
            { echo "FAIL: $cmd: $opt (posekit help $cmd) is in no synopsis line of the man page"; fail=1; }
    done
done
exit $fail
