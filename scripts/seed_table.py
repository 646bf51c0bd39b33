"""The results of one rule set solved whole, as the README's table of the seed rule sets gives
them: the start's value and every first move's, the count of wins, draws, losses, cursed wins
and blessed losses per phase, the longest win and loss (dtc), and the run's time and peak.

    python3 scripts/seed_table.py --db tb --rules cetinsgame --log tb/cetins.err [--log ...]
        [--paused SECONDS] [--json FILE]

``--db`` holds the rule set's files (``morris solve --out tb --rules NAME --phase all``); the
rule set may be named by a preset (``--rules``) or by flags (``--variant``, ``--no-flying``,
``--double-mill-removes``, ``--no-removal-limit``). Everything but the time is read from the
files: the counts from their headers (as ``morris stats`` gives them), the start's value and its
moves' from the placement files (``Tablebase.analyze``, no search), or, while placement files
are missing, by search over the movement files (said so). ``--log``: the standard error of each
run of the solve under ``/usr/bin/time -v``, resumed or not (its wall clock and peak; its
progress lines ``[i/N] NAME: P positions in T s``, printed for jobs of 5 s or more);
``--paused``: seconds to take off the runs' wall clock (a run stopped with SIGSTOP while
something else was measured). A job of the unlimited twin (``(no limit)``) counts apart: the
twin is another rule set, solved once for all that share it.

A run killed with its session writes no ``/usr/bin/time`` lines. ``--heartbeat``: the heartbeat
files of ``scripts/timed_solve.sh`` (``scripts/solve_seeds.sh`` writes one per rule set and
segment; earlier segments wrote one per segment for all: a line ``EPOCH HH:MM:SS`` every 30 s,
and ``[EPOCH] HH:MM:SS start NAME ...`` / ``end NAME rc=N`` around each run); each run of the
rule set there that has no end line (killed) adds its time from its start line to the file's
last beat (within 30 s) to the logs' wall clock. ``--pauses``: logs of ``STOP EPOCH ...`` and
``CONT EPOCH ...`` lines (each SIGSTOP and SIGCONT of the solve, as ``/tmp/.../pause.sh`` writes
them); the stopped time inside the heartbeats' runs, ended or killed, is taken off, beside
``--paused`` (for runs that no heartbeat file covers).
"""

import argparse
import json
import os
import re
import sys

JOB = re.compile(r"^\[\d+/\d+\] (.+?): ([\d,]+) positions in ([\d.]+) s")
PEAK = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")
WALL = re.compile(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)")


def seconds_of(clock: str) -> float:
    """Seconds of ``/usr/bin/time``'s h:mm:ss or m:ss.cc."""
    out = 0.0
    for part in clock.split(":"):
        out = out * 60 + float(part)
    return out


def variant_of(args):
    from morris.core.variants import get_variant

    return get_variant(args.variant, rules=args.rules, flying=args.flying,
                       double_mill_removes=args.double_mill_removes,
                       no_removal_limit=args.no_removal_limit)


def expected_files(db, variant) -> dict:
    """{path: subspace} of the values files of the rule set's whole game (both phases), twins
    left out, in path order."""
    from morris.database.folders import file_path
    from morris.solving.schedule import job_graph

    jobs, _ = job_graph(variant, phase="all")
    files = {file_path(db, variant, s): s for j in jobs if not getattr(j, "unlimited", False)
             for s in j.subspaces}
    return dict(sorted(files.items()))


def phase_counts(rows) -> dict:
    """{phase: {positions, wins, draws, losses, cursed_wins, blessed_losses, longest win and
    loss (dtc) with a subspace that has it}} from ``stats_rows``."""
    out = {}
    for r in rows:
        p = out.setdefault(r["phase"], dict(files=0, positions=0, wins=0, draws=0, losses=0,
                                            cursed_wins=0, blessed_losses=0, max_win_dtc=(0, ""),
                                            max_loss_dtc=(0, "")))
        p["files"] += 1
        for k in ("positions", "wins", "draws", "losses", "cursed_wins", "blessed_losses"):
            p[k] += r.get(k, 0)
        p["max_win_dtc"] = max(p["max_win_dtc"], (r["max_win_dtc"], r["subspace"]))
        p["max_loss_dtc"] = max(p["max_loss_dtc"], (r["max_loss_dtc"], r["subspace"]))
    return out


def run_times(logs) -> dict:
    """Over every log: the wall clock and peak of each run (``/usr/bin/time -v``'s lines; a run
    stopped by a signal has them too), and the jobs it printed (those of 5 s or more), the
    rule set's and the twin's apart."""
    out = {"runs": 0, "wall": 0.0, "peak_kb": None, "jobs": 0, "job_seconds": 0.0,
           "twin_jobs": 0, "twin_seconds": 0.0}
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                m = JOB.match(line.strip())
                if m:
                    twin = "(no limit)" in m.group(1)
                    out["twin_jobs" if twin else "jobs"] += 1
                    out["twin_seconds" if twin else "job_seconds"] += float(m.group(3))
                elif WALL.search(line):
                    out["runs"] += 1
                    out["wall"] += seconds_of(WALL.search(line).group(1))
                elif PEAK.search(line):
                    out["peak_kb"] = max(out["peak_kb"] or 0, int(PEAK.search(line).group(1)))
    return out


def clock_seconds(t: str) -> int:
    """Seconds since midnight of a clock time HH:MM:SS."""
    h, m, sec = (int(x) for x in t.split(":"))
    return h * 3600 + m * 60 + sec


def unnamed(words) -> bool:
    """A start or end line of ``timed_solve.sh`` before its lines named the run (``start
    --out ...``, ``end rc=N``: one run per heartbeat file)."""
    return words[2].startswith("--") or words[2].startswith("rc=")


def segments(heartbeats, name) -> list:
    """(start, end, ended) in epoch seconds of each segment of rule set ``name`` in the
    heartbeat files: ``ended`` False where the run was killed (its end: the file's last beat
    after the start). A start or end line without its epoch (the script's older lines) takes
    it from the next beat, by their clock times; one without the run's name (older still) is
    taken as ``name``'s."""
    out = []
    for path in heartbeats:
        with open(path, errors="replace") as f:
            rows = [line.split() for line in f if line.strip()]
        beats = [(i, int(r[0])) for i, r in enumerate(rows) if len(r) == 2 and r[0].isdigit()]

        def epoch_of(i):
            r = rows[i]
            if r[0].isdigit():
                return int(r[0])
            for j, e in beats:  # the next beat, less the clock time between them
                if j > i:
                    return e - (clock_seconds(rows[j][1]) - clock_seconds(r[0])) % 86400
            return None

        start = None
        for i, r in enumerate(rows):
            words = r[1:] if r[0].isdigit() else r
            if len(words) >= 3 and words[1] in ("start", "end") and unnamed(words):
                words = words[:2] + [name] + words[2:]  # (one run per file: it is name's)
            if len(words) >= 3 and words[1] == "start" and words[2] == name:
                start = epoch_of(i)
            elif len(words) >= 3 and words[1] == "end" and words[2] == name and start is not None:
                out.append((start, epoch_of(i), True))
                start = None
            elif len(words) >= 3 and words[1] == "start" and start is not None:
                start = None  # (another rule set started: this one's end line is missing)
        if start is not None:
            last = max((e for _, e in beats), default=start)
            out.append((start, max(last, start), False))
    return out


def stopped_within(pauses, spans) -> float:
    """Seconds of the ``STOP``..``CONT`` intervals of the pause log that fall inside ``spans``
    ((start, end, ...) in epoch seconds); a STOP with no CONT after it lasts to the end of the
    span it falls in (the stopped process ended with its segment: a later segment is another
    process, which ran)."""
    with open(pauses, errors="replace") as f:
        rows = [line.split() for line in f if line.strip()]
    intervals = []
    stop = None
    for r in rows:
        if r[0] == "STOP" and stop is None:
            stop = int(r[1])
        elif r[0] == "CONT" and stop is not None:
            intervals.append((stop, int(r[1])))
            stop = None
    if stop is not None:
        intervals.append((stop, max((sp[1] for sp in spans if sp[0] <= stop), default=stop)))
    return float(sum(max(0, min(b, sp[1]) - max(a, sp[0])) for a, b in intervals for sp in spans))


def the_run(logs, name, heartbeats=(), pauses=(), paused=0.0):
    """(times, paused): ``run_times`` of the logs with the killed runs of rule set ``name`` in
    the heartbeat files added to its wall clock (``times["killed"]``), and the seconds to take
    off: ``paused`` and the stopped time of the pause logs inside the heartbeats' runs."""
    times = run_times(logs)
    if heartbeats:
        spans = segments(heartbeats, name)
        times["killed"] = [sp for sp in spans if not sp[2]]
        times["wall"] += float(sum(b - a for a, b, _ in times["killed"]))
        for log in pauses:
            paused += stopped_within(log, spans)
    return times, paused


def start_analysis(db, variant, search="never"):
    """The start's value and every first move's: from the files only, or (``search="auto"``,
    while placement files are missing) by alpha-beta search over the movement files where no
    placement file holds a position."""
    from morris.core.position import Position
    from morris.lookups.tablebase import open_tablebase

    with open_tablebase(db, shipped=False, search=search) as tb:
        return tb.analyze(Position.start(variant))


def markdown(name, variant, have, want, counts, analysis, times, paused) -> str:
    lines = [f"**{name}** (`{variant.ruleset_id}`: {len(have)} of {len(want)} values files)", ""]
    if analysis is not None:
        moves = {}
        for mi in analysis.moves:
            moves.setdefault(mi.value, []).append(str(mi.move))
        told = "; ".join(f"{v} ({len(ms)}): {', '.join(sorted(ms))}"
                         for v, ms in sorted(moves.items()))
        how = " (by search over the movement files)" if analysis.source == "search" else ""
        lines += [f"- the start: **{analysis.value}**{how}; the first moves: {told}", ""]
    lines += ["| phase | positions | wins | draws | losses | cursed wins | blessed losses | "
              "longest win (dtc) | longest loss (dtc) |",
              "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for phase in sorted(counts, reverse=True):
        p = counts[phase]
        lines.append(f"| {phase} | {p['positions']:,} | {p['wins']:,} | {p['draws']:,} | "
                     f"{p['losses']:,} | {p['cursed_wins']:,} | {p['blessed_losses']:,} | "
                     f"{p['max_win_dtc'][0]} ({p['max_win_dtc'][1]}) | "
                     f"{p['max_loss_dtc'][0]} ({p['max_loss_dtc'][1]}) |")
    run = times["wall"] - paused
    peak = "not logged" if times["peak_kb"] is None else f"{times['peak_kb'] / 1e6:.2f} GB"
    said = f"{times['runs']} run(s) of `/usr/bin/time -v`"
    if times.get("killed"):
        said += (f" and {len(times['killed'])} killed, timed by their heartbeats "
                 f"({sum(b - a for a, b, _ in times['killed']):,} s)")
    lines += ["", f"- the run: {said}, {run:,.0f} s "
              f"({run / 3600:.2f} h) of wall clock"
              + (f" ({paused:,.0f} s stopped taken off)" if paused else "")
              + f", peak {peak}; of the jobs of 5 s or more, {times['jobs']} of the rule set "
              f"({times['job_seconds']:,.0f} s) and {times['twin_jobs']} of its unlimited twin "
              f"({times['twin_seconds']:,.0f} s)"]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--rules", default=None)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--flying", default=None, action=argparse.BooleanOptionalAction)
    ap.add_argument("--double-mill-removes", type=int, default=None)
    ap.add_argument("--no-removal-limit", type=int, default=None)
    ap.add_argument("--log", action="append", default=[])
    ap.add_argument("--paused", type=float, default=0.0)
    ap.add_argument("--heartbeat", action="append", default=[])
    ap.add_argument("--pauses", action="append", default=[])
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    from morris.apps.reports import stats_rows

    variant = variant_of(args)
    want = expected_files(args.db, variant)
    have = [f for f in want if os.path.exists(f)]
    counts = phase_counts(stats_rows(have))
    complete = len(have) == len(want)
    movement = [f for f, sub in want.items() if not sub.placement]
    analysis = None
    if complete:
        analysis = start_analysis(args.db, variant)
    elif all(os.path.exists(f) for f in movement):
        analysis = start_analysis(args.db, variant, search="auto")
    name = args.rules or variant.ruleset_id
    times, args.paused = the_run(args.log, name, args.heartbeat, args.pauses, args.paused)
    print(markdown(name, variant, have, want, counts, analysis, times, args.paused))
    if args.json:
        data = {"rules": name, "ruleset": variant.ruleset_id, "files": len(have),
                "expected": len(want), "phases": counts, "times": times, "paused": args.paused,
                "start": None if analysis is None else analysis.to_json()}
        with open(args.json + ".tmp", "w") as f:
            json.dump(data, f, indent=1)
        os.replace(args.json + ".tmp", args.json)
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
