# rename --verbose lists the names no rule matched; --reverse inverts globs;
# a VPD is renamed the same way.
vpd_text 'mdl' '\x89\x45\x98\x72|0,0,0|0,0,0,1' '\x8d\xb6\x98\x72|0,0,0|0,0,0,1' 'x|1,2,3|0,0,0,1' > p.vpd
#                右腕                          左腕
printf 'rename:\n  "右*": "*_R"\n' > g.yaml
expect_exit 0 "$POSEKIT" rename p.vpd --rules g.yaml -o q.vpd --verbose
expect_stderr <<'ERR'
posekit rename: 1 of 3 bones renamed, 0 of 0 morphs renamed
posekit rename: no rule for '左腕'
posekit rename: no rule for 'x'
ERR
expect_exit 0 "$POSEKIT" dump q.vpd
expect_stdout_contains '{"name":"腕_R","pos":[0.0,0.0,0.0]'
expect_stdout_contains '{"name":"左腕"'
expect_exit 0 "$POSEKIT" rename q.vpd --rules g.yaml --reverse -o r.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o p2.vpd
expect_same_bytes r.vpd p2.vpd
# --reverse on a motion already in the rules' left-hand names (a Japanese
# dance renamed back with ja-en.yaml), or a dance renamed a second time:
# nothing renamed and every name one the rules rename to is one line that
# says so and what to do (it was a line per kind about each name's round
# trip, then "no rename rule matched")
expect_exit 0 "$POSEKIT" rename "$PK_SOURCE/samples/dance.vmd" --rules "$PK_SOURCE/rules/ja-en.yaml" --reverse -o back.vmd
expect_stderr_contains "warning: 41 bones and 3 morphs of the input have the names --reverse renames to: it has them already (without --reverse the rules rename them)"
expect_stderr_contains "warning: no rename rule matched a bone or morph of the input: the output is the input unchanged"
expect_eq "$(grep -c 'rename target' "$ERR")" 0 "lines about names that are rename targets"
expect_exit 0 "$POSEKIT" rename "$PK_SOURCE/samples/dance.vmd" --rules "$PK_SOURCE/rules/ja-en.yaml" -o en.vmd
expect_exit 0 "$POSEKIT" rename en.vmd --rules "$PK_SOURCE/rules/ja-en.yaml" -o en2.vmd
expect_stderr_contains "warning: 41 bones and 3 morphs of the input have the names the rules rename to: it looks renamed already (--reverse names them back)"
expect_eq "$(grep -c 'rename target' "$ERR")" 0 "lines about names that are rename targets"
# one such name alone keeps its own sentence
expect_exit 0 "$POSEKIT" rename q.vpd --rules g.yaml -o q2.vpd
expect_stderr_contains "warning: bone '腕_R' is kept but is itself a rename target; renaming back would turn it into '右腕'"
