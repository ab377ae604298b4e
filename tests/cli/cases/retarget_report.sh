# retarget's report: one count of the keys (in, out, changed, added,
# removed) that adds up, without the rename line when no rules rename; the
# fold within the reducer's tolerances (--max-deg, --max-pos), its worst
# error reported; keys of bones the source model lacks kept on request
# (--keep-absent); a step that did nothing prints nothing.
need_corpus
need_cmd python3
cp "$(corpus vmd_mmdagent_stand.vmd)" stand.vmd
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
cp "$(corpus pmx_mmt_test_model.pmx)" mmt.pmx

# records of every section of a VMD, from dump
records() {
    expect_exit 0 "$POSEKIT" dump "$1"
    json_eval _stdout 'sum(len(d[k]) for k in ("bones", "morphs", "cameras", "lights", "shadows", "ik"))'
}

# The keys line adds up and matches the files: in = the input's records,
# out = the output's, out = in - removed + added.
expect_exit 0 "$POSEKIT" retarget stand.vmd --from gene.pmx --to classic.pmx -o out.vmd
expect_stderr_lacks "renamed"
expect_stderr_matches "^posekit retarget: [0-9]+ keys in, [0-9]+ out: [0-9]+ changed, [0-9]+ added, [0-9]+ removed"
line=$(grep -E "^posekit retarget: [0-9]+ keys in" _stderr)
read -r kin kout kch kadd krem < <(sed -E 's/^posekit retarget: ([0-9]+) keys in, ([0-9]+) out: ([0-9]+) changed, ([0-9]+) added, ([0-9]+) removed.*/\1 \2 \3 \4 \5/' <<<"$line")
expect_eq "$kin" "$(records stand.vmd)" "keys in"
expect_eq "$kout" "$(records out.vmd)" "keys out"
expect_eq "$kout" "$((kin - krem + kadd))" "out = in - removed + added"

# The fold keeps what it rewrites near the keys it was made of: the classic
# dance with its 上半身 keyed as 上半身2 (a dance made for a model that has
# one), from Gene to the classic skeleton (no 上半身2): 上半身2 goes into
# 首, 左肩 and 右肩.  Within 0.1 deg and 0.005 units (reduce's defaults) the
# file grows by under 10% (before, fitted within 0.002 deg: 1.60 -> 2.00 MB);
# a tighter --max-deg takes more keys and says so.
printf 'rename: {上半身: 上半身2}\n' > u2.yaml
expect_exit 0 "$POSEKIT" rename dance.vmd --rules u2.yaml -o u2.vmd
expect_exit 0 "$POSEKIT" retarget u2.vmd --from gene.pmx --to classic.pmx --no-stance --no-scale --no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes -o u2_classic.vmd
expect_stderr_matches "fold: 上半身2 -> 首, 左肩, 右肩 \(3 tracks rewritten: 1095 keys in, [0-9]+ out, within 0.1 deg and 0.005 units of the exact fold at every frame, the worst 0\.0[0-9]+ deg, 0\.000[0-9] units\)"
in_size=$(stat -c %s u2.vmd)
out_size=$(stat -c %s u2_classic.vmd)
[ $((out_size * 10)) -lt $((in_size * 11)) ] || fail "the fold grew the file from $in_size to $out_size bytes"
loose=$(grep -oE "1095 keys in, [0-9]+ out" _stderr | grep -oE "[0-9]+ out" | cut -d' ' -f1)
expect_exit 0 "$POSEKIT" retarget u2.vmd --from gene.pmx --to classic.pmx --no-stance --no-scale --no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes --max-deg 0.01 --max-pos 0.001 -o u2_tight.vmd
expect_stderr_contains "within 0.01 deg and 0.001 units of the exact fold at every frame"
tight=$(grep -oE "1095 keys in, [0-9]+ out" _stderr | grep -oE "[0-9]+ out" | cut -d' ' -f1)
[ "$tight" -gt "$loose" ] || fail "--max-deg 0.01 took $tight keys, not more than $loose"
# the fold's tolerances apply with the fold only, and with models only
expect_exit 2 "$POSEKIT" retarget u2.vmd --from gene.pmx --to classic.pmx --no-fold --max-deg 0.01 -o x.vmd
expect_stderr_contains "--max-deg is the fold's tolerance, and --no-fold turns the fold off"
expect_exit 2 "$POSEKIT" retarget u2.vmd --rules u2.yaml --max-pos 0.01 -o x.vmd
expect_stderr_contains "--max-pos applies with --from and --to"
expect_exit 2 "$POSEKIT" retarget u2.vmd --from gene.pmx --to classic.pmx --max-deg 0 -o x.vmd
expect_no_file x.vmd
# a job step takes them too
cat > job.yaml <<'YAML'
inputs: {u2: u2.vmd, gene: gene.pmx, classic: classic.pmx}
steps:
  - retarget: {in: u2, from: gene, to: classic, no_stance: true, no_scale: true, no_contacts: true,
                no_avoid: true, no_twist: true, no_centre: true, no_upper: true, no_shoulders: true, no_toes: true, max_deg: 0.01, max_pos: 0.001, out: r}
outputs: {r: u2_job.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_same_bytes u2_job.vmd u2_tight.vmd

# Keys of bones the source model lacks: left out with a warning that says
# how to keep them; kept with --keep-absent (a stand-in source model), and
# the report names them.
cp "$PK_SOURCE/samples/dance.vmd" sdance.vmd
expect_exit 0 "$POSEKIT" retarget sdance.vmd --from classic.pmx --to mmt.pmx -o sd_out.vmd
expect_stderr_contains "their 10 keys are left out (MMD ignores them on the source, so on the target they would show what the source does not; --keep-absent keeps them, for a source model that stands in for the one the motion was made for)"
expect_exit 0 "$POSEKIT" retarget sdance.vmd --from classic.pmx --to mmt.pmx --keep-absent -o sd_kept.vmd --strict
expect_stderr_lacks "warning"
expect_stderr_contains "posekit retarget: kept: 10 keys of 2 bones the source model lacks and the target has (--keep-absent): 右親指０, 左親指０"
expect_exit 0 "$POSEKIT" diff sdance.vmd sd_kept.vmd --bones 右親指０,左親指０ --frames all --threshold 0 --pos-threshold 0
cat > keep.yaml <<'YAML'
inputs: {d: sdance.vmd, c: classic.pmx, m: mmt.pmx}
steps:
  - retarget: {in: d, from: c, to: m, keep_absent: true, out: r}
outputs: {r: sd_job.vmd}
YAML
expect_exit 0 "$POSEKIT" run keep.yaml
expect_same_bytes sd_job.vmd sd_kept.vmd

# A camera motion: nothing to retarget, and no step line as if applied
expect_exit 0 "$POSEKIT" retarget camera.vmd --from gene.pmx --to classic.pmx -o cam.vmd
expect_stderr_contains "warning: nothing to retarget: the motion has no bone keys, the output is the input unchanged"
expect_stderr_contains "posekit retarget: 70 keys in, 70 out: 0 changed, 0 added, 0 removed"
expect_stderr_lacks "stance:"
expect_stderr_lacks "scale:"
expect_stderr_lacks "fold:"
expect_stderr_lines 2
