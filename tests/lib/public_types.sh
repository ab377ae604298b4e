#!/bin/bash
# public_types.sh HEADER — the public header says what its types are
# (issue 18 §4): no implementation layout in public structs (pk_cursor is
# opaque storage of PK_CURSOR_BYTES, pk_bytes names its owner region), no
# field that holds something other than its name says.
set -euo pipefail
h=$1
status=0
for pat in 'priv_len_' 'cache_ok' 'plan\[' 'cache\[' 'priv_;'; do
    if grep -nE "$pat" "$h"; then
        echo "implementation detail in the public header: $pat"
        status=1
    fi
done
grep -q '^#define PK_CURSOR_BYTES [0-9]' "$h" || { echo "PK_CURSOR_BYTES not defined"; status=1; }
[ $status = 0 ] && echo "public types: opaque where private"
exit $status
