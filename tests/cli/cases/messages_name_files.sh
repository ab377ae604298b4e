# Every warning names its file (and a job's step), repeated warnings of one
# kind are one line with a count and the first names, duplicate keys are
# told once (when the file is read, not again by diff, convert --frame,
# merge or run; merge's summary says how many it dropped), merge names its input files, and a 15-byte name with
# duplicates is said to be names MMD cut alike.
DANCE="$PK_SOURCE/samples/dance.vmd"
FIST="$PK_SOURCE/samples/hands/right_fist.vpd"

# dup.vmd: bone "a" keyed twice at frame 0, five morphs m1..m5 twice each,
# and a 15-byte bone name keyed twice (two bones MMD cut to one name).
{
    vmd_header 'test'
    pack V 4
    vmd_bone 'a' 0 0 0 0 0 0 0 1
    vmd_bone 'a' 0 1 0 0 0 0 0 1
    vmd_bone 'abcdefghijklmno' 5 0 0 0 0 0 0 1
    vmd_bone 'abcdefghijklmno' 5 0 2 0 0 0 0 1
    pack V 10
    for k in 1 2 3 4 5; do
        vmd_morph "m$k" 0 0
        vmd_morph "m$k" 0 1
    done
    pack V 0 0 0 0
} >dup.vmd

dup_lines() { grep -c 'duplicate key' "$ERR" || true; }

expect_exit 0 "$POSEKIT" info dup.vmd
expect_stderr_contains 'dup.vmd: warning: bone "a": 1 duplicate key (first at frame 0)'
expect_stderr_contains 'dup.vmd: warning: 5 morphs have duplicate keys (name, frame): "m1" (1 duplicate, first at frame 0), "m2" (1 duplicate, first at frame 0), "m3" (1 duplicate, first at frame 0) and 2 more; the later record in the file wins'
expect_stderr_contains 'bone "abcdefghijklmno": 1 duplicate key (first at frame 5): the name fills all 15 bytes, so these are likely two bones whose names MMD cut to the same name'
expect_eq "$(dup_lines)" 3 "duplicate-key lines of info"

# diff, convert --frame and merge: the same three lines, once, with the file
expect_exit 1 "$POSEKIT" diff dup.vmd "$DANCE"
expect_eq "$(dup_lines)" 3 "duplicate-key lines of diff"
expect_stderr_lacks 'posekit: warning:'
expect_exit 0 "$POSEKIT" convert dup.vmd --frame 0 -o p.vpd
expect_eq "$(dup_lines)" 3 "duplicate-key lines of convert --frame"
expect_stderr_lacks 'posekit: warning:'
expect_exit 0 "$POSEKIT" merge dup.vmd "$DANCE" -o m.vmd
expect_eq "$(dup_lines)" 4 "duplicate-key lines of merge (the summary says it dropped them)"
expect_stderr_contains '7 duplicate keys dropped (of two records of one key the later wins, as MMD reads them)'
expect_stderr_contains 'dup.vmd: warning: 5 morphs have duplicate keys'
expect_stderr_lacks 'posekit: warning:'

# merge names the input file, not "input 2"; a frame past 4294967295 is
# not "below frame 0"
expect_exit 0 "$POSEKIT" merge "$DANCE" dup.vmd --offset 0 --offset 4294967292 -o m.vmd
expect_stderr_contains 'dup.vmd: warning: offset 4294967292: 2 keys shifted past frame 4294967295'
expect_stderr_contains ', 2 past frame 4294967295'
expect_stderr_lacks 'input 2:'
expect_exit 0 "$POSEKIT" merge "$DANCE" dup.vmd --offset 0 --offset -3 -o m.vmd
expect_stderr_contains 'dup.vmd: warning: offset -3 cuts it at its frame 3'
expect_stderr_lacks 'input 2:'

# overlay: what the pose lacks names the pose, not the base; a name of
# the selection that neither file holds names the base, the file the
# selection was looked for in first, as every warning names its file
expect_exit 0 "$POSEKIT" overlay "$DANCE" --pose "$FIST" --bones @hand_R,あ,nothing -o o.vmd
expect_stderr_contains "posekit: $DANCE: warning: 'nothing' in the selection matches no bone or morph of the base or the pose"
expect_stderr_lacks 'posekit overlay: warning:'
expect_stderr_contains "right_fist.vpd: warning: selected morph 'あ' is not in the pose; left as it is"
expect_stderr_lacks 'posekit: warning:'
# reduce and diff alike (one rule, select_check.c)
expect_exit 0 "$POSEKIT" reduce "$DANCE" --bones センター,nothing -o r.vmd
expect_stderr_contains "posekit: $DANCE: warning: 'nothing' in the selection matches no bone or morph of the motion"
expect_exit 0 "$POSEKIT" diff "$DANCE" "$FIST" --bones 右手首,nothing
expect_stderr_contains "posekit: $DANCE: warning: 'nothing' in the selection matches no bone or morph of either input"

# retarget: a stance bone the motion lacks names the motion
"$POSEKIT" rename "$DANCE" --rules ja-en.yaml -o en.vmd 2>/dev/null
expect_exit 0 "$POSEKIT" retarget en.vmd --rules a-to-t-stance.yaml -o t.vmd
expect_stderr_contains "en.vmd: warning: stance bone '左腕' is not in the motion"

# a job: the load names the file, a step's warnings name the step and input
cp "$FIST" fist.vpd
printf 'inputs: {dance: dance.vmd, dup: dup.vmd, fist: fist.vpd}\nsteps:\n  - overlay: {base: dance, pose: fist, bones: "@hand_R,nothing", out: o}\n  - diff: {a: dup, b: dance, out: d}\noutputs: {o: o2.vmd, d: d.txt}\n' >job.yaml
cp "$DANCE" dance.vmd
expect_exit 0 "$POSEKIT" run job.yaml
expect_stderr_contains 'dup.vmd: warning: 5 morphs have duplicate keys'
expect_eq "$(dup_lines)" 3 "duplicate-key lines of run"
expect_stderr_contains "job.yaml:3:5: warning: dance: 'nothing' in the selection matches no bone or morph of the base or the pose"

# an error about an input file names it as "posekit: FILE: ...", not
# behind the command's name (a pose given to a command of motions)
expect_exit 2 "$POSEKIT" time "$FIST" --shift 3 -o t.vmd
expect_stderr_contains "posekit: $FIST: time works on a VMD motion (a pose has no time)"
expect_exit 2 "$POSEKIT" bake "$FIST" -o b.vmd
expect_stderr_contains "posekit: $FIST: bake works on a VMD motion (a pose has no keys to bake)"
expect_exit 2 "$POSEKIT" crossfade "$DANCE" "$FIST" --at 10 -o c.vmd
expect_stderr_contains "posekit: $FIST: crossfade works on VMD motions (a pose has no time)"
