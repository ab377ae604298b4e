# posekit help / --help / --version, and `help CMD` == `CMD --help` for the
# foundation commands.

expect_exit 0 "$POSEKIT" --version
expect_stdout <<'OUT'
posekit 0.1.0
OUT
expect_stderr_empty

# The overview lists the foundation commands and the exit-status rule.
expect_exit 0 "$POSEKIT" help
for c in info dump convert; do
    grep -qE "^  $c " "$OUT" || fail "overview lacks command $c"
done
expect_stdout_contains 'Exit status: 0 success'
expect_stdout_contains 'model lacks (check), 2 error.'
cp "$OUT" overview
expect_exit 0 "$POSEKIT" --help
expect_stdout_file overview

# Without a command: the overview on stderr and exit 2.
expect_exit 2 "$POSEKIT"
expect_stdout_empty
expect_stderr_contains 'usage: posekit COMMAND'

for c in info dump convert; do
    expect_exit 0 "$POSEKIT" help "$c"
    expect_stdout_contains "usage: posekit $c"
    cp "$OUT" "help_$c"
    expect_exit 0 "$POSEKIT" "$c" --help
    expect_stdout_file "help_$c"
    expect_exit 0 "$POSEKIT" "$c" -h
    expect_stdout_file "help_$c"
done

# Each documented option appears in its help text (the texts above: a
# command run once, its output asserted on as often as needed).
cp help_convert "$OUT"
for o in -o --frame --layout --no-morphs --strict; do expect_stdout_contains "$o"; done
cp help_info "$OUT"
for o in --json --strict; do expect_stdout_contains "$o"; done

# The usage lines name every option the list below them gives (reduce's
# and bake's lacked --rules, five others --model, --strict or --verbose);
# -h/--help and -o/--output aside.
for c in $(grep -E '^  [a-z]+ ' overview | awk '{ print $1 }'); do
    if [ -f "help_$c" ]; then
        cp "help_$c" "$OUT"
    else
        expect_exit 0 "$POSEKIT" help "$c"
    fi
    usage=$(awk '/^usage:/ { u = 1 } u && /^$/ { exit } u' "$OUT")
    for o in $(grep -oE '^  (-[a-z], )?--[a-z-]+' "$OUT" | grep -oE -- '--[a-z-]+'); do
        case $o in --help | --output) continue ;; esac
        grep -qE -- "$o( |\]|\||$)" <<<"$usage" || fail "$c: the usage lines lack $o"
    done
done
