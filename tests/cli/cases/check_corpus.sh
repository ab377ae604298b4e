# check over every corpus motion and pose against every corpus model, as
# many pairs as the corpus holds (motions x models, counted here):
#  1. every pair against `info --json` of its two files: the bones and
#     morphs listed, with their key counts, are the motion's; a found name
#     is a model name; a cut name is not, and each model name given for it
#     is longer than the field (15 bytes in VMD, 19 in VPD) and starts with
#     it; a missing name is not a model name, nor the cut of one; a near
#     miss is a model name; unusable counts are within the keys; the
#     missing and cut totals count those statuses; each name's keys off
#     rest are those `dump` gives (a bone key moving or turning beyond
#     1e-5, a morph weight beyond 1e-5, counted here); exit 1 exactly when
#     a missing name has keys off rest, 0 otherwise;
#  2. every pair of tests/data/check_corpus.expected: its summary line
#     (exit status, bones keyed/cut/missing and missing with keys off
#     rest, morphs keyed/missing and moving, near misses, bones with
#     unusable keys, keyed bones physics drives) exactly as there.
# A pair the table lacks (a file added to the corpus) is checked by 1 and
# listed; a table row whose files the corpus no longer holds is listed.
need_corpus
need_cmd python3
# The runs are listed first (runs.txt: stdout file, stderr file, then the
# arguments, tab-separated), then run: in a sanitizer build through
# bad_variants batch (tests/cli/bad_variants.c: the CLI's own code in
# forked children, each run as `posekit ARGS` would, where a sanitized
# start of the binary costs more than the run), in a plain build by the
# posekit binary itself.  Every run is checked the same way in both.
: >runs.txt
want0=()  # the runs that must exit 0 (info and dump)
runs=0
add_run() { # WANT STDOUT STDERR ARGS...: WANT 0, or - for any status
    if [ "$1" = 0 ]; then want0+=("$runs"); fi
    shift
    local IFS=$'\t'
    printf '%s\n' "$*" >>runs.txt
    runs=$((runs + 1))
}
: >pairs.txt
nmotions=0 nmodels=0 i=0
for m in "$PK_CORPUS"/*.pmx "$PK_CORPUS"/*.pmd; do
    [ -f "$m" ] || continue
    nmodels=$((nmodels + 1))
    add_run 0 "model.${m##*/}.json" "model.${m##*/}.err" "$POSEKIT" info --json "$m"
done
pair_run=()  # the run of each pair
for f in "$PK_CORPUS"/*.vmd "$PK_CORPUS"/*.vpd; do
    [ -f "$f" ] || continue
    nmotions=$((nmotions + 1))
    add_run 0 "motion.${f##*/}.json" "motion.${f##*/}.err" "$POSEKIT" info --json "$f"
    add_run 0 "dump.${f##*/}.json" "dump.${f##*/}.err" "$POSEKIT" dump "$f"
    for m in "$PK_CORPUS"/*.pmx "$PK_CORPUS"/*.pmd; do
        [ -f "$m" ] || continue
        pair_run+=("$runs ${f##*/} ${m##*/}")
        add_run - "out$i.json" "err$i.txt" "$POSEKIT" check "$f" --model "$m" --json
        i=$((i + 1))
    done
done
[ "$nmotions" -gt 0 ] && [ "$nmodels" -gt 0 ] || fail "no motions or no models in $PK_CORPUS"
if [ -n "${PK_SANITIZED:-}" ]; then
    [ -x "${PK_BAD_VARIANTS:-}" ] || fail "PK_BAD_VARIANTS must name tests/cli/bad_variants"
    "$PK_BAD_VARIANTS" batch runs.txt >status.txt || fail "bad_variants batch runs.txt failed"
else
    : >status.txt
    while IFS=$'\t' read -r -a run; do
        rc=0
        "${run[@]:2}" >"${run[0]}" 2>"${run[1]}" || rc=$?
        echo "$rc" >>status.txt
    done <runs.txt
fi
mapfile -t status <status.txt
expect_eq "${#status[@]}" "$runs" "runs with an exit status"
for k in "${want0[@]}"; do
    if [ "${status[k]}" != 0 ]; then
        mapfile -t run < <(sed -n "$((k + 1))p" runs.txt | tr '\t' '\n')
        OUT=${run[0]} ERR=${run[1]} LAST_CMD="${run[*]:2}" LAST_RC=${status[k]}
        _show
        fail "expected exit 0, got $LAST_RC: $LAST_CMD"
    fi
done
i=0
for p in "${pair_run[@]}"; do  # "RUN MOTION MODEL"
    echo "$i ${status[${p%% *}]} ${p#* }" >>pairs.txt
    i=$((i + 1))
done
expect_eq "$(wc -l <pairs.txt)" "$((nmotions * nmodels))" "pairs checked"

python3 - pairs.txt "$PK_TESTDATA/check_corpus.expected" >table.txt 2>problems.txt <<'PY'
import json, sys

def load(path):
    return json.load(open(path, encoding="utf-8"))

def cp932(s):
    return s.encode("cp932", errors="replace")

# keys off rest per (kind, name), from dump: a bone key that moves or turns
# beyond 1e-5, a morph key whose weight is beyond 1e-5
off = {}
def off_rest(f):
    if f not in off:
        d = load(f"dump.{f}.json")
        c = {}
        for b in d.get("bones", []):
            v = [abs(x) for x in b["pos"] + b["rot"][:3]]
            k = ("bones", b["name"])
            c[k] = c.get(k, 0) + any(not x <= 1e-5 for x in v)
        for mk in d.get("morphs", []):
            k = ("morphs", mk["name"])
            c[k] = c.get(k, 0) + (not abs(mk["weight"]) <= 1e-5)
        off[f] = c
    return off[f]

problems = []
models, motions = {}, {}
for line in open(sys.argv[1], encoding="utf-8"):
    i, rc, f, m = line.split()
    if rc == "2":
        first = open(f"err{i}.txt", encoding="utf-8").readline().strip()
        print(f"{f} {m} exit 2: {first}")
        problems.append(f"{f} on {m}: exit 2: {first}")
        continue
    d = load(f"out{i}.json")
    n = lambda items, st: sum(1 for x in items if x["status"] == st)
    b, mo = d["bones"], d["morphs"]
    near = sum(1 for x in b + mo if x["status"] == "missing" and x["near_miss"])
    unusable = sum(1 for x in b if x["move_unusable"] or x["rotate_unusable"])
    moving = lambda items: sum(1 for x in items if x["status"] == "missing" and x["moving"])
    physics = sum(1 for x in b if x["physics"])
    print(f"{f} {m} exit {rc}: bones {len(b)} cut {n(b, 'cut')} missing {n(b, 'missing')} "
          f"(moving {moving(b)}), morphs {len(mo)} missing {n(mo, 'missing')} "
          f"(moving {moving(mo)}), near {near}, unusable {unusable}, physics {physics}")

    # 1. the pair against info of its two files
    if m not in models:
        info = load(f"model.{m}.json")
        models[m] = {"bones": {x["name"] for x in info["bones"]},
                     "morphs": {x for names in info["morphs"].values() for x in names}}
    if f not in motions:
        motions[f] = load(f"motion.{f}.json")
    limit = 15 if f.endswith(".vmd") else 19
    say = lambda what: problems.append(f"{f} on {m}: {what}")
    missing = cut = missing_moving = 0
    for kind in ("bones", "morphs"):
        names = models[m][kind]
        keyed = sorted((x["name"], x["keys"]) for x in motions[f].get(kind, []))
        listed = sorted((x["name"], x["keys"]) for x in d[kind])
        if keyed != listed:
            say(f"{kind} listed {listed[:4]}..., info gives {keyed[:4]}...")
        for x in d[kind]:
            name, st = x["name"], x["status"]
            if x["moving"] != off_rest(f).get((kind, name)):
                say(f"{kind} {name}: {x['moving']} keys off rest, dump gives "
                    f"{off_rest(f).get((kind, name))}")
            if kind == "bones" and not (0 <= x["move_unusable"] <= x["keys"] and
                                        0 <= x["rotate_unusable"] <= x["keys"]):
                say(f"bone {name}: unusable counts beyond its {x['keys']} keys")
            if st == "found":
                if name not in names or x["model_name"] != name:
                    say(f"{kind} {name} found, but the model has no such name")
            elif st == "cut":
                cut += 1
                for full in x.get("model_names") or [x["model_name"]]:
                    if (name in names or full not in names or
                            not (len(cp932(full)) > limit >= len(cp932(name)) and
                                 cp932(full).startswith(cp932(name)))):
                        say(f"{kind} {name} given as the cut of {full}")
            elif st == "missing":
                missing += 1
                missing_moving += x["moving"] > 0
                if name in names:
                    say(f"{kind} {name} missing, but the model has it")
                for full in names:
                    if (len(cp932(full)) > limit and len(cp932(name)) >= limit - 1 and
                            cp932(full).startswith(cp932(name))):
                        say(f"{kind} {name} missing, but {full} cuts to it")
                near_miss = x["near_miss"]
                if near_miss and near_miss["name"] not in names:
                    say(f"{kind} {name}: near miss {near_miss['name']} is not a model name")
            else:
                say(f"{kind} {name}: status {st}")
    if d["missing"] != missing or d["cut"] != cut or d["missing_moving"] != missing_moving:
        say(f"totals missing {d['missing']} ({d['missing_moving']} moving) cut {d['cut']}, "
            f"listed {missing} ({missing_moving}) and {cut}")
    if int(rc) != (1 if missing_moving else 0):
        say(f"exit {rc} with {missing_moving} missing names off rest")
for p in problems:
    print(p, file=sys.stderr)
PY
if [ -s problems.txt ]; then
    head -n 40 problems.txt >&2
    fail "check disagrees with info on $(wc -l <problems.txt) points"
fi

# 2. the pairs of the expected table: "MOTION MODEL exit ..." lines
awk 'NR == FNR { have[$1 " " $2] = 1; next } ($1 " " $2) in have' table.txt \
    "$PK_TESTDATA/check_corpus.expected" >expected.txt
awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' expected.txt table.txt >compared.txt
diff -u expected.txt compared.txt || fail "check over the corpus changed"
[ -s compared.txt ] || fail "no pair of the corpus is in check_corpus.expected"
awk 'NR == FNR { want[$1 " " $2] = 1; next } !(($1 " " $2) in want)' expected.txt table.txt >new.txt
awk 'NR == FNR { have[$1 " " $2] = 1; next } !(($1 " " $2) in have)' table.txt \
    "$PK_TESTDATA/check_corpus.expected" >gone.txt
echo "check_corpus: $(wc -l <table.txt) pairs ($nmotions motions x $nmodels models)," \
    "$(wc -l <compared.txt) as in the table, $(wc -l <new.txt) not in it (checked against info)," \
    "$(wc -l <gone.txt) table rows whose files the corpus lacks"
if [ -s new.txt ]; then
    echo "pairs not in tests/data/check_corpus.expected:"
    cat new.txt
fi
if [ -s gone.txt ]; then
    echo "rows of tests/data/check_corpus.expected for files not in the corpus:"
    cat gone.txt
fi
