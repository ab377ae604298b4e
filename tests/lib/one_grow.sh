#!/bin/bash
# one_grow.sh SOURCE_ROOT — arrays grow one way (doc/architecture.md §4): no realloc
# in engine/ or cli/ outside engine/common/grow.h (pki_grow_reserve, _push,
# _append, _to) and the platform edge (engine/platform/).  Test code
# (tests/) is not the library and may grow its own buffers.
set -euo pipefail
root=$1
cd "$root"
hits=$(grep -rnE '\brealloc[a-z_]*[[:space:]]*\(' --include='*.c' --include='*.h' engine cli |
    grep -v '^engine/platform/' | grep -v '^engine/common/grow\.h:' || true)
if [ -n "$hits" ]; then
    echo "realloc outside engine/common/grow.h (grow through pki_grow_* instead):"
    echo "$hits"
    exit 1
fi
n=$(grep -rlE 'pki_grow_(reserve|push|append|to)[[:space:]]*\(' --include='*.c' --include='*.h' engine cli |
    grep -vc '^engine/common/grow\.h$' || true)
echo "one grow: no realloc outside grow.h and platform/; $n files grow through pki_grow_*"
