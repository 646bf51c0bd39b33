#!/usr/bin/env bash
# Run one `morris solve` under /usr/bin/time -v with a heartbeat, so that a run that spans
# sessions (killed at a session's end, resumed by the same command) can be timed segment by
# segment (issue 31: the complete solution from nothing; scripts/solve_seeds.sh runs each seed
# rule set through it).
#   scripts/timed_solve.sh LOG SEG MORRIS SOLVE_ARGS...
# Writes LOG.SEG.err (the solve's standard error, /usr/bin/time's figures at its end; none when
# killed), LOG.SEG.out, and LOG.SEG.heartbeat: a line "EPOCH HH:MM:SS" every 30 s, and around
# them "EPOCH HH:MM:SS start NAME SOLVE_ARGS..." and "EPOCH HH:MM:SS end NAME rc=N", NAME being
# LOG's last component. A killed segment ran from its start line to its last heartbeat (30 s
# at most lost); scripts/seed_table.py --heartbeat reads the files so.
set -uo pipefail
log=${1:?LOG} seg=${2:?SEG} morris=${3:?MORRIS}
shift 3
name=$(basename "$log")
beat="$log.$seg.heartbeat"
echo "$(date +%s) $(date +%T) start $name $*" >> "$beat"
( while true; do sleep 30; echo "$(date +%s) $(date +%T)" >> "$beat"; done ) &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
/usr/bin/time -v $morris solve "$@" > "$log.$seg.out" 2> "$log.$seg.err"
rc=$?
kill $pid 2>/dev/null
wait $pid 2>/dev/null
echo "$(date +%s) $(date +%T) end $name rc=$rc" >> "$beat"
exit $rc
