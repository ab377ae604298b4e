# Every number dump prints reads back to exactly the float in the file:
# an independent reader (Python's struct, following doc/formats.md §3) decodes
# each corpus VMD and compares every record with dump's JSON, bit for bit.
need_corpus
need_cmd python3
cat >check.py <<'PY'
import json, struct, sys, math
path, dump = sys.argv[1], sys.argv[2]
b = open(path, 'rb').read()
d = json.load(open(dump, encoding='utf-8'))
def same(js, raw):  # JSON value vs binary32 bytes
    f = struct.unpack('<f', raw)[0]
    if js is None:
        return math.isnan(f) or math.isinf(f)
    return struct.pack('<f', js) == raw
pos = 30 + (20 if b[:25] != b'Vocaloid Motion Data file' else 10)
def count():
    global pos
    if pos + 4 > len(b): return None
    n = struct.unpack_from('<I', b, pos)[0]; pos += 4; return n
n = count()
assert n == len(d['bones']), ('bones', n, len(d['bones']))
for k in d['bones']:
    assert struct.unpack_from('<I', b, pos + 15)[0] == k['frame']
    for i, v in enumerate(k['pos'] + k['rot']):
        assert same(v, b[pos + 19 + 4*i: pos + 23 + 4*i]), (k, i)
    assert list(b[pos + 47: pos + 111]) == k['interp']
    pos += 111
n = count()
if n is not None:
    assert n == len(d['morphs'])
    for k in d['morphs']:
        assert struct.unpack_from('<I', b, pos + 15)[0] == k['frame']
        assert same(k['weight'], b[pos + 19: pos + 23]); pos += 23
else:
    assert d['morphs'] == []
n = count()
if n is not None:
    assert n == len(d['cameras'])
    for k in d['cameras']:
        assert struct.unpack_from('<I', b, pos)[0] == k['frame']
        vals = [k['distance']] + k['pos'] + k['rot']
        for i, v in enumerate(vals):
            assert same(v, b[pos + 4 + 4*i: pos + 8 + 4*i])
        assert list(b[pos + 32: pos + 56]) == k['interp']
        assert struct.unpack_from('<I', b, pos + 56)[0] == k['fov']
        assert b[pos + 60] == k['perspective']; pos += 61
n = count()
if n is not None:
    assert n == len(d['lights'])
    for k in d['lights']:
        for i, v in enumerate(k['color'] + k['direction']):
            assert same(v, b[pos + 4 + 4*i: pos + 8 + 4*i])
        pos += 28
n = count()
if n is not None:
    assert n == len(d['shadows'])
    for k in d['shadows']:
        assert b[pos + 4] == k['mode'] and same(k['distance'], b[pos + 5: pos + 9]); pos += 9
n = count()
if n is not None:
    assert n == len(d['ik'])
    for k in d['ik']:
        assert b[pos + 4] == k['show']
        m = struct.unpack_from('<I', b, pos + 5)[0]; assert m == len(k['ik'])
        pos += 9
        for s in k['ik']:
            assert b[pos + 20] == s['enabled']; pos += 21
print(path, 'ok')
PY
n=0
for f in "$PK_CORPUS"/*.vmd; do
    expect_exit 0 "$POSEKIT" dump "$f"
    python3 check.py "$f" "$OUT" >/dev/null || fail "dump of $f does not match its bytes"
    n=$((n + 1))
done
[ "$n" -ge 17 ] || fail "expected the 17 corpus VMDs, found $n"
