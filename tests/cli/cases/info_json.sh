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

# a model among motions: the same "path" key (models wrote "file" before)
python3 - <<'PY'
import struct
def t(s):
    b = s.encode("utf-16le")
    return struct.pack("<i", len(b)) + b
bone = t("センター") + t("center") + struct.pack("<3f", 0, 8, 0) + struct.pack("<bi", -1, 0) + \
    struct.pack("<H", 0x1E) + struct.pack("<3f", 0, 1, 0)
open("m.pmx", "wb").write(b"PMX " + struct.pack("<f", 2.0) + bytes([8, 0, 0, 1, 1, 1, 1, 1, 1]) +
                          t("m") + t("m") + t("") + t("") + struct.pack("<5i", 0, 0, 0, 0, 1) +
                          bone + struct.pack("<4i", 0, 0, 0, 0))
PY
expect_exit 0 "$POSEKIT" info --json m.pmx g.vmd
expect_eq "$(json_eval "$OUT" '[(x["path"], x["format"], "file" in x) for x in d]')" "[('m.pmx', 'pmx', False), ('g.vmd', 'vmd', False)]" "one key for every file"
