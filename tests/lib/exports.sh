#!/bin/bash
# exports.sh LIB HEADER — the shared library exports exactly the functions
# posekit.h marks PK_API: none missing (a declared function not built), none
# extra (an internal pk_* symbol leaking out of -fvisibility=hidden).
set -euo pipefail
lib=$1 header=$2
got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^_' | sort)
want=$(sed -n 's/^PK_API .*[ *]\(pk_[a-z0-9_]*\)(.*/\1/p' "$header" | sort)
[ -n "$want" ] || { echo "no PK_API declarations found in $header"; exit 1; }
extra=$(comm -23 <(echo "$got") <(echo "$want"))
missing=$(comm -13 <(echo "$got") <(echo "$want"))
status=0
[ -z "$extra" ] || { echo "exported but not in the public header:"; echo "$extra"; status=1; }
[ -z "$missing" ] || { echo "declared PK_API but not exported:"; echo "$missing"; status=1; }
[ $status = 0 ] && echo "exports: $(echo "$got" | wc -l) symbols, all declared PK_API in posekit.h"
exit $status
