# File-level errors: missing input, a folder as input, an output in a
# folder that does not exist, a full device, an unknown format.  Each: exit
# 2, one clear message naming the path, nothing written, inputs untouched.
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' >p.vpd
remember p.vpd

expect_exit 2 "$POSEKIT" info nothere.vmd
expect_stderr <<'ERR'
posekit: nothere.vmd: cannot open: No such file or directory
ERR
mkdir dir.vmd
expect_exit 2 "$POSEKIT" dump dir.vmd
expect_stderr <<'ERR'
posekit: dir.vmd: is a directory, not a file
ERR
expect_exit 2 "$POSEKIT" convert p.vpd -o nofolder/out.vmd
expect_stderr_contains 'posekit: nofolder/out.vmd: '
expect_no_file nofolder
# The output names a folder.
expect_exit 2 "$POSEKIT" convert p.vpd -o dir.vmd
expect_stderr_contains "-o names a folder ('dir.vmd')"
[ -d dir.vmd ] || fail "dir.vmd should still be a folder"
# /dev/full accepts the open but every write fails (ENOSPC).
if [ -w /dev/full ]; then
    expect_exit 2 "$POSEKIT" convert p.vpd -o /dev/full
    expect_stderr_contains 'posekit: /dev/full: '
    expect_stderr_contains 'No space left on device'
fi
# Not a VPD or VMD at all.
# info and dump read models and bodies too: they name every kind they
# read; a command reading motions and poses alone names those two.
printf 'just text\n' >notes.txt
: >EMPTY.yaml
# A .yaml that is no body is rules or a job (or empty): said so, with
# where each goes, and no byte offset.
printf 'rename:\n  a: b\n' >rules.yml
for cmd in info dump; do
    expect_exit 2 "$POSEKIT" $cmd notes.txt
    expect_stderr <<ERR
posekit: notes.txt:0: not a VMD, VPD, PMX, PMD or body file (no signature or posekit_body key, no .vmd/.vpd/.pmx/.pmd extension)
ERR
    for f in EMPTY.yaml rules.yml; do
        expect_exit 2 "$POSEKIT" $cmd $f
        expect_stderr <<ERR
posekit: $f: a YAML file with no posekit_body key, not a VMD, VPD, PMX, PMD or body file (rules go with --rules; posekit run JOB --dry-run lists a job's steps)
ERR
    done
done
expect_exit 2 "$POSEKIT" info --json p.vpd EMPTY.yaml
expect_stderr_contains 'EMPTY.yaml: a YAML file with no posekit_body key'
expect_stdout_contains '"path": "p.vpd"'
# a model (--model, dump --body) is a PMX, PMD or body file: the three
# are named
for cmd in "check p.vpd --model notes.txt" "dump --body notes.txt"; do
    expect_exit 2 "$POSEKIT" $cmd
    expect_stderr <<'ERR'
posekit: notes.txt:0: not a PMX, PMD or body file (no "PMX " or "Pmd" signature, no posekit_body key)
ERR
done
# a motion or pose where a model goes says what it is, as a model where
# a motion goes does
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
for cmd in "check dance.vmd --model p.vpd" "dump --body p.vpd"; do
    expect_exit 2 "$POSEKIT" $cmd
    expect_stderr <<'ERR'
posekit: p.vpd: a VPD pose, not a model (a PMX, PMD or body file)
ERR
done
expect_exit 2 "$POSEKIT" retarget p.vpd --from dance.vmd --to @standard -o r.vpd
expect_stderr <<'ERR'
posekit: dance.vmd: a VMD motion, not a model (a PMX, PMD or body file)
ERR
expect_no_file r.vpd
# an empty model names the three kinds a model may be
for cmd in "check dance.vmd --model=" "retarget dance.vmd --from= --to @standard -o r.vmd"; do
    expect_exit 2 "$POSEKIT" $cmd
    expect_stderr_contains "$(echo "$cmd" | grep -oE -- '--[a-z]+=' | tr -d =) wants a PMX, PMD or body file"
done
expect_no_file r.vmd
expect_exit 2 "$POSEKIT" diff notes.txt p.vpd
expect_stderr <<'ERR'
posekit: notes.txt:0: not a VMD or VPD file (no signature and no .vmd/.vpd extension)
ERR
# An empty file with a .vmd name.
: >empty.vmd
expect_exit 2 "$POSEKIT" info empty.vmd
expect_stderr_matches '^posekit: empty\.vmd(:[0-9]+)?: '
# A junk or cut file named .pmx or .pmd is reported as the model it claims
# to be, by info and dump as by check --model (not as "not a VMD or VPD
# file"); a motion named .pmx is still read as the motion it is.
printf 'hello\n' >junk.pmx
printf 'hello\n' >junk.PMD
printf 'PMX' >cut.pmx
printf 'Pmd' >cut.pmd
for cmd in info dump; do
    expect_exit 2 "$POSEKIT" $cmd junk.pmx
    expect_stderr <<'ERR'
posekit: junk.pmx:0: header: not a PMX file (no "PMX " signature)
ERR
    expect_exit 2 "$POSEKIT" $cmd junk.PMD
    expect_stderr <<'ERR'
posekit: junk.PMD:0: not a PMD file (no "Pmd" signature)
ERR
    expect_exit 2 "$POSEKIT" $cmd cut.pmx
    expect_stderr <<'ERR'
posekit: cut.pmx:0: header: the file ends inside its signature (3 bytes left)
ERR
    expect_exit 2 "$POSEKIT" $cmd cut.pmd
    expect_stderr <<'ERR'
posekit: cut.pmd:0: header: the file ends inside the 283-byte header (3 bytes)
ERR
done
expect_exit 2 "$POSEKIT" info --json p.vpd junk.pmx
expect_stderr_contains 'junk.pmx:0: header: not a PMX file'
expect_stdout_contains '"path": "p.vpd"'
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' >pose.pmx
expect_exit 0 "$POSEKIT" info pose.pmx
expect_stdout_contains 'format: VPD text layout'
expect_exit 2 "$POSEKIT" check p.vpd --model junk.pmx
expect_stderr_contains 'junk.pmx:0: header: not a PMX file (no "PMX " signature)'
expect_unchanged p.vpd
expect_no_temp_files .
