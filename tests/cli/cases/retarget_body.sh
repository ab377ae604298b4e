# retarget's body steps on corpus dances (centre of gravity and the feet,
# upper body, shoulders, toes) and their measures in --report: a deep bow
# (imas_azusa_bow1) from Gene to SD Mei (a chibi) and back to the classic
# skeleton, the long dance (wavefile) from Gene to Mei and from SD Mei to
# mmt (planted feet kept) and to Gene; each step prints
# one line and has --no-X (its JSON entry null, its line gone);
# --feet-apart moves the feet; a pose is sized; a job takes the options.
need_corpus
need_cmd python3
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus vpd_keitel_01.vpd)" pose.vpd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_sd_mei.pmd)" sdmei.pmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx

# the bow on SD Mei: the neck leans from the hips as Gene's (5.3 degrees
# off before), the shoulders slope as Gene's, the centre of gravity over
# the feet (20% of SD Mei's leg off before), the feet and toes on the floor
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd -o bow_sd.vmd --report bow.json
expect_stderr_matches "^posekit retarget: centre: [0-9]+ frames of センター moved so the centre of gravity stands over the feet as on the source \(up to [0-9.]+% of the target's leg\)$"
expect_stderr_matches "^posekit retarget: floor: [0-9]+ frames of the hips lowered or a 足ＩＫ moved so the feet stand as on the source \(up to [0-9.]+% of the target's leg\)$"
expect_stderr_matches "^posekit retarget: upper: 26 frames of 上半身 turned so the neck leans from the hips as on the source \(up to 5\.3 deg; head and arms kept\)$"
expect_stderr_matches "^posekit retarget: shoulders: 52 frames of a 肩 turned to the source's slope \(up to [0-9.]+ deg; arms kept\)$"
expect_stderr_matches "^posekit retarget: toes: [0-9]+ frames of a つま先ＩＫ moved so the toes touch the floor as on the source and never pass below it \(up to [0-9.]+% of the target's leg\)$"
expect_eq "$(json_eval bow.json 'd["body"]["head_from_hips_deg"]["before"]["max"] > 5 and d["body"]["head_from_hips_deg"]["after"]["max"] < 1')" True "head from the hips"
# (the contact step turns 肩 back, up to 20 degrees, where the folded
# hands are out of the reach of SD Mei's arms: the slope alone without it)
expect_eq "$(json_eval bow.json 'd["body"]["shoulders_deg"]["before"] > 10 and d["body"]["shoulders_deg"]["after"] <= 20.01 and d["steps"]["contacts"]["shoulder_frames"] > 0')" True "shoulders"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-contacts -o nh.vmd --report nh.json
expect_eq "$(json_eval nh.json 'd["body"]["shoulders_deg"]["before"] > 10 and d["body"]["shoulders_deg"]["after"] < 1')" True "shoulders without contacts"
expect_eq "$(json_eval bow.json 'd["body"]["centre_of_gravity"]["before"]["max"] > 0.1 and d["body"]["centre_of_gravity"]["after"]["max"] < 0.02')" True "centre of gravity"
expect_eq "$(json_eval bow.json 'd["feet"]["floor_p95"]["before"] > 0.01 and d["feet"]["floor_p95"]["after"] < 0.005')" True "floor"
expect_eq "$(json_eval bow.json 'd["body"]["toes_below_floor"]["after"] == 0')" True "toes"
expect_eq "$(json_eval bow.json 'd["arms_far_from_contacts"]["max_deg"] < 0.5 and d["bends"]["knees"]["past_rest"] == 0')" True "arms and knees kept"
expect_eq "$(json_eval bow.json 'd["body_steps"]["keys"] > 0 and d["body_steps"]["toes"]["by_ankle"] is False')" True "body steps"

# the long dance on Mei: the head within a degree on every frame, no toe
# below the floor, the centre of gravity within 2% of the leg on every
# frame and where Gene stands on its 足ＩＫ (measured apart), a foot
# planted on Gene sliding per frame no more than Gene's + 0.05% of Mei's
# leg (0.99% before the sizing steps)
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o mei.vmd --report mei.json
expect_eq "$(json_eval mei.json 'd["body"]["head_from_hips_deg"]["after"]["max"] < 1 and d["body"]["toes_below_floor"]["after"] == 0')" True "wavefile head and toes"
expect_eq "$(json_eval mei.json 'd["body"]["centre_of_gravity"]["after"]["max"] < 0.02 < d["body"]["centre_of_gravity"]["before"]["max"]')" True "wavefile centre of gravity"
expect_eq "$(json_eval mei.json 'd["body"]["centre_of_gravity"]["a_on_its_ik"]["after"]["max"] < 0.02 < d["body"]["centre_of_gravity"]["a_on_its_ik"]["before"]["max"] and d["body"]["centre_of_gravity"]["a_on_its_ik"]["frames_off"] > 0')" True "wavefile centre of gravity where Gene stands"
expect_eq "$(json_eval mei.json 'd["feet"]["floor_p95"]["after"] < 0.005 and d["feet"]["slide_excess_max"] < 0.0005 < d["feet"]["slide_excess_max_before"]')" True "wavefile feet"

# the long dance from SD Mei to mmt (legs 3.9 times longer): a foot SD
# Mei plants where it jumps its hips away stays planted (センター goes
# across towards it where the leg cannot reach it from above; 6.3% of the
# leg a frame before the sizing steps); the centre of gravity within 2%
# of the leg where SD Mei stands on its 足ＩＫ (the dance is keyed for
# longer legs: it does not on 1,286 frames)
cp "$(corpus pmx_mmt_test_model.pmx)" mmt.pmx
expect_exit 0 "$POSEKIT" retarget dance.vmd --from sdmei.pmd --to mmt.pmx -o sd_mmt.vmd --report sd_mmt.json
expect_eq "$(json_eval sd_mmt.json 'd["feet"]["slide_excess_max"] < 0.0005 < d["feet"]["slide_excess_max_before"] and d["feet"]["floor_p95"]["after"] < 0.005')" True "SD Mei to mmt feet"
expect_eq "$(json_eval sd_mmt.json 'd["body"]["centre_of_gravity"]["a_on_its_ik"]["after"]["max"] < 0.02 < d["body"]["centre_of_gravity"]["a_on_its_ik"]["before"]["max"] and d["body"]["centre_of_gravity"]["a_on_its_ik"]["frames_off"] == 1286')" True "SD Mei to mmt centre of gravity"
# over every frame: on 3 frames mmt misses 2% (by 2.8% at most, where
# no place of センター within a leg reaches it; 2.9% before センター moved
# across a planted foot's pull; 4.8% where its raised leg's IK turns
# over in a band of センター's places before a round stepped over the
# band, 8.6% and 30% before a foot barely down stopped holding センター
# back and the rounds' best came back); to Gene within 2% on every frame
# (7.3% before, 3.0% in 8 rounds)
expect_eq "$(json_eval sd_mmt.json 'd["body"]["centre_of_gravity"]["after"]["max"] < 0.03')" True "SD Mei to mmt centre of gravity, every frame"
expect_exit 0 "$POSEKIT" retarget dance.vmd --from sdmei.pmd --to gene.pmx -o sd_gene.vmd --report sd_gene.json
expect_eq "$(json_eval sd_gene.json 'd["body"]["centre_of_gravity"]["after"]["max"] < 0.02 < d["body"]["centre_of_gravity"]["before"]["max"]')" True "SD Mei to Gene centre of gravity, every frame"

# from SD Mei to the classic skeleton (no rigid bodies, no グルーブ): the
# hips' height goes into センター
expect_exit 0 "$POSEKIT" retarget bow_sd.vmd --from sdmei.pmd --to classic.pmx -o bow_classic.vmd --report back.json
expect_eq "$(json_eval back.json 'd["body"]["head_from_hips_deg"]["after"]["max"] < 1 and d["feet"]["floor_p95"]["after"] < 0.005 and d["feet"]["slide_excess_max"] < 0.0005')" True "back to the classic skeleton"

# each step off: its line gone, its entry null, its measure unchanged
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-upper -o nu.vmd --report nu.json
expect_stderr_lacks "upper:"
expect_stderr_contains "centre:"
expect_eq "$(json_eval nu.json 'd["body_steps"]["upper"] is None and d["body"]["head_from_hips_deg"]["after"]["max"] == d["body"]["head_from_hips_deg"]["before"]["max"]')" True "--no-upper"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-shoulders -o ns.vmd --report ns.json
expect_stderr_lacks "shoulders:"
expect_eq "$(json_eval ns.json 'd["body_steps"]["shoulders"] is None and d["body"]["shoulders_deg"]["after"] > 10')" True "--no-shoulders"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-centre -o nc.vmd --report nc.json
expect_stderr_lacks "centre:"
expect_stderr_lacks "floor:"
expect_eq "$(json_eval nc.json 'd["body_steps"]["centre"] is None and d["body"]["centre_of_gravity"]["after"]["max"] > 0.1')" True "--no-centre"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-toes -o nt.vmd --report nt.json
expect_stderr_lacks "toes:"
expect_eq "$(json_eval nt.json 'd["body_steps"]["toes"] is None')" True "--no-toes"
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --no-centre --no-upper --no-shoulders --no-toes -o none.vmd --report none.json
expect_eq "$(json_eval none.json 'd["body_steps"]["keys"] == 0 and d["body"]["head_from_hips_deg"]["after"] == d["body"]["head_from_hips_deg"]["before"]')" True "all off"

# --feet-apart: each 足ＩＫ outward (SD Mei faces -Z: the left foot to +X)
expect_exit 0 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --feet-apart 0.2 --no-centre -o apart.vmd
expect_stderr_contains "posekit retarget: apart: each 足ＩＫ 0.2 units outward (--feet-apart)"
expect_exit 0 "$POSEKIT" draw apart.vmd --model sdmei.pmd --frame 0 --json -o apart.json
expect_exit 0 "$POSEKIT" draw nc.vmd --model sdmei.pmd --frame 0 --json -o nc_draw.json
ankle_x() { json_eval "$1" "[b['pos'][0] for b in d['figures'][0]['bones'] if b['name'] == '$2'][0]"; }
expect_eq "$(python3 -c "print(abs(($(ankle_x apart.json 左足首)) - ($(ankle_x nc_draw.json 左足首)) - 0.2) < 0.01)")" True "left foot out"
expect_eq "$(python3 -c "print(abs(($(ankle_x apart.json 右足首)) - ($(ankle_x nc_draw.json 右足首)) + 0.2) < 0.01)")" True "right foot out"
expect_exit 2 "$POSEKIT" retarget bow.vmd --from gene.pmx --to sdmei.pmd --feet-apart -1 -o x.vmd
expect_stderr_contains "--feet-apart wants a number of units, 0 or more, not '-1'"
expect_no_file x.vmd
printf 'rename: {センター: センター}\n' > r.yaml
expect_exit 2 "$POSEKIT" retarget bow.vmd --rules r.yaml --no-upper -o x.vmd
expect_stderr_contains "--no-upper applies with --from and --to"
expect_no_file x.vmd

# a pose is sized too
expect_exit 0 "$POSEKIT" retarget pose.vpd --from gene.pmx --to sdmei.pmd -o pose_sd.vpd --report pose.json
expect_eq "$(json_eval pose.json 'd["body"]["head_from_hips_deg"]["after"]["max"] < 1')" True "a pose's head"

# a job takes the same options
cat > job.yaml <<'YAML'
inputs: {b: bow.vmd, gene: gene.pmx, sd: sdmei.pmd}
steps:
  - retarget: {in: b, from: gene, to: sd, no_upper: true, out: r}
outputs: {r: job.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_same_bytes job.vmd nu.vmd
