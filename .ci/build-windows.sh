#!/bin/bash
# .ci/build-windows.sh — cross-builds a static posekit.exe for Windows x86-64
# on Debian 12 and packs build-windows/posekit-windows-x86_64.zip
# (doc/windows.md).
#
#  1. installs what is missing: mingw-w64, cmake, dpkg-dev (apt-get source),
#     zip, wine64 (the tests);
#  2. adds a deb-src entry for the machine's own Debian suites when there is
#     none, and fetches Debian's source package of libyaml with
#     `apt-get source` (apt checks them against the signed archive);
#  3. builds it as a static library for the target with CMake (its own
#     build files) into build-windows/deps/prefix, with a pkg-config file;
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
for p in gcc-mingw-w64-x86-64 cmake dpkg-dev zip wine64 meson ninja-build pkg-config python3; do
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

cat > mingw.cmake <<'CMAKE'
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
CMAKE
cmake_build() { # NAME SRC OPTIONS...
    local name=$1 dir=$2
    shift 2
    [ -f "$prefix/lib/lib$name.a" ] && return 0
    cmake -S "$dir" -B "build-$name" -DCMAKE_TOOLCHAIN_FILE="$deps/mingw.cmake" \
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release "$@" >"build-$name.log" 2>&1 &&
        cmake --build "build-$name" -j"$(nproc)" >>"build-$name.log" 2>&1 &&
        cmake --install "build-$name" >>"build-$name.log" 2>&1 ||
        { echo "build-windows: building $name failed (see $deps/build-$name.log)" >&2; exit 2; }
}
cmake_build yaml libyaml-src -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF

# pkg-config files for the target (libyaml's CMake build writes none; a
# static libyaml wants YAML_DECLARE_STATIC or yaml.h asks for a DLL).
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
