"""Measure each game's solving rates by kind of job: what `morris solve --plan` estimates from.

    python3 bench/game_rates.py --out /tmp/rates GAME[:PIECES] ... [--write-doc]
    e.g. python3 bench/game_rates.py --out /tmp/rates standard:6 six morabaraba:6 lasker:6

Solves each game from nothing (``--phase all --dtw --draws``, --out/GAME-PIECES must not hold it
yet) in this process and prints, per kind of job (schedule.job_kind: movement, movement dtw,
movement draws, placement, hand, hand dtw, hand draws), its positions, seconds, positions per
second per core and the bytes per position of the files its jobs wrote (the dtw files after the
solve's pruning, as a user keeps them). The last lines are the game's entry for
``schedule.RATES``. With --write-doc the table goes to docs/benchmarks.md (section game-rates).
A game solved whole here (``six``) is its own entry. A game whose whole solution is out of reach
of a benchmark (``morabaraba:6``, ``lasker:6``) is scaled to its whole game (:func:`scaled`):
its rates by the standard game's ratio, kind by kind, between its whole solution (:data:`WHOLE`,
measured) and its solve with as many pieces (``standard:6`` in the same command), since a job's
rate falls as its subspaces grow (standard 6-5/5-6's values 7.0 M positions/s/core, 9-8/8-9's
3.0); its bytes a position the standard game's. A hand pair's kinds scale as a movement pair's.
Compiling is in the first jobs' seconds: give the first game twice (``six six ...``) for a steady
figure; a game given twice has both runs in the table and its second in the RATES entries.
"""

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


#: The standard game's complete solution from nothing, by kind of job (docs/benchmarks.md, "The
#: whole standard game": the complete run 70f9d05, `scripts/run_phases.py`; placement values
#: from the values run 07862a0): positions/s/core, and bytes/position of its files (1.69 bits a
#: position of values, 0.814 of dtw, 0.670 of draw values; a placement job of --dtw --draws
#: writes all three).
WHOLE = {"movement": (3.25e6, 1.69 / 8), "movement dtw": (2.31e6, 0.814 / 8),
         "movement draws": (5.09e6, 0.670 / 8), "placement": (4.76e6, 1.69 / 8),
         "placement all": (2.45e6, (1.69 + 0.814 + 0.670) / 8)}


def scaled(entry: dict, standard: dict) -> dict:
    """``entry`` ({kind: (rate, bytes)} with N pieces) scaled to the whole game: its rates by
    :data:`WHOLE` over ``standard`` (the standard game's entry with N pieces); its bytes a
    position are :data:`WHOLE`'s (the files of a small game are no sample of a whole game's:
    standard-6's dtw files hold 0.023 bytes a position, the whole game's 0.102, as the share of
    losses, all a pruned dtw file keeps, grows)."""
    out = {}
    for kind, (rate, _) in entry.items():
        like = kind.replace("hand", "movement")
        (w_rate, w_size), (s_rate, _) = WHOLE[like], standard[like]
        out[kind] = (float(f"{rate * w_rate / s_rate:.3g}"), w_size)
    return out


def measure(out: str, name: str, pieces: int | None) -> dict:
    """{kind: [positions, seconds, bytes]} of a complete solve of the game into ``out``."""
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.solving.schedule import job_kind, solve

    v = get_variant(name, pieces=pieces) if pieces else get_variant(name)
    s = solve(out, v, phase="all", dtw=True, draws=True, reporter=Reporter(quiet=True))
    if s.skipped:
        sys.exit(f"{out} holds {len(s.skipped)} solved jobs already: give a new directory")
    agg = collections.defaultdict(lambda: [0, 0.0, 0])
    for r in s.solved:
        j = r["job"]
        a = agg[job_kind(j)]
        a[0] += r["positions"]
        a[1] += r["seconds"]
        a[2] += sum(os.path.getsize(p) for p, _ in j.files(out, v) if os.path.exists(p))
    return dict(agg)


def main(argv=None):
    import numba

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+", help="GAME or GAME:PIECES")
    ap.add_argument("--out", required=True)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args(argv)
    cores = numba.get_num_threads()
    lines = ["| game | kind of job | positions | seconds | M positions/s/core | bytes/position |",
             "|---|---|---:|---:|---:|---:|"]
    entries = {}
    for i, g in enumerate(args.games):
        name, _, p = g.partition(":")
        t0 = time.perf_counter()
        agg = measure(os.path.join(args.out, f"{i}-{name}-{p or 'all'}"), name, int(p) if p else None)
        wall = time.perf_counter() - t0
        entry = {}
        for kind, (pos, sec, size) in sorted(agg.items()):
            rate = pos / sec / cores
            lines.append(f"| {g} | {kind} | {pos:,} | {sec:.1f} | {rate / 1e6:.2f} | {size / pos:.3f} |")
            entry[kind] = (float(f"{rate:.3g}"), float(f"{size / pos:.3g}"))
        print(f"{g}: {wall:.1f} s in all on {cores} cores", flush=True)
        entries[name] = (p, entry)  # (a game given twice: its second, compiled)
    print("\n".join(lines))
    table = {}
    for name, (p, entry) in entries.items():
        if name == "standard" and p:
            table[name] = dict(WHOLE)
        elif p and "standard" in entries:
            table[name] = scaled(entry, entries["standard"][1])
        else:
            table[name] = entry
    print("RATES entries (whole games):\n" + "\n".join(f"    {k!r}: {v!r}," for k, v in table.items()))
    rows = ["", "| game | kind of job | whole game: M positions/s/core | bytes/position |", "|---|---|---:|---:|"]
    rows += [f"| {k} | {kind} | {r / 1e6:.2f} | {b:.3f} |" for k, v in table.items()
             for kind, (r, b) in sorted(v.items())]
    print("\n".join(rows))
    if args.write_doc:
        from _report import machine, write_section
        write_section("game-rates", f"`python3 bench/game_rates.py --out DIR {' '.join(args.games)}` "
                      f"({machine()}):\n\n" + "\n".join(lines).rstrip() + "\n\nScaled to the whole games "
                      f"(what schedule.RATES holds):\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
