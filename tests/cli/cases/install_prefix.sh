# install_prefix.sh — `meson install` into a prefix of its own gives a
# working posekit: the binary runs and finds its installed rule files, the
# man page and completion are there, and a tiny C program compiles and
# links against the installed library through pkg-config.
#
# The installed binary looks for rules under the prefix it was configured
# with, so `--destdir` would not do.  A build whose prefix is a folder
# inside the build folder (tests/run.sh configures build A so) is
# installed there as it is: its binary and library, not a copy of them
# built again (about 25 s of CPU saved).  Any other build (a developer's,
# with prefix /usr/local) is left alone: the source tree is configured
# afresh with --prefix set to a folder in the case's temp dir (tests off,
# no optimisation: about a minute on two cores).
set -eu +o pipefail # (grep -q closing a pipe early is not a failure)
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }
command -v meson >/dev/null || { echo "SKIP: meson not found"; exit 77; }
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not found"; exit 77; }
# The outer test run may be a sanitizer build; this one is plain.
unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
cc=${CC:-cc}

own=${PK_BUILD_ROOT:+${PK_PREFIX:-}}
case "$own" in
"$PK_BUILD_ROOT"/?*) ;;
*) own= ;;
esac
if [ -n "$own" ]; then
    prefix=$own
    rm -rf "$prefix"
    meson install -C "$PK_BUILD_ROOT" --no-rebuild >install.log 2>&1 ||
        { cat install.log; fail "meson install of $PK_BUILD_ROOT"; }
else
    prefix=$PWD/prefix
    meson setup build "$PK_SOURCE" --prefix="$prefix" -Dtests=false -Dbuildtype=plain \
        -Dwerror=false >setup.log 2>&1 || { cat setup.log; fail "meson setup"; }
    ninja -C build >build.log 2>&1 || { tail -30 build.log; fail "build"; }
    meson install -C build --no-rebuild >install.log 2>&1 || { cat install.log; fail "meson install"; }
fi

# 1. What is installed, where.
bin=$prefix/bin/posekit
pc=$(find "$prefix" -name posekit.pc | head -1)
[ -x "$bin" ] || fail "no $bin"
[ -n "$pc" ] || fail "no posekit.pc under $prefix"
libdir=$(dirname "$(dirname "$pc")")
ls "$libdir"/libposekit.so* >/dev/null 2>&1 || fail "no libposekit.so in $libdir"
[ -f "$prefix/include/posekit.h" ] || fail "no include/posekit.h"
rules=$prefix/share/posekit/rules
[ -f "$rules/standard.yaml" ] || fail "no $rules/standard.yaml"
[ -f "$prefix/share/bash-completion/completions/posekit" ] || fail "no bash completion"
if command -v scdoc >/dev/null; then
    [ -f "$prefix/share/man/man1/posekit.1" ] || fail "scdoc is here but no man page"
    if command -v man >/dev/null; then
        man -l "$prefix/share/man/man1/posekit.1" 2>/dev/null | grep -q "posekit - read" ||
            fail "man page does not render"
    fi
else
    echo "note: scdoc not found, man page not expected"
fi

# 2. The installed binary runs.  A prefix outside the loader's path needs
# LD_LIBRARY_PATH, as any private prefix does.
export LD_LIBRARY_PATH=$libdir
"$bin" --version | grep -q "^posekit " || fail "installed posekit --version"
"$bin" help >/dev/null || fail "installed posekit help"
# The built-in bodies are installed and found there.
for b in classic standard; do
    [ -f "$prefix/share/posekit/bodies/$b.yaml" ] || fail "no share/posekit/bodies/$b.yaml"
    "$bin" info "@$b" >info.txt 2>&1 || { cat info.txt; fail "installed posekit info @$b"; }
    grep -q 'format: posekit body 1' info.txt || fail "info @$b: $(head -3 info.txt)"
done

# 3. A tiny program against the installed library, through pkg-config.
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs posekit) || fail "pkg-config --cflags --libs posekit"
case "$flags" in *"-I$prefix/include"*) ;; *) fail "pkg-config cflags miss $prefix/include: $flags" ;; esac
cat >tiny.c <<'C'
#include <posekit.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = pk_names_intern(m->names, "center", 6);
    k->frame = 42;
    k->rot[3] = 1.0f;
    pk_interp_linear(k->interp);
    pk_buf out;
    pk_buf_init(&out);
    if (pk_vmd_write(m, &out, &log) != 0)
        return 1;
    pk_motion *back = pk_vmd_read(out.data, out.len, &log);
    if (!back || back->nbones != 1 || back->bones[0].frame != 42)
        return 2;
    printf("%s %zu bytes\n", PK_VERSION_STRING, out.len);
    pk_motion_free(back);
    pk_motion_free(m);
    pk_buf_free(&out);
    pk_log_free(&log);
    return 0;
}
C
# shellcheck disable=SC2086
"$cc" -std=c11 -o tiny tiny.c $flags || fail "tiny program does not compile/link"
out=$(./tiny) || fail "tiny program failed"
# 74-byte empty v2 file + one 111-byte bone key (doc/formats.md §3.1, §3.3).
[ "$out" = "$("$bin" --version | sed 's/^posekit //') 185 bytes" ] || fail "tiny printed '$out'"

# 4. The binary finds its installed rules: a rules file here includes a
# file that exists only in the installed rules folder.
printf 'groups:\n  marker_group: [installed_marker_bone]\n' >"$rules/zz_install_marker.yaml"
printf 'include: [zz_install_marker.yaml]\n' >mine.yaml
mkdir -p data
cp "$PK_SOURCE/tests/fuzz/corpus/vmd/seed_dance.vmd" data/in.vmd
if "$bin" help rename >/dev/null 2>&1; then
    "$bin" rename data/in.vmd --rules mine.yaml -o out.vmd 2>err.txt ||
        { cat err.txt; fail "rename with a rules file including an installed one"; }
    # And a missing include is an error naming it, so the success above
    # really came from the installed folder.
    printf 'include: [zz_not_installed.yaml]\n' >bad.yaml
    if "$bin" rename data/in.vmd --rules bad.yaml -o out2.vmd 2>err.txt; then
        fail "a missing include was accepted"
    fi
    grep -q "zz_not_installed.yaml" err.txt || fail "missing include not named: $(cat err.txt)"
    [ ! -e out2.vmd ] || fail "output written despite the error"
    # The shipped files are found by their bare name from any folder.
    printf 'include: [ja-en.yaml]\n' >ja.yaml
    if [ -f "$rules/ja-en.yaml" ]; then
        "$bin" rename data/in.vmd --rules ja.yaml -o out3.vmd 2>err.txt ||
            { cat err.txt; fail "rename with include: [ja-en.yaml]"; }
        # --rules with a bare shipped name works from a folder without it.
        [ ! -e ja-en.yaml ] || fail "test setup: ja-en.yaml in the case folder"
        "$bin" rename data/in.vmd --rules ja-en.yaml -o out4.vmd 2>err.txt ||
            { cat err.txt; fail "rename --rules ja-en.yaml (bare name, installed)"; }
        cmp -s out3.vmd out4.vmd || fail "--rules ja-en.yaml differs from include: [ja-en.yaml]"
    fi
elif "$bin" help overlay >/dev/null 2>&1; then
    "$bin" overlay data/in.vmd --pose "$PK_SOURCE/tests/fuzz/corpus/vpd_text/seed_mmd_crlf.vpd" \
        --rules mine.yaml --bones @marker_group -o out.vmd 2>err.txt ||
        { cat err.txt; fail "overlay with @marker_group from an installed include"; }
else
    echo "note: no command takes --rules yet; rules lookup not checked"
fi
how="the tree built afresh"
[ -n "$own" ] && how="the build itself installed"
echo "install: prefix $prefix OK ($how)"
