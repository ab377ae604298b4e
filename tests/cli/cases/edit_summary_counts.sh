# The motion editors' summaries: a count of one takes the singular
# (crossfade's "1 key from the first"; bake --ik-to-fk's "over 1 frame"
# is in cli/bake_legs).
DANCE="$PK_SOURCE/samples/dance.vmd"
{
    vmd_header 'test'
    pack V 1
    vmd_bone '\x83\x5a\x83\x93\x83\x5e\x81\x5b' 0 0 1 0 0 0 0 1   # センター at frame 0
    pack V 0 0 0 0 0
} >one.vmd
expect_exit 0 "$POSEKIT" crossfade one.vmd "$DANCE" --at 0 --fade 5 -o out.vmd
expect_stderr_contains 'faded over 41 bones and 3 morphs: 1 key from the first, '
