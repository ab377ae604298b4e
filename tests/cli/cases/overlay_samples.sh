# overlay on the samples: a fist over frames 30-60 of the dance, the
# summary on stderr, only the right fingers changed, a VPD base, --strict
# with a bone the pose lacks, and usage errors that write nothing.
S=$PK_SOURCE/samples
fingers='右(親|人|中|薬|小)指'

expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 30-60 --fade 6 -o fist.vmd
expect_stderr_contains 'posekit overlay: 15 bones changed'
expect_stderr_contains '30 fitted (6 inner keys), 0 baked into 0 keys'
# the same summary as JSON on stdout
expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 30-60 --fade 6 -o fist_json.vmd --json
expect_stdout_contains '"crossed": {"split": 0, "split_exact": 0, "fitted": 30, "fitted_keys": 6, "baked": 0, "baked_keys": 0}, "duplicates_dropped": 0}'
expect_stderr_empty
expect_same_bytes fist_json.vmd fist.vmd
expect_file fist.vmd
# A write that fails (a missing folder) prints the error alone, as bake,
# reduce and mirror do: no summary of a result that was never written.
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 30-60 --fade 6 -o nodir/x.vmd
expect_stderr <<'ERR'
posekit: nodir/x.vmd: the output folder does not exist
ERR
expect_no_file nodir
# Every record of the other bones and of the morphs is unchanged, in order.
"$POSEKIT" dump "$S/dance.vmd" | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/' >before.txt
"$POSEKIT" dump fist.vmd | grep -Ev "$fingers" | sed -E 's/\}\]?,?$/}/' >after.txt
cmp -s before.txt after.txt || fail "records outside the right fingers changed"
expect_exit 0 "$POSEKIT" info fist.vmd
expect_stdout_contains 'frames: 0-150'

# Inside the range the fingers hold the fist: sample frame 45 as a VPD.
expect_exit 0 "$POSEKIT" convert fist.vmd --frame 45 -o at45.vpd
expect_exit 0 "$POSEKIT" dump at45.vpd
need_cmd python3
got=$(json_eval _stdout '[b["rot"] for b in d["bones"] if b["name"]=="右人指１"][0]')
expect_exit 0 "$POSEKIT" dump "$S/hands/right_fist.vpd"
want=$(json_eval _stdout '[b["rot"] for b in d["bones"] if b["name"]=="右人指１"][0]')
python3 -c 'import sys; a=eval(sys.argv[1]); b=eval(sys.argv[2]); assert max(abs(x-y) for x,y in zip(a,b)) < 2e-6, (a,b)' "$got" "$want" \
    || fail "frame 45 is not the fist: $got vs $want"

# A second overlay composes on the first.
expect_exit 0 "$POSEKIT" overlay fist.vmd --pose "$S/hands/right_peace.vpd" \
    --bones @fingers_R --frames 90-120 --fade 6 -o both.vmd
expect_stderr_contains '15 bones changed'

# A VPD base: the selected bones take the pose's values.
expect_exit 0 "$POSEKIT" overlay "$S/hands/right_relaxed.vpd" --pose "$S/hands/right_fist.vpd" \
    --bones '右人指*' -o relaxed_index_fist.vpd
expect_exit 0 "$POSEKIT" dump relaxed_index_fist.vpd
got=$(json_eval _stdout '[b["rot"] for b in d["bones"] if b["name"]=="右人指２"][0]')
expect_exit 0 "$POSEKIT" dump "$S/hands/right_fist.vpd"
want=$(json_eval _stdout '[b["rot"] for b in d["bones"] if b["name"]=="右人指２"][0]')
expect_eq "$got" "$want" "右人指２ after a VPD overlay"

# A selected bone the pose lacks: a warning; --strict makes it an error and
# nothing is written.
expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones '右人指１,左人指１' --frames 10 -o warn.vmd
expect_stderr_contains "warning: selected bone '左人指１' is not in the pose"
# many of them: one line with a count and the first names
expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones '右人指１,@fingers_L' --frames 10 -o warn2.vmd
expect_stderr_contains "selected bones are not in the pose, left as they are: '"
[ "$(grep -c 'not in the pose' "$ERR")" = 1 ] || fail "absent bones not summed in one line"
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones '右人指１,左人指１' --frames 10 --strict -o strict.vmd
expect_no_file strict.vmd

# Usage errors.
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --bones @fingers_R -o x.vmd
expect_stderr_contains 'no pose given'
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 60-30 -o x.vmd
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --fade 5 -o x.vmd
expect_stderr_contains '--fade needs --frames'
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @no_such_group -o x.vmd
expect_stderr_contains 'unknown group'
expect_no_file x.vmd
expect_no_temp_files .

# Morphs: a facial pose over the dance's face, selected
# by morph groups.  The smile holds 6 morphs, 4 of them in @mouth/@eyes;
# the dance's blink and laugh are selected but not in the pose (one line).
if [ -n "${PK_CORPUS:-}" ] && [ -d "$PK_CORPUS" ]; then
    smile=$(corpus vpd_mcmmd_smile_morphonly.vpd)
    expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$smile" \
        --bones @mouth,@eyes,@brows --frames 30-60 --fade 5 -o smile.vmd
    expect_stderr_contains '0 bones changed, 4 morphs changed'
    expect_stderr_contains "warning: 2 selected morphs are not in the pose, left as they are: 'まばたき' and '笑い'"
    expect_exit 0 "$POSEKIT" convert smile.vmd --frame 45 -o smile45.vpd
    expect_exit 0 "$POSEKIT" dump smile45.vpd
    expect_eq "$(json_eval _stdout '[m["weight"] for m in d["morphs"] if m["name"]=="ウィンク２"][0]')" 1.0 "ウィンク２ at 45"
    # Outside 25-65 the face is the dance's.
    expect_exit 0 "$POSEKIT" diff "$S/dance.vmd" smile.vmd --frames 0-25
    expect_exit 0 "$POSEKIT" diff "$S/dance.vmd" smile.vmd --frames 65-150
fi

# A hand pose from the classic skeleton (親指１/２, no 親指０) over the
# dance, which keys 親指０: the warning names the thumb mismatch and the
# rules that shift it; shifted with them, the pose's first thumb joint
# lands on 親指０ and nothing is said.
if [ -n "${PK_CORPUS:-}" ] && [ -d "$PK_CORPUS" ]; then
    old=$(corpus vpd_keitel_01.vpd)
    expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$old" --bones @fingers_R \
        --frames 30-60 -o oldthumb.vmd
    expect_stderr_contains 'warning: the pose has 右親指１ but no 右親指０, which the base has'
    expect_stderr_contains 'posekit rename POSE --rules thumb-shift.yaml'
    expect_exit 0 "$POSEKIT" rename "$old" --rules thumb-shift.yaml -o shifted.vpd
    expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose shifted.vpd --bones @fingers_R \
        --frames 30-60 -o newthumb.vmd
    expect_stderr_lacks 'thumb'
    expect_stderr_lacks '右親指０'
fi

# An overlay that changes nothing warns; --strict makes it an error.
expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @mouth --frames 30-60 -o nothing.vmd
expect_stderr_contains 'warning: nothing overlaid'
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @mouth --frames 30-60 --strict -o nothing_strict.vmd
expect_no_file nothing_strict.vmd

# A fade longer than the frames before the range is cut short, and says so
# of the base, whose frames it runs over (not of the pose).
expect_exit 0 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 4-20 --fade 10 -o shortfade.vmd
expect_stderr_contains "posekit: $S/dance.vmd: warning: fade 10 cut short at frame 0: the fade-in runs over 4 frames (frames 0-4)"
expect_exit 2 "$POSEKIT" overlay "$S/dance.vmd" --pose "$S/hands/right_fist.vpd" \
    --bones @fingers_R --frames 30-4294967290 --fade 40 -o past.vmd
expect_stderr_contains "posekit: $S/dance.vmd: overlay range 30-4294967290 with fade 40 runs past the last frame number"
expect_no_file past.vmd
