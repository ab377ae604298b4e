# Damaged models and motions: every count in a reader's message agrees
# with its noun and verb ("1 byte left", "1 vertex needs", "1 record does
# not fit"), as the counts of many already read.
need_corpus
pmx=$(corpus pmx_gene.pmx)
pmd=$(corpus pmd_mei.pmd)

head -c 1 "$pmx" >one.pmx
expect_exit 2 "$POSEKIT" info one.pmx
expect_stderr <<'ERR'
posekit: one.pmx:0: header: the file ends inside its signature (1 byte left)
ERR
printf 'P' >one.pmd
expect_exit 2 "$POSEKIT" info one.pmd
expect_stderr <<'ERR'
posekit: one.pmd:0: header: the file ends inside the 283-byte header (1 byte)
ERR
printf 'V' >one.vmd
expect_exit 2 "$POSEKIT" info one.vmd
expect_stderr <<'ERR'
posekit: one.vmd:0: not a VMD file: 1 byte, shorter than the 30-byte signature
ERR

# the vertex count of pmx_gene.pmx is at offset 327
{ head -c 327 "$pmx"; printf '\001\000\000\000x'; } >v1.pmx
expect_exit 2 "$POSEKIT" info v1.pmx
expect_stderr_contains 'v1.pmx:327: vertices count: 1 vertex needs at least 39 bytes; 1 byte is left'
{ head -c 327 "$pmx"; printf '\002\000\000\000x'; } >v2.pmx
expect_exit 2 "$POSEKIT" info v2.pmx
expect_stderr_contains 'v2.pmx:327: vertices count: 2 vertices need at least 39 bytes each; 1 byte is left'

# a PMD's vertex count follows its 283-byte header
head -c 284 "$pmd" >h1.pmd
expect_exit 2 "$POSEKIT" info h1.pmd
expect_stderr_contains 'h1.pmd:283: vertices: the file ends here (1 byte left)'
{ head -c 283 "$pmd"; printf '\001\000\000\000x'; } >r1.pmd
expect_exit 2 "$POSEKIT" info r1.pmd
expect_stderr_contains 'r1.pmd:283: vertices: 1 record of 38 bytes does not fit in the 1 byte left'

# one byte after the last section: a warning
{ cat "$pmx"; printf 'x'; } >t.pmx
expect_exit 0 "$POSEKIT" info t.pmx
expect_stderr_contains 't.pmx:2814228: warning: 1 byte after the last section ignored'
{ cat "$pmd"; printf 'x'; } >t.pmd
expect_exit 0 "$POSEKIT" info t.pmd
expect_stderr_contains 't.pmd:506306: warning: 1 byte after the last section ignored'
