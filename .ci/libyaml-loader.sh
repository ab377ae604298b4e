#!/bin/bash
# .ci/libyaml-loader.sh SRC BUILD PREFIX OBJ-SUFFIX CC AR RANLIB: libyaml's
# loader as a static library for a cross target, as its own CMake Release
# build compiles it (its flags and defines, a config.h from its version;
# the same objects byte for byte), into PREFIX/lib/libyaml.a with yaml.h
# in PREFIX/include.  SRC is Debian's libyaml source (`apt-get source`),
# BUILD a scratch folder (emptied first), OBJ-SUFFIX the object names
# CMake gives on the target (.c.obj for Windows, .c.o for Emscripten),
# CC, AR and RANLIB the target's tools.
#
# Only the five files of the loader: posekit reads YAML and writes none,
# the linker takes nothing of dumper.c, emitter.c and writer.c, and
# CMake's configure and make cost more than these compiles.  Used by
# .ci/build-windows.sh and web/build.sh.
set -euo pipefail
[ $# -eq 7 ] || { echo "usage: .ci/libyaml-loader.sh SRC BUILD PREFIX OBJ-SUFFIX CC AR RANLIB" >&2; exit 2; }
y=$1 b=$2 prefix=$3 suffix=$4 cc=$5 ar=$6 ranlib=$7
rm -rf "$b"
mkdir -p "$b/include" "$prefix/lib" "$prefix/include"
ver() { sed -n "s/^set (YAML_VERSION_$1 \([0-9]*\))$/\1/p" "$y/CMakeLists.txt"; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] ||
    { echo "libyaml-loader.sh: no libyaml version in $y/CMakeLists.txt" >&2; exit 2; }
printf '#define YAML_VERSION_MAJOR %s\n#define YAML_VERSION_MINOR %s\n#define YAML_VERSION_PATCH %s\n#define YAML_VERSION_STRING "%s.%s.%s"\n' \
    "$major" "$minor" "$patch" "$major" "$minor" "$patch" >"$b/include/config.h"
objs=()
for f in api loader parser reader scanner; do
    "$cc" -DHAVE_CONFIG_H -DYAML_DECLARE_STATIC -I"$y/include" -I"$b/include" -O3 -DNDEBUG \
        -c "$y/src/$f.c" -o "$b/$f$suffix" ||
        { echo "libyaml-loader.sh: compiling libyaml's $f.c failed" >&2; exit 2; }
    objs+=("$b/$f$suffix")
done
rm -f "$prefix/lib/libyaml.a"
"$ar" qc "$prefix/lib/libyaml.a" "${objs[@]}" && "$ranlib" "$prefix/lib/libyaml.a" ||
    { echo "libyaml-loader.sh: archiving libyaml failed" >&2; exit 2; }
cp "$y/include/yaml.h" "$prefix/include/"
