# An empty file name ('': an unset shell variable, "$IN") is a usage
# error naming it, whatever the command: not "posekit: : cannot open"
# (a path that prints as nothing) nor the hidden option the operand
# stands for ("--in wants a file", "--b wants a file").  Exit 2.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
for cmd in info dump run mirror diff merge; do
    args=("$cmd" '')
    case $cmd in
        diff) args=(diff dance.vmd '') ;;
        merge) args=(merge dance.vmd '' -o out.vmd) ;;
        mirror) args+=(-o out.vmd) ;;
    esac
    expect_exit 2 "$POSEKIT" "${args[@]}"
    expect_stderr <<ERR
posekit $cmd: a file name is empty ('')
Try 'posekit help $cmd'.
ERR
done
# after "--" too
expect_exit 2 "$POSEKIT" info -- ''
expect_stderr_contains "posekit info: a file name is empty ('')"
expect_no_file out.vmd
