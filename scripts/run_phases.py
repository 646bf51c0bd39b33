"""Where a long `morris solve` run's time went, read off its logs: the jobs it printed (those of
5 s or more: ``[i/N] NAME: P positions in T s``) summed by kind, and the run's wall clock.

    python3 scripts/run_phases.py LOG.err [LOG.err ...] [--heartbeat H ...] [--pauses P ...]
        [--name NAME] [--cores 2] [--json FILE]

Kinds: the movement pairs' values (``8-7/7-8``), their dtw (``8-7/7-8 dtw``) and draw values
(``8-7/7-8 draws``), and the placement subspaces (``5-4+4+4``, with ``+dtw +draws`` where the
sweep computes those too); a job of an unlimited twin (``(no limit)``) counts as its kind. The
wall clock comes from ``/usr/bin/time -v``'s lines in the logs and, for segments killed at a
session's end, from the heartbeat files of ``scripts/timed_solve.sh`` (``--name``: the run's
name there, the log's last component; the stopped time of ``--pauses`` taken off, as
``scripts/seed_table.py`` does). The rest of the wall clock (jobs under 5 s, loading,
starting) is a row of its own.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import seed_table  # noqa: E402

KINDS = ("movement values", "movement dtw", "movement draw values", "placement")
PAIR = re.compile(r"^\d+-\d+(/\d+-\d+)?$")


def kind_of(name: str) -> str:
    """The kind of a job by its printed name (module docstring)."""
    name = name.replace("(no limit)", "").strip()
    if "+" in name.split()[0]:
        return "placement"
    words = name.split()
    if len(words) == 1 and PAIR.match(words[0]):
        return "movement values"
    if len(words) == 2 and words[1] == "dtw":
        return "movement dtw"
    if len(words) == 2 and words[1] == "draws":
        return "movement draw values"
    raise ValueError(f"a job of no known kind: {name!r}")


def phases(logs) -> dict:
    """{kind: {jobs, positions, seconds}} over the logs' job lines."""
    out = {k: {"jobs": 0, "positions": 0, "seconds": 0.0} for k in KINDS}
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                m = seed_table.JOB.match(line.strip())
                if m:
                    row = out[kind_of(m.group(1))]
                    row["jobs"] += 1
                    row["positions"] += int(m.group(2).replace(",", ""))
                    row["seconds"] += float(m.group(3))
    return out


def markdown(rows, wall, cores) -> str:
    """The table: each kind's printed jobs, positions, seconds and positions/s/core; the rest of
    the wall clock; the whole."""
    lines = ["| kind | jobs (of 5 s or more) | positions | seconds | M positions/s/core |",
             "|---|---:|---:|---:|---:|"]
    done = 0.0
    for k in KINDS:
        r = rows[k]
        rate = r["positions"] / r["seconds"] / cores / 1e6 if r["seconds"] else 0.0
        lines.append(f"| {k} | {r['jobs']} | {r['positions']:,} | {r['seconds']:,.1f} | "
                     f"{rate:.2f} |")
        done += r["seconds"]
    lines.append(f"| the rest (shorter jobs, loading, starting) | | | {wall - done:,.1f} | |")
    lines.append(f"| **wall clock** | | | **{wall:,.1f}** | |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--heartbeat", action="append", default=[])
    ap.add_argument("--pauses", action="append", default=[])
    ap.add_argument("--name", default=None, help="the run's name in the heartbeat files")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    name = args.name or os.path.basename(args.logs[0]).split(".")[0]
    times, paused = seed_table.the_run(args.logs, name, args.heartbeat, args.pauses)
    wall = times["wall"] - paused
    rows = phases(args.logs)
    print(markdown(rows, wall, args.cores))
    print(f"\n{times['runs']} run(s) ended, {len(times.get('killed', []))} killed (timed by "
          f"their heartbeats); {paused:,.0f} s stopped taken off; peak "
          f"{times['peak_kb'] or 0:,} kB")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"phases": rows, "wall": wall, "paused": paused,
                       "peak_kb": times["peak_kb"]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
