# check a generated motion against the classic Miku skeleton
# (pmx_nanoem_miku_bones.pmx): found, near misses of every kind, a name
# nothing matches, a translation the model cannot use; misses that move
# apart from misses whose keys are all at rest; then --suggest-rules,
# rename with those rules, and check finds the names.
need_corpus
model=$(corpus pmx_nanoem_miku_bones.pmx)
{
    vmd_header 'test'
    pack V 9
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1   # センター, moved: fine
    vmd_bone '\x8f\xe3\x94\xbc\x90\x67' 0 0 2 0 0 0 0 1           # 上半身, moved: not movable
    vmd_bone '\x8d\xb6\x90\x6c\x8d\xb7\x8e\x77\x82\x50' 0 0 0 0 0.1 0 0 0.995  # 左人差指１ -> 左人指１
    vmd_bone '\x8d\xb6\x91\xab\x49\x4b' 0 0 1 0 0 0 0 1           # 左足IK -> 左足ＩＫ
    vmd_bone '\x8d\xb6\x95\x49' 0 0 0 0 0 0 0 1                   # 左肘 -> 左ひじ, at rest
    vmd_bone 'neck' 0 0 0 0 0 0.1 0 0.995                         # English name of 首
    vmd_bone '\x82\xc8\x82\xa2' 0 0 0 0 0.2 0 0 0.98              # ない: nothing near
    vmd_bone '\x8f\xe3\x94\xbc\x90\x67\x32' 0 0 0 0 0.1 0 0 0.995  # 上半身2: folds
    vmd_bone '\x8f\xe3\x94\xbc\x90\x67\x32' 9 0 0 0 0.2 0 0 0.98
    pack V 1
    vmd_morph '\x82\xdc\x82\xce\x82\xbd\x82\xab' 0 1              # まばたき
    pack V 0 0 0 0
} >m.vmd
expect_exit 1 "$POSEKIT" check m.vmd --model "$model" --suggest-rules s.yaml
expect_stdout_contains 'bones keyed: 8, missing on the model: 6 (5 moving)'
expect_stdout_contains 'missing and moving (MMD ignores these keys: the model shows none of them):'
# most keys off rest first (上半身2 has two), then in the file's order
grep -A5 '^missing and moving' "$OUT" | sed -n 2,6p | awk '{print $2}' >order.txt
expect_eq "$(tr '\n' ' ' <order.txt)" '上半身2 左人差指１ 左足IK neck ない ' "moving misses in order"
expect_stdout_contains '  bone  上半身2 (2 keys, 2 off rest)  retarget from its source model to this one folds its turn into 首, 左肩, 右肩'
expect_stdout_contains '左人差指１ (1 key, 1 off rest)  near miss: 左人指１ (the same name but for another spelling of the same bone (人指/人差指))'
expect_stdout_contains "左足IK (1 key, 1 off rest)  near miss: 左足ＩＫ (the same name but for full-width ＩＫ in the model's name)"
expect_stdout_contains "neck (1 key, 1 off rest)  near miss: 首 (the model's English name for this bone)"
expect_stdout_contains 'bone  ない (1 key, 1 off rest)'
expect_stdout_contains 'missing, every key at rest (MMD shows nothing either way): 1 bone'
expect_stdout_contains '  bones: 左肘'
expect_stdout_lacks '左肘 (1 key'
expect_stdout_contains '上半身: 1 keys translate it; the model does not let it move'
expect_stdout_contains 'model bones the motion never keys (by display frame; bones physics drives left out):'
expect_file s.yaml
# the rules file is written before the report: a failed write prints none
ln -sf /dev/full full.yaml
expect_exit 2 "$POSEKIT" check m.vmd --model "$model" --suggest-rules full.yaml
expect_stderr_contains 'posekit: full.yaml: ' # (Wine: the link is a file it cannot replace)
expect_stdout_empty
grep -q '^  "左人差指１": "左人指１"$' s.yaml || fail "rule for 左人差指１ missing: $(cat s.yaml)"
grep -q '# ない (1 key, 1 off rest): no near miss' s.yaml || fail "no comment for ない"
grep -q '^# 1 missing name whose keys are all at rest left out' s.yaml || fail "rest misses: $(cat s.yaml)"
grep -q '左肘' s.yaml && fail "a rule for 左肘, whose keys are at rest: $(cat s.yaml)"
[ "$(grep -c '^  #' s.yaml)" -eq 5 ] || fail "one comment per rule expected: $(cat s.yaml)"
expect_exit 0 "$POSEKIT" rename m.vmd --rules s.yaml -o fixed.vmd
expect_exit 1 "$POSEKIT" check fixed.vmd --model "$model" --json
expect_eq "$(json_eval "$OUT" '(d["missing"], d["missing_moving"], d["missing_at_rest"])')" "(3, 2, 1)" "missing after the rename"
expect_eq "$(json_eval "$OUT" '[(b["name"], b["keys"], b["moving"]) for b in d["bones"] if b["status"]=="missing"]')" \
    "[('左肘', 1, 0), ('ない', 1, 1), ('上半身2', 2, 2)]"
expect_eq "$(json_eval "$OUT" '[b["fold_into"] for b in d["bones"] if b["status"]=="missing"]')" \
    "[[], [], ['首', '左肩', '右肩']]"
expect_eq "$(json_eval "$OUT" '[b["move_unusable"] for b in d["bones"] if b["name"]=="上半身"]')" "[1]"
# "path" as info --json says it; "file" and "model_file" kept for older readers
expect_eq "$(json_eval "$OUT" '(d["path"], d["file"], d["model_path"] == d["model_file"])')" "('fixed.vmd', 'fixed.vmd', True)"

# misses whose keys are all at rest do not fail a check (MMD shows nothing
# for them on any model)
{
    vmd_header 'test'
    pack V 2
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1   # センター, moved
    vmd_bone '\x8d\xb6\x95\x49' 0 0 0 0 0 0 0 1                   # 左肘, at rest
    pack V 1
    vmd_morph '\x82\xc8\x82\xa2' 0 0                              # ない, weight 0
    pack V 0 0 0 0
} >rest.vmd
expect_exit 0 "$POSEKIT" check rest.vmd --model "$model" --suggest-rules r.yaml
expect_stdout_contains 'missing, every key at rest (MMD shows nothing either way): 1 bone, 1 morph'
expect_stdout_lacks 'missing and moving'
grep -q '^  "' r.yaml && fail "rules for keys at rest: $(cat r.yaml)"

# a pose holds one entry per name: no key counts
vpd_text 'm' '\x8f\xe3\x94\xbc\x90\x67\x32|0,0,0|0.1,0,0,0.995' '\x8e\xf1|0,0,0|0,0,0,1' >p2.vpd
expect_exit 1 "$POSEKIT" check p2.vpd --model "$model"
expect_stdout_contains '  bone  上半身2  retarget from'
expect_stdout_lacks '(1 key'

# everything present: exit 0; a pose works too
{
    vmd_header 'test'
    pack V 1
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1
    pack V 0 0 0 0 0
} >ok.vmd
expect_exit 0 "$POSEKIT" check ok.vmd --model "$model"
vpd_text 'm' '\x8e\xf1|0,0,0|0,0,0,1' >p.vpd
expect_exit 0 "$POSEKIT" check p.vpd --model "$(corpus pmd_gene.pmd)"

# no model: the built-in body that fits (センター: both do, the first wins)
expect_exit 0 "$POSEKIT" check ok.vmd
expect_stdout_contains 'best: @classic'
# errors: a model that is not one, a motion given as the model
head -c 100 "$model" >cut.pmx
expect_exit 2 "$POSEKIT" check ok.vmd --model cut.pmx
expect_stderr_contains 'cut.pmx:77: texture 0: path length 20 does not fit in the 19 bytes left'
expect_exit 2 "$POSEKIT" check "$model" --model "$model"
expect_stderr_contains 'a PMX model, not a motion or pose'

# A cut name several model names share (Gene's cloak bones and brow
# morphs, keyed by MMDAgent's stand motion): every one is listed, and the
# report says the file cannot tell which it keys; JSON gives them all in
# model_names (model_name stays the first).
gene=$(corpus pmx_gene.pmx)
stand=$(corpus vmd_mmdagent_stand.vmd)
expect_exit 0 "$POSEKIT" check "$stand" --model "$gene"
expect_stdout_contains 'bone  前クローク2_1xc (3 keys) = 前クローク2_1xca, 前クローク2_1xc+, 前クローク2_1xcIK (ambiguous: 3 model bones cut to this name; the file cannot say which it keys)'
expect_stdout_contains 'morph brow_laugh_geo_ (2 keys) = brow_laugh_geo_L, brow_laugh_geo_R (ambiguous: 2 model morphs'
expect_stdout_contains 'morph browOuterUpRigh (1 key) = browOuterUpRight'
expect_stdout_lacks 'browOuterUpRight (ambiguous'
expect_exit 0 "$POSEKIT" check "$stand" --model "$gene" --json
expect_eq "$(json_eval "$OUT" '[(b["model_name"], b["model_names"]) for b in d["bones"] if b["status"] == "cut"]')" \
    "[('前クローク2_1xca', ['前クローク2_1xca', '前クローク2_1xc+', '前クローク2_1xcIK'])]"
expect_eq "$(json_eval "$OUT" '[m["model_names"] for m in d["morphs"] if m["name"] == "browOuterUpRigh"]')" "[['browOuterUpRight']]"

# Mei (pmd_mei.pmd) has no え or ん but its lip-sync morphs 発音「え」 and
# 発音「ん」: the suggested rules rename the moving ones onto them, and
# leave a hair bone keyed at rest alone; a moving hair bone is renamed with
# a note that physics drives it.  rename, then check: only the miss that
# has no near miss (真面目) is left, and the physics bone is listed as such
# and not among the bones the motion never keys.
mei=$(corpus pmd_mei.pmd)
{
    vmd_header 'test'
    pack V 3
    vmd_bone '\x91\x4f\x94\xaf\x31' 0 0 0 0 0 0 0 1               # 前髪1 (Mei: 前髪１), at rest
    vmd_bone '\x8c\xe3\x82\xeb\x94\xaf\x31' 0 0 0 0 0.1 0 0 0.995   # 後ろ髪1 -> none
    vmd_bone '\x89\x45\x94\xaf\x31' 0 0 0 0 0.1 0 0 0.995           # 右髪1 (Mei: 右髪１), moving
    pack V 6
    vmd_morph '\x82\xa6' 0 1                                      # え
    vmd_morph '\x82\xa6' 10 0
    vmd_morph '\x82\xf1' 0 0.5                                    # ん
    vmd_morph '\x90\x5e\x96\xca\x96\xda' 0 1                      # 真面目
    vmd_morph '\x82\xa0' 0 1                                      # あ: found
    vmd_morph '\x82\xcd\x82\xa4' 0 0                              # はぅ: at rest
    pack V 0 0 0 0
} >mei.vmd
expect_exit 1 "$POSEKIT" check mei.vmd --model "$mei" --suggest-rules mei.yaml
expect_stdout_contains "morph え (2 keys, 1 off rest)  near miss: 発音「え」 (the model's morph whose name contains え)"
expect_stdout_contains "morph ん (1 key, 1 off rest)  near miss: 発音「ん」 (the model's morph whose name contains ん)"
grep -q '^  "え": "発音「え」"$' mei.yaml || fail "no rule for え: $(cat mei.yaml)"
grep -q '^  "ん": "発音「ん」"$' mei.yaml || fail "no rule for ん: $(cat mei.yaml)"
grep -q '前髪1' mei.yaml && fail "a rule for 前髪1, keyed at rest: $(cat mei.yaml)"
grep -q '^  "右髪1": "右髪１"$' mei.yaml || fail "no rule for 右髪1: $(cat mei.yaml)"
grep -q '# 右髪1 (1 key, 1 off rest) -> 右髪１: .*; physics drives it on the model' mei.yaml ||
    fail "no physics note for 右髪1: $(cat mei.yaml)"
expect_exit 0 "$POSEKIT" rename mei.vmd --rules mei.yaml -o mei_fixed.vmd
expect_exit 1 "$POSEKIT" check mei_fixed.vmd --model "$mei" --json
expect_eq "$(json_eval "$OUT" '[x["name"] for x in d["bones"] + d["morphs"] if x["status"] == "missing" and x["moving"]]')" \
    "['後ろ髪1', '真面目']" "moving misses after the rename"
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["bones"] if b["physics"]]')" "['右髪１']" "physics bones"
expect_eq "$(json_eval "$OUT" '"右髪１" in sum((f["bones"] for f in d["unkeyed"]), [])')" "False" "physics bone unkeyed"
expect_eq "$(json_eval "$OUT" '"前髪１" in sum((f["bones"] for f in d["unkeyed"]), [])')" "False" "physics bone unkeyed"
expect_eq "$(json_eval "$OUT" '"全ての親" in sum((f["bones"] for f in d["unkeyed"]), [])')" "True" "unkeyed"
expect_exit 1 "$POSEKIT" check mei_fixed.vmd --model "$mei"
expect_stdout_contains 'driven by physics (MMD overwrites these keys while physics is on): 1 bone'
expect_stdout_contains '  右髪１ (1 key, 1 off rest)'

# hundreds of names keyed at rest only (a dance made for a rich model): the
# first 24 of each kind, then how many more; JSON lists every one
yyb=$(corpus vmd_babylon_physics_toggle_yyb10th.vmd)
expect_exit 1 "$POSEKIT" check "$yyb" --model "$gene"
expect_stdout_contains 'missing, every key at rest (MMD shows nothing either way): 360 bones, 75 morphs'
grep -qE '^  bones: 操作中心 \(2 keys\)(, [^,]+){23} and 336 more \(the JSON report lists every one\)$' "$OUT" ||
    fail "bones at rest: $(grep '^  bones:' "$OUT")"
grep -qE '^  morphs: [^,]+(, [^,]+){23} and 51 more \(the JSON report lists every one\)$' "$OUT" ||
    fail "morphs at rest: $(grep '^  morphs:' "$OUT")"
expect_exit 1 "$POSEKIT" check "$yyb" --model "$gene" --json
expect_eq "$(json_eval "$OUT" 'd["missing_at_rest"]')" 435 "names at rest in JSON"

# a model without a name (a bare test model): the first line names the
# file, without empty brackets
cp "$(corpus pmx_babylon_bone_flag_test.pmx)" bare.pmx
expect_exit 1 "$POSEKIT" check "$yyb" --model bare.pmx
expect_eq "$(head -n 1 "$OUT")" "$yyb on bare.pmx" "the first line for a nameless model"
