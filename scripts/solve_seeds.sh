#!/usr/bin/env bash
# Solve the rule sets of the seed pages whole (issue 31), one after the other; resumable.
#   scripts/solve_seeds.sh OUT SEG [MORRIS [PRESET...]]
# OUT: the database folder (the presets' twins without the limit land there too); SEG: a name
# for this segment of the run (a new one at each restart, so that no segment's log is
# overwritten); MORRIS: the morris command (default: morris); PRESET: the rule sets to solve
# (default: the three seed presets, cetinsgame cetinsgame-no-flying juego-del-molino-variantes,
# each resumed where its files are); SOLVE_FLAGS (environment): more options of morris solve
# for each (e.g. SOLVE_FLAGS=--keep-memory). Each preset runs through
# scripts/timed_solve.sh: its standard error, with /usr/bin/time -v's wall clock and peak at
# its end, in OUT/PRESET.SEG.err, and a heartbeat in OUT/PRESET.SEG.heartbeat that dates a run
# that is killed. Then: python3 scripts/seed_table.py --db OUT --rules PRESET --log
# OUT/PRESET.SEG.err ... --heartbeat OUT/PRESET.SEG.heartbeat ... (a killed segment timed by
# its heartbeat)
set -uo pipefail
out=${1:?OUT} seg=${2:?SEG} morris=${3:-morris}
shift 2; [ $# -gt 0 ] && shift
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(cetinsgame cetinsgame-no-flying juego-del-molino-variantes)
here=$(dirname "$0")
for r in "${presets[@]}"; do
  # shellcheck disable=SC2086  # (SOLVE_FLAGS: words)
  bash "$here/timed_solve.sh" "$out/$r" "$seg" "$morris" --out "$out" --rules $r --phase all \
      ${SOLVE_FLAGS:-} \
      || exit $?
done
