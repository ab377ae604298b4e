#!/bin/bash
# web/emcc-compile.sh — the C compiler web/build.sh gives meson: emcc,
# except that a plain compile of one C file (-c, and only -I -D -U -W
# -std= -O -f -include -MD -MQ -MF -o) runs clang with emcc's own flags
# directly: emcc is a Python program whose start (importing emscripten's
# tools) costs 0.25 s of CPU, more than a small file's compile, and
# would add it to each of the site's 140 compiles.  web/build.sh sets
# PK_EMCC_CLANG (emcc's clang, from `emcc -v`) and PK_EMCC_CFLAGS (`emcc
# --cflags`) only after a probe file compiled both ways gave the same
# bytes; without them, or for anything else (a link, -s settings, -m,
# -g, -flto, -pthread, -E), this is emcc.  emcc drops its own
# -fvisibility=default when the arguments set a visibility: so does this.
fast=${PK_EMCC_CLANG:+1}
[ -n "${PK_EMCC_CFLAGS:-}" ] || fast=
compile=0 vis=0 srcs=0 next=
for a in "$@"; do
    [ -n "$fast" ] || break
    if [ -n "$next" ]; then next= && continue; fi
    case $a in
        -c) compile=1 ;;
        -o | -MQ | -MF | -MT | -include) next=1 ;;
        -fvisibility*) vis=1 ;;
        -flto* | -fsanitize*) fast= ;;
        -I?* | -D?* | -U?* | -W* | -std=* | -O? | -f* | -MD | -MMD) ;;
        *.c) [[ $a == -* ]] && fast= || srcs=$((srcs + 1)) ;;
        *) fast= ;;
    esac
done
if [ -n "$fast" ] && [ $compile = 1 ] && [ $srcs = 1 ] && [ -z "$next" ]; then
    read -r -a flags <<<"$PK_EMCC_CFLAGS"
    if [ $vis = 1 ]; then
        keep=()
        for f in "${flags[@]}"; do [ "$f" = -fvisibility=default ] || keep+=("$f"); done
        flags=("${keep[@]}")
    fi
    exec "$PK_EMCC_CLANG" "${flags[@]}" "$@"
fi
exec emcc "$@"
