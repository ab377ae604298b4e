#!/bin/bash
# exports.sh LIB API_HEADER TOOL_HEADER — the shared library exports exactly
# the functions the two headers mark PK_API: none missing (a declared
# function not built), none extra (an internal symbol leaking out of
# -fvisibility=hidden); no internal name (pki_) among them, and the
# library's API header (posekit.h) declares none of the tool's layer
# (steps, jobs: posekit_tool.h, which makes no stability promise).
set -euo pipefail
lib=$1 api=$2 tool=$3
got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^_' | sort)
declared() { sed -n 's/^PK_API .*[ *]\(pk_[a-z0-9_]*\)(.*/\1/p' "$1"; }
want=$( (declared "$api"; declared "$tool") | sort)
[ -n "$(declared "$api")" ] || { echo "no PK_API declarations found in $api"; exit 1; }
[ -n "$(declared "$tool")" ] || { echo "no PK_API declarations found in $tool"; exit 1; }
extra=$(comm -23 <(echo "$got") <(echo "$want"))
missing=$(comm -13 <(echo "$got") <(echo "$want"))
internal=$(grep '^pki_' <<<"$got" || true)
tool_in_api=$(declared "$api" | grep -E '^pk_(step|job)_' || true)
status=0
[ -z "$extra" ] || { echo "exported but in neither header:"; echo "$extra"; status=1; }
[ -z "$missing" ] || { echo "declared PK_API but not exported:"; echo "$missing"; status=1; }
[ -z "$internal" ] || { echo "internal names exported:"; echo "$internal"; status=1; }
[ -z "$tool_in_api" ] || { echo "the tool's layer declared in $api:"; echo "$tool_in_api"; status=1; }
[ $status = 0 ] && echo "exports: $(echo "$got" | wc -l) symbols: $(declared "$api" | wc -l) of the API (posekit.h), $(declared "$tool" | wc -l) of the tool (posekit_tool.h)"
exit $status
