# time, crossfade and curve on the command line and in a job: corpus
# dances trimmed (every frame of the range as the input, diff's
# thresholds), shifted, stretched and resampled back to the same bytes;
# bad ranges and values: exit 2, a message naming what is wrong, nothing
# written; a selection matching nothing: the shared rule; -o naming the
# model read beside the input: refused; a run that changes nothing says so.
need_corpus
S=$PK_SOURCE/samples
DANCE=$(corpus vmd_wavefile_v2.vmd)
CAM=$(corpus vmd_wavefile_camera.vmd)

# trim: the range plays as the input (bones, morphs; the camera too)
expect_exit 0 "$POSEKIT" time "$DANCE" --trim 1000-2000 -o t.vmd
expect_stderr_contains 'posekit time: keys 15439 -> '
expect_stderr_contains 'trimmed to 1000-2000: crossed segments'
expect_exit 0 "$POSEKIT" info t.vmd
expect_stdout_contains 'frames: 1000-2000'
expect_exit 0 "$POSEKIT" diff "$DANCE" t.vmd --frames 1000-2000
expect_stdout_contains 'frames 1000-2000: 0 of 140 bones differ, 0 of 31 morphs differ'
expect_exit 0 "$POSEKIT" time "$CAM" --trim 500-1500 -o c.vmd
expect_exit 0 "$POSEKIT" diff "$CAM" c.vmd --frames 500-1500
expect_stdout_contains '0 of 5 camera/light/shadow/IK channels differ'
# after the range the value at its end holds
expect_exit 0 "$POSEKIT" diff "$DANCE" t.vmd --frames 2000 --bones センター
expect_stdout_contains '0 of 1 bones differ'
# trimmed then shifted to 0: the same as one run with both
expect_exit 0 "$POSEKIT" time t.vmd --shift -1000 -o t0.vmd
expect_exit 0 "$POSEKIT" time "$DANCE" --trim 1000-2000 --shift -1000 -o t1.vmd
expect_same_bytes t0.vmd t1.vmd
expect_exit 0 "$POSEKIT" info t1.vmd
expect_stdout_contains 'frames: 0-1000'
# A- and -B
expect_exit 0 "$POSEKIT" time "$DANCE" --trim 2500- -o tail.vmd
expect_exit 0 "$POSEKIT" info tail.vmd
expect_stdout_contains 'frames: 2500-2809'
expect_exit 0 "$POSEKIT" time "$DANCE" --trim -100 -o head.vmd
expect_exit 0 "$POSEKIT" info head.vmd
expect_stdout_contains 'frames: 0-100'

# stretch and resample: there and back gives the same bytes; a camera's
# cuts stay one frame apart
expect_exit 0 "$POSEKIT" time "$CAM" --fps 30:60 -o c60.vmd
expect_stderr_contains 'time x2: 0 keys rounded to a whole frame (by 0 at most), 29 cuts kept one frame apart'
expect_exit 0 "$POSEKIT" time c60.vmd --fps 60:30 -o c30.vmd
expect_same_bytes "$CAM" c30.vmd
expect_exit 0 "$POSEKIT" time "$DANCE" --stretch 2 -o d2.vmd
expect_exit 0 "$POSEKIT" time d2.vmd --stretch 0.5 -o d1.vmd
expect_same_bytes "$DANCE" d1.vmd
# a BPM change: 120 to 150 is time x0.8
expect_exit 0 "$POSEKIT" time "$DANCE" --bpm 120:150 --json -o b.vmd
expect_stdout_contains '"scale": 0.8,'
expect_exit 0 "$POSEKIT" info b.vmd
expect_stdout_contains 'frames: 0-2247'

# nothing changes: a warning, the same bytes; --strict fails it
expect_exit 0 "$POSEKIT" time "$DANCE" --trim 0-5000 -o same.vmd
expect_stderr_contains 'vmd_wavefile_v2.vmd: warning: nothing to do: the motion lies inside the range'
expect_same_bytes "$DANCE" same.vmd
expect_exit 2 "$POSEKIT" time "$DANCE" --trim 0-5000 -o strict.vmd --strict
expect_no_file strict.vmd
# without --trim there is no range to lie inside
expect_exit 0 "$POSEKIT" time "$DANCE" --shift 0 -o same0.vmd
expect_stderr_contains 'warning: nothing to do: the motion is neither shifted nor stretched; the output is the input unchanged'
expect_same_bytes "$DANCE" same0.vmd
expect_exit 0 "$POSEKIT" time "$DANCE" --stretch 1 -o same1.vmd
expect_same_bytes "$DANCE" same1.vmd

# bad ranges and values: exit 2, said, nothing written
expect_exit 2 "$POSEKIT" time "$DANCE" --trim 400-100 -o bad.vmd
expect_stderr_contains '--trim 400-100 is empty: its first frame 400 is after its last 100'
expect_exit 2 "$POSEKIT" time "$DANCE" --trim 1x-5 -o bad.vmd
expect_stderr_contains "--trim wants A-B, A- (to the end) or -B (from frame 0), frame numbers, not '1x-5'"
expect_exit 2 "$POSEKIT" time "$DANCE" --trim - -o bad.vmd
expect_exit 2 "$POSEKIT" time "$DANCE" --bpm 120 -o bad.vmd
expect_stderr_contains "--bpm wants FROM:TO, two positive numbers (120:150), not '120'"
expect_exit 2 "$POSEKIT" time "$DANCE" --fps 30:0 -o bad.vmd
expect_exit 2 "$POSEKIT" time "$DANCE" --stretch -2 -o bad.vmd
expect_stderr_contains "--stretch wants a positive factor, not '-2'"
expect_exit 2 "$POSEKIT" time "$DANCE" --shift 1.5 -o bad.vmd
expect_stderr_contains "--shift wants a whole number of frames, not '1.5'"
expect_exit 2 "$POSEKIT" time "$DANCE" --trim 100-200 --shift -300 -o bad.vmd
expect_stderr_contains 'nothing is left: frames 100-200 are empty (a shift of -300 cuts every frame before 300)'
expect_exit 2 "$POSEKIT" time "$DANCE" --shift 4294967000 -o bad.vmd
expect_stderr_contains 'a key would move past the last frame number (4294967295)'
expect_exit 2 "$POSEKIT" time "$DANCE" -o bad.vmd
expect_stderr_contains 'nothing to do: give --trim, --shift, --stretch, --bpm or --fps'
expect_exit 2 "$POSEKIT" time "$S/hands/right_fist.vpd" --shift 3 -o bad.vmd
expect_stderr_contains 'right_fist.vpd: time works on a VMD motion'
expect_no_file bad.vmd

# crossfade: the first up to the fade, the second (shifted) after it
expect_exit 0 "$POSEKIT" time "$DANCE" --trim 500-900 --shift -500 -o part2.vmd
expect_exit 0 "$POSEKIT" crossfade t1.vmd part2.vmd --at 900 --fade 15 -o cf.vmd
expect_stderr_contains 'posekit crossfade: frames 900-915 faded over 140 bones and 31 morphs'
expect_exit 0 "$POSEKIT" diff t1.vmd cf.vmd --frames 0-900
expect_stdout_contains '0 of 140 bones differ, 0 of 31 morphs differ'
expect_exit 0 "$POSEKIT" time cf.vmd --trim 915- --shift -900 -o cf_tail.vmd
expect_exit 0 "$POSEKIT" diff part2.vmd cf_tail.vmd --frames 15-400
expect_stdout_contains '0 of 140 bones differ, 0 of 31 morphs differ'
expect_exit 2 "$POSEKIT" crossfade t1.vmd --at 900 -o cf2.vmd
expect_stderr_contains 'crossfade takes two motions'
expect_exit 2 "$POSEKIT" crossfade t1.vmd part2.vmd -o cf2.vmd
expect_stderr_contains 'no --at F'
expect_exit 2 "$POSEKIT" crossfade t1.vmd part2.vmd --at 10 --fade 0 -o cf2.vmd
expect_no_file cf2.vmd
# --skip past the second's last key (part2.vmd ends at 400): a fade into
# its held last pose, most likely a mistyped frame, warned as time --trim
expect_exit 0 "$POSEKIT" crossfade t1.vmd part2.vmd --at 900 --skip 500 -o cf3.vmd
expect_stderr_contains "posekit: part2.vmd: warning: --skip 500 is after the motion's last key (frame 400)"
expect_exit 2 "$POSEKIT" crossfade t1.vmd part2.vmd --at 900 --skip 500 -o cf4.vmd --strict
expect_no_file cf4.vmd
expect_exit 0 "$POSEKIT" crossfade t1.vmd part2.vmd --at 900 --skip 400 -o cf5.vmd
expect_stderr_lacks "after the motion's last key"

# curve: chosen keys only; the selection rule; --like; -o naming the model
expect_exit 0 "$POSEKIT" curve "$DANCE" --bones センター --frames 0-300 --set ease --json -o e.vmd
expect_stdout_matches() { grep -qE "$1" "$OUT" || { _show; fail "stdout should match $1"; }; }
expect_stdout_matches '"tracks": 1, "keys": [1-9][0-9]*, "changed": [1-9]'
expect_exit 0 "$POSEKIT" diff "$DANCE" e.vmd --frames 301-2809
expect_stdout_contains '0 of 140 bones differ'
expect_exit 0 "$POSEKIT" curve e.vmd --bones センター --frames 0-300 --like センター@0 -o back.vmd
expect_exit 2 "$POSEKIT" curve "$DANCE" --bones 右人指1 --set linear -o bad.vmd
expect_stderr_contains "the selection '右人指1' matches no bone of the motion: nothing to curve"
expect_exit 2 "$POSEKIT" curve "$DANCE" --set wobbly -o bad.vmd
expect_stderr_contains "--set wants linear, ease, ease-in, ease-out or X1,Y1,X2,Y2 (four numbers 0..127), not 'wobbly'"
expect_exit 2 "$POSEKIT" curve "$DANCE" --set 1,2,3,200 -o bad.vmd
expect_exit 2 "$POSEKIT" curve "$DANCE" --set linear --like センター@0 -o bad.vmd
expect_stderr_contains 'give one of --set SHAPE and --like BONE@FRAME'
expect_exit 2 "$POSEKIT" curve "$DANCE" --like センター@7777 -o bad.vmd
expect_stderr_contains "the motion has no key of bone 'センター' at frame 7777"
expect_exit 2 "$POSEKIT" curve "$DANCE" --set linear --axes x,q -o bad.vmd
expect_no_file bad.vmd
cp "$(corpus pmx_nanoem_miku_bones.pmx)" m.pmx
expect_exit 2 "$POSEKIT" curve "$DANCE" --set linear --model m.pmx -o m.pmx
expect_stderr_contains "-o 'm.pmx' is the model this command reads: it would be overwritten"
# -o never names the input, as everywhere: refused, the input kept
cp "$DANCE" in.vmd
expect_exit 2 "$POSEKIT" curve in.vmd --set linear --frames 0 -o in.vmd
expect_stderr_contains "-o 'in.vmd' is an input this command reads: it would be overwritten"
expect_same_bytes "$DANCE" in.vmd
expect_no_temp_files .
# already so: a warning, the same bytes
expect_exit 0 "$POSEKIT" curve e.vmd --bones センター --frames 0-300 --set ease -o e2.vmd
expect_stderr_contains 'warning: nothing to change: every key chosen has that curve already'
# frames outside every key: an error, as reduce's and bake's
expect_exit 2 "$POSEKIT" curve e.vmd --set ease --frames 5000-6000 -o none.vmd
expect_stderr_matches '^posekit: e\.vmd: frames 5000-6000 hold no key of the motion \(its keys are at frames 0-[0-9]+\): nothing to curve$'
expect_no_file none.vmd
expect_exit 2 "$POSEKIT" reduce e.vmd --frames 5000-6000 -o none.vmd
expect_stderr_contains 'frames 5000-6000 hold no key of the motion'
expect_same_bytes e.vmd e2.vmd

# a job step does the same as the command
cat >job.yaml <<YAML
inputs: {d: $DANCE}
steps:
  - time: {in: d, trim: 1000-2000, shift: -1000, out: t}
  - curve: {in: t, bones: センター, set: ease, out: c}
outputs: {t: jt.vmd, c: jc.vmd}
YAML
expect_exit 0 "$POSEKIT" run job.yaml
expect_same_bytes t1.vmd jt.vmd
expect_exit 0 "$POSEKIT" curve t1.vmd --bones センター --set ease -o c1.vmd
expect_same_bytes c1.vmd jc.vmd
# a range that starts after the motion's last key is a mistake worth a word
cp "$PK_SOURCE/samples/dance.vmd" late.vmd
expect_exit 0 "$POSEKIT" time late.vmd --trim 500-600 -o late_out.vmd
expect_stderr_contains "--trim starts at frame 500, after the motion's last key (frame 150)"
expect_exit 2 "$POSEKIT" time late.vmd --trim 500-600 -o late_strict.vmd --strict
expect_no_file late_strict.vmd
expect_exit 0 "$POSEKIT" time late.vmd --trim 100-600 -o late_ok.vmd
expect_stderr_lacks "after the motion's last key"
# a stretch so slight that every key rounds back to its own frame changes
# nothing: said, as every run that changes nothing (--strict: an error)
expect_exit 0 "$POSEKIT" time late.vmd --bpm 120:119.99 -o late_bpm.vmd
expect_same_bytes late.vmd late_bpm.vmd
expect_stderr_contains "posekit: late.vmd: warning: nothing to do: every key stays on its frame (time x1.00008334 rounds each back), the output is the input unchanged"
expect_exit 2 "$POSEKIT" time late.vmd --stretch 1.0000001 -o late_bpm2.vmd --strict
expect_no_file late_bpm2.vmd
expect_exit 0 "$POSEKIT" time late.vmd --stretch 1.01 -o late_bpm3.vmd
expect_stderr_lacks "nothing to do"
# a negative shift cuts as --trim does: past the last key, the same word
expect_exit 0 "$POSEKIT" time late.vmd --shift -1000 -o late_shift.vmd
expect_stderr_contains "--shift -1000 cuts away every frame before 1000, after the motion's last key (frame 150)"
expect_exit 2 "$POSEKIT" time late.vmd --shift -1000 -o late_shift_strict.vmd --strict
expect_no_file late_shift_strict.vmd
expect_exit 0 "$POSEKIT" time late.vmd --shift -150 -o late_shift_ok.vmd
expect_stderr_lacks "after the motion's last key"
# curve on camera keys: the chosen channels of the keys in range get the
# curve in the camera's byte order (x1, x2, y1, y2); every other byte of
# the file stays; --like camera@F copies a camera key's six curves
expect_exit 0 "$POSEKIT" curve "$CAM" --frames 100-1000 --axes x,d --set 10,20,30,40 --json -o cc.vmd
expect_stdout_contains '"camera_keys": '
python3 - "$CAM" cc.vmd 100 1000 <<'PY'
import struct, sys
a, b = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
lo, hi = int(sys.argv[3]), int(sys.argv[4])
assert len(a) == len(b), 'sizes differ'
at = 50
for size in (111, 23):  # bone and morph sections (empty here)
    n = struct.unpack_from('<I', a, at)[0]
    at += 4 + n * size
n = struct.unpack_from('<I', a, at)[0]
at += 4
assert a[:at] == b[:at], 'bytes before the camera keys changed'
changed = 0
for i in range(n):
    r, s = a[at + 61 * i: at + 61 * (i + 1)], b[at + 61 * i: at + 61 * (i + 1)]
    frame = struct.unpack_from('<I', r, 0)[0]
    want = bytearray(r)
    if lo <= frame <= hi:
        want[32:36] = bytes([10, 30, 20, 40])  # X: x1, x2, y1, y2
        want[48:52] = bytes([10, 30, 20, 40])  # distance
    assert s == bytes(want), 'camera key %d (frame %d): %s, want %s' % (i, frame, s[32:56].hex(), bytes(want)[32:56].hex())
    changed += r != s
end = at + 61 * n
assert a[end:] == b[end:], 'bytes after the camera keys changed'
assert changed > 0
PY
expect_exit 0 "$POSEKIT" curve cc.vmd --like camera@0 --frames 100-1000 -o cl.vmd
expect_stderr_matches 'camera keys changed'
python3 - cl.vmd <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
at = 50 + 4 + 4
n = struct.unpack_from('<I', b, at)[0]
keys = [b[at + 4 + 61 * i: at + 4 + 61 * (i + 1)] for i in range(n)]
first = [k for k in keys if struct.unpack_from('<I', k, 0)[0] == 0][-1]
inside = [k for k in keys if 100 <= struct.unpack_from('<I', k, 0)[0] <= 1000]
assert inside and all(k[32:56] == first[32:56] for k in inside), 'not the curves of camera@0'
PY
expect_exit 2 "$POSEKIT" curve "$CAM" --like camera@7 -o bad.vmd
expect_stderr_contains 'the motion has no camera key at frame 7'
expect_exit 2 "$POSEKIT" curve "$CAM" --set linear --axes d --bones センター -o bad.vmd
expect_no_file bad.vmd

# the summary counts the sections that hold keys beside bones and morphs:
# a camera motion's keys are camera keys
expect_exit 0 "$POSEKIT" time "$CAM" --fps 30:60 -o cam60s.vmd
expect_stderr_contains 'posekit time: keys 70 -> 70 (bones 0 -> 0, morphs 0 -> 0, camera 70 -> 70); time x2:'
expect_exit 0 "$POSEKIT" time "$DANCE" --shift 2 -o shifted2.vmd
expect_stderr_contains 'posekit time: keys 15439 -> 15439 (bones 14160 -> 14160, morphs 1279 -> 1279); shifted by 2'
