# info and dump of PMX and PMD models: every corpus model reads; the dump
# follows the README schema; pmx_gene.pmx and pmd_gene.pmd agree bone for
# bone (names, parents, positions); a truncated model fails with an offset.
need_corpus
for f in "$PK_CORPUS"/*.pmx "$PK_CORPUS"/*.pmd; do
    expect_exit 0 "$POSEKIT" info "$f"
    expect_stdout_contains '  display frames:'
    expect_exit 0 "$POSEKIT" dump "$f"
    json_eval "$OUT" 'd["format"]' >/dev/null
done
expect_exit 0 "$POSEKIT" info "$(corpus pmx_mmt_test_model.pmx)"
expect_stdout_contains 'format: PMX 2.0, utf-16le text, index sizes vertex 2 texture 1 material 1 bone 1 morph 1 rigid 1, extra UVs 1'
expect_stdout_contains 'counts: vertices 1822, faces 3516'
expect_exit 0 "$POSEKIT" info --json "$(corpus pmx_gene.pmx)"
expect_eq "$(json_eval "$OUT" 'len(d["bones"])')" 224
expect_eq "$(json_eval "$OUT" 'sum(1 for b in d["bones"] if "ik" in b)')" 6
expect_exit 0 "$POSEKIT" dump "$(corpus pmx_gene.pmx)"
mv "$OUT" x.json
expect_exit 0 "$POSEKIT" dump "$(corpus pmd_gene.pmd)"
mv "$OUT" d.json
python3 - x.json d.json <<'PY' || fail "gene PMX and PMD dumps disagree"
import json, sys
x, d = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:])
assert x["format"] == "pmx" and d["format"] == "pmd" and d["encoding"] == "cp932"
assert set(x) >= {"format", "version", "encoding", "model", "model_en", "bones", "morphs", "frames"}
assert len(x["bones"]) == len(d["bones"]) == 224
keys = ["name", "name_en", "parent", "position", "layer", "flags", "tail", "append",
        "fixed_axis", "local_axes", "ik"]
for a, b in zip(x["bones"], d["bones"]):
    assert list(a) == keys and list(b) == keys, list(a)
    assert a["name"] == b["name"] and a["parent"] == b["parent"], (a["name"], b["name"])
    assert all(abs(p - q) < 1e-4 for p, q in zip(a["position"], b["position"])), a["name"]
    assert (a["ik"] is None) == (b["ik"] is None), a["name"]
    if a["ik"]:
        assert a["ik"]["target"] == b["ik"]["target"]
        assert [l["bone"] for l in a["ik"]["links"]] == [l["bone"] for l in b["ik"]["links"]]
PY
# a frame without bones ends without an empty list; an English name the
# PMD writer copied from the Japanese one is not shown twice
expect_exit 0 "$POSEKIT" info "$(corpus pmd_mei.pmd)"
grep -qx '    表情 (0 bones, 28 morphs)' "$OUT" || fail "表情 frame line: $(grep '表情 (' "$OUT")"
grep -qx '    Root (1 bone, 0 morphs): 全ての親' "$OUT" || fail "Root frame line (one bone, singular): $(grep 'Root (' "$OUT")"
expect_stdout_contains '       0  全ての親  root'
expect_stdout_lacks '(全ての親)'
expect_exit 0 "$POSEKIT" info "$(corpus pmd_sd_mei.pmd)"
expect_stdout_contains '       0  全ての親 (master)  root'
head -c 5000 "$(corpus pmx_gene.pmx)" >cut.pmx
expect_exit 2 "$POSEKIT" info cut.pmx
expect_stderr_matches '^posekit: cut.pmx:327: vertices count: 28646 vertices need at least 39 bytes each; 4669 bytes are left'
{ head -c 400 "$(corpus pmx_gene.pmx)"; head -c 1600 /dev/zero; } >cut2.pmx
expect_exit 2 "$POSEKIT" dump cut2.pmx
expect_stderr_matches '^posekit: cut2.pmx:[0-9]+: '
