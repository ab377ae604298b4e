# check over every corpus motion and pose against every corpus model: one
# summary line per pair (exit status, bones keyed/cut/missing, morphs
# keyed/missing, near misses, bones with unusable keys) compared with the
# expected table in tests/data/check_corpus.expected.
need_corpus
need_cmd python3
: >pairs.txt
i=0
for f in "$PK_CORPUS"/*.vmd "$PK_CORPUS"/*.vpd; do
    for m in "$PK_CORPUS"/*.pmx "$PK_CORPUS"/*.pmd; do
        rc=0
        "$POSEKIT" check "$f" --model "$m" --json >out$i.json 2>err$i.txt || rc=$?
        echo "$i $rc $(basename "$f") $(basename "$m")" >>pairs.txt
        i=$((i + 1))
    done
done
python3 - pairs.txt >table.txt <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    i, rc, f, m = line.split()
    if rc == "2":
        print(f"{f} {m} exit 2: {open(f'err{i}.txt', encoding='utf-8').readline().strip()}")
        continue
    d = json.load(open(f"out{i}.json", encoding="utf-8"))
    n = lambda items, st: sum(1 for x in items if x["status"] == st)
    b, mo = d["bones"], d["morphs"]
    near = sum(1 for x in b + mo if x["status"] == "missing" and x["near_miss"])
    unusable = sum(1 for x in b if x["move_unusable"] or x["rotate_unusable"])
    print(f"{f} {m} exit {rc}: bones {len(b)} cut {n(b, 'cut')} missing {n(b, 'missing')}, "
          f"morphs {len(mo)} missing {n(mo, 'missing')}, near {near}, unusable {unusable}")
PY
expect_eq "$(wc -l <table.txt)" "$(wc -l <"$PK_TESTDATA/check_corpus.expected")" "pairs checked"
diff -u "$PK_TESTDATA/check_corpus.expected" table.txt || fail "check over the corpus changed"
