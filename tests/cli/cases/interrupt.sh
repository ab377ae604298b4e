# An interrupt (SIGTERM, SIGINT, SIGHUP) leaves no temporary file and no
# half-replaced group: the signal lands at a known point, then the exit
# status is 128 + the signal (it died of it) and the folder holds what it
# held before.
#
# 1. An output's temporary file, written and about to be renamed: the
# preloaded tests/cli/interrupt_shim.c raises the signal at the first
# fsync (Linux only: elsewhere this part is left out).
need_cmd mkfifo
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
printf 'old bytes' >old.vmd
if [ -n "${PK_INTERRUPT_SHIM:-}" ]; then
    for sig in TERM INT HUP; do
        cp old.vmd out.vmd
        rc=0
        # (ASan wants its runtime first among the libraries: not here)
        PK_INTERRUPT_AT_FSYNC=$(kill -l $sig) LD_PRELOAD=$PK_INTERRUPT_SHIM \
            ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 \
            "$POSEKIT" convert dance.vmd -o out.vmd 2>err.txt || rc=$?
        expect_eq "$rc" $((128 + $(kill -l $sig))) "exit status after SIG$sig at the temporary file"
        cmp -s old.vmd out.vmd || fail "out.vmd changed by an interrupted convert (SIG$sig)"
        expect_no_temp_files .
        # a new output: none at all
        rc=0
        PK_INTERRUPT_AT_FSYNC=$(kill -l $sig) LD_PRELOAD=$PK_INTERRUPT_SHIM \
            ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 \
            "$POSEKIT" convert dance.vmd -o new.vmd 2>err.txt || rc=$?
        expect_eq "$rc" $((128 + $(kill -l $sig))) "exit status after SIG$sig (a new output)"
        expect_no_file new.vmd
        expect_no_temp_files .
    done
fi

# 2. A group of outputs half put in place.  The hold: a job's output that
# is a FIFO is written in place, after the other outputs of the group are
# renamed into place (their old files kept under second names), and
# opening a FIFO for writing waits for a reader.
# So while posekit waits there, a.vmd is already the new file and its old
# one a kept ".a.vmd.old.XXXXXX": the moment an interrupt must undo.
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - reduce: {in: dance, out: r}\noutputs: {r: a.vmd, dance: pipe.vmd}\n' >job.yaml
held() { # SIGNAL: run the job, wait until it is held at the FIFO, send SIGNAL
    cp old.vmd a.vmd
    rm -f pipe.vmd
    mkfifo pipe.vmd
    # (a shell starts a background command with SIGINT ignored: not here)
    env --default-signal=INT "$POSEKIT" run job.yaml >out.txt 2>err.txt &
    local pid=$! tries=0
    # a.vmd replaced: the group is being committed, the FIFO next
    while cmp -s old.vmd a.vmd; do
        tries=$((tries + 1))
        [ $tries -lt 600 ] || { kill -KILL $pid; fail "posekit never reached the FIFO"; }
        kill -0 $pid 2>/dev/null || { cat err.txt >&2; fail "posekit ended before the FIFO"; }
        sleep 0.05
    done
    kill -s "$1" $pid
    local rc=0
    wait $pid || rc=$?
    echo $rc
}
for sig in TERM INT HUP; do
    rc=$(held $sig)
    expect_eq "$rc" $((128 + $(kill -l $sig))) "exit status after SIG$sig"
    cmp -s old.vmd a.vmd || fail "a.vmd after SIG$sig: the new file stayed (the group half replaced)"
    expect_no_temp_files .
done
