# Numbers never depend on the C library's locale: under de_DE.UTF-8 (decimal
# comma) dump, info --json and convert give the same bytes as under C.UTF-8.
if ! locale -a 2>/dev/null | grep -qiE '^de_DE\.utf-?8$'; then
    skip "no de_DE.UTF-8 locale (.ci/setup.sh generates it)"
fi
vpd_text 'mdl' 'a|1.5,-2.25,0.1|0.1,0.2,0.3,0.927362' >p.vpd
printf 'Morph0{blink\r\n  0.75;\r\n}\r\n\r\n' >>p.vpd
for loc in C.UTF-8 de_DE.UTF-8; do
    LC_ALL=$loc "$POSEKIT" dump p.vpd >"dump.$loc"
    LC_ALL=$loc "$POSEKIT" info --json p.vpd >"info.$loc"
    LC_ALL=$loc "$POSEKIT" convert p.vpd -o "p.$loc.vmd" --frame 7
    LC_ALL=$loc "$POSEKIT" convert "p.$loc.vmd" -o "back.$loc.vpd" --frame 7
    LC_ALL=$loc "$POSEKIT" dump "p.$loc.vmd" >"dumpvmd.$loc"
done
for f in dump info dumpvmd; do expect_same_bytes "$f.C.UTF-8" "$f.de_DE.UTF-8"; done
expect_same_bytes p.C.UTF-8.vmd p.de_DE.UTF-8.vmd
expect_same_bytes back.C.UTF-8.vpd back.de_DE.UTF-8.vpd
grep -q '"pos":\[1.5,-2.25,0.1\]' dump.de_DE.UTF-8 || fail "dump under de_DE lost the decimal point"
grep -aq '^  1.500000,-2.250000,0.100000;' back.de_DE.UTF-8.vpd || fail "VPD under de_DE lost the decimal point"
