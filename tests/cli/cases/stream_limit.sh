# A stream (standard input, a pipe, a device) is read whole, since only
# its content tells what it holds; one that goes on past
# POSEKIT_STREAM_LIMIT MB (4000 unset: more than any motion, pose or
# model) stops there with an error naming it and the offset, exit 2,
# instead of reading until memory runs out (/dev/zero never ends).
export POSEKIT_STREAM_LIMIT=1
for cmd in "info /dev/zero" "dump /dev/zero" "mirror /dev/zero -o out.vmd"; do
    # timeout: a reader without the limit fails here instead of filling memory
    expect_exit 2 timeout 60 "$POSEKIT" $cmd
    expect_stderr <<'ERR'
posekit: /dev/zero:1000000: a stream of more than 1 MB, more than any motion, pose or model: not read (POSEKIT_STREAM_LIMIT=MB reads more)
ERR
    expect_stdout_empty
done
expect_no_file out.vmd
# a model option reads streams the same way
vmd_header mdl >m.vmd
pack V 0 0 0 0 0 >>m.vmd
expect_exit 2 timeout 60 "$POSEKIT" check m.vmd --model /dev/zero
expect_stderr_contains 'posekit: /dev/zero:1000000: a stream of more than 1 MB'
# one byte past the limit through a pipe, which ends: refused alike
head -c 1000001 /dev/zero >big
expect_exit_in 2 big "$POSEKIT" info -
expect_stderr_contains 'posekit: -:1000000: a stream of more than 1 MB'
# the limit itself is read (and then found to be no motion)
head -c 1000000 /dev/zero >limit
expect_exit_in 2 limit "$POSEKIT" info -
expect_stderr <<'ERR'
posekit: -:0: not a VMD, VPD, PMX, PMD or body file (no signature or posekit_body key)
ERR
# a motion through a pipe under the limit reads as ever
expect_exit_in 0 m.vmd "$POSEKIT" info -
expect_stdout_contains 'format: VMD version 2'
# a value that is not a whole number of MB leaves the limit at 4000 MB
POSEKIT_STREAM_LIMIT=1M expect_exit_in 2 big "$POSEKIT" info -
expect_stderr_contains 'posekit: -:0: not a VMD, VPD, PMX, PMD or body file'
