# retarget --from A --to B: every step computed from two corpus models.
# The MMDAgent "stand" motion (made for Gene) onto the classic skeleton
# (nanoem: no 全ての親, グルーブ, 上半身2): the report names what was folded,
# each arm segment's angle and the scale factors (worked by hand in
# test_retarget_model).  A job's retarget step with from:/to: writes the
# same bytes.  Gene -> mmt -> Gene gives the classic dance back within
# 0.001 degrees and 0.0001 units (posekit diff).  Option errors exit 2 and
# write nothing.  Runs that change nothing warn; keys the source model
# does not play are left out with a warning.  The sizing steps (contacts,
# avoid, twist) are off here ($NS): retarget_sizing holds them.
need_corpus
NS="--no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes"
cp "$(corpus vmd_mmdagent_stand.vmd)" stand.vmd
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
cp "$(corpus pmx_mmt_test_model.pmx)" mmt.pmx

expect_exit 0 "$POSEKIT" retarget stand.vmd $NS --from gene.pmx --to classic.pmx -o out.vmd
expect_stderr_contains "posekit retarget: 655 keys in, 614 out: 218 changed, 0 added, 41 removed (8 of them duplicates: of two records of one key the later wins, as MMD reads them)"
expect_stderr_lacks "bones renamed"
expect_stderr_contains "posekit retarget: fold: 全ての親 -> センター, 左足ＩＫ, 右足ＩＫ; グルーブ -> センター, 下半身, 上半身; 上半身補 -> 首, 左肩, 右肩; 上半身2 -> 首, 左肩, 右肩; 左親指０ -> 左親指１; 右親指０ -> 右親指１; 左足IK親 -> 左足ＩＫ; 右足IK親 -> 右足ＩＫ (10 tracks rewritten: 58 keys in, 25 out, within 0.1 deg and 0.005 units of the exact fold at every frame, the worst 0.0000 deg, 0.0043 units)"
expect_stderr_contains "posekit retarget: fold: 140 bones only the source model has left alone (nothing below them on the target): 左腕捩連, 左手捩連, 右腕捩連, 右手捩連, 右肩連, 右腕xca and 134 more (--verbose lists them)"
expect_stderr_contains "posekit retarget: stance: 左腕->左ひじ 4.74 deg, 左ひじ->左手首 11.18 deg, 右腕->右ひじ 4.74 deg, 右ひじ->右手首 11.18 deg"
expect_stderr_contains "posekit retarget: scale: XZ 1.0266 (leg 9.170 -> 9.413), Y 1.0282 (height 9.154 -> 9.413)"
expect_stderr_lacks "feet moved"
expect_file out.vmd
expect_different_bytes out.vmd stand.vmd

# which model the input fits: stand keys 149 bones the classic model
# lacks, every one at rest (a tie); the WAVEFILE dance moves 左袖 and 右袖,
# which the classic model has and Gene lacks: from Gene it fits the target
# better, and a warning asks whether Gene is the model it was made for
expect_stderr_contains "posekit retarget: fit: the input moves 0 bones (0 keys off rest) and 0 morphs (0 keys) the source model lacks, 0 bones (0 keys) and 0 morphs (0 keys) the target lacks: it fits both alike"
expect_stderr_lacks "fits the target model better"
expect_exit 0 "$POSEKIT" retarget dance.vmd --from classic.pmx --to gene.pmx -o fit1.vmd
expect_stderr_contains "posekit retarget: fit: the input moves 0 bones (0 keys off rest) and 0 morphs (0 keys) the source model lacks, 2 bones (20 keys) and 0 morphs (0 keys) the target lacks: it fits the source better"
expect_stderr_lacks "fits the target model better"
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to classic.pmx -o fit2.vmd
expect_stderr_contains "posekit retarget: fit: the input moves 2 bones (20 keys off rest) and 0 morphs (0 keys) the source model lacks, 0 bones (0 keys) and 0 morphs (0 keys) the target lacks: it fits the target better (warned)"
expect_stderr_contains "posekit: dance.vmd: warning: the motion fits the target model better than the source model (it moves 2 bones and 0 morphs the source lacks, 0 and 0 the target lacks): is gene.pmx the model it was made for?"

# the same step in a job file
cat > job.yaml <<'YAML'
inputs: {stand.vmd: stand.vmd, gene.pmx: gene.pmx, classic.pmx: classic.pmx}
steps:
  - retarget: {in: stand.vmd, from: gene.pmx, to: classic.pmx, no_contacts: true, no_avoid: true,
                no_twist: true, no_centre: true, no_upper: true, no_shoulders: true, no_toes: true, out: r}
outputs: {r: job_out.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_stdout_contains "retarget stand.vmd -> r: 655 keys in, 614 out"
expect_same_bytes job_out.vmd out.vmd

# there and back: nothing folded (the classic dance), so the input comes back
expect_exit 0 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to mmt.pmx -o there.vmd
expect_exit 0 "$POSEKIT" retarget there.vmd $NS --from mmt.pmx --to gene.pmx -o back.vmd
expect_exit 0 "$POSEKIT" diff dance.vmd back.vmd --frames all --threshold 0.001 --pos-threshold 0.0001
expect_exit 1 "$POSEKIT" diff dance.vmd there.vmd --frames all --threshold 0.001 --pos-threshold 0.0001

# each step can be left out; left out, the arms are as they were, and a
# run that changes nothing says so (--strict: an error); a step that did
# nothing prints nothing
expect_exit 0 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to mmt.pmx --no-stance --no-scale -o none.vmd
expect_stderr_lacks "tracks rewritten"
expect_stderr_lacks "nothing to fold"
expect_stderr_contains "posekit retarget: 15439 keys in, 15439 out: 0 changed, 0 added, 0 removed"
# the models differ: the steps left out, not the models, are why
expect_stderr_contains "posekit: dance.vmd: warning: nothing to retarget: no key changed (--no-stance, --no-scale, --no-centre, --no-upper, --no-shoulders, --no-toes, --no-contacts, --no-avoid, --no-twist left 9 steps out, and no step left on changed a key), the output is the input unchanged"
expect_stderr_lacks "differ in nothing"
expect_stderr_lacks "stance:"
expect_same_bytes none.vmd dance.vmd

# Runs that write the input unchanged warn as rename and mirror do:
# the same model twice, a target that has none of the
# motion's bones, a camera-only motion; --strict makes each an error.
cp "$(corpus pmx_babylon_bone_hierarchy_test.pmx)" babylon.pmx
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
expect_exit 0 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to gene.pmx -o same.vmd
expect_stderr_contains "posekit: dance.vmd: warning: nothing to retarget: no key changed (the models differ in nothing the motion keys), the output is the input unchanged"
expect_same_bytes same.vmd dance.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to gene.pmx -o same2.vmd --strict
expect_no_file same2.vmd
expect_exit 0 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to babylon.pmx --no-stance --no-scale -o nob.vmd
expect_stderr_contains "posekit: dance.vmd: warning: nothing to retarget: the target model has none of the 140 bones the motion keys, the output is the input unchanged"
# a target with センター alone and none of the limbs (a bare test model):
# the stance and scale left out, the other steps find nothing to move
cp "$(corpus pmx_babylon_bone_flag_test.pmx)" bare.pmx
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to bare.pmx --no-stance --no-scale -o bare.vmd
expect_stderr_contains "posekit: dance.vmd: warning: nothing to retarget: no key changed (--no-stance, --no-scale left 2 steps out, and no step left on changed a key), the output is the input unchanged"
expect_same_bytes bare.vmd dance.vmd
expect_exit 0 "$POSEKIT" retarget camera.vmd $NS --from gene.pmx --to classic.pmx -o cam.vmd
expect_stderr_lacks "fit:" # nothing to compare
expect_stderr_contains "posekit: camera.vmd: warning: nothing to retarget: the motion has no bone keys, the output is the input unchanged (a camera is sized with the dance it frames: --motion DANCE.vmd)"
expect_same_bytes cam.vmd camera.vmd
# a camera given as the dance it frames: an error naming it, no output
expect_exit 2 "$POSEKIT" retarget camera.vmd $NS --from gene.pmx --to classic.pmx --motion camera.vmd -o cam3.vmd
expect_stderr_contains "posekit: camera.vmd: no bone keys: the dance a camera frames is the dancer's motion (this is a camera)"
expect_no_file cam3.vmd
expect_exit 2 "$POSEKIT" retarget camera.vmd $NS --from gene.pmx --to classic.pmx -o cam2.vmd --strict
expect_no_file cam2.vmd
# a model without arms: the error names that model, not the motion
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to babylon.pmx -o noarm.vmd
expect_stderr_contains "posekit: babylon.pmx: the target model has no arm segment (腕→ひじ, ひじ→手首): cannot compute the stance (--no-stance skips it)"
expect_stderr_lacks "dance.vmd"
expect_no_file noarm.vmd
# in a job, at the step, naming the model's job name
cat > noarm.yaml <<'YAML'
inputs: {d: dance.vmd, gene: gene.pmx, bab: babylon.pmx}
steps:
  - retarget: {in: d, from: gene, to: bab, out: r}
outputs: {r: noarm_job.vmd}
YAML
expect_exit 2 "$POSEKIT" run noarm.yaml
expect_stderr_contains "posekit: noarm.yaml:3:5: bab: the target model has no arm segment"
expect_no_file noarm_job.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from babylon.pmx --to gene.pmx --no-stance -o noleg.vmd
expect_stderr_contains "posekit: babylon.pmx: the source model has no leg"
expect_no_file noleg.vmd

# Keys of bones the source model lacks do nothing there (MMD ignores
# them); the target has them, so copied they would act (the sample
# dance's 親指０ would turn mmt's thumbs 16.9° from what the classic
# model shows at frame 105).  They are left out, with a warning
# naming the bones and the count (--strict: an error, nothing written).
cp "$PK_SOURCE/samples/dance.vmd" sdance.vmd
expect_exit 0 "$POSEKIT" retarget sdance.vmd $NS --from classic.pmx --to mmt.pmx -o sd_ab.vmd
# (the thumbs are moving bones the classic model lacks: it fits mmt better;
# mmt has no morphs at all, so the morphs it lacks say nothing)
expect_stderr_contains "it fits the target better (warned)"
expect_stderr_contains "posekit: sdance.vmd: warning: 2 bones the source model (classic.pmx) lacks and the target (mmt.pmx) has are keyed: 右親指０, 左親指０; their 10 keys are left out (MMD ignores them on the source, so on the target they would show what the source does not; --keep-absent keeps them, for a source model that stands in for the one the motion was made for)"
# --keep-absent says the source stands in for another model: no warning
expect_exit 0 "$POSEKIT" retarget sdance.vmd --from classic.pmx --to mmt.pmx --keep-absent -o sd_k.vmd --strict
expect_stderr_contains "it fits the target better (the source stands in for another model: --keep-absent)"
expect_exit 0 "$POSEKIT" dump sd_ab.vmd
expect_stdout_lacks '親指０'
expect_stdout_contains '"name":"右親指１"'
expect_exit 2 "$POSEKIT" retarget sdance.vmd $NS --from classic.pmx --to mmt.pmx -o sd_strict.vmd --strict
expect_stderr_contains "2 bones the source model (classic.pmx) lacks"
expect_no_file sd_strict.vmd
# and back: every bone the classic model has comes back (the 親指０ keys
# were never the classic model's to show)
expect_exit 0 "$POSEKIT" retarget sd_ab.vmd $NS --from mmt.pmx --to classic.pmx -o sd_aba.vmd
expect_stderr_lacks "warning"
expect_stderr_contains "it fits both alike"
expect_exit 1 "$POSEKIT" diff sdance.vmd sd_aba.vmd --frames all --threshold 0.001 --pos-threshold 0.0001
expect_stdout_contains "frames 0-150: 2 of 41 bones differ (largest 15.000 deg: 右親指０ at frame 105), 0 of 3 morphs differ; only in A: 2, only in B: 0"

# errors: nothing written
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx -o e1.vmd
expect_stderr_contains "--from and --to go together"
expect_exit 2 "$POSEKIT" retarget dance.vmd --no-stance --rules r.yaml -o e2.vmd
expect_stderr_contains "--no-stance applies with --from and --to"
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to mmt.pmx --no-stance --fingers -o e3.vmd
expect_stderr_contains "--fingers is part of the stance step"
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to nothere.pmx -o e4.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd $NS --from dance.vmd --to mmt.pmx -o e5.vmd
expect_no_file e1.vmd
expect_no_file e2.vmd
expect_no_file e3.vmd
expect_no_file e4.vmd
expect_no_file e5.vmd

# a rules file's stance entry wins over the computed segment of its bone
cp "$PK_SOURCE/rules/a-to-t-stance.yaml" .
expect_exit 0 "$POSEKIT" retarget dance.vmd $NS --from gene.pmx --to mmt.pmx --rules a-to-t-stance.yaml -o rules.vmd
expect_stderr_contains "stance: 左腕->左ひじ 3.58 deg (rules win), 左ひじ->左手首 1.60 deg, 右腕->右ひじ 3.58 deg (rules win)"

# A key at rest on A is at rest on B: センター and both 足ＩＫ at rest,
# classic -> Mei (whose ankles rest 0.6 units behind its hips) stay at
# rest; --feet-from-source moves the feet to stand from the hips as on
# the classic model, and says so.
cp "$(corpus pmd_mei.pmd)" mei.pmd
printf 'Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n3;\r\n\r\n' > rest.vpd
i=0
for b in センター 左足ＩＫ 右足ＩＫ; do
    printf 'Bone%d{%s\r\n  0.000000,0.000000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n\r\n' $i "$b"
    i=$((i + 1))
done | iconv -f UTF-8 -t CP932 >> rest.vpd
expect_exit 0 "$POSEKIT" retarget rest.vpd $NS --from classic.pmx --to mei.pmd -o rest_mei.vpd
expect_exit 0 "$POSEKIT" diff rest.vpd rest_mei.vpd --threshold 0 --pos-threshold 0
expect_exit 0 "$POSEKIT" retarget rest.vpd $NS --from classic.pmx --to mei.pmd --feet-from-source -o feet_mei.vpd
expect_stderr_contains "feet moved by (0.083, 0.000, -0.516) left, (-0.083, 0.000, -0.516) right to stand from the hips as on the source model"
expect_exit 1 "$POSEKIT" diff rest.vpd feet_mei.vpd --pos-threshold 0.1
expect_exit 2 "$POSEKIT" retarget rest.vpd $NS --from classic.pmx --to mei.pmd --feet-from-source --no-scale -o x.vpd
expect_stderr_contains "--feet-from-source is part of the scale step, which --no-scale turns off"
expect_exit 2 "$POSEKIT" retarget rest.vpd --rules r.yaml --feet-from-source -o x.vpd
expect_stderr_contains "--feet-from-source applies with --from and --to"
expect_no_file x.vpd
