# An interrupt (SIGTERM, SIGINT, SIGHUP) leaves no temporary file and no
# half-replaced group: posekit is held at a known point, the signal sent,
# then the exit status is 128 + the signal (it died of it) and the folder
# holds what it held before.
#
# The hold: a job's output that is a FIFO is written in place, after the
# other outputs of the group are renamed into place (their old files kept
# under second names), and opening a FIFO for writing waits for a reader.
# So while posekit waits there, a.vmd is already the new file and its old
# one a kept ".a.vmd.old.XXXXXX": the moment an interrupt must undo.
need_cmd mkfifo
cp "$PK_SOURCE/samples/dance.vmd" dance.vmd
printf 'inputs: {dance: dance.vmd}\nsteps:\n  - reduce: {in: dance, out: r}\noutputs: {r: a.vmd, dance: pipe.vmd}\n' >job.yaml
printf 'old bytes' >old.vmd
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
