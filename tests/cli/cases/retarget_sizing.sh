# retarget's sizing steps on corpus dances (contacts, avoid, twist) and
# their measures (--report FILE.json): Gene's dance on SD Mei (a chibi:
# its hands miss each other and its large head swallows Gene's hands);
# the report lists each contact with its frames and the gap before and
# after, the feet, the arms far from contacts, penetration and bends; each
# step prints one line and has --no-X; a target without rigid bodies says
# the avoid step was skipped; a pose is sized too; a job takes the same
# options; --report names a .json file that is no input; contacts of one
# hand that cannot hold together are counted apart, and those whose
# correction the elbow law refused, refused.
need_corpus
need_cmd python3
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus vpd_keitel_01.vpd)" pose.vpd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_sd_mei.pmd)" sdmei.pmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx

expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd -o sd.vmd --report sd.json
expect_stderr_matches "^posekit retarget: contacts: [0-9]+ on the source model, the hands moved on [0-9]+ frames .*contact gap error [0-9.]+% -> [0-9.]+% of the target's arm \(mean\)$"
expect_stderr_matches "^posekit retarget: avoid: [0-9]+ frames of an arm turned out of the target's body \(deepest [0-9.]+ units inside; upper arm turned up to [0-9.]+ deg, elbow up to [0-9.]+ deg\)$"
# SD Mei's twist bones turn about axes 4 degrees off their arms: moving a
# twist into them would move its elbows, so the twist stays
expect_stderr_lacks "twist:"
expect_file sd.json
# the report's contacts: the claps and the hands on the head, each with
# frames, A's gap, and B's gap error before and after
expect_eq "$(json_eval sd.json 'd["steps"]["contacts"]["found"] == len(d["contacts"]) > 5')" True "contacts listed"
expect_eq "$(json_eval sd.json 'all(c["frames"][0] <= c["frames"][1] and c["hand"] in ("left", "right", "both") for c in d["contacts"])')" True "contact frames"
expect_eq "$(json_eval sd.json 'any(c["with"] == "each other" for c in d["contacts"]) and any(c["with"] == "head" for c in d["contacts"])')" True "claps and the head"
# the measures: the hands' gap error down to a third (SD Mei's short
# arms reach its face only with the forearm in its head: the avoid step
# keeps a contact's hand where it is and swings only its elbow), B's
# forearms out of its body on most frames, feet as before, arms far from
# contacts as stance left them, no elbow or knee bent backwards
expect_eq "$(json_eval sd.json 'd["hands"]["before"]["mean"] > 0.05 and d["hands"]["after"]["mean"] < d["hands"]["before"]["mean"] / 3')" True "hands"
expect_eq "$(json_eval sd.json 'd["penetration"]["bodies"] and d["penetration"]["before"]["frames"] > 500 and d["penetration"]["after"]["frames"] == 0')" True "penetration"
# the frames SD Mei can hold (within its reach, not through its body):
# the goal, mean 2% and p95 5% of its arm
expect_eq "$(json_eval sd.json '(h := d["hands"]["reachable"])["frames"] < d["hands"]["frames"] and h["after"]["mean"] < 0.02 and h["after"]["p95"] < 0.05')" True "reachable"
# a placed hand keeps its contact while the arm around it turns out of the
# body on the frames after (the avoid step eases only a swing of its elbow
# onto it): over every contact frame too, the goal's p95
expect_eq "$(json_eval sd.json 'd["hands"]["after"]["p95"] < 0.05 and sum(c.get("blocked_by_body", 0) for c in d["contacts"]) < 13')" True "held hands kept"
# a contact's hand stays and its elbow swings a quarter turn at most, eased
# turn and the rest of the push together (the upper arm's turn: the
# swing, a few degrees of the contact's own solve beside it)
expect_eq "$(json_eval sd.json '90 <= d["steps"]["avoid"]["deg"] < 100 and d["steps"]["avoid"]["elbow_deg"] <= 60')" True "avoid's turns"
expect_eq "$(json_eval sd.json 'd["feet"]["floor_p95"]["after"] < 0.005 < d["feet"]["floor_p95"]["before"] and d["feet"]["planted_frames"] > 1000')" True "feet"
expect_eq "$(json_eval sd.json 'd["arms_far_from_contacts"]["max_deg"] < 0.5')" True "drift"
expect_eq "$(json_eval sd.json 'd["bends"]["elbows"]["past_rest"] <= d["bends"]["elbows"]["past_rest_before"] and d["bends"]["knees"]["past_rest"] == 0')" True "bends"
expect_eq "$(json_eval sd.json 'd["frames"] == [0.0, 2809.0] and d["arm"]["to"] < d["arm"]["from"]')" True "frames and arms"

# each step off: its line gone, the output as without it
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd --no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes -o plain.vmd
expect_stderr_lacks "contacts:"
expect_stderr_lacks "avoid:"
expect_stderr_lacks "twist:"
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd --no-contacts -o nc.vmd
expect_stderr_lacks "contacts:"
expect_stderr_contains "avoid:"
# the twist step on the classic skeleton (twist bones along the arm)
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to classic.pmx -o classic.vmd --report classic.json
expect_stderr_contains "posekit retarget: avoid: skipped, the target model has no rigid bodies that follow its bones"
expect_stderr_matches "^posekit retarget: twist: [0-9]+ frames of an arm's twist moved into the twist bones \(up to [0-9.]+ deg; the hands' world rotations within 0\.00[0-9]+ deg\)$"
expect_eq "$(json_eval classic.json 'd["steps"]["twist"]["hand_deg"] < 0.01 and d["bends"]["elbows"]["past_rest"] == 0')" True "twist"
# a target without rigid bodies: the avoid step says it was skipped
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to classic.pmx -o bow_classic.vmd
expect_stderr_contains "posekit retarget: avoid: skipped, the target model has no rigid bodies that follow its bones"
expect_stderr_contains "posekit retarget: contacts: "
# SD Mei's hands on each other, its hips and the other thigh at once (its
# stand): on Gene one place of the folded hands holds all five contacts;
# on Mei no common place of the two touching hands out of its body holds
# the thighs with the rest (Mei's thighs lie inside its large hips in
# front): each hand takes its own place, the hands sliding along each
# other, on the thighs below the hips, each elbow swung out of the hips
# (the hand kept); the goal holds (mean 2%, p95 5% of the arm), no
# contact is apart or left as stance left it, and no forearm or hand is
# in Mei's body
cp "$(corpus vmd_mmdagent_stand.vmd)" stand.vmd
expect_exit 0 "$POSEKIT" retarget stand.vmd --from sdmei.pmd --to gene.pmx -o stand_gene.vmd --report stand_gene.json
expect_eq "$(json_eval stand_gene.json 'len(d["contacts"]) == 5 and all(c["after"]["max"] < 0.01 and "apart" not in c for c in d["contacts"])')" True "all five held"
# on mmt the right hand's hold on the left thigh is 5% off where the rest
# hold best: a place that shares the error out holds all five within 5.5%
cp "$(corpus pmx_mmt_test_model.pmx)" mmt.pmx
expect_exit 0 "$POSEKIT" retarget stand.vmd --from sdmei.pmd --to mmt.pmx -o stand_mmt.vmd --report stand_mmt.json
expect_eq "$(json_eval stand_mmt.json 'len(d["contacts"]) == 5 and all(c["after"]["max"] < 0.055 and "apart" not in c for c in d["contacts"]) and d["hands"]["after"]["p95"] < 0.05')" True "all five held on mmt"
expect_exit 0 "$POSEKIT" retarget stand.vmd --from sdmei.pmd --to mei.pmd -o stand_mei.vmd --report stand.json
expect_stderr_lacks "left as they were"
expect_eq "$(json_eval stand.json 'd["steps"]["contacts"]["kept"] == 0 and d["penetration"]["after"]["frames"] == 0')" True "moved, out of the body"
expect_eq "$(json_eval stand.json 'len(d["contacts"]) == 5 and all(c["after"]["max"] < 0.06 and "apart" not in c for c in d["contacts"])')" True "all five held within 6%"
expect_eq "$(json_eval stand.json '(h := d["hands"])["after"]["mean"] <= 0.02 and h["after"]["p95"] <= 0.05 and h["reachable"]["after"]["p95"] <= 0.05')" True "hands held: the goal"
# a correction the elbow law refuses (SD Mei's left hand on its hips,
# onto Gene: solving the arm would bend the elbow backwards) is counted
# on its contact, and those frames leave the reachable measure as the
# frames out of reach, blocked and apart do
expect_exit 0 "$POSEKIT" retarget dance.vmd --from sdmei.pmd --to gene.pmx -o sd_gene.vmd --report sd_gene.json
expect_stderr_matches "^posekit retarget: elbows: [0-9]+ corrections refused"
expect_eq "$(json_eval sd_gene.json '(r := [c for c in d["contacts"] if c.get("refused")]) and any(c["hand"] == "left" and c["with"] == "hips" for c in r) and all(c["refused"] <= c["frames"][1] - c["frames"][0] + 1 for c in r) and sum(c["refused"] for c in r) <= d["steps"]["refused"]')" True "refused on its contact"
expect_eq "$(json_eval sd_gene.json 'd["hands"]["reachable"]["frames"] == d["hands"]["frames"] - sum(c.get("out_of_reach", {}).get("frames", 0) + c.get("blocked_by_body", 0) + c.get("apart", {}).get("frames", 0) + c.get("refused", 0) for c in d["contacts"])')" True "refused frames not reachable"
# a pose is sized too (one frame, no blending)
expect_exit 0 "$POSEKIT" retarget pose.vpd --from gene.pmx --to sdmei.pmd -o pose_sd.vpd --report pose.json
expect_eq "$(json_eval pose.json 'd["frames"] == [0.0, 0.0]')" True "a pose's frame"
# an elbow the avoid step did not bend is said unchanged (it read "elbow
# up to 0.0 deg", as if a bend too small to print had been made)
expect_stderr_contains "upper arm turned up to 90.1 deg, elbow unchanged)"
expect_eq "$(json_eval pose.json 'd["steps"]["avoid"]["elbow_deg"] == 0')" True "no elbow bent"

# a job's retarget takes the steps' options
cat > job.yaml <<'YAML'
inputs: {d: dance.vmd, gene: gene.pmx, sd: sdmei.pmd}
steps:
  - retarget: {in: d, from: gene, to: sd, no_contacts: true, out: r}
outputs: {r: job.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_same_bytes job.vmd nc.vmd

# --report: a .json file, never standard output nor an input
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd -o x.vmd --report -
expect_stderr_contains "--report - : --json writes the measures of the sizing (JSON) to standard output; --report names a .json file"
expect_no_file x.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd -o - --report -
expect_stderr_contains "--report - and -o - would both write standard output"
expect_stdout_empty
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd -o x.vmd --report r.txt
expect_no_file x.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd -o x.vmd --report gene.pmx
expect_no_file x.vmd
expect_exit 2 "$POSEKIT" retarget dance.vmd --from gene.pmx --to sdmei.pmd --no-contacts --no-avoid --no-twist --no-centre --no-upper --no-shoulders --no-toes --no-stance --no-scale --no-fold -o x.vmd
expect_stderr_contains "--no-stance, --no-scale, --no-fold, --no-contacts, --no-avoid, --no-twist, --no-centre, --no-upper, --no-shoulders and --no-toes together leave nothing to do"

# draw --vs of a frame with contacts: the contact points and the gaps
# (frame 1400: both of Gene's hands on its head)
expect_exit 0 "$POSEKIT" draw dance.vmd --model gene.pmx --vs sd.vmd --vs-model sdmei.pmd --frame 1400 --json -o contacts.json
expect_eq "$(json_eval contacts.json '[len(f["contacts"]) for f in d["figures"]]')" "[2, 2]" "contacts drawn"
expect_eq "$(json_eval contacts.json 'all(c["with"] == "head" and c["gap"] < 0.06 for f in d["figures"] for c in f["contacts"])')" True "hands on the head"
expect_eq "$(json_eval contacts.json 'all(abs(c["gap"] - c["gap_pose"]) < 0.01 for c in d["figures"][1]["contacts"])')" True "the gaps on B as on A"
expect_exit 0 "$POSEKIT" draw dance.vmd --model gene.pmx --vs sd.vmd --vs-model sdmei.pmd --frame 1400 -o contacts.svg
grep -q 'class="contact"' contacts.svg || fail "no contact drawn"
grep -q 'class="vscontact"' contacts.svg || fail "no vs contact drawn"
grep -q 'gap 4\.[0-9]% (4\.[0-9]%)' contacts.svg || fail "no gap label"
# before the sizing, B's hands are inside its head
expect_exit 0 "$POSEKIT" draw dance.vmd --model gene.pmx --vs plain.vmd --vs-model sdmei.pmd --frame 1400 --json -o plain.json
expect_eq "$(json_eval plain.json 'all(c["gap"] < 0 and c["gap_pose"] > 0 for c in d["figures"][1]["contacts"])')" True "gaps before the sizing"

# diff in the world: the input on its model against the output on its own
# (--model, --vs-model): the stance keeps every arm segment's direction,
# so 腕 and ひじ agree within 0.5 degree on every frame, where the keys
# differ by several degrees; the sizing moves the hands onto the head
expect_exit 1 "$POSEKIT" diff dance.vmd plain.vmd --model gene.pmx --vs-model sdmei.pmd --frames all --json
cp _stdout world.json
expect_eq "$(json_eval world.json 'max(b["angle_deg"] for b in d["bones"] if b["name"][1:] in ("腕", "ひじ")) < 0.5')" True "arms in the world"
expect_eq "$(json_eval world.json 'sorted(b["name"] for b in d["bones"] if b["pos_delta"] > 0)')" "['右手首', '右足首', '左手首', '左足首']" "hands and feet placed"
expect_exit 1 "$POSEKIT" diff dance.vmd plain.vmd --frames all --json
expect_eq "$(json_eval _stdout 'max(b["angle_deg"] for b in d["bones"] if b["name"][1:] in ("腕", "ひじ")) > 2')" True "arms' keys"
expect_exit 1 "$POSEKIT" diff dance.vmd plain.vmd --model gene.pmx --vs-model sdmei.pmd --frame 1400
expect_stdout_contains "bones differ in the world"
expect_exit 2 "$POSEKIT" diff dance.vmd plain.vmd --vs-model sdmei.pmd
expect_stderr_contains "--vs-model needs --model"
expect_exit 2 "$POSEKIT" diff dance.vmd plain.vmd --model gene.pmx --vs-model sdmei.pmd --bones 左腕
expect_stderr_contains "--bones does not apply"

# --json: the same measures on standard output
expect_exit 0 "$POSEKIT" retarget bow.vmd --from mei.pmd --to gene.pmx -o bow_gene.vmd --json
expect_eq "$(json_eval _stdout 'd["hands"]["frames"] > 0 and d["hands"]["after"]["mean"] < d["hands"]["before"]["mean"]')" True "--json"
