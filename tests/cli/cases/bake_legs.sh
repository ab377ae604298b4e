# bake --ik-to-fk and --fk-to-ik: the legs of a dance on a model to FK
# and back, every ankle within the goal (the summary and draw's world
# positions say so; the stand's duplicate keys dropped and counted, as
# every edit's summary counts them), the IK section switched, a pose as one frame; the
# errors exit 2 and write nothing.
need_corpus
in=$(corpus vmd_mmdagent_stand.vmd)
mei=$(corpus pmd_mei.pmd)
expect_exit 0 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" -o fk.vmd
expect_stderr_matches '^posekit bake: IK to FK, 2 legs over 121 frames: leg keys 50 -> [0-9]+; ankles within 0?\.[0-9e-]+ units of the input.s \(fitted to hold ankles and knees within [0-9.e-]+ units, the hip-to-ankle reach [0-9.e-]+\); 8 duplicate keys dropped \(of two records of one key the later wins, as MMD reads them\)$'
# the legs are keyed and the leg and toe IKs off from frame 0
expect_exit 0 "$POSEKIT" info fk.vmd
grep -qE '^ +[0-9]+  左ひざ$' "$OUT" || fail "no 左ひざ keys"
expect_stdout_contains 'ik keys: 1'
# the IKs' own keys are dropped (off, they move nothing; Mei's IK tips
# are invisible), kept with --keep-ik-keys
grep -qE '^ +[0-9]+  左足ＩＫ$' "$OUT" && fail "左足ＩＫ keys kept"
expect_exit 0 "$POSEKIT" bake "$in" --ik-to-fk --keep-ik-keys --model "$mei" -o fk_ik.vmd
expect_exit 0 "$POSEKIT" info fk_ik.vmd
grep -qE '^ +[0-9]+  左足ＩＫ$' "$OUT" || fail "--keep-ik-keys: no 左足ＩＫ keys"
expect_exit 0 "$POSEKIT" dump fk.vmd
expect_stdout_contains '"name":"左足ＩＫ","enabled":0'
expect_stdout_contains '"name":"右つま先ＩＫ","enabled":0'
expect_exit 0 "$POSEKIT" bake fk.vmd --fk-to-ik --model "$mei" -o ik.vmd --json
expect_stdout_contains '"legs": {"way": "fk-to-ik", "legs": 2, "frames": 121'
expect_stdout_contains '"baked": false'
expect_exit 0 "$POSEKIT" dump ik.vmd
expect_stdout_contains '"name":"左足ＩＫ","enabled":1'
# draw's world positions of the ankles: the input, the FK and the IK
# motion agree within 0.001 at a frame between keys
for f in "$in" fk.vmd ik.vmd; do
    expect_exit 0 "$POSEKIT" draw "$f" --model "$mei" --frame 37 --json
    grep -o '"name":"[左右]足首"[^}]*' "$OUT" >>ankles.txt
done
expect_eq "$(wc -l <ankles.txt)" 6 "ankle rows"
python3 - ankles.txt <<'PY' || fail "ankles move more than 0.001"
import re, sys, math
rows = [list(map(float, re.search(r'"pos":\[([^]]*)\]', l).group(1).split(','))) for l in open(sys.argv[1])]
for a, b in ((0, 2), (0, 4), (1, 3), (1, 5)):
    d = math.dist(rows[a], rows[b])
    assert d <= 0.001, (a, b, d)
PY
# a larger --max-move gives fewer keys
expect_exit 0 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" --max-move 0.01 -o loose.vmd --json
loose=$(grep -o '"keys_after": [0-9]*' "$OUT" | grep -o '[0-9]*$')
expect_exit 0 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" -o tight.vmd --json
tight=$(grep -o '"keys_after": [0-9]*' "$OUT" | grep -o '[0-9]*$')
[ "$loose" -lt "$tight" ] || fail "--max-move 0.01 gave $loose keys, 0.001 gave $tight"
# a pose: one frame, written as a VMD (a VPD cannot switch IK off)
expect_exit 0 "$POSEKIT" bake "$(corpus vpd_keitel_01.vpd)" --ik-to-fk --model "$mei" -o pose.vmd
expect_stderr_contains 'IK to FK, 2 legs over 1 frame: '
# errors: no model, both ways, a model without leg IK, options of the
# plain bake, a motion with nothing to turn
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk -o x.vmd
expect_stderr_contains '--ik-to-fk needs the model the legs are on (--model MODEL)'
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk --fk-to-ik --model "$mei" -o x.vmd
expect_stderr_contains '--ik-to-fk and --fk-to-ik exclude each other'
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk --model "$(corpus pmx_babylon_bone_flag_test.pmx)" -o x.vmd
expect_stderr_contains 'has no leg IK'
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" --step 2 -o x.vmd
expect_stderr_contains '--ik-to-fk and --step exclude each other'
expect_exit 2 "$POSEKIT" bake "$in" --model "$mei" -o x.vmd
expect_stderr_contains '--model applies to --ik-to-fk or --fk-to-ik'
expect_exit 2 "$POSEKIT" bake "$in" --fk-to-ik --keep-ik-keys --model "$mei" -o x.vmd
expect_stderr_contains '--keep-ik-keys applies to --ik-to-fk only'
expect_exit 2 "$POSEKIT" bake "$(corpus vmd_vmd2xml_camera.vmd)" --fk-to-ik --model "$mei" -o x.vmd
expect_stderr_contains 'the motion keys no bone and switches no IK'
# a key far away: the legs would be evaluated at millions of frames
python3 - far.vmd <<'PY'
import struct, sys
name = '左足ＩＫ'.encode('cp932').ljust(15, b'\0')
rec = name + struct.pack('<I3f4f', 5000000, 0, 0, 0, 0, 0, 0, 1) + bytes(64)
head = b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'x'.ljust(20, b'\0')
open(sys.argv[1], 'wb').write(head + struct.pack('<I', 1) + rec + struct.pack('<5I', 0, 0, 0, 0, 0))
PY
expect_exit 2 "$POSEKIT" bake far.vmd --ik-to-fk --model "$mei" -o x.vmd
expect_stderr_contains 'far.vmd: the motion reaches frame 5000000: the legs are evaluated at every frame, up to 4194303'
expect_no_file x.vmd

# A motion with duplicate keys (mmd4unity's morph "base") is told so once,
# when it is read, as by every command: the candidate fits checked against
# the ankles hold the input's other records and were told again.
ikt=$(corpus vmd_mmd4unity_IK_Test.vmd)
gene=$(corpus pmx_gene.pmx)
for way in --ik-to-fk --fk-to-ik; do
    expect_exit 0 "$POSEKIT" bake "$ikt" $way --model "$gene" -o dup.vmd
    n=$(grep -c 'morph "base": 106 duplicate keys' "$ERR" || true)
    expect_eq "$n" 1 "bake $way: duplicate-key warnings"
done

# A model without a leg IK is an error about the model's file, not the
# motion's.
flag=$(corpus pmx_babylon_bone_flag_test.pmx)
for way in --ik-to-fk --fk-to-ik; do
    expect_exit 2 "$POSEKIT" bake "$in" $way --model "$flag" -o noleg.vmd
    expect_stderr_contains "posekit: $flag: the model has no leg IK (an IK bone whose chain is hip, knee and ankle, as 足ＩＫ's is)"
    expect_no_file noleg.vmd
done

# An option the legs do not take says why it does not apply to them.
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" --camera -o opt.vmd
expect_stderr <<'ERR3'
posekit bake: --ik-to-fk and --camera exclude each other (only the legs are rewritten: every other record stays as it is)
Try 'posekit help bake'.
ERR3
expect_exit 2 "$POSEKIT" bake "$in" --fk-to-ik --model "$mei" --bones 左足 -o opt.vmd
expect_stderr_contains "posekit bake: --fk-to-ik and --bones exclude each other (the legs are the model's leg IK chains, not chosen by name)"
expect_exit 2 "$POSEKIT" bake "$in" --ik-to-fk --model "$mei" --step 2 -o opt.vmd
expect_stderr_contains "posekit bake: --ik-to-fk and --step exclude each other (the legs are every frame)"
expect_no_file opt.vmd
