#!/usr/bin/env bash
# Solve the rule sets of the seed pages whole (issue 31), one after the other; resumable.
#   scripts/solve_seeds.sh OUT SEG [MORRIS]
# OUT: the database folder (the presets' twins without the limit land there too); SEG: a name
# for this segment of the run (a new one at each restart, so that no segment's log is
# overwritten); MORRIS: the morris command (default: morris). Each preset's standard error,
# with /usr/bin/time -v's wall clock and peak at its end, goes to OUT/PRESET.SEG.err; a line
# every 30 s in OUT/seeds.SEG.heartbeat dates a run that is killed (it then writes no time
# lines; the start and end lines carry the epoch too). Then: python3 scripts/seed_table.py --db
# OUT --rules PRESET --log OUT/PRESET.SEG.err ... --heartbeat OUT/seeds.SEG.heartbeat ... (a
# killed segment timed by its heartbeat)
set -uo pipefail
out=${1:?OUT} seg=${2:?SEG} morris=${3:-morris}
( while true; do echo "$(date +%s) $(date +%T)" >> "$out/seeds.$seg.heartbeat"; sleep 30; done ) &
beat=$!
trap 'kill $beat 2>/dev/null' EXIT
for r in cetinsgame cetinsgame-no-flying juego-del-molino-variantes; do
  echo "$(date +%s) $(date +%T) start $r" >> "$out/seeds.$seg.heartbeat"
  /usr/bin/time -v $morris solve --out "$out" --rules $r --phase all \
      > "$out/$r.$seg.out" 2> "$out/$r.$seg.err"
  rc=$?
  echo "$(date +%s) $(date +%T) end $r rc=$rc" >> "$out/seeds.$seg.heartbeat"
  [ $rc -eq 0 ] || exit $rc
done
