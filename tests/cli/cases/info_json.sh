# info --json: one object per file, an array for several; the same facts as
# the text report.
need_cmd python3
vpd_text 'mdl' 'a|1,2,3|0,0,0,1' 'b|0,0,0|0,0,0,1' >p.vpd
{
    vmd_header '\x83\x65\x83\x58\x83\x67'    # テスト
    pack V 2
    vmd_bone 'arm' 10 0 0 0 0 0 0 1
    vmd_bone 'arm' 12 0 0 0 0 0 0 1
    pack V 0 0 0 0 0
} >g.vmd

expect_exit 0 "$POSEKIT" info --json g.vmd
expect_eq "$(json_eval "$OUT" 'd["format"], d["version"], d["model"], d["complete"]')" "('vmd', 2, 'テスト', True)" "vmd facts"
expect_eq "$(json_eval "$OUT" 'd["counts"]')" "{'bones': 2, 'morphs': 0, 'cameras': 0, 'lights': 0, 'shadows': 0, 'ik': 0}" "counts"
expect_eq "$(json_eval "$OUT" 'd["frames"], d["bones"], d["trailing_bytes"], d["warnings"]')" "([10, 12], [{'name': 'arm', 'keys': 2}], 0, [])" "frames and bones"
expect_eq "$(json_eval "$OUT" 'd["sections"]')" "['bones', 'morphs', 'cameras', 'lights', 'shadows', 'ik']" "sections"

expect_exit 0 "$POSEKIT" info p.vpd --json
expect_eq "$(json_eval "$OUT" 'd["format"], d["layout"], d["eol"], d["model"], d["counts"]')" "('vpd', 'text', 'CRLF', 'mdl', {'bones': 2, 'morphs': 0})" "vpd facts"

expect_exit 0 "$POSEKIT" info --json g.vmd p.vpd
expect_eq "$(json_eval "$OUT" '[x["path"] for x in d]')" "['g.vmd', 'p.vpd']" "array of two"
