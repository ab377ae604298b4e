# retarget's dancers sized together (retarget IN ... --and IN ..., a job's
# dancers: list): one XZ scale for every dancer's translations, so a
# formation keeps its spacing, and the contacts between dancers held on
# the targets; the spacing and the gaps in one line each and in the
# --report JSON; bad input named by its dancer, exit 2, nothing written.
#
# The corpus has no dance for several dancers, so the material is built:
# a formation (the wavefile dance, the second dancer placed 12 units to
# the side with an overlay of 全ての親), two different dances placed apart,
# and a pair walking up to each other until dancer 1's right wrist meets
# dancer 2's left one (frames 20-40; pair.py below writes it).
need_corpus
need_cmd python3 iconv
cp "$(corpus vmd_wavefile_v2.vmd)" dance.vmd
cp "$(corpus vmd_imas_azusa_bow1.vmd)" bow.vmd
cp "$(corpus vpd_keitel_01.vpd)" pose.vpd
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sdmei.pmd
cp "$(corpus pmx_babylon_bone_hierarchy_test.pmx)" nolegs.pmx

# ---- a formation: one dance, the second dancer 12 units to the side ----
vpd_text place '\xe5\x85\xa8\xe3\x81\xa6\xe3\x81\xae\xe8\xa6\xaa|-12,0,0|0,0,0,1' |
    iconv -f utf-8 -t cp932 >place.vpd
expect_exit 0 "$POSEKIT" overlay dance.vmd --pose place.vpd --bones 全ての親 --mode add -o dance2.vmd

expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o f1.vmd \
    --and dance2.vmd --from gene.pmx --to sdmei.pmd -o f2.vmd --report f.json
expect_stderr_matches "^posekit retarget: dancer 1: [0-9]+ keys in, [0-9]+ out"
expect_stderr_matches "^posekit retarget: dancer 2: scale: XZ 0\.7255 \(the dancers' shared scale; the legs 9\.170 -> 3\.233 give 0\.3526\)"
expect_stderr_contains "posekit retarget: dancers: 2 sized together, one XZ scale 0.7255 for their translations (the mean of their legs' 0.3526 to 1.0984)"
expect_stderr_matches "^posekit retarget: dancers: spacing off by at most 0\.00% of the mean leg \(6\.652 units\), mean 0\.00%, over frames 0-2809 \(1 pair; "
expect_stderr_matches "^posekit retarget: partners: "
expect_file f1.vmd
expect_file f2.vmd
# the report: each dancer's own and the group's
expect_eq "$(json_eval f.json 'len(d["dancers"]) == 2 and d["dancers"][1]["to"] == "sdmei.pmd" and "hands" in d["dancers"][0]')" True "each dancer's report"
expect_eq "$(json_eval f.json 'd["scale"]["from"] == "mean" and abs(d["scale"]["xz"] - 0.7255) < 1e-4')" True "the shared scale"
expect_eq "$(json_eval f.json 'd["spacing"]["pairs"] == 1 and d["spacing"]["max"] < 0.02 and d["spacing"]["frames"] == [0.0, 2809.0]')" True "spacing kept"
# each dancer with its own scale (as sized alone) the formation breaks
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o o1.vmd --scale own \
    --and dance2.vmd --from gene.pmx --to sdmei.pmd -o o2.vmd --json
expect_eq "$(json_eval _stdout 'd["scale"]["from"] == "own" and d["spacing"]["max"] > 0.5')" True "own scales"
# a scale given: the distances as on A
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o g1.vmd --scale 1 \
    --and dance2.vmd --from gene.pmx --to sdmei.pmd -o g2.vmd --json
expect_eq "$(json_eval _stdout 'd["scale"]["from"] == "given" and d["scale"]["xz"] == 1.0 and d["spacing"]["max"] < 0.02')" True "scale given"
expect_eq "$(json_eval _stdout 'abs(d["spacing"]["worst"]["distance"] - d["spacing"]["worst"]["wanted"]) < 0.1')" True "distances as on A"
# a dancer alone with --scale: the translations' XZ scale as given
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o alone.vmd --scale 1
expect_stderr_contains "posekit retarget: scale: XZ 1.0000 (as given; the legs 9.170 -> 10.072 give 1.0984)"

# one dance twice in one place: warned, no contact looked for
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o s1.vmd \
    --and dance.vmd --from gene.pmx --to mei.pmd -o s2.vmd
expect_stderr_contains "warning: dancers 1 and 2 stand in one place on 2810 of 2810 frames"
expect_stderr_contains "partners: no hand touches another dancer on the source models (1 pair standing in one place not looked at)"

# ---- two different dances, from two source models, placed apart ----
expect_exit 0 "$POSEKIT" retarget dance.vmd --from gene.pmx --to mei.pmd -o t1.vmd \
    --and bow.vmd --from mei.pmd --to sdmei.pmd -o t2.vmd --json
expect_eq "$(json_eval _stdout 'd["spacing"]["pairs"] == 1 and d["spacing"]["max"] < 0.02 and d["dancers"][1]["from"] == "mei.pmd"')" True "two dances"

# ---- a pair holding hands ----
cat >pair.py <<'PY'
# pair.py OUT1 OUT2 D: two dancers walking up to each other, 全ての親 at
# x = +-(D + 3) at frames 0 and 60 and +-D at frames 20-40 (linear): with
# D the x of Gene's wrist at rest, dancer 1's right wrist meets dancer
# 2's left one at x = 0 on frames 20-40
import struct, sys
def vmd(path, keys):
    name = "全ての親".encode("cp932").ljust(15, b"\0")
    lin = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
    out = b"Vocaloid Motion Data 0002".ljust(30, b"\0") + b"pair".ljust(20, b"\0")
    out += struct.pack("<I", len(keys))
    for f, x in keys:
        out += name + struct.pack("<I3f4f", f, x, 0, 0, 0, 0, 0, 1) + lin
    out += struct.pack("<IIII", 0, 0, 0, 0)
    open(path, "wb").write(out)
d = float(sys.argv[3])
for path, s in ((sys.argv[1], 1.0), (sys.argv[2], -1.0)):
    vmd(path, [(0, s * (d + 3)), (20, s * d), (40, s * d), (60, s * (d + 3))])
PY
# Gene's right wrist at rest: x -6.2454
"$POSEKIT" dump --body gene.pmx --bones 右手首 >gene_body.yaml
grep -q 'name: "右手首", .*pos: \[-6.245398, 12.049308' gene_body.yaml || fail "Gene's wrist moved"
python3 pair.py p1.vmd p2.vmd 6.245398
# on two Meis (the same size: only the arms differ from Gene's)
expect_exit 0 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o h1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o h2.vmd --report h.json
expect_stderr_matches "^posekit retarget: partners: 1 contact between dancers \(dancer 1's right hand with dancer 2's left hand, frames [0-9]+-[0-9]+\), the hands moved on [0-9]+ frames.*contact gap error [0-9.]+% -> [0-9.]+% of the target's arm \(mean; p95 [0-9.]+% -> [0-9.]+%\)(; [0-9]+ of them beyond the arms' reach \(a wrist's target up to [0-9.]+% of its arm\), on the [0-9]+ within it .*)?$"
expect_eq "$(json_eval h.json 'len(d["partners"]["contacts"]) == 1 and [d["partners"]["contacts"][0][k] for k in ("dancer", "hand", "partner", "with")] == [1, "right", 2, "left hand"]')" True "the held hands"
expect_eq "$(json_eval h.json '(c := d["partners"]["contacts"][0])["frames"][0] <= 20 and c["frames"][1] >= 40 and c["gap_from"] < 0.01')" True "their frames"
# on two Meis they meet within the goal (2% mean, 5% p95 of the arm)
expect_eq "$(json_eval h.json '(p := d["partners"]) and p["before"]["mean"] > 0.05 and p["after"]["mean"] <= 0.02 and p["after"]["p95"] <= 0.05')" True "met on Mei"
expect_eq "$(json_eval h.json 'd["spacing"]["max"] < 0.02')" True "pair spacing"
# the frames the arms reach, measured apart, meet it too
expect_eq "$(json_eval h.json '(r := d["partners"]["reachable"])["frames"] > 20 and r["after"]["mean"] <= 0.02 and r["after"]["p95"] <= 0.05')" True "met on Mei where the arms reach"
# on two SD Meis too
expect_exit 0 "$POSEKIT" retarget p1.vmd --from gene.pmx --to sdmei.pmd -o k1.vmd \
    --and p2.vmd --from gene.pmx --to sdmei.pmd -o k2.vmd --json
expect_eq "$(json_eval _stdout '(p := d["partners"]) and p["after"]["mean"] <= 0.02 and p["after"]["p95"] <= 0.05')" True "met on SD Mei"
# Mei and SD Mei: her hand hangs above the chibi's head; both arms
# stretch towards each other and the gap shrinks to a fifth
expect_exit 0 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o m1.vmd \
    --and p2.vmd --from gene.pmx --to sdmei.pmd -o m2.vmd --json
expect_eq "$(json_eval _stdout '(p := d["partners"]) and p["out_of_reach"] > 0 and p["after"]["mean"] < p["before"]["mean"] / 4')" True "Mei and SD Mei"
# ... every contact frame beyond the arms' reach at the shared spacing,
# told apart from the frames the arms reach (none here), by how much
expect_eq "$(json_eval _stdout '(r := d["partners"]["reachable"])["frames"] == 0 and r["beyond_by"] > 0.05')" True "Mei and SD Mei beyond reach"
# the contacts step off on both: nothing held, the hands as sized alone
expect_exit 0 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o n1.vmd --no-contacts \
    --and p2.vmd --from gene.pmx --to mei.pmd -o n2.vmd --no-contacts --json
expect_eq "$(json_eval _stdout '(p := d["partners"]) and p["moved"] == 0 and p["after"] == p["before"]')" True "no contacts"

# mmdtools' test motion beside itself, for the classic skeleton and Mei:
# the hands meet only at the shoulders' height; no contact frame ends
# worse than sized alone (test_troupe: where one hand is refused, the
# other goes the whole way)
cp "$(corpus vmd_mmdtools_test.vmd)" tools.vmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" classic.pmx
vpd_text place '\xe5\x85\xa8\xe3\x81\xa6\xe3\x81\xae\xe8\xa6\xaa|-12,0,0|0,0,0,1' |
    iconv -f utf-8 -t cp932 >place12.vpd
expect_exit 0 "$POSEKIT" overlay tools.vmd --pose place12.vpd --bones 全ての親 --mode add -o tools2.vmd
expect_exit 0 "$POSEKIT" retarget tools.vmd --from gene.pmx --to classic.pmx -o w1.vmd \
    --and tools2.vmd --from gene.pmx --to mei.pmd -o w2.vmd --json
expect_eq "$(json_eval _stdout '(p := d["partners"]) and len(p["contacts"]) > 0 and p["after"]["mean"] <= p["before"]["mean"] and all(c["after"]["max"] <= c["before"]["max"] + 1e-6 for c in p["contacts"])')" True "never worse"

# ---- a job's dancers: the same bytes ----
# dancers_job FILE IN2 PATH2 OUT1 OUT2 [GROUP_OPTION]: a job sizing p1.vmd
# and PATH2 (named IN2) together from Gene to Mei, writing OUT1 and OUT2
dancers_job() {
    {
        printf 'inputs: {p1: p1.vmd, %s: %s, gene: gene.pmx, mei: mei.pmd}\nsteps:\n  - retarget:\n' "$2" "$3"
        [ -z "${6:-}" ] || printf '      %s\n' "$6"
        printf '      dancers:\n        - {in: p1, from: gene, to: mei, out: o1}\n'
        printf '        - {in: %s, from: gene, to: mei, out: o2}\noutputs: {o1: %s, o2: %s}\n' "$2" "$4" "$5"
    } >"$1"
}

dancers_job pair.yaml p2 p2.vmd j1.vmd j2.vmd
expect_exit 0 "$POSEKIT" run pair.yaml
expect_stdout_contains "retarget p1 -> o1: "
grep -qE "^retarget dancers -> o1, o2: partners: 1 contact between dancers" _stdout || fail "the group's line"
expect_same_bytes j1.vmd h1.vmd
expect_same_bytes j2.vmd h2.vmd
# options beside the list are every dancer's
dancers_job common.yaml p2 p2.vmd c1.vmd c2.vmd 'no_contacts: true'
expect_exit 0 "$POSEKIT" run common.yaml
expect_same_bytes c1.vmd n1.vmd
expect_same_bytes c2.vmd n2.vmd

# ---- bad input: exit 2, the dancer named, nothing written ----
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx -o x2.vmd
expect_stderr_contains "posekit retarget: dancer 2: --from and --to go together"
expect_no_file x1.vmd
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o ./x1.vmd
expect_stderr_contains "posekit retarget: dancers 1 and 2 both write './x1.vmd' (-o): each writes its own"
expect_no_file x1.vmd
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o p2.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd
expect_stderr_contains "posekit retarget: dancer 1: -o 'p2.vmd' is an input dancer 2 reads: it would be overwritten"
expect_no_file x2.vmd
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd --and
expect_stderr_contains "posekit retarget: dancer 2: nothing after --and"
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd --no-scale
expect_stderr_contains "posekit retarget: dancer 2: --no-scale: dancers share one scale"
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd --scale 1 \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd --scale 0.5
expect_stderr_contains "posekit retarget: dancers 1 and 2 give different --scale (1, 0.5)"
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd --scale -1
expect_stderr_contains "--scale wants a positive number, or 'own' (not '-1')"
# an option that is the whole group's is said as the group's, not as the
# dancer's whose part it sits in (it read "dancer 2: --scale wants ...")
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd --scale x
expect_stderr_contains "posekit retarget: --scale wants a positive number, or 'own' (not 'x')"
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd --no-scale \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd --no-scale
expect_stderr_contains "posekit retarget: --no-scale: dancers share one scale"
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd --json \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd --json
expect_stderr_contains "--json is given for dancers 1 and 2: it is the group's, give it once"
expect_exit 2 "$POSEKIT" retarget p1.vmd --rules x.yaml -o x1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o x2.vmd
expect_stderr_contains "posekit retarget: dancer 1: --from and --to: dancers are sized between models"
# refused_second MESSAGE DANCER2: p1.vmd and DANCER2 sized together from
# Gene to Mei is refused with MESSAGE, and neither dancer is written
refused_second() {
    expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
        --and "$2" --from gene.pmx --to mei.pmd -o x2.vmd
    expect_stderr_contains "$1"
    expect_no_file x1.vmd
    expect_no_file x2.vmd
}
refused_second "dancer 2: a pose: dancers are sized as motions (VMD)" pose.vpd
# a camera given as a dancer (meant for --motion): an error, not a camera
# written back with a 全ての親 key; a motion without bone keys likewise
cp "$(corpus vmd_wavefile_camera.vmd)" camera.vmd
refused_second "posekit: camera.vmd: dancer 2: a camera (70 camera keys, no bone key): a camera is sized with the dance it frames (retarget CAMERA --from A --to B --motion DANCE), not as a dancer" camera.vmd
cp "$(corpus vmd_vmd2xml_luminous.vmd)" light.vmd
refused_second "posekit: light.vmd: dancer 2: the motion has no bone keys: nothing of a body to size" light.vmd
dancers_job camdancer.yaml cam camera.vmd x1.vmd x2.vmd
expect_exit 2 "$POSEKIT" run camdancer.yaml
expect_stderr_contains "dancer 2: a camera (70 camera keys, no bone key): a camera is sized with the dance it frames (a retarget step of its own, with motion: the dance), not as a dancer"
expect_no_file x2.vmd
# a dancer that fails while running (a target without legs): nothing written
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx --to nolegs.pmx -o x2.vmd
expect_stderr_contains "posekit retarget: dancer 2: the target model (nolegs.pmx) has no leg (足 above 足首): the shared scale needs every dancer's legs"
expect_no_file x1.vmd
expect_no_file x2.vmd
# an output that cannot be written: neither is
expect_exit 2 "$POSEKIT" retarget p1.vmd --from gene.pmx --to mei.pmd -o x1.vmd \
    --and p2.vmd --from gene.pmx --to mei.pmd -o nowhere/x2.vmd
expect_no_file x1.vmd
# --and on a command without dancers
expect_exit 2 "$POSEKIT" mirror p1.vmd -o x1.vmd --and p2.vmd -o x2.vmd
expect_stderr_contains "unknown option '--and'"

# a job's bad dancers, at their line and column
cat >bad.yaml <<'YAML'
inputs: {p1: p1.vmd, p2: p2.vmd, gene: gene.pmx, mei: mei.pmd}
steps:
  - retarget:
      dancers:
        - {in: p1, from: gene, to: mei, out: o1}
        - {in: p2, from: gene, out: o2}
outputs: {o1: y1.vmd, o2: y2.vmd}
YAML
expect_exit 2 "$POSEKIT" run bad.yaml
expect_stderr_contains "bad.yaml:6:11: from and to go together"
expect_no_file y1.vmd
# a parameter beside the list is every dancer's: its mistake is said at
# the step, as no one dancer's (it read "dancer 1: no_scale: ...", and a
# bad scale was placed at the first dancer's line)
dancers_job common.yaml p2 p2.vmd y1.vmd y2.vmd 'no_scale: true'
expect_exit 2 "$POSEKIT" run common.yaml
expect_stderr_contains "common.yaml:3:5: no_scale: dancers share one scale for their translations (scale 1 keeps them as they are)"
sed -i 's/no_scale: true/scale: x/' common.yaml
expect_exit 2 "$POSEKIT" run common.yaml
expect_stderr_contains "common.yaml:3:5: scale wants a positive number, or 'own' (not 'x')"
sed -i 's/scale: x/motion: p1/' common.yaml
expect_exit 2 "$POSEKIT" run common.yaml
expect_stderr_contains "common.yaml:3:5: motion: a camera is retargeted on its own, not as a dancer"
expect_stderr_lacks "dancer 1"
expect_no_file y1.vmd
cat >bad2.yaml <<'YAML'
inputs: {p1: p1.vmd, p2: p2.vmd, gene: gene.pmx, mei: mei.pmd}
steps:
  - retarget:
      out: o
      dancers:
        - {in: p1, from: gene, to: mei, out: o1}
        - {in: p2, from: gene, to: mei, out: o2}
outputs: {o1: y1.vmd, o2: y2.vmd}
YAML
expect_exit 2 "$POSEKIT" run bad2.yaml
expect_stderr_contains "bad2.yaml:4:7: out is each dancer's (in the dancers list)"
cat >twice.yaml <<'YAML'
inputs: {p1: p1.vmd, p2: p2.vmd, gene: gene.pmx, mei: mei.pmd}
steps:
  - retarget:
      no_twist: true
      dancers:
        - {in: p1, from: gene, to: mei, out: o1}
        - {in: p2, from: gene, to: mei, no_twist: false, out: o2}
outputs: {o1: y1.vmd, o2: y2.vmd}
YAML
expect_exit 2 "$POSEKIT" run twice.yaml
expect_stderr_contains "twice.yaml:7:41: parameter 'no_twist' is given twice (first on line 4)"
cat >bad3.yaml <<'YAML'
inputs: {p1: p1.vmd, p2: p2.vmd, gene: gene.pmx, mei: mei.pmd}
steps:
  - retarget:
      dancers:
        - {in: p1, from: gene, to: mei, out: o1}
        - {in: p2, from: gene, to: mei, out: o2}
outputs: {o1: y1.vmd, o2: p2.vmd}
YAML
expect_exit 2 "$POSEKIT" run bad3.yaml
expect_no_file y1.vmd
cat >bad4.yaml <<'YAML'
inputs: {p1: p1.vmd, p2: p2.vmd, gene: gene.pmx, mei: mei.pmd, nolegs: nolegs.pmx}
steps:
  - retarget:
      dancers:
        - {in: p1, from: gene, to: mei, out: o1}
        - {in: p2, from: gene, to: nolegs, out: o2}
outputs: {o1: y1.vmd, o2: y2.vmd}
YAML
expect_exit 2 "$POSEKIT" run bad4.yaml
expect_stderr_contains "dancer 2: the target model (nolegs) has no leg"
expect_no_file y1.vmd
expect_no_file y2.vmd
