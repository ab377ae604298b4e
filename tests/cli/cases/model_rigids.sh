# Rigid bodies of every corpus model: `dump` gives the same records as an
# independent reading of the same bytes (the Python below walks every PMX
# section and the PMD extensions itself, and adds a PMD body's bone
# position as MMD places it), `info` and `info --json` give the same counts
# by physics mode and the same bones driven by physics.
need_corpus
need_cmd python3
cat >read_rigids.py <<'PY'
import json, struct, sys

def pmx(d):
    p = 9
    g = d[p:p + d[8]]; p += d[8]
    enc, xuv, isz = g[0], g[1], list(g[2:8])
    def u(f):  # never inside "p += ...": that would add to the old p
        nonlocal p
        v = struct.unpack_from("<" + f, d, p); p += struct.calcsize("<" + f); return v
    def text():
        nonlocal p
        n, = u("i"); s = d[p:p + n]; p += n
        return s.decode("utf-16-le" if enc == 0 else "utf-8", "replace")
    def idx(k):
        return u({1: "b", 2: "h", 4: "i"}[isz[k]])[0]
    for _ in range(4): text()
    for _ in range(u("i")[0]):
        p += 32 + 16 * xuv; t, = u("B"); b = isz[3]
        p += {0: b, 1: 2 * b + 4, 2: 4 * b + 16, 3: 2 * b + 40, 4: 4 * b + 16}[t] + 4
    n, = u("i"); p += n * isz[0]
    for _ in range(u("i")[0]): text()
    for _ in range(u("i")[0]):
        text(); text(); p += 65 + 2 * isz[1] + 1
        shared, = u("B"); p += 1 if shared else isz[1]
        text(); p += 4
    for _ in range(u("i")[0]):
        text(); text(); p += 12; idx(3); p += 4; fl, = u("H")
        if fl & 1: idx(3)
        else: p += 12
        if fl & 0x300: idx(3); p += 4
        if fl & 0x400: p += 12
        if fl & 0x800: p += 24
        if fl & 0x2000: p += 4
        if fl & 0x20:
            idx(3); p += 8
            for _ in range(u("i")[0]):
                idx(3)
                if u("B")[0]: p += 24
    for _ in range(u("i")[0]):
        text(); text(); p += 1; k, = u("B"); c, = u("i")
        p += c * {0: isz[4] + 4, 9: isz[4] + 4, 1: isz[0] + 12, 2: isz[3] + 28,
                  8: isz[2] + 113, 10: isz[5] + 25}.get(k, isz[0] + 16)
    for _ in range(u("i")[0]):
        text(); text(); p += 1
        for _ in range(u("i")[0]):
            k, = u("B"); idx(4 if k else 3)
    out = []
    for _ in range(u("i")[0]):
        r = {"name": text(), "name_en": text(), "bone": idx(3)}
        r["group"], r["mask"], r["shape"] = u("BHB")
        r["size"], r["position"], r["rotation"] = u("3f"), u("3f"), u("3f")
        (r["mass"], r["linear_damping"], r["angular_damping"], r["restitution"],
         r["friction"]) = u("5f")
        r["mode"], = u("B")
        out.append(r)
    return out

def pmd(d):
    p = 283
    def u(f):
        nonlocal p
        v = struct.unpack_from("<" + f, d, p); p += struct.calcsize("<" + f); return v
    for size in (38, 2, 70):
        n, = u("I"); p += n * size
    nb, = u("H")
    bones = [struct.unpack_from("<3f", d, p + 39 * i + 27) for i in range(nb)]
    p += 39 * nb
    for _ in range(u("H")[0]):
        p += 4; n, = u("B"); p += 6 + 2 * n
    nm, = u("H")
    for _ in range(nm):
        p += 20; n, = u("I"); p += 1 + 16 * n
    n, = u("B"); p += 2 * n
    nf, = u("B"); p += 50 * nf
    n, = u("I"); p += 3 * n
    if p == len(d): return []
    if u("B")[0]: p += 276 + 20 * nb + 20 * (nm - 1) + 50 * nf
    p += 1000
    if p >= len(d): return []
    out = []
    for _ in range(u("I")[0]):
        name = d[p:p + 20].split(b"\0")[0].decode("cp932"); p += 20
        r = {"name": name, "name_en": ""}
        r["bone"], r["group"], r["mask"], r["shape"] = u("hBHB")
        r["size"], pos, r["rotation"] = u("3f"), u("3f"), u("3f")
        base = bones[r["bone"] if r["bone"] >= 0 else 0]
        # float32 sum, as the reader adds two float32 values
        r["position"] = [struct.unpack("<f", struct.pack("<f", a + b))[0] for a, b in zip(pos, base)]
        (r["mass"], r["linear_damping"], r["angular_damping"], r["restitution"],
         r["friction"]) = u("5f")
        r["mode"], = u("B")
        out.append(r)
    return out

path, dump = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8"))
d = open(path, "rb").read()
want = pmx(d) if d[:3] == b"PMX" else pmd(d)
got = dump["rigid_bodies"]
assert len(got) == len(want), (path, len(got), len(want))
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
for i, (g, w) in enumerate(zip(got, want)):
    for k, v in w.items():
        if isinstance(v, (list, tuple)):
            assert [f32(x) for x in g[k]] == list(v), (path, i, k, g[k], v)
        elif isinstance(v, float):
            assert f32(g[k]) == v, (path, i, k, g[k], v)
        else:
            assert g[k] == v, (path, i, k, g[k], v)
modes = [sum(1 for r in want if r["mode"] == m) for m in range(3)]
driven = sorted({r["bone"] for r in want if r["mode"] in (1, 2) and r["bone"] >= 0})
print(len(want), *modes, len(driven), " ".join(dump["bones"][b]["name"] for b in driven))
PY
total=0
for f in "$PK_CORPUS"/*.pmx "$PK_CORPUS"/*.pmd; do
    expect_exit 0 "$POSEKIT" dump "$f"
    mv "$OUT" dump.json
    python3 read_rigids.py "$f" dump.json >facts.txt || fail "$(basename "$f"): dump's rigid bodies differ from the bytes"
    read -r n follow phys physbone ndriven names <facts.txt || true
    total=$((total + n))
    expect_exit 0 "$POSEKIT" info "$f"
    if [ "$n" = 0 ]; then
        expect_stdout_contains '  rigid bodies: 0'
    else
        expect_stdout_contains "  rigid bodies: $n ($follow follow their bone, $phys physics, $physbone physics with bone position)"
    fi
    if [ "$ndriven" != 0 ]; then
        expect_stdout_contains "    bones driven by physics ($ndriven): $names"
    else
        expect_stdout_lacks 'bones driven by physics'
    fi
    expect_exit 0 "$POSEKIT" info --json "$f"
    expect_eq "$(json_eval "$OUT" '[d["physics"][k] for k in ("follow_bone", "physics", "physics_bone", "unknown")] + [len(d["physics"]["driven"])]')" \
        "[$follow, $phys, $physbone, 0, $ndriven]" "$(basename "$f") physics in info --json"
done
# the corpus holds bodies of every mode and shape
[ "$total" -gt 200 ] || fail "only $total rigid bodies over the corpus"
