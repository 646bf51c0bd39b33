#!/usr/bin/env bash
# Solve the same small rule sets with two installs of morris and compare every file (values .mtb,
# dtw .mtw, draw values .mdv) with cmp; values files in other bytes by their contents
# (scripts/same_values.py, with the python3 on PATH).
#   scripts/same_bytes.sh OLD_MORRIS NEW_MORRIS WORKDIR [MAX_PIECES]
# MAX_PIECES (default 4): the standard game's movement phase up to that many a side, with dtw and
# draw values (6: about 4 minutes an install on 2 cores), and Lasker Morris and Morabaraba with 4
# a side, both phases (about 70 s more each).
# (e.g. an old commit installed with: git worktree add /tmp/old REV && python3 -m venv
#  --system-site-packages /tmp/venv-old && /tmp/venv-old/bin/pip install --no-deps /tmp/old)
set -euo pipefail
old=$1 new=$2 work=$3 top=${4:-4}
solve_all() {
    local M=$1 O=$2
    # dtw files whole where the install prunes them (since format version 2), so that an
    # install before pruning and one after write the same bytes
    local full=""
    if $M solve --help | grep -q -- --full-dtw; then full="--full-dtw"; fi
    $M solve --out "$O" --variant six --no-flying --phase all --dtw $full --draws --quiet
    $M solve --out "$O" --variant six --flying --phase all --dtw $full --draws --quiet
    $M solve --out "$O" --variant six --no-flying --no-removal-limit 16 --phase all --quiet
    $M solve --out "$O" --variant standard --max-pieces "$top" --dtw $full --draws --quiet
    $M solve --out "$O" --variant standard-4 --phase all --dtw $full --draws --quiet
    $M solve --out "$O" --variant standard-4 --phase all --no-removal-limit 20 --quiet
    $M solve --out "$O" --variant standard-3 --phase all --double-mill-removes 2 --quiet
    # Lasker Morris's hand pairs (kernels/hand.py): the place-or-move turn
    $M solve --out "$O" --variant lasker --pieces 4 --phase all --dtw $full --draws --quiet
    # Morabaraba: the diagonal board, the hand counted, a full board drawn
    $M solve --out "$O" --variant morabaraba --pieces 4 --phase all --dtw $full --draws --quiet
}
# (an OLD folder already there, from the same install, is kept: its files are complete)
solve_all "$old" "$work/old" >/dev/null
solve_all "$new" "$work/new" >/dev/null
n=0; bad=0; other=0
while IFS= read -r f; do
    n=$((n + 1))
    if ! cmp -s "$work/old/$f" "$work/new/$f"; then
        case "$f" in
            # values files: an install from before 7482616 compressed their distances at zstd
            # level 9; such files are compared by their contents below (scripts/same_values.py)
            *.mtb) other=$((other + 1)) ;;
            *) echo "DIFFERS $f"; bad=$((bad + 1)) ;;
        esac
    fi
done < <(cd "$work/old" && find . -name '*.mtb' -o -name '*.mtw' -o -name '*.mdv' | sort)
if [ "$other" -gt 0 ]; then
    python3 "$(dirname "$0")/same_values.py" "$work/old" "$work/new" || bad=$((bad + other))
fi
echo "$n files compared (values, dtw, draw values), $bad differ" \
     "($other values files in other bytes with the same contents)"
[ "$bad" -eq 0 ] && [ "$n" -eq "$(cd "$work/new" && find . -name '*.mtb' -o -name '*.mtw' -o -name '*.mdv' | wc -l)" ]
