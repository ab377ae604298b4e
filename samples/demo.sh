#!/bin/bash
# samples/demo.sh — the main job on a fresh machine: lay the right-hand fist
# over frames 30-60 and the peace sign over frames 90-120 of the sample
# dance, write it with Japanese and English bone names, and show what
# changed.  Usage (from anywhere): samples/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Build tools and libraries (installs only what is missing; needs root or
# sudo the first time): those of the Linux build, not the Windows and
# browser builds' (.ci/setup.sh stages).
if [ -x .ci/setup.sh ]; then
    .ci/setup.sh core
fi
B=${BUILD_DIR:-build}   # another build folder: BUILD_DIR=build-x samples/demo.sh
if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B"
fi
ninja -C "$B" >/dev/null

echo "== posekit run samples/hand-overlay.yaml"
"$B"/cli/posekit run samples/hand-overlay.yaml

echo
echo "== what was written"
for f in samples/out/dance-hands.vmd samples/out/dance-hands-en.vmd; do
    "$B"/cli/posekit info "$f" | sed -n '1,2p;7,8p'
done
echo
echo "== byte-identical outside the right-hand fingers?"
# Every record of the other bones, the morphs and the other sections is kept
# as it was: compare the dumps without the finger tracks.
fingers='右(親|人|中|薬|小)指'
if cmp -s <("$B"/cli/posekit dump samples/dance.vmd | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/') \
          <("$B"/cli/posekit dump samples/out/dance-hands.vmd | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/'); then
    echo "yes: every other record is unchanged"
else
    echo "NO: other records changed" >&2
    exit 1
fi
