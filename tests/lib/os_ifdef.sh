#!/bin/bash
# os_ifdef.sh SOURCE_ROOT — no conditional compilation on the operating
# system outside the platform edge (doc/architecture.md "The platform
# edge"): no #if/#ifdef/#elif in
# engine/ or cli/ that names a system macro, except in engine/platform/
# (the edge) and in the public header's two attribute macros (PK_API's
# DLL import/export and PK_PRINTF's mingw format), which every compiler
# of a user's program must see.  The CLI's entry point is chosen per
# system by meson (cli/main_posix.c, cli/main_win32.c), not by #ifdef.
# Compiler conditionals (__GNUC__, byte order, FLT_EVAL_METHOD) are not
# about the system and are allowed.  (tests/lib/os_calls.sh checks the
# calls themselves, from the built objects.)
set -euo pipefail
cd "$1"
sys='_WIN32|_WIN64|__MINGW32__|__MINGW64__|_MSC_VER|__CYGWIN__|__linux__|__linux|__gnu_linux__'
sys+='|__APPLE__|__MACH__|__unix__|__unix|__FreeBSD__|__NetBSD__|__OpenBSD__|__ANDROID__'
sys+='|_POSIX_VERSION|__EMSCRIPTEN__|__HAIKU__|__sun'
hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif)\b.*\b($sys)\b" \
    --include='*.c' --include='*.h' engine cli | grep -v '^engine/platform/' || true)
allowed='^engine/include/posekit\.h:[0-9]+:#(if|elif) defined\((_WIN32\) && defined\(PK_(BUILDING|USE)_DLL|__MINGW32__)\)$'
bad=$(printf '%s\n' "$hits" | grep -vE "$allowed" | grep -v '^$' || true)
if [ -n "$bad" ]; then
    echo "conditional compilation on the operating system outside engine/platform/:"
    echo "$bad"
    exit 1
fi
n=$(printf '%s\n' "$hits" | grep -c . || true)
echo "os #ifdef: none outside engine/platform/ ($n in posekit.h's attribute macros)"
