# stdin_content: info and dump read standard input by its content, as
# they read a file: a PMX or PMD model, a body, a VMD motion or a VPD
# pose.  What they print of '-' is what they print of the same file,
# the path aside; standard input is still read once at most.
need_corpus
cp "$(corpus pmx_gene.pmx)" gene.pmx
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
vpd_text 'mdl' 'a|1.5,2,3|0,0,0,1' >p.vpd
expect_exit 0 "$POSEKIT" dump --body mei.pmd
cp "$OUT" mei.yaml
# What info and dump print of a file, its path replaced by '-'.
as_stdin() { # CMD FILE
    expect_exit 0 "$POSEKIT" $1 "$2"
    sed "s|$2|-|g" "$OUT" >"want.$1.$2"
}
for f in gene.pmx mei.pmd mei.yaml dance.vmd p.vpd; do
    as_stdin info "$f"
    expect_exit_in 0 "$f" "$POSEKIT" info -
    expect_stdout_file "want.info.$f"
    expect_stderr_empty
    as_stdin "info --json" "$f"
    expect_exit_in 0 "$f" "$POSEKIT" info --json -
    expect_stdout_file "want.info --json.$f"
    as_stdin dump "$f"
    expect_exit_in 0 "$f" "$POSEKIT" dump -
    expect_stdout_file "want.dump.$f"
    expect_stderr_empty
done
# among files, and from a pipe
as_stdin info mei.pmd
expect_exit_in 0 gene.pmx "$POSEKIT" info mei.pmd -
expect_stdout_contains "format: PMX 2.0"
expect_stdout_contains "format: PMD 1.0"
expect_exit 0 bash -c "cat mei.pmd | \"\$0\" info -" "$POSEKIT"
expect_stdout_file want.info.mei.pmd
# a cut model on standard input is reported as that model is, named '-'
head -c 200 gene.pmx >cut.pmx
for cmd in info dump; do
    expect_exit 2 "$POSEKIT" $cmd cut.pmx
    expect_stderr_contains 'posekit: cut.pmx:'
    sed 's|cut\.pmx|-|' "$ERR" >want_cut
    expect_exit_in 2 cut.pmx "$POSEKIT" $cmd -
    expect_stderr_file want_cut
done
# none of what they read
printf 'just text\n' >notes.txt
for cmd in info dump; do
    expect_exit_in 2 notes.txt "$POSEKIT" $cmd -
    expect_stderr <<'ERR'
posekit: -:0: not a VMD, VPD, PMX, PMD or body file (no signature or posekit_body key)
ERR
done
# '-' named twice is a usage error before anything is read
expect_exit_in 2 mei.pmd "$POSEKIT" info - gene.pmx -
expect_stderr <<'ERR'
posekit info: standard input ('-') can be read once; 2 files name it
Try 'posekit help info'.
ERR
expect_stdout_empty
