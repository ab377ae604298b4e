#!/bin/bash
# no_globals.sh ARCHIVE — the engine keeps no writable static data: every
# object's symbols in .data or .bss (file-scope or function-local statics,
# globals) are listed and fail the test.  Read-only tables (.rodata,
# .data.rel.ro) are fine, and so are a sanitizer's own symbols (__odr_asan.*).  A library whose functions share hidden state
# cannot be called from two threads at once, and results would depend on
# what ran before.  One exception, by object and name: the registry of
# what an interrupt must undo (platform/pending.c: pending, pending_top),
# which is the process's by nature (a signal handler can be handed no
# argument) and holds no result: lock-free atomics, filled and emptied
# by the writes themselves, read only by pk_file_interrupted.
set -euo pipefail
archive=$1
found=$(objdump -t "$archive" | awk '
    /^[^ ]*\.o:/ || /file format/ { obj = $1 }
    $0 ~ / O \.(data|bss)([ \t.]|$)/ && $0 !~ /rel\.ro/ &&
        $NF !~ /^(__odr_asan|__asan|__ubsan|__sancov|\.)/ &&
        !(obj ~ /platform_pending\.c\.o:$/ && $NF ~ /^(pending|pending_top)$/) { print obj " " $NF }')
nobj=$(objdump -t "$archive" | grep -c 'file format' || true)
[ "$nobj" -gt 0 ] || { echo "no objects found in $archive"; exit 1; }
if [ -n "$found" ]; then
    echo "writable static data in the engine:"
    echo "$found"
    exit 1
fi
echo "no writable static data in $nobj engine objects"
