# rename: usage errors, rule errors with FILE:LINE:COL, collisions and names
# that do not fit: exit 2, nothing written.
vmd_header 'model' > in.vmd
pack 'V' 2 >> in.vmd
vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 0 0 0 0 0 1 >> in.vmd   # センター
vmd_bone 'center' 0 0 0 0 0 0 0 1 >> in.vmd
pack 'V' 0 >> in.vmd
remember in.vmd

expect_exit 2 "$POSEKIT" rename in.vmd -o out.vmd
expect_stderr_contains "posekit rename: no rules given (--rules R.yaml)"
expect_exit 2 "$POSEKIT" rename in.vmd --rules r.yaml
expect_stderr_contains "posekit rename: no output given (-o OUT)"

# A rules file with a typo in a key.
printf 'rename:\n  a: b\nrenmae:\n  c: d\n' > bad.yaml
expect_exit 2 "$POSEKIT" rename in.vmd --rules bad.yaml -o out.vmd
expect_stderr <<'ERR'
posekit: bad.yaml:3:1: unknown key 'renmae' (did you mean 'rename'?)
ERR
expect_no_file out.vmd
# one a slip away from none lists them all
printf 'rename:\n  a: b\nxyzzy:\n  c: d\n' > far.yaml
expect_exit 2 "$POSEKIT" rename in.vmd --rules far.yaml -o out.vmd
expect_stderr <<'ERR'
posekit: far.yaml:3:1: unknown key 'xyzzy' (expected include, rename, morphs, groups, morph_groups, mirror, morph_mirror, stance, scale)
ERR

# Two tracks would share a name: both are named.
printf 'rename:\n  センター: center\n' > collide.yaml
expect_exit 2 "$POSEKIT" rename in.vmd --rules collide.yaml -o out.vmd
expect_stderr <<'ERR'
posekit: in.vmd: bone 'センター' and bone 'center' would both be named 'center'; nothing was renamed
ERR
expect_no_file out.vmd

# A target longer than a VMD bone name (16 bytes): the rule's position and
# the bone are named.
printf 'rename:\n  center: sixteen_bytes_ab\n' > long.yaml
expect_exit 2 "$POSEKIT" rename in.vmd --rules long.yaml -o out.vmd
expect_stderr <<'ERR'
posekit: long.yaml:2:11: bone 'center' would become 'sixteen_bytes_ab', 16 bytes in CP932; the field holds 15
ERR
expect_no_file out.vmd
expect_unchanged in.vmd
expect_no_temp_files .

# rules that match nothing are warned about also when the input's
# duplicate keys (dropped on the way) changed the bytes: a rename rule
# names bones, the morph rule belongs under morphs:
need_corpus
cp "$(corpus vmd_mmdagent_00_normal.vmd)" dup.vmd
printf 'rename:\n  eye_surprise_ge: x\n' >bones_only.yaml
expect_exit 0 "$POSEKIT" rename dup.vmd --rules bones_only.yaml -o dup_out.vmd
expect_stderr_matches '^posekit: dup\.vmd: warning: no rename rule matched a bone or morph of the input: the output is the input with its [0-9]+ duplicate keys dropped$'
expect_exit 2 "$POSEKIT" rename dup.vmd --rules bones_only.yaml -o dup_strict.vmd --strict
expect_no_file dup_strict.vmd
printf 'morphs:\n  eye_surprise_ge: x\n' >morphs.yaml
expect_exit 0 "$POSEKIT" rename dup.vmd --rules morphs.yaml -o dup_out.vmd
expect_stderr_lacks 'no rename rule matched'
