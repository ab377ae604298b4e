# Interop: three.js's mmd-parser (npm, tests/interop) reads the VMD and VPD
# files posekit writes, and finds the same values as `posekit dump`.
# Skipped only when node is missing; a package that cannot be installed
# (no network, a wrong checksum, a version the registry lacks) fails.
#
# Under tests/run.sh, node may still be installing in the background
# (.ci/setup.sh interop): PK_SETUP_INTEROP_READY names the file that says
# "ok" or "failed" once it is done.  This test runs last in its build
# (tests/meson.build, its priority) and waits for it, 25 minutes at most
# (its timeout is 30).
if [ -n "${PK_SETUP_INTEROP_READY:-}" ]; then
    waited=0
    while [ ! -s "$PK_SETUP_INTEROP_READY" ] && [ $waited -lt 1500 ]; do
        sleep 2
        waited=$((waited + 2))
    done
    [ "$(cat "$PK_SETUP_INTEROP_READY" 2>/dev/null)" = ok ] ||
        fail "node not installed: .ci/setup.sh interop $( [ -s "$PK_SETUP_INTEROP_READY" ] && echo failed || echo 'did not end in 25 minutes') (build-setup-logs/interop.log)"
fi
need_cmd node
interop="$PK_SOURCE/tests/interop"
# The package as locked (.ci/setup.sh normally did this already; then it
# only reads the lock file and the installed package.json).
python3 "$interop/install.py" >install.log 2>&1 ||
    { cat install.log >&2; fail "tests/interop/$(tail -n 1 install.log)"; }

pairs=()
add() { # FILE: dump it and queue it for check.js
    expect_exit 0 "$POSEKIT" dump "$1"
    cp "$OUT" "$1.json"
    pairs+=("$1" "$1.json")
}

# Files made here: a pose (with a CP932 name) as VPD text and as VMD.
vpd_text '\x83\x65\x83\x58\x83\x67' 'a|1.5,2,3|0,0,0,1' \
    '\x83\x5a\x83\x93\x83\x5e\x81\x5b|0.1,-0.25,7|0.1,0.2,0.3,0.927362' >p.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o gen.vpd --no-morphs
add gen.vpd
expect_exit 0 "$POSEKIT" convert p.vpd -o gen.vmd --frame 12
add gen.vmd

# Samples shipped with posekit, when there are any.
for f in "$PK_SOURCE"/samples/*.vpd "$PK_SOURCE"/samples/*.vmd; do
    [ -f "$f" ] || continue
    b=sample_$(basename "$f")
    expect_exit 0 "$POSEKIT" convert "$f" -o "$b.vpd" --no-morphs
    add "$b.vpd"
    expect_exit 0 "$POSEKIT" convert "$f" -o "$b.vmd"
    add "$b.vmd"
done

# The corpus: every VMD rewritten (mmd-parser accepts only the "0002"
# signature, so the one file without it is read as a VPD at frame 0 only),
# and every VPD rewritten without morphs (mmd-parser rejects Morph blocks).
if [ -n "${PK_CORPUS:-}" ] && [ -d "$PK_CORPUS" ]; then
    for f in "$PK_CORPUS"/*.vmd; do
        b=c_$(basename "$f" .vmd)
        if [ "$(head -c 25 "$f" | tr -d '\000')" = 'Vocaloid Motion Data 0002' ]; then
            expect_exit 0 "$POSEKIT" convert "$f" -o "$b.vmd"
            add "$b.vmd"
        fi
        expect_exit 0 "$POSEKIT" convert "$f" -o "$b.vpd" --no-morphs --frame 0
        add "$b.vpd"
    done
    for f in "$PK_CORPUS"/*.vpd; do
        b=c_$(basename "$f" .vpd)
        set +e
        "$POSEKIT" convert "$f" -o "$b.vpd" --no-morphs 2>"$ERR"
        rc=$?
        set -e
        # The damaged file has 20-byte names that no VPD writer may emit.
        if [ "$rc" = 0 ]; then
            add "$b.vpd"
        elif ! grep -q 'at most 19 bytes' "$ERR"; then
            cat "$ERR" >&2
            fail "convert $f failed"
        fi
        # As a VMD too, where the names fit the 15-byte field.
        if "$POSEKIT" convert "$f" -o "$b.vmd" 2>/dev/null; then add "$b.vmd"; fi
    done
fi

node "$interop/check.js" "${pairs[@]}"
