#!/usr/bin/env bash
# Solve the same small rule sets with two installs of morris and compare every file with cmp.
#   scripts/same_bytes.sh OLD_MORRIS NEW_MORRIS WORKDIR
# (e.g. an old commit installed with: git worktree add /tmp/old REV && python3 -m venv
#  --system-site-packages /tmp/venv-old && /tmp/venv-old/bin/pip install --no-deps /tmp/old)
set -euo pipefail
old=$1 new=$2 work=$3
solve_all() {
    local M=$1 O=$2
    $M solve --out "$O" --variant six --no-flying --phase all --quiet
    $M solve --out "$O" --variant six --flying --phase all --quiet
    $M solve --out "$O" --variant six --no-flying --no-removal-limit 16 --phase all --quiet
    $M solve --out "$O" --variant standard --max-pieces 4 --quiet
    $M solve --out "$O" --variant standard-4 --phase all --quiet
    $M solve --out "$O" --variant standard-3 --phase all --double-mill-removes 2 --quiet
}
solve_all "$old" "$work/old" >/dev/null
solve_all "$new" "$work/new" >/dev/null
n=0; bad=0
while IFS= read -r f; do
    n=$((n + 1))
    cmp -s "$work/old/$f" "$work/new/$f" || { echo "DIFFERS $f"; bad=$((bad + 1)); }
done < <(cd "$work/old" && find . -name '*.mtb' | sort)
echo "$n files compared, $bad differ"
[ "$bad" -eq 0 ] && [ "$n" -eq "$(cd "$work/new" && find . -name '*.mtb' | wc -l)" ]
