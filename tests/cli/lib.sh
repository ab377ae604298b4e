# lib.sh — helpers for CLI cases (sourced by run-case.sh before the case).
#
# A case is a bash script run with -eu -o pipefail in a fresh folder.  Run
# posekit through expect_exit, then check what it printed:
#
#   expect_exit 0 "$POSEKIT" info "$(corpus vmd_imas_face16.vmd)"
#   expect_stdout_contains 'bone keys: 3 (3 bones)'
#   expect_stderr_empty
#
# Every check prints what it expected and what it got, then exits 1.

# The files the last expect_exit wrote (in the case's folder).
OUT=_stdout
ERR=_stderr

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

skip() {
    echo "SKIP: $*"
    exit 77
}

# Skips the case (exit 77) when no corpus folder was configured.
need_corpus() {
    if [ -z "${PK_CORPUS:-}" ] || [ ! -d "$PK_CORPUS" ]; then
        skip "no corpus (configure with -Dcorpus_dir=DIR)"
    fi
}

# Skips the case when a program is missing.
need_cmd() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || skip "'$c' is not installed"
    done
}

# Path of a corpus file (call need_corpus first).
corpus() {
    echo "$PK_CORPUS/$1"
}

_show() {
    echo "--- command: $LAST_CMD" >&2
    echo "--- exit: $LAST_RC" >&2
    echo "--- stdout (first 40 lines):" >&2
    head -n 40 "$OUT" >&2 || true
    echo "--- stderr (first 40 lines):" >&2
    head -n 40 "$ERR" >&2 || true
}

# expect_exit N CMD ARGS... — runs CMD with stdout in $OUT, stderr in $ERR
# (stdin from /dev/null unless redirected by the caller) and checks its
# exit status.
expect_exit() {
    local want=$1
    shift
    LAST_CMD="$*"
    set +e
    "$@" >"$OUT" 2>"$ERR"
    LAST_RC=$?
    set -e
    if [ "$LAST_RC" != "$want" ]; then
        _show
        fail "expected exit $want, got $LAST_RC: $LAST_CMD"
    fi
}

# Same as expect_exit but with stdin from a file: expect_exit_in N FILE CMD...
expect_exit_in() {
    local want=$1 input=$2
    shift 2
    LAST_CMD="$* < $input"
    set +e
    "$@" <"$input" >"$OUT" 2>"$ERR"
    LAST_RC=$?
    set -e
    if [ "$LAST_RC" != "$want" ]; then
        _show
        fail "expected exit $want, got $LAST_RC: $LAST_CMD"
    fi
}

_same_text() { # what actual-file expected-file
    if ! diff -u "$3" "$2" >_diff 2>&1; then
        _show
        echo "--- diff (expected -> actual):" >&2
        cat _diff >&2
        fail "$1 differs from what was expected"
    fi
}

# Exact comparisons: with a FILE, or with standard input (a here-document).
expect_stdout_file() { _same_text stdout "$OUT" "$1"; }
expect_stderr_file() { _same_text stderr "$ERR" "$1"; }
expect_stdout() { cat >_expected; _same_text stdout "$OUT" _expected; }
expect_stderr() { cat >_expected; _same_text stderr "$ERR" _expected; }

expect_stdout_contains() {
    grep -qF -- "$1" "$OUT" || { _show; fail "stdout lacks: $1"; }
}
expect_stderr_contains() {
    grep -qF -- "$1" "$ERR" || { _show; fail "stderr lacks: $1"; }
}
expect_stdout_lacks() {
    if grep -qF -- "$1" "$OUT"; then _show; fail "stdout should not contain: $1"; fi
}
expect_stderr_lacks() {
    if grep -qF -- "$1" "$ERR"; then _show; fail "stderr should not contain: $1"; fi
}
# A line of stderr matching an extended regular expression.
expect_stderr_matches() {
    grep -qE -- "$1" "$ERR" || { _show; fail "no stderr line matches: $1"; }
}
# A line of stdout matching an extended regular expression.
expect_stdout_matches() {
    grep -qE -- "$1" "$OUT" || { _show; fail "no stdout line matches: $1"; }
}
expect_stdout_empty() { [ ! -s "$OUT" ] || { _show; fail "stdout should be empty"; }; }
expect_stderr_empty() { [ ! -s "$ERR" ] || { _show; fail "stderr should be empty"; }; }
# Number of stderr lines.
expect_stderr_lines() {
    local n
    n=$(wc -l <"$ERR")
    [ "$n" -eq "$1" ] || { _show; fail "expected $1 stderr lines, got $n"; }
}

# on_tty OUT COMMAND: COMMAND (a shell command line) run on a terminal, a
# pseudo-terminal made by script(1), what the terminal showed in OUT;
# fails unless COMMAND exits 0.  The status is the command's own, written
# by the shell inside: script's own (-e) was once 1 for a command that
# exited 0 (under a load of 12; a race of its own when the child ends).
on_tty() {
    local out=$1
    shift
    rm -f _tty_rc
    script -qc "$*; echo \$? >_tty_rc" /dev/null >"$out" </dev/null || true
    [ "$(cat _tty_rc 2>/dev/null)" = 0 ] ||
        fail "on a terminal, $* exited $(cat _tty_rc 2>/dev/null || echo '(no status)'): $(cat "$out")"
}
expect_file() { [ -f "$1" ] || fail "expected file $1 to exist"; }
expect_no_file() { [ ! -e "$1" ] || fail "expected no file at $1"; }
expect_same_bytes() {
    cmp -- "$1" "$2" >&2 || fail "$1 and $2 differ"
}
expect_different_bytes() {
    if cmp -s -- "$1" "$2"; then fail "$1 and $2 should differ"; fi
}
expect_eq() { # ACTUAL EXPECTED [WHAT]
    [ "$1" = "$2" ] || fail "${3:-value}: expected '$2', got '$1'"
}

# No temporary file of an atomic write (".NAME.XXXXXX") left in a folder.
expect_no_temp_files() {
    local left
    left=$(find "${1:-.}" -maxdepth 1 -name '.*.??????' 2>/dev/null | head -n 5)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

# Checksums to prove an input was not modified:
#   remember FILE ... ; (run commands) ; expect_unchanged FILE ...
checksum() { sha256sum -- "$1" | cut -d' ' -f1; }
remember() {
    local f
    for f in "$@"; do
        echo "$f $(checksum "$f")" >>_remembered
    done
}
expect_unchanged() {
    local f sum
    for f in "$@"; do
        sum=$(grep -F -- "$f " _remembered | tail -n 1 | cut -d' ' -f2)
        [ -n "$sum" ] || fail "expect_unchanged: $f was not remembered"
        [ "$(checksum "$f")" = "$sum" ] || fail "$f was modified"
    done
}

# Evaluates a Python expression over a JSON file (d = the parsed JSON) and
# prints the result: json_eval _stdout 'len(d["bones"])'.
json_eval() {
    need_cmd python3
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1],encoding="utf-8")); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- building small test files byte by byte (perl is in every Debian) ----
# Each program start costs more than what it computes here (a few ms, ten
# times that on a loaded machine), and some cases build files of dozens of
# keys: field, pack's integers and a whole key cost one perl at most.

# pack TEMPLATE VALUES... — perl's pack to stdout: pack V 3 0 (uint32 LE
# each), pack 'f<' 1 2 3 (float32 LE each), pack C 1 2 (bytes).  A one-letter
# template repeats for every value.  V and C of plain decimal values are
# written by the shell itself (the same bytes).
pack() {
    local t=$1 v esc=
    shift
    case $t in [A-Za-z] | [A-Za-z][\<\>]) t="$t*" ;; esac
    case $t in
    'V*' | 'C*')
        for v in "$@"; do
            case $v in '' | *[!0-9]* | ?????????????*) esc=x; break ;; esac
            v=$((10#$v))
            if [ "$t" = 'C*' ]; then
                [ "$v" -le 255 ] || { esc=x; break; }
                printf -v v '\\x%02x' "$v"
            else
                [ "$v" -le 4294967295 ] || { esc=x; break; }
                printf -v v '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) \
                    $((v >> 16 & 255)) $((v >> 24 & 255))
            fi
            esc+=$v
        done
        if [ "$esc" != x ]; then
            printf "$esc"
            return
        fi
        ;;
    esac
    perl -e 'my $t = shift; binmode STDOUT; print pack($t, @ARGV)' "$t" "$@"
}

# field N TEXT — TEXT (printf escapes allowed, e.g. '\x83\x5a') NUL-padded
# to N bytes (cut at N).  In the shell (bytes in the C locale); a TEXT that
# may print a NUL or holds a conversion goes through head and wc.
field() {
    case $2 in
    *'\0'* | *'\x0'* | *'\c'* | *'\u'* | *'\U'* | *%*)
        printf "$2" | head -c "$1"
        local len
        len=$(printf "$2" | head -c "$1" | wc -c)
        head -c $(($1 - len)) /dev/zero
        return
        ;;
    esac
    local LC_ALL=C text pad
    printf -v text "$2"
    text=${text:0:$1}
    printf -v pad '%*s' $(($1 - ${#text})) ''
    printf '%s' "$text"
    printf "${pad// /\\0}"
}

# vmd_header MODEL — the 50-byte v2 header with a model name.
vmd_header() {
    field 30 'Vocaloid Motion Data 0002'
    field 20 "$1"
}

# vmd_bone NAME FRAME X Y Z QX QY QZ QW — a 111-byte bone key whose
# interpolation block is the bytes 0,1,...,63 (easy to recognise).
vmd_bone() {
    field 15 "$1"
    perl -e 'binmode STDOUT; print pack("V f<7 C*", @ARGV, 0 .. 63)' "$2" "$3" "$4" "$5" "$6" \
        "$7" "$8" "$9"
}

# vmd_morph NAME FRAME WEIGHT — a 23-byte morph key.
vmd_morph() {
    field 15 "$1"
    perl -e 'binmode STDOUT; print pack("V f<", @ARGV)' "$2" "$3"
}

# vpd_text MODEL BONES... — a VPD in MMD's text layout with CRLF; each bone
# is "NAME|x,y,z|qx,qy,qz,qw" (NAME may hold printf escapes).
vpd_text() {
    local model=$1
    shift
    printf 'Vocaloid Pose Data file\r\n\r\n'
    printf "$model"
    printf '.osm;\t\t// parent\r\n%d;\t\t\t\t// bones\r\n\r\n' "$#"
    local i=0 b name t r
    for b in "$@"; do
        name=${b%%|*}
        t=${b#*|}
        r=${t#*|}
        t=${t%%|*}
        printf 'Bone%d{' "$i"
        printf "$name"
        printf '\r\n  %s;\t\t\t\t// trans x,y,z\r\n  %s;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\n' "$t" "$r"
        i=$((i + 1))
    done
}
