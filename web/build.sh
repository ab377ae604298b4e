#!/bin/bash
# web/build.sh — builds posekit's page into build-web/site/ (doc/web.md):
# open build-web/site/index.html, or put the folder on any static host.
#
#  1. installs what is missing (Debian: emscripten, dpkg-dev, meson,
#     ninja-build, pkg-config);
#  2. fetches Debian's source package of libyaml with `apt-get source`
#     (a deb-src entry is added when there is none, as .ci/setup.sh does)
#     and compiles its loader for WebAssembly as its emcmake/CMake
#     Release build does into build-web/deps/prefix;
#  3. builds posekit with meson (web/emscripten.ini, -Dwerror=true,
#     release): the CLI as a module (cli/main_web.c, cli/meson.build), the
#     CP932 table made from this machine's glibc iconv
#     (engine/platform/cp932_gen.c);
#  4. writes the site: the files of web/ (not the build files) and
#     posekit-engine.js, the worker (web/worker.js) with the engine inside.
# Nothing third-party is committed: libyaml comes from Debian here.
# Environment: PK_WEB_OUT (the output folder; default build-web),
# PK_WEB_OPTIMIZATION (emcc's -O level: 3 by default; 2, s, z to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
out=${PK_WEB_OUT:-$src/build-web}
mkdir -p "$out"
out=$(cd "$out" && pwd)
deps=$out/deps
prefix=$deps/prefix
# emcc's JavaScript optimizer needs acorn, which Debian ships here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
for p in emscripten dpkg-dev meson ninja-build pkg-config python3 gcc; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q
    as_root apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# emcc's plain compiles without its Python start (web/emcc-compile.sh),
# once a probe gives the same object bytes both ways.
probe=$out/emcc-probe
mkdir -p "$probe"
printf 'static int twice(int x) { return 2 * x; }\nint pk_probe(int x);\nint pk_probe(int x) { return twice(x) + 1; }\n' >"$probe/p.c"
unset PK_EMCC_CLANG PK_EMCC_CFLAGS
clang_bin=$(emcc -v -O3 -c "$probe/p.c" -o "$probe/emcc.o" 2>&1 | sed -n 's/^ *"\([^"]*clang[^"]*\)" .*/\1/p' | head -n 1)
if [ -n "$clang_bin" ] && [ -x "$clang_bin" ] && cflags=$(emcc --cflags) &&
    PK_EMCC_CLANG=$clang_bin PK_EMCC_CFLAGS=$cflags web/emcc-compile.sh -O3 -c "$probe/p.c" \
        -o "$probe/fast.o" && cmp -s "$probe/emcc.o" "$probe/fast.o"; then
    export PK_EMCC_CLANG=$clang_bin PK_EMCC_CFLAGS=$cflags
else
    echo "web/build.sh: emcc for every compile (its flags for clang could not be checked)"
fi

# ---- libyaml, from Debian's source package --------------------------------
if [ ! -f "$prefix/lib/libyaml.a" ]; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "web/build.sh: adding deb-src entries (/etc/apt/sources.list.d/posekit-deb-src.sources)"
        sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
            as_root tee /etc/apt/sources.list.d/posekit-deb-src.sources >/dev/null
        as_root apt-get update -q
    fi
    mkdir -p "$deps"
    (
        cd "$deps"
        if [ ! -d libyaml-src ]; then
            rm -rf libyaml-* libyaml_*
            apt-get source -q libyaml >apt-source.log 2>&1 ||
                { cat apt-source.log >&2; exit 2; }
            mv libyaml-[0-9]* libyaml-src
        fi
        # libyaml's loader, as its own emcmake/CMake Release build
        # compiles it (the same objects, so the same site), through
        # web/emcc-compile.sh
        bash "$src/.ci/libyaml-loader.sh" "$deps/libyaml-src" "$deps/build-yaml" "$prefix" .c.o \
            "$src/web/emcc-compile.sh" emar emranlib
    )
fi
mkdir -p "$prefix/lib/pkgconfig"
cat >"$prefix/lib/pkgconfig/yaml-0.1.pc" <<PC
prefix=$prefix
Name: LibYAML
Description: Library to parse and emit YAML (static, for WebAssembly)
Version: 0.2.5
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lyaml
PC
cat >"$out/deps.ini" <<INI
[binaries]
c = '$src/web/emcc-compile.sh'

[properties]
pkg_config_libdir = '$prefix/lib/pkgconfig'
INI

# ---- posekit ---------------------------------------------------------------
# The prefix is the module's own file system: the rule files are embedded
# at /posekit/share/posekit (cli/meson.build).
setup_opts=(--cross-file web/emscripten.ini --cross-file "$out/deps.ini"
    --buildtype=release -Doptimization="${PK_WEB_OPTIMIZATION:-3}" -Dprefix=/posekit -Ddefault_library=static
    -Dtests=false -Dman=disabled -Dwerror=true)
if [ -f "$out/posekit/build.ninja" ]; then
    meson setup --reconfigure "$out/posekit" "${setup_opts[@]}" >"$out/setup.log" 2>&1 ||
        { cat "$out/setup.log" >&2; exit 2; }
else
    meson setup "$out/posekit" "${setup_opts[@]}" >"$out/setup.log" 2>&1 ||
        { cat "$out/setup.log" >&2; exit 2; }
fi
ninja -C "$out/posekit" >"$out/build.log" 2>&1 ||
    { grep -E 'error|FAILED' "$out/build.log" | head -n 40 >&2; exit 2; }

# ---- the site -----------------------------------------------------------------
site=$out/site
rm -rf "$site"
mkdir -p "$site"
for f in web/*; do
    case $(basename "$f") in
        build.sh | emcc-compile.sh | emscripten.ini | worker.js | README.md) ;;
        *) cp -r "$f" "$site/" ;;
    esac
done
version=$(sed -n "s/^ *version: '\([^']*\)'.*/\1/p" meson.build | head -n 1)
python3 - "$out/posekit/cli/posekit.js" web/worker.js "$site/posekit-engine.js" "$version" <<'PY'
import json, sys
engine, worker, target, version = sys.argv[1:]
with open(engine, encoding='utf-8') as f:
    engine_js = f.read()
with open(worker, encoding='utf-8') as f:
    worker_js = f.read()
with open(target, 'w', encoding='utf-8') as f:
    f.write(f'''/* posekit-engine.js — posekit {version} for the browser, made by web/build.sh
 * (doc/web.md).  Load it with <script src="posekit-engine.js"></script>;
 * then PosekitEngine.createWorker() returns a Web Worker speaking the
 * protocol of web/worker.js.  The worker's code is the function below,
 * started from a Blob URL, so the page works from file:// as from any
 * static host.  Everything stays in the browser. */
(function (root) {{
'use strict';
function posekitWorkerMain() {{
{engine_js}
{worker_js}
}}
var source = '(' + posekitWorkerMain.toString() + ')();';
root.PosekitEngine = {{
    version: {json.dumps(version)},
    createWorker: function () {{
        var url = URL.createObjectURL(new Blob([source], {{type: 'text/javascript'}}));
        var w = new Worker(url);
        setTimeout(function () {{ URL.revokeObjectURL(url); }}, 60000);
        return w;
    }}
}};
}})(typeof self !== 'undefined' ? self : this);
''')
PY
echo "web/build.sh: $site ($(du -sk "$site" | cut -f1) KB)"
