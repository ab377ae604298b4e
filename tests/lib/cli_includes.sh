#!/bin/bash
# cli_includes.sh SRC — the posekit program (cli/) uses the library's API
# (posekit.h), the tool's layer (posekit_tool.h), the internal helpers it
# links in (engine/util/) and its own headers: never another internal
# header of the engine.
set -euo pipefail
src=$1
bad=$(grep -Hn '#include "' "$src"/cli/*.c "$src"/cli/*.h |
    grep -vE '#include "(posekit|posekit_tool)\.h"|#include "util/[a-z0-9_]+\.h"' |
    grep -vE '#include "[a-z0-9_]+\.h"' || true)
own=$(grep -Hn '#include "' "$src"/cli/*.c "$src"/cli/*.h | grep -vE '#include "(posekit|posekit_tool|util/[a-z0-9_]+)\.h"' |
    sed -n 's/.*#include "\([a-z0-9_]*\.h\)".*/\1/p' | sort -u)
for h in $own; do
    [ -f "$src/cli/$h" ] || bad="$bad"$'\n'"cli includes $h, which is not one of its own headers"
done
if [ -n "${bad//$'\n'/}" ]; then
    echo "the CLI includes what it may not:"
    echo "$bad"
    exit 1
fi
echo "cli_includes: posekit.h, posekit_tool.h, util/ and cli/'s own headers only"
