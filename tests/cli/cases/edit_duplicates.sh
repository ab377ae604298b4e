# Duplicate keys (two records of one key: bone or morph name and frame) in
# the input of an editing command are not copied to its output: the later
# record wins, as MMD reads it, and the report says how many were dropped,
# so later commands do not warn again.  convert keeps the file as it is
# (the lossless round trip).  vmd_mmd4unity_IK_Test.vmd holds 106
# duplicate keys of the morph "base"; a hand-made VPD names one bone twice.
need_corpus
need_cmd python3
cp "$(corpus vmd_mmd4unity_IK_Test.vmd)" ik.vmd
cp "$(corpus vmd_imas_face16.vmd)" face.vmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$PK_SOURCE/samples/hands/right_fist.vpd" fist.vpd
cp "$PK_SOURCE/rules/a-to-t-stance.yaml" .
printf 'rename: {センター: center}\n' > r.yaml

# every (name, frame) of the input's morphs, the last record's weight, is
# in the output: the later record won
later_won() {
    expect_exit 0 "$POSEKIT" dump ik.vmd
    mv _stdout in.json
    expect_exit 0 "$POSEKIT" dump "$1"
    python3 - in.json _stdout "$1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1], encoding="utf-8"))
b = json.load(open(sys.argv[2], encoding="utf-8"))
want = {}
for k in a["morphs"]:
    want[(k["name"], k["frame"])] = k["weight"]
got = {}
for k in b["morphs"]:
    key = (k["name"], k["frame"])
    if key in got:
        sys.exit("%s: %s at %d twice" % (sys.argv[3], key[0], key[1]))
    got[key] = k["weight"]
for key, w in want.items():
    if key in got and got[key] != w:
        sys.exit("%s: %s at %d is %r, the later record says %r" % (sys.argv[3], key[0], key[1], got[key], w))
PY
}

no_duplicates() {
    expect_exit 0 "$POSEKIT" info "$1"
    expect_stdout_contains "duplicate keys: 0"
    expect_stderr_lacks "duplicate"
}

expect_exit 0 "$POSEKIT" convert ik.vmd -o same.vmd
expect_same_bytes same.vmd ik.vmd

for cmd in "rename ik.vmd --rules r.yaml" "mirror ik.vmd" "retarget ik.vmd --rules a-to-t-stance.yaml" \
           "retarget ik.vmd --from classic.pmx --to gene.pmx" "reduce ik.vmd" "bake ik.vmd" \
           "overlay ik.vmd --pose fist.vpd --bones @fingers_R" "merge ik.vmd --offset 10" \
           "merge ik.vmd face.vmd --prefer first"; do
    # shellcheck disable=SC2086
    expect_exit 0 "$POSEKIT" $cmd -o out.vmd
    expect_stderr_matches "(106 duplicate keys dropped|106 of them duplicates)"
    expect_stderr_contains "of two records of one key the later wins, as MMD reads them"
    [ "${cmd%% *}" = merge ] || later_won out.vmd
    no_duplicates out.vmd
done

# crossfade: the duplicates of either input are gone from the output and
# counted in the summary and in --json, as the other edits count them
expect_exit 0 "$POSEKIT" crossfade face.vmd ik.vmd --at 40 -o out.vmd
expect_stderr_contains "; 106 duplicate keys dropped (of two records of one key the later wins, as MMD reads them)"
no_duplicates out.vmd
expect_exit 0 "$POSEKIT" crossfade ik.vmd face.vmd --at 10 --json -o out.vmd
expect_eq "$(json_eval _stdout 'd["duplicates_dropped"]')" "106" "crossfade --json duplicates_dropped"
no_duplicates out.vmd

# a pose naming a bone twice: the later entry is the one kept
printf 'Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n3;\r\n\r\n' > twice.vpd
i=0
for x in 0.1 0.2 0.3; do
    name='右手首'
    [ $i = 1 ] && name='センター'
    printf 'Bone%d{%s\r\n  %s,0.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n\r\n' $i "$name" "$x"
    i=$((i + 1))
done | iconv -f UTF-8 -t CP932 >> twice.vpd
for cmd in "rename twice.vpd --rules r.yaml" "mirror twice.vpd" "retarget twice.vpd --rules a-to-t-stance.yaml" \
           "overlay twice.vpd --pose fist.vpd --bones @fingers_R"; do
    # shellcheck disable=SC2086
    expect_exit 0 "$POSEKIT" $cmd -o out.vpd
    expect_stderr_matches "(1 duplicate key dropped|1 of them duplicates)"
    expect_exit 0 "$POSEKIT" info out.vpd
    expect_stderr_lacks "duplicate"
done
expect_exit 0 "$POSEKIT" dump out.vpd
expect_eq "$(json_eval _stdout '[b["pos"][0] for b in d["bones"] if b["name"] == "右手首"]')" "[0.3]" "the later 右手首"
