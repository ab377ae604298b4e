#!/bin/sh
# derive.sh POSEKIT CORPUS_DIR OUT_DIR — writes the built-in bodies,
# classic.yaml and standard.yaml, into OUT_DIR from the corpus models they
# are derived from (rules/bodies/README.md): each file is its licence notice
# followed by `posekit dump --body` of its model.  The shipped files are
# this script's output; tests/cli/cases/body_builtin.sh runs it again and
# compares.
set -eu
posekit=$1 corpus=$2 out=$3

{
    cat <<'NOTE'
# classic.yaml — posekit's built-in body @classic: the classic Miku skeleton
# (the 140 bones of Miku v2 with 腕捩/手捩, hair, necktie and skirt bones
# and their IK), the skeleton most older motions were made for.
#
# Derived from test.pmx of nanoem (https://github.com/hkrn/nanoem,
# emapp/test/fixtures/test.pmx, commit 30acffaa29f5d2eb9e997d69418f2e4b97b5894f),
# a bones-only model, by rules/bodies/derive.sh:
#   posekit dump --body pmx_nanoem_miku_bones.pmx
#
# This Source Code Form is subject to the terms of the Mozilla Public
# License, v. 2.0. If a copy of the MPL was not distributed with this
# file, You can obtain one at https://mozilla.org/MPL/2.0/.
#
# Format: rules/bodies/README.md.
NOTE
    "$posekit" dump --body "$corpus/pmx_nanoem_miku_bones.pmx"
} > "$out/classic.yaml.tmp"
mv "$out/classic.yaml.tmp" "$out/classic.yaml"

{
    cat <<'NOTE'
# standard.yaml — posekit's built-in body @standard: a full semi-standard
# skeleton (全ての親, センター, グルーブ, 上半身2, 腕捩, 手捩, 親指０, 足IK親,
# つま先ＩＫ ...), the bones of the standard groups of rules/standard.yaml
# that Gene has and the bones they need.
#
# Derived from Gene.pmx, "Gene" by the Nagoya Institute of Technology and
# the Moonshot Avatar Symbiotic Society (https://github.com/mmdagent-ex/gene,
# commit c7eace43dffaccff6ad0597433ef85fa57c91e03), licensed under the
# Creative Commons Attribution 4.0 International licence
# (https://creativecommons.org/licenses/by/4.0/), by rules/bodies/derive.sh:
#   posekit dump --body pmx_gene.pmx --bones '@root,@trunk,@head,@arms,@hands,@legs,@ik'
# Changes: only the skeleton of those bones, the morph names and the rigid
# bodies of those bones are kept (no mesh, no texture, no hair or cloak
# bones), written as a posekit body.  The model's name and design are the
# rights holders' (trademark and design rights reserved); no warranty.
#
# Format: rules/bodies/README.md.
NOTE
    "$posekit" dump --body "$corpus/pmx_gene.pmx" --bones '@root,@trunk,@head,@arms,@hands,@legs,@ik'
} > "$out/standard.yaml.tmp"
mv "$out/standard.yaml.tmp" "$out/standard.yaml"
