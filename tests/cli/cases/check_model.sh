# check a generated motion against the classic Miku skeleton
# (pmx_nanoem_miku_bones.pmx): found, near misses of every kind, a name
# nothing matches, a translation the model cannot use; then
# --suggest-rules, rename with those rules, and check finds the names.
need_corpus
model=$(corpus pmx_nanoem_miku_bones.pmx)
{
    vmd_header 'test'
    pack V 7
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1   # センター, moved: fine
    vmd_bone '\x8f\xe3\x94\xbc\x90\x67' 0 0 2 0 0 0 0 1           # 上半身, moved: not movable
    vmd_bone '\x8d\xb6\x90\x6c\x8d\xb7\x8e\x77\x82\x50' 0 0 0 0 0 0 0 1  # 左人差指１ -> 左人指１
    vmd_bone '\x8d\xb6\x91\xab\x49\x4b' 0 0 0 0 0 0 0 1           # 左足IK -> 左足ＩＫ
    vmd_bone '\x8d\xb6\x95\x49' 0 0 0 0 0 0 0 1                   # 左肘 -> 左ひじ
    vmd_bone 'neck' 0 0 0 0 0 0 0 1                               # English name of 首
    vmd_bone '\x82\xc8\x82\xa2' 0 0 0 0 0 0 0 1                   # ない: nothing near
    pack V 1
    vmd_morph '\x82\xdc\x82\xce\x82\xbd\x82\xab' 0 1              # まばたき
    pack V 0 0 0 0
} >m.vmd
expect_exit 1 "$POSEKIT" check m.vmd --model "$model" --suggest-rules s.yaml
expect_stdout_contains 'bones keyed: 7, missing on the model: 5'
expect_stdout_contains '左人差指１ (1 keys)  near miss: 左人指１ (another spelling of the same bone (人指/人差指))'
expect_stdout_contains '左足IK (1 keys)  near miss: 左足ＩＫ (the same name in full-width/half-width forms'
expect_stdout_contains '左肘 (1 keys)  near miss: 左ひじ (another spelling of the same bone (ひじ/肘))'
expect_stdout_contains "neck (1 keys)  near miss: 首 (the model's English name for this bone)"
expect_stdout_contains 'bone  ない (1 keys)'
expect_stdout_contains '上半身: 1 keys translate it; the model does not let it move'
expect_stdout_contains 'model bones the motion never keys (by display frame):'
expect_file s.yaml
# the rules file is written before the report: a failed write prints none
ln -sf /dev/full full.yaml
expect_exit 2 "$POSEKIT" check m.vmd --model "$model" --suggest-rules full.yaml
expect_stderr_contains 'posekit: full.yaml: ' # (Wine: the link is a file it cannot replace)
expect_stdout_empty
grep -q '^  "左人差指１": "左人指１"$' s.yaml || fail "rule for 左人差指１ missing: $(cat s.yaml)"
grep -q '# ない (1 keys): no near miss' s.yaml || fail "no comment for ない"
[ "$(grep -c '^  #' s.yaml)" -eq 5 ] || fail "one comment per rule expected: $(cat s.yaml)"
expect_exit 0 "$POSEKIT" rename m.vmd --rules s.yaml -o fixed.vmd
expect_exit 1 "$POSEKIT" check fixed.vmd --model "$model" --json
expect_eq "$(json_eval "$OUT" 'd["missing"]')" 1 "missing after the rename"
expect_eq "$(json_eval "$OUT" '[b["name"] for b in d["bones"] if b["status"]=="missing"]')" "['ない']"
expect_eq "$(json_eval "$OUT" '[b["move_unusable"] for b in d["bones"] if b["name"]=="上半身"]')" "[1]"

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

# errors: no model, a model that is not one, a motion given as the model
expect_exit 2 "$POSEKIT" check ok.vmd
expect_stderr_contains 'no model given'
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
expect_stdout_contains 'morph browOuterUpRigh (1 keys) = browOuterUpRight'
expect_stdout_lacks 'browOuterUpRight (ambiguous'
expect_exit 0 "$POSEKIT" check "$stand" --model "$gene" --json
expect_eq "$(json_eval "$OUT" '[(b["model_name"], b["model_names"]) for b in d["bones"] if b["status"] == "cut"]')" \
    "[('前クローク2_1xca', ['前クローク2_1xca', '前クローク2_1xc+', '前クローク2_1xcIK'])]"
expect_eq "$(json_eval "$OUT" '[m["model_names"] for m in d["morphs"] if m["name"] == "browOuterUpRigh"]')" "[['browOuterUpRight']]"
