# An option whose value is left out: "--suggest-rules" at the end or
# given '' says the option wants a file name (no jargon such as "missing
# value", the option written as it is everywhere else, unquoted); followed
# by another option ("--suggest-rules --json", "--model --json", "-o
# --frame 3") it says that option is not its value, instead of taking it
# for a file ("cannot open --json") and then calling the next word extra.
# A value written glued on (--output=-x.vmd) is taken as it is.
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
vpd_text 'mdl' 'center|0,0,0|0,0,0,1' >p.vpd
for v in '' '='; do
    expect_exit 2 "$POSEKIT" check dance.vmd --model p.vpd "--suggest-rules$v"
    expect_stderr <<'ERR'
posekit check: --suggest-rules wants a file name
Try 'posekit help check'.
ERR
done
expect_exit 2 "$POSEKIT" check dance.vmd --model p.vpd --suggest-rules --json
expect_stderr <<'ERR'
posekit check: --suggest-rules wants a file name, not the option '--json' (a file of that name: ./--json)
Try 'posekit help check'.
ERR
expect_exit 2 "$POSEKIT" convert dance.vmd -o --frame 3
expect_stderr <<'ERR'
posekit convert: -o wants a file name, not the option '--frame' (a file of that name: ./--frame)
Try 'posekit help convert'.
ERR
expect_exit 2 "$POSEKIT" mirror dance.vmd -o
expect_stderr <<'ERR'
posekit mirror: -o wants a file name
Try 'posekit help mirror'.
ERR
expect_exit 2 "$POSEKIT" check dance.vmd --model --json
expect_stderr <<'ERR'
posekit check: --model wants a value, not the option '--json'
Try 'posekit help check'.
ERR
expect_exit 2 "$POSEKIT" rename dance.vmd --rules --verbose -o out.vmd
expect_stderr_contains "posekit rename: --rules wants a value, not the option '--verbose'"
expect_exit 2 "$POSEKIT" dump --body p.vpd --bones --strict
expect_stderr_contains "posekit dump: --bones needs a selection, not the option '--strict'"
expect_exit 2 "$POSEKIT" run --each --dry-run
expect_stderr_contains "posekit run: --each needs a pattern, not the option '--dry-run'"
expect_no_file out.vmd
expect_no_file ./--json
# a number may start with one dash; a name glued on may start with one
expect_exit 0 "$POSEKIT" time dance.vmd --shift -30 -o shifted.vmd
expect_file shifted.vmd
expect_exit 0 "$POSEKIT" convert dance.vmd --output=-x.vmd
expect_same_bytes ./-x.vmd dance.vmd

# -o=NAME (for --output=NAME or -o NAME) wrote a file named "=NAME": a
# usage error now, nothing written; -oNAME still glues the name on
cp "$PK_SOURCE/samples/dance.vmd" glued.vmd
expect_exit 2 "$POSEKIT" convert glued.vmd -o=eq.vmd
expect_stderr_contains "posekit convert: '-o=eq.vmd': write -o eq.vmd (a value glued to -o with '=' would begin with '=')"
expect_no_file "=eq.vmd"
expect_no_file eq.vmd
expect_exit 0 "$POSEKIT" convert glued.vmd -oeq.vmd
expect_file eq.vmd
expect_exit 0 "$POSEKIT" convert glued.vmd --output=eq2.vmd
expect_file eq2.vmd
