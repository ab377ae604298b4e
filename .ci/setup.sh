#!/bin/bash
# .ci/setup.sh — makes a Debian 12 machine ready to build and test posekit.
#
# Usage: .ci/setup.sh [PART...], each PART one of
#   core     what the Linux builds compile and test with (tests/run.sh's
#            builds A and B, samples/demo.sh): the compiler, libraries,
#            the de_DE.UTF-8 locale
#   interop  node, and the interop test's npm package (fetched and
#            checked against its lock file by tests/interop/install.py;
#            not with npm, which Debian splits into some 350 packages)
#   stages   what only stages W and E add (mingw-w64, Wine, Emscripten,
#            Chromium, ...) and the deb-src entry of their `apt-get source`
#   (none)   all three
# tests/run.sh runs core first, then interop and stages in the
# background beside build A: on a fresh machine they are most of the
# packages, and only the interop test and stages W and E wait for them.
#
# Installs only the Debian packages that are missing (checked with dpkg
# first, so a ready machine costs about a second), adds a deb-src entry
# (the Windows build's `apt-get source`) when there is none, generates the
# de_DE.UTF-8 locale for the comma-decimal-separator test, and installs the
# interop test's npm package (tests/interop, from its lock file).  Run as
# root (or with sudo available).  Safe to run again; never run two at
# once (apt and dpkg take a lock and fail when it is held).
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -gt 0 ] || set -- core interop stages
core=0 interop=0 stages=0
for part in "$@"; do
    case $part in
        core) core=1 ;;
        interop) interop=1 ;;
        stages) stages=1 ;;
        *) echo "usage: .ci/setup.sh [core|interop|stages]..." >&2; exit 2 ;;
    esac
done

# What each package is for:
#   meson ninja-build pkg-config gcc   build (gcc: the CI and ASan/UBSan builds)
#   libc6-dev                          the C library's headers (gcc only
#                                      recommends them, and recommends are
#                                      not installed)
#   libyaml-dev                        rules and job files
#   libcmocka-dev                      unit tests
#   scdoc                              the man page
#   locales                            de_DE.UTF-8 for the comma-locale test
#   nodejs                             interop test with three.js's mmd-parser
#   ca-certificates                    HTTPS for tests/interop/install.py
#   perl python3                       CLI cases build test files and read JSON
#   libxml2-utils                      xmllint: diff --svg output is well-formed XML
#   python3-mpmath                     lib/fmath_constants derives
#                                      engine/util/fmath.c's constants (skipped
#                                      without it)
# and for the stages only:
#   gcc-mingw-w64-x86-64-win32 dpkg-dev zip unzip wine64
#                                      stage W (tests/windows/wine.sh): the
#                                      Windows zip of .ci/build-windows.sh
#                                      (with Debian's libyaml sources,
#                                      fetched with dpkg-dev's `apt-get
#                                      source` from the deb-src entry added
#                                      below) run under Wine.
#                                      The win32-threads compiler only: it is
#                                      the one x86_64-w64-mingw32-gcc names
#                                      (the higher alternative), and
#                                      gcc-mingw-w64-x86-64 would add the
#                                      posix-threads one beside it (44 MB to
#                                      fetch, 178 MB unpacked, never used)
#   emscripten chromium chromium-driver python3-selenium
#                                      stage E (tests/web/web.sh): the site
#                                      of web/build.sh (emcc; libyaml from
#                                      `apt-get source`, its loader compiled
#                                      by emcc without CMake) run in
#                                      headless Chromium
#   brotli                             stage E reports the site's size
#                                      compressed
# clang is not installed here: only tests/fuzz/fuzz.sh needs it (libFuzzer).
required=() optional=()
if [ "$core" = 1 ]; then
    required+=(meson ninja-build pkg-config gcc libc6-dev libyaml-dev libcmocka-dev
        locales perl python3 libxml2-utils)
    optional+=(scdoc python3-mpmath)
fi
if [ "$interop" = 1 ]; then
    # node may come from elsewhere (e.g. nodesource's nodejs): only ask
    # Debian when the command is missing.  (Stage E's emscripten depends
    # on Debian's nodejs, so after `stages` it is there.)
    command -v node >/dev/null 2>&1 || optional+=(nodejs)
    required+=(python3)
    optional+=(ca-certificates)
fi
if [ "$stages" = 1 ]; then
    required+=(gcc-mingw-w64-x86-64-win32 dpkg-dev zip unzip wine64
        emscripten chromium chromium-driver python3-selenium)
    optional+=(brotli)
fi

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "setup: need root to run: $*" >&2
        return 1
    fi
}

not_installed() { # PACKAGE...: those not installed, one dpkg-query for all
    local p st
    local -A ok=()
    while read -r p st; do
        [ "$st" = "install ok installed" ] && ok[$p]=1
    done < <(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null)
    for p in "$@"; do
        [ -n "${ok[$p]:-}" ] || echo "$p"
    done
}

# Source packages (libyaml for the Windows build) need a
# deb-src entry: the machine's own deb entries, as deb-src.  The same check
# as in .ci/build-windows.sh, so whichever runs first adds it.
update=0
if [ "$stages" = 1 ] && ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/ &&
    [ -f /etc/apt/sources.list.d/debian.sources ]; then
    echo "setup: adding deb-src entries (/etc/apt/sources.list.d/posekit-deb-src.sources)"
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
        as_root tee /etc/apt/sources.list.d/posekit-deb-src.sources >/dev/null
    update=1
fi

# dpkg's --force-unsafe-io: without it dpkg syncs every file it unpacks
# (tens of thousands for Chromium, Emscripten and Wine); a machine that
# loses power mid-install has to install again anyway.
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-y -q --no-install-recommends -o Dpkg::Options::=--force-unsafe-io)

mapfile -t need < <(not_installed "${required[@]}")
mapfile -t want < <(not_installed "${optional[@]}")
# The package lists are read again unless they are less than half an hour
# old and no source entry changed since (tests/run.sh's parts after the
# first find them so), or when a deb-src entry was just added.
lists_fresh() {
    local newest
    newest=$(find /var/lib/apt/lists -maxdepth 1 -name '*Release' -cmin -30 -printf '%C@ %p\n' \
        2>/dev/null | sort -n | tail -n 1 | cut -d' ' -f2-)
    [ -n "$newest" ] &&
        [ -z "$(find /etc/apt/sources.list /etc/apt/sources.list.d -cnewer "$newest" 2>/dev/null)" ]
}
if [ "${#need[@]}" -gt 0 ] || [ "${#want[@]}" -gt 0 ]; then
    lists_fresh || update=1
fi
if [ "$update" = 1 ]; then
    as_root apt-get update -q -o Acquire::Languages=none
fi
# Optional tools (man page, interop test, stage E's size report): a failure
# to install them only means the tests that need them fail or are skipped,
# so keep going.  Both kinds go in one apt-get: each run reads and indexes
# all the package lists again (2.4 s of CPU in a fresh Debian 12 root,
# whose apt keeps no cache of them); only when it fails are the required
# ones installed alone, then the optional ones.
all=("${need[@]}" "${want[@]}")
if [ "${#all[@]}" -gt 0 ]; then
    echo "setup: installing ${all[*]}"
    if ! as_root apt-get install "${apt_opts[@]}" "${all[@]}"; then
        [ "${#want[@]}" -gt 0 ] || exit 1
        if [ "${#need[@]}" -gt 0 ]; then
            echo "setup: installing ${need[*]} without ${want[*]}"
            as_root apt-get install "${apt_opts[@]}" "${need[@]}"
            as_root apt-get install "${apt_opts[@]}" "${want[@]}" ||
                echo "setup: warning: could not install ${want[*]}" >&2
        else
            echo "setup: warning: could not install ${want[*]}" >&2
        fi
    fi
fi

# A locale whose decimal separator is a comma (tests/unit: number parsing
# must not depend on LC_NUMERIC).
if [ "$core" = 1 ] && ! locale -a 2>/dev/null | grep -qiE '^de_DE\.utf-?8$'; then
    echo "setup: generating the de_DE.UTF-8 locale"
    if [ -f /etc/locale.gen ] && grep -qE '^# *de_DE.UTF-8 UTF-8' /etc/locale.gen; then
        as_root sed -i -E 's/^# *(de_DE.UTF-8 UTF-8)/\1/' /etc/locale.gen
    elif ! grep -qE '^de_DE.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null; then
        echo 'de_DE.UTF-8 UTF-8' | as_root tee -a /etc/locale.gen >/dev/null
    fi
    as_root locale-gen >/dev/null
fi

# The interop test's npm package, exactly as locked (a no-op when it is
# there).  Failure is reported but not fatal here: the interop test runs
# the same script and fails with its message (it is only skipped when
# node is missing).
if [ "$interop" = 1 ]; then
    python3 tests/interop/install.py ||
        echo "setup: warning: tests/interop/install.py failed; the interop test will fail" >&2
fi
