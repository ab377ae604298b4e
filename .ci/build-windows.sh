#!/bin/bash
# .ci/build-windows.sh — cross-builds a static posekit.exe for Windows x86-64
# on Debian 12 and packs build-windows/posekit-windows-x86_64.zip
# (doc/windows.md).
#
#  1. installs what is missing: mingw-w64, dpkg-dev (apt-get source), zip,
#     wine64 (the tests);
#  2. adds a deb-src entry for the machine's own Debian suites when there is
#     none, and fetches Debian's source package of libyaml with
#     `apt-get source` (apt checks them against the signed archive);
#  3. builds the part posekit links (its loader) as a static library for
#     the target, as its own CMake build does, into build-windows/deps/prefix,
#     with a pkg-config file;
#  4. builds posekit with meson (.ci/mingw-w64.ini), linked statically:
#     no DLL beyond Windows' own;
#  5. packs posekit.exe, the rule files, README, the command reference
#     (doc\commands.md, jobs.md, windows.md and their pictures), licence
#     and samples.
# Nothing third-party is committed: every source comes from Debian here.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
out=$src/build-windows
deps=$out/deps
prefix=$deps/prefix

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
for p in gcc-mingw-w64-x86-64-win32 dpkg-dev zip wine64 meson ninja-build pkg-config python3; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q
    as_root apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# Source packages need a deb-src entry: copy the machine's own deb entries.
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "build-windows: adding deb-src entries (/etc/apt/sources.list.d/posekit-deb-src.sources)"
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
        as_root tee /etc/apt/sources.list.d/posekit-deb-src.sources >/dev/null
    as_root apt-get update -q
fi

mkdir -p "$deps"
cd "$deps"
if [ ! -d libyaml-src ]; then
    rm -rf libyaml-* libyaml_*
    apt-get source -q libyaml
    mv libyaml-[0-9]* libyaml-src
fi

# libyaml for the target: its loader, as its own CMake Release build
# compiles it (.ci/libyaml-loader.sh; 3.4 s of CPU instead of CMake's
# 7.0 s).
[ -f "$prefix/lib/libyaml.a" ] ||
    bash "$src/.ci/libyaml-loader.sh" "$deps/libyaml-src" "$deps/build-yaml" "$prefix" .c.obj \
        x86_64-w64-mingw32-gcc x86_64-w64-mingw32-ar x86_64-w64-mingw32-ranlib

# pkg-config files for the target (a static libyaml wants
# YAML_DECLARE_STATIC or yaml.h asks for a DLL).
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
cat > "$prefix/lib/pkgconfig/yaml-0.1.pc" <<PC
prefix=$prefix
Name: LibYAML
Description: Library to parse and emit YAML (static, for mingw-w64)
Version: 0.2.5
Cflags: -I\${prefix}/include -DYAML_DECLARE_STATIC
Libs: -L\${prefix}/lib -lyaml
PC

cd "$src"
cat > "$out/deps.ini" <<INI
[properties]
pkg_config_libdir = '$prefix/lib/pkgconfig'
INI
# -Dwerror=true as in the Linux builds of tests/run.sh: the Windows build
# is held to the same warnings (engine/platform/mingw_math.h).
setup_opts=(--cross-file .ci/mingw-w64.ini --cross-file "$out/deps.ini"
    --buildtype=release -Ddefault_library=static -Dprefer_static=true
    -Dc_link_args=-static -Dtests=false -Dman=disabled -Dwerror=true)
if [ -f "$out/posekit/build.ninja" ]; then
    meson setup --reconfigure "$out/posekit" "${setup_opts[@]}" >/dev/null
else
    meson setup "$out/posekit" "${setup_opts[@]}" >/dev/null
fi
ninja -C "$out/posekit"
exe=$out/posekit/cli/posekit.exe
x86_64-w64-mingw32-strip "$exe"

# The zip: posekit.exe, rules/, bodies/, samples/, README, the command reference
# and licence (CRLF text).
stage=$out/stage/posekit
rm -rf "$out/stage"
mkdir -p "$stage"
cp "$exe" "$stage/"
mkdir -p "$stage/rules" "$stage/bodies" "$stage/samples"
cp rules/*.yaml rules/README.md "$stage/rules/"
cp rules/bodies/*.yaml rules/bodies/README.md "$stage/bodies/"
cp -r samples/dance.vmd samples/hands samples/hand-overlay.yaml samples/README.md "$stage/samples/"
sed 's/$/\r/' README.md > "$stage/README.txt"
# the documents README.txt links to for the reference
mkdir -p "$stage/doc"
for d in commands jobs windows; do
    sed 's/$/\r/' "doc/$d.md" > "$stage/doc/$d.md"
done
cp -r doc/pictures "$stage/doc/"
sed 's/$/\r/' doc/LICENSE > "$stage/LICENSE.txt"
rm -f "$out/posekit-windows-x86_64.zip"
(cd "$out/stage" && zip -qr -X "$out/posekit-windows-x86_64.zip" posekit)
echo "build-windows: $out/posekit-windows-x86_64.zip ($(du -k "$out/posekit-windows-x86_64.zip" | cut -f1) KB)"
