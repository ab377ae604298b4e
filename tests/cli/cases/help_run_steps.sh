# help_run_steps: 'posekit help run' names every command a job may run as
# a step: each of 'posekit help' but info, dump and run (time, crossfade,
# curve and smooth were missing).
help=$("$POSEKIT" help run | tr '\n' ' ')
for cmd in $("$POSEKIT" help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    case $cmd in info | dump | run) continue ;; esac
    grep -qE "[ (]$cmd[,:;)]" <<<"$help" || fail "posekit help run does not name the step $cmd"
done
