#!/bin/bash
# run-case.sh CASE.sh — runs one CLI case (tests/cli/cases/*.sh).
#
# The case runs under `bash -eu -o pipefail` in a fresh temporary folder
# (its working directory), with tests/cli/lib.sh already sourced and these
# variables set by meson (tests/meson.build):
#   POSEKIT     the posekit binary (absolute path)
#   PK_CORPUS   the shared corpus folder, or empty (need_corpus skips)
#   PK_SOURCE   the source tree
#   PK_TESTDATA tests/data
# Exit status: 0 pass, 77 skipped (meson reports SKIP), anything else fail.
# The folder is removed afterwards unless PK_KEEP=1 (then its path is printed).
set -u
# Paths are made absolute with the shell's own string operations: a case
# costs as few program starts as it can (the suite runs 70 of them twice).
absolute() { # PATH: PATH from /, without starting a program
    case $1 in
        /*) printf '%s' "$1" ;;
        */*) printf '%s/%s' "$(cd "${1%/*}" && pwd)" "${1##*/}" ;;
        *) printf '%s/%s' "$PWD" "$1" ;;
    esac
}
case_file=${1:?usage: run-case.sh CASE.sh}
case_file=$(absolute "$case_file")
case_name=${case_file##*/}
[ -f "$case_file" ] || { echo "run-case: no such case: $case_file" >&2; exit 2; }
: "${POSEKIT:?POSEKIT must name the posekit binary}"
[ -x "$POSEKIT" ] || { echo "run-case: POSEKIT is not executable: $POSEKIT" >&2; exit 2; }
export POSEKIT="$(absolute "$POSEKIT")"
export PK_CORPUS="${PK_CORPUS:-}" PK_SOURCE="${PK_SOURCE:-}" PK_TESTDATA="${PK_TESTDATA:-}"
lib_dir=$(absolute "${BASH_SOURCE[0]}")
export PK_LIB="${lib_dir%/*}/lib.sh"
# Messages must not depend on the machine's language.
export LC_ALL=C.UTF-8 LANG=C.UTF-8

work=$(mktemp -d "${TMPDIR:-/tmp}/pkcase.XXXXXX") || exit 2
cleanup() {
    if [ "${PK_KEEP:-0}" = 1 ]; then
        echo "run-case: kept $work" >&2
    else
        chmod -R u+w "$work" 2>/dev/null
        rm -rf "$work"
    fi
}
trap cleanup EXIT
cd "$work" || exit 2
bash -eu -o pipefail -c 'source "$PK_LIB"; source "$1"' "$case_name" "$case_file"
rc=$?
case $rc in
    0) echo "PASS $case_name" ;;
    77) ;;
    *) echo "FAIL $case_name (exit $rc)" >&2 ;;
esac
exit $rc
