# rename with weighted morph rules ({to, factor, clamp}) on corpus files:
# a facial motion's あ and い summed into one morph (keyed at different
# frames; the output plays the clamped sum at every frame, and the summary's
# clamp count and worst value are those of the sum), a fan-out with a
# factor, retarget's tally of it, a VPD pose; rule-file errors at
# line:column; --reverse refused;
# and check --suggest-rules writing weighted rules (a sum into a morph the
# motion keys already, a fan-out to a morph's two halves) that rename applies.
need_corpus
need_cmd python3
face=$(corpus vmd_wavefile_v2.vmd)

cat >w.yaml <<'EOF'
morphs:
  あ: {to: 口}
  い: {to: 口, factor: 1.5}
  笑い: {to: [笑い, にこり], factor: 0.5}
EOF
expect_exit 0 "$POSEKIT" rename "$face" --rules w.yaml -o out.vmd
"$POSEKIT" dump "$face" >in.json
"$POSEKIT" dump out.vmd >out.json
summary=$(cat "$ERR")
python3 - "$summary" <<'PY' || fail "weighted morphs: $summary"
import json, re, sys
a = json.load(open("in.json", encoding="utf-8"))
b = json.load(open("out.json", encoding="utf-8"))
def track(d, name):
    k = {}
    for m in d["morphs"]:
        if m["name"] == name:
            k[m["frame"]] = m["weight"]  # the later record wins
    return sorted(k.items())
def play(t, f):
    if f <= t[0][0]: return t[0][1]
    for (f0, w0), (f1, w1) in zip(t, t[1:]):
        if f <= f1: return w0 + (w1 - w0) * (f - f0) / (f1 - f0)
    return t[-1][1]
A, I, S, N0 = track(a, "あ"), track(a, "い"), track(a, "笑い"), track(a, "にこり")
M, S2, N = track(b, "口"), track(b, "笑い"), track(b, "にこり")
assert not track(b, "あ") and not track(b, "い"), "sources left"
last = max(f for f, _ in A + I)
worst = 0
for f in range(last + 2):
    s = play(A, f) + 1.5 * play(I, f)
    assert abs(play(M, f) - min(1.0, max(0.0, s))) < 2e-6, (f, play(M, f), s)
    assert abs(play(S2, f) - 0.5 * play(S, f)) < 1e-6, f
    # the motion's own にこり joins the sum
    assert abs(play(N, f) - min(1.0, 0.5 * play(S, f) + play(N0, f))) < 1e-6, f
# every key frame of either source is a key of the target
assert {f for f, _ in A + I} <= {f for f, _ in M}, "union of frames"
sums = [play(A, f) + 1.5 * play(I, f) for f, _ in M]
over = [s for s in sums if s > 1.0 + 1e-7]
m = re.search(r"(\d+) clamped \(worst: 口 at frame (\d+), ([0-9.]+) written as 1\)", sys.argv[1])
assert m, "no clamp report"
assert int(m.group(1)) == len(over), (m.group(1), len(over))
assert abs(float(m.group(3)) - max(over)) < 1e-5, (m.group(3), max(over))
assert len(b["morphs"]) == len(a["morphs"]) - len(A) - len(I) - len(N0) + len(M) + len(N)
PY
expect_stderr_contains "; 3 morphs mapped by weight onto 3: "

# retarget renames with the same rules: its tally counts the input's
# records in, the replaced morph keys removed and the keys written added.
expect_exit 0 "$POSEKIT" retarget "$face" --rules w.yaml -o rt.vmd
expect_same_bytes rt.vmd out.vmd
tally=$(python3 - <<'PY'
import json
a = json.load(open("in.json", encoding="utf-8"))
b = json.load(open("out.json", encoding="utf-8"))
src = {"あ", "い", "笑い", "にこり"}
dst = {"口", "笑い", "にこり"}
removed = sum(m["name"] in src for m in a["morphs"])
added = sum(m["name"] in dst for m in b["morphs"])
n_in = len(a["bones"]) + len(a["morphs"])
n_out = len(b["bones"]) + len(b["morphs"])
print(f"{n_in} keys in, {n_out} out: 0 changed, {added} added, {removed} removed")
PY
)
expect_stderr_contains "; $tally"

# A pose: あ fanned out at half weight, and summed with 口上 into 口.
pose=$(corpus vpd_mcmmd_smile_morphonly.vpd)
printf 'morphs:\n  あ: {to: {口: 1, 笑い: 0.5}}\n  口上: {to: 口}\n  口角上げ: {factor: 2}\n' >p.yaml
expect_exit 0 "$POSEKIT" rename "$pose" --rules p.yaml -o out.vpd
expect_stderr_contains "3 morphs mapped by weight onto 3: 3 keys written, 1 clamped (worst: 口角上げ at frame 0, 1.91036 written as 1)"
"$POSEKIT" dump out.vpd >pose.json
expect_eq "$(json_eval pose.json '[(m["name"], round(m["weight"], 6)) for m in d["morphs"]]')" \
    "[('ウィンク右', 0.190476), ('ウィンク２', 1.0), ('口', 0.966387), ('笑い', 0.207283), ('口角上げ', 1.0), ('口角下げ0', 0.201681)]"

# Errors name the rule file's line:column; nothing is written.
remember "$face"
printf 'morphs:\n  あ: {to: 口, factor: much}\n' >bad.yaml
expect_exit 2 "$POSEKIT" rename "$face" --rules bad.yaml -o bad.vmd
expect_stderr <<'ERR'
posekit: bad.yaml:2:22: factor must be a number, not 'much'
ERR
printf 'morphs:\n  あ: {to: 口}\n  い: {to: 口, clamp: [0.5, 0.2]}\n' >bad.yaml
expect_exit 2 "$POSEKIT" rename "$face" --rules bad.yaml -o bad.vmd
expect_stderr <<'ERR'
posekit: bad.yaml:3:21: clamp [0.5, 0.2] is empty: the low end is above the high end
ERR
printf 'morphs:\n  あ: {to: [口, sixteen_bytes_ab]}\n' >bad.yaml
expect_exit 2 "$POSEKIT" rename "$face" --rules bad.yaml -o bad.vmd
expect_stderr_contains "bad.yaml:2:15: morph 'あ' would map to 'sixteen_bytes_ab', 16 bytes in CP932; the VMD field holds 15"
expect_exit 2 "$POSEKIT" rename out.vmd --rules w.yaml --reverse -o bad.vmd
expect_stderr_contains "w.yaml:2:3: rule 'あ' maps morph weights and cannot be reversed"
expect_no_file bad.vmd
expect_unchanged "$face"

# check --suggest-rules: え is missing on Mei, whose near miss 発音「え」 the
# motion keys already; the suggestion is a weighted rule summing them, and
# after rename check finds no moving morph missing.
mei=$(corpus pmd_mei.pmd)
{
    vmd_header 'test'
    pack V 0 5
    vmd_morph '\x82\xa6' 0 1                                   # え
    vmd_morph '\x82\xa6' 10 0
    vmd_morph '\x94\xad\x89\xb9\x81\x75\x82\xa6\x81\x76' 5 0.5  # 発音「え」
    vmd_morph '\x94\xad\x89\xb9\x81\x75\x82\xa6\x81\x76' 20 0.25
    vmd_morph '\x82\xf1' 0 0.6                                 # ん
    pack V 0 0 0 0
} >e.vmd
expect_exit 1 "$POSEKIT" check e.vmd --model "$mei" --suggest-rules e.yaml
grep -q '^  "え": {to: "発音「え」"}$' e.yaml || fail "no weighted rule for え: $(cat e.yaml)"
grep -q '^  "ん": "発音「ん」"$' e.yaml || fail "no rule for ん: $(cat e.yaml)"
expect_exit 0 "$POSEKIT" rename e.vmd --rules e.yaml -o e_fixed.vmd
expect_stderr_contains "1 of 3 morphs renamed; 1 morph mapped by weight onto 1: 4 keys written, 1 clamped (worst: 発音「え」 at frame 0, 1.5 written as 1)"
"$POSEKIT" dump e_fixed.vmd >e.json
expect_eq "$(json_eval e.json '[(m["name"], m["frame"], round(m["weight"], 6)) for m in d["morphs"]]')" \
    "[('発音「え」', 0, 1.0), ('発音「え」', 5, 1.0), ('発音「え」', 10, 0.416667), ('発音「え」', 20, 0.25), ('発音「ん」', 0, 0.6)]"
expect_exit 0 "$POSEKIT" check e_fixed.vmd --model "$mei" --json
expect_eq "$(json_eval "$OUT" '[m["name"] for m in d["morphs"] if m["status"] == "missing"]')" "[]"

# A morph the model has only in halves (Gene: brow_sad_geo_L and _R) is
# fanned out to both; one whose halves do not fit the field
# (brow_laugh_geo_L, 16 bytes) keeps the near miss cut, which MMD matches
# to both.
gene=$(corpus pmx_gene.pmx)
{
    vmd_header 'test'
    pack V 0 3
    vmd_morph 'brow_sad_geo' 0 0
    vmd_morph 'brow_sad_geo' 10 0.8
    vmd_morph 'brow_laugh_geo' 0 0.5
    pack V 0 0 0 0
} >g.vmd
expect_exit 1 "$POSEKIT" check g.vmd --model "$gene" --suggest-rules g.yaml
grep -q '^  "brow_sad_geo": {to: \["brow_sad_geo_L", "brow_sad_geo_R"\]}$' g.yaml ||
    fail "no fan-out for brow_sad_geo: $(cat g.yaml)"
grep -q '^  "brow_laugh_geo": "brow_laugh_geo_"$' g.yaml || fail "no cut rename: $(cat g.yaml)"
expect_exit 0 "$POSEKIT" rename g.vmd --rules g.yaml -o g_fixed.vmd
"$POSEKIT" dump g_fixed.vmd >g.json
expect_eq "$(json_eval g.json '[(m["name"], m["frame"], round(m["weight"], 6)) for m in d["morphs"]]')" \
    "[('brow_sad_geo_L', 0, 0.0), ('brow_sad_geo_L', 10, 0.8), ('brow_sad_geo_R', 0, 0.0), ('brow_sad_geo_R', 10, 0.8), ('brow_laugh_geo_', 0, 0.5)]"
expect_exit 0 "$POSEKIT" check g_fixed.vmd --model "$gene" --json
expect_eq "$(json_eval "$OUT" '[m["name"] for m in d["morphs"] if m["status"] == "missing"]')" "[]"
