# stdin_once: standard input is read once at most, by an input or a
# model: naming it twice is a usage error before anything is read (not
# the second reader's "not a VMD" or "not a model" on an empty stream),
# in info, a step (inputs and models alike, draw too) and across a
# group's dancers.  One reader of '-' still works.
need_corpus
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
cp "$(corpus pmd_mei.pmd)" mei.pmd
cp "$(corpus pmd_sd_mei.pmd)" sd.pmd
once="standard input ('-') can be read once"
expect_exit_in 2 dance.vmd "$POSEKIT" info - -
expect_stderr <<EOF
posekit info: $once; 2 files name it
Try 'posekit help info'.
EOF
expect_exit_in 2 dance.vmd "$POSEKIT" check - --model -
expect_stderr <<EOF
posekit check: $once; the input and --model name it
Try 'posekit help check'.
EOF
expect_exit_in 2 mei.pmd "$POSEKIT" retarget dance.vmd --from - --to - -o x.vmd
expect_stderr_contains "posekit retarget: $once; --from and --to name it"
expect_exit_in 2 mei.pmd "$POSEKIT" draw dance.vmd --model - --vs - --vs-model - -o x.svg
expect_stderr_contains "posekit draw: $once; the input, --model and --vs-model name it"
expect_exit_in 2 dance.vmd "$POSEKIT" retarget - --from mei.pmd --to sd.pmd -o x.vmd \
    --and dance.vmd --from - --to sd.pmd -o y.vmd
expect_stderr_contains "posekit retarget: $once; dancers 1 and 2 name it"
expect_no_file x.vmd
expect_no_file y.vmd
expect_no_file x.svg
# one reader
expect_exit_in 1 mei.pmd "$POSEKIT" check dance.vmd --model -
expect_stdout_contains "dance.vmd on - (Mei)"
expect_exit_in 0 dance.vmd "$POSEKIT" info -
expect_stdout_contains "format: VMD version 2"
