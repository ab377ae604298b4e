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
