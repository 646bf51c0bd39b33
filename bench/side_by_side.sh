#!/usr/bin/env bash
# Time two installs of morris on the same solve, on the same machine, alternated: the speed
# comparison issue 31 asks for (the code before it against this one, the same subspaces).
#   bench/side_by_side.sh WORKDIR ROUNDS A_MORRIS B_MORRIS SOLVE_ARGS...
# e.g. bench/side_by_side.sh /work/sbs 1 /old/env/bin/morris morris \
#          --variant standard-7 --phase all --dtw --draws
# Round r runs A then B when r is odd, B then A when it is even; each run is a fresh
# `morris solve --out WORKDIR/{a,b} SOLVE_ARGS --quiet` under /usr/bin/time -v (the folder of the
# round before removed first, so that nothing is reused and the disk holds one solve a side).
# Prints, and appends to WORKDIR/times.tsv, one line a run: round, side, seconds, peak kB,
# user and system seconds. The last round's two folders are kept, for scripts/same_dtw.py.
set -uo pipefail
work=${1:?WORKDIR} rounds=${2:?ROUNDS} a=${3:?A_MORRIS} b=${4:?B_MORRIS}
shift 4
mkdir -p "$work"
run() {  # round side morris
    local out="$work/$2"
    rm -rf "$out"
    /usr/bin/time -v "$3" solve --out "$out" "${@:4}" --quiet 2> "$work/$2.$1.err" \
        > "$work/$2.$1.out"
    local rc=$?
    local err="$work/$2.$1.err"
    local wall peak user sys
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
                      for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$err")
    peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$err")
    user=$(awk -F': ' '/User time/ {print $2}' "$err")
    sys=$(awk -F': ' '/System time/ {print $2}' "$err")
    printf '%s\t%s\t%s\t%s\t%s\t%s\trc=%s\n' "$1" "$2" "$wall" "$peak" "$user" "$sys" "$rc" \
        | tee -a "$work/times.tsv"
    return $rc
}
for r in $(seq 1 "$rounds"); do
    if (( r % 2 )); then
        run "$r" a "$a" "$@" || exit 1
        run "$r" b "$b" "$@" || exit 1
    else
        run "$r" b "$b" "$@" || exit 1
        run "$r" a "$a" "$@" || exit 1
    fi
done
