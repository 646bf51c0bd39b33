"""Start, resume and follow a long `morris solve` that spans sessions (issue 71).

A run lives beside the checkout, never inside it (the checkout is laid anew each session):

    ../runs/NAME/env/        its own virtual environment, the project installed from a commit
    ../runs/NAME/src/        the commit's files (git archive), ../runs/NAME/commit its name
    ../runs/NAME/args.json   the solve's arguments (the same every segment)
    ../runs/NAME/db/         the database (`morris solve --out`)
    ../runs/NAME/logs/run.K.{err,out,heartbeat}   segment K (scripts/timed_solve.sh)
    ../runs/NAME/pid         the running segment's process group

    python3 scripts/long_run.py start NAME -- --variant morabaraba --phase all --dtw --draws
    python3 scripts/long_run.py resume NAME          # a new segment, the same arguments
    python3 scripts/long_run.py status [NAME]        # segments, jobs done, what is left
    python3 scripts/long_run.py stop NAME            # ends the running segment (it resumes)
    python3 scripts/long_run.py pause NAME           # stops its processes for a measurement
    python3 scripts/long_run.py cont NAME            # lets them go on

``start`` makes the folder and the environment (the checkout's code, pip-installed) the first
time, then starts a segment; on a folder that exists it resumes with the arguments it has, and
refuses other arguments. A segment runs at nice 19 in the background under /usr/bin/time -v with a
heartbeat every 30 s, so a segment killed at a session's end is timed to its last beat. ``status``
asks the run's own `morris solve --plan` which jobs have their files (a resume still checks every
file's header and checksum) and sums each segment's wall clock from its heartbeat file.
``--runs DIR`` (or $MORRIS_RUNS) puts the runs elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_RUNS = os.environ.get("MORRIS_RUNS", os.path.join(os.path.dirname(REPO), "runs"))


class RunError(Exception):
    """What the helper refuses, said in one line."""


def run_dir(runs: str, name: str) -> str:
    if not name or "/" in name or name.startswith("."):
        raise RunError(f"run name {name!r}: one plain folder name, like morabaraba")
    return os.path.join(runs, name)


def running_pid(d: str) -> int | None:
    """The running segment's process id, or None (a stale pid file is ignored)."""
    try:
        pid = int(open(os.path.join(d, "pid")).read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.killpg(pid, 0)  # any process of the segment's group still alive
    except OSError:
        return None
    return pid


#: the longest gap between two heartbeats (30 s apart) counted as running: a longer one is a
#: pause (`pause`: the whole segment stopped, its heartbeat too)
BEAT_GAP = 90


def segments(d: str) -> list[dict]:
    """Every segment's number, start, last beat, end and exit status, from its heartbeat file."""
    logs, out = os.path.join(d, "logs"), []
    names = os.listdir(logs) if os.path.isdir(logs) else []
    for k in sorted(int(n.split(".")[1]) for n in names
                    if n.startswith("run.") and n.endswith(".heartbeat") and n.split(".")[1].isdigit()):
        seg = {"segment": k, "start": None, "last": None, "rc": None}
        running = 0  # seconds between beats, a gap of a pause (`pause`) left out
        for line in open(os.path.join(logs, f"run.{k}.heartbeat")):
            words = line.split()
            if not words or not words[0].isdigit():
                continue
            t = int(words[0])
            if len(words) > 2 and words[2] == "start":
                seg["start"] = t
            elif seg["last"] is not None and t - seg["last"] <= BEAT_GAP:
                running += t - seg["last"]
            seg["last"] = t
            if len(words) > 3 and words[2] == "end":
                seg["rc"] = words[-1].removeprefix("rc=")
        if seg["start"] is not None:
            seg["hours"] = running / 3600
            out.append(seg)
    return out


def install(d: str) -> None:
    """The run's own environment, the checkout's last commit installed into it (not editable,
    and not the working tree's uncommitted changes: the run's code is the commit it names)."""
    env, src = os.path.join(d, "env"), os.path.join(d, "src")
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    if commit:
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        archive = subprocess.run(["git", "-C", REPO, "archive", "--format=tar", commit],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    else:  # (not a git checkout: the tree as it is)
        src, commit = REPO, "unknown"
    subprocess.run([sys.executable, "-m", "venv", env], check=True)
    subprocess.run([os.path.join(env, "bin", "pip"), "install", "-q", src], check=True)
    with open(os.path.join(d, "commit"), "w") as f:
        f.write(commit + "\n")


def start(runs: str, name: str, args: list[str]) -> None:
    d = run_dir(runs, name)
    os.makedirs(os.path.join(d, "logs"), exist_ok=True)
    saved = os.path.join(d, "args.json")
    if os.path.exists(saved):
        old = json.load(open(saved))
        if args and args != old:
            raise RunError(f"{name} runs `morris solve {' '.join(old)}`; resume it with no "
                           f"arguments, or start another name")
        args = old
    elif not args:
        raise RunError(f"{name} is a new run: give the solve's arguments after --")
    if "--out" in args:
        raise RunError("the run's database is its own db/ folder: leave --out out")
    pid = running_pid(d)
    if pid is not None:
        raise RunError(f"{name} is running (process {pid}); `status {name}` says how far")
    if not os.path.exists(os.path.join(d, "env", "bin", "morris")):
        print(f"{name}: installing the checkout into {d}/env", flush=True)
        install(d)
    with open(saved + ".tmp", "w") as f:
        json.dump(args, f)
    os.replace(saved + ".tmp", saved)
    k = max([s["segment"] for s in segments(d)], default=0) + 1
    cmd = ["nice", "-n", "19", "bash", os.path.join(HERE, "timed_solve.sh"),
           os.path.join(d, "logs", "run"), str(k), os.path.join(d, "env", "bin", "morris"),
           "--out", os.path.join(d, "db"), *args]
    with open(os.path.join(d, "logs", f"nohup.{k}"), "w") as log:
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
    with open(os.path.join(d, "pid"), "w") as f:
        f.write(f"{p.pid}\n")
    lower_group(p.pid)
    print(f"{name}: segment {k} started (process group {p.pid}): morris solve {' '.join(args)}")


def lower_group(pid: int) -> None:
    """The segment's session (its own, ``start_new_session``) at nice 19 as a whole: with the
    kernel's autogroups on, a process's nice value weighs only against its own session's, and a
    session at nice 0 takes an equal share of the cores beside the shell's (a niced run took a
    core from a foreground test run). Best effort: the file is absent where autogroups are off."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as f:
            f.write("19")
    except OSError:
        pass


def stop(runs: str, name: str) -> None:
    d = run_dir(runs, name)
    pid = running_pid(d)
    if pid is None:
        raise RunError(f"{name} is not running")
    os.killpg(pid, signal.SIGTERM)
    print(f"{name}: segment stopped (process group {pid}); `resume {name}` goes on")


def pause(runs: str, name: str, cont: bool = False) -> None:
    """Stop the running segment's processes where they stand (SIGSTOP), or let them go on
    (SIGCONT): for a measurement that must have the cores to itself. The pause is not counted
    in the segment's hours (its heartbeat stops too)."""
    d = run_dir(runs, name)
    pid = running_pid(d)
    if pid is None:
        raise RunError(f"{name} is not running")
    os.killpg(pid, signal.SIGCONT if cont else signal.SIGSTOP)
    with open(os.path.join(d, "logs", "pauses"), "a") as f:
        f.write(f"{int(time.time())} {'cont' if cont else 'pause'}\n")
    print(f"{name}: {'going on' if cont else 'paused; `cont ' + name + '` goes on'} (process group {pid})")


def status(runs: str, name: str) -> list[str]:
    d = run_dir(runs, name)
    if not os.path.isdir(d):
        raise RunError(f"no run {name} under {runs}")
    lines = []
    commit = open(os.path.join(d, "commit")).read().strip() if os.path.exists(
        os.path.join(d, "commit")) else "?"
    args = json.load(open(os.path.join(d, "args.json"))) if os.path.exists(
        os.path.join(d, "args.json")) else []
    pid = running_pid(d)
    lines.append(f"{name}: morris solve {' '.join(args)} (code {commit[:12]}), "
                 + (f"running (process {pid})" if pid else "not running"))
    total, segs = 0.0, segments(d)
    for s in segs:
        total += s["hours"]
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(s["start"]))
        end = f"exit {s['rc']}" if s["rc"] is not None else (
            "running" if pid and s is segs[-1] else "killed (timed to its last beat)")
        lines.append(f"  segment {s['segment']}: from {when} UTC, {s['hours']:.2f} h, {end}")
    lines.append(f"  {total:.2f} h of running over {len(segs)} segment(s)")
    # the run's own tool, or the one on PATH where the run's predates `--plan`'s progress line
    for morris in (os.path.join(d, "env", "bin", "morris"), shutil.which("morris")):
        if not args or not morris or not os.path.exists(morris):
            continue
        plan = subprocess.run([morris, "solve", "--out", os.path.join(d, "db"), *args, "--plan"],
                              capture_output=True, text=True)
        found = ["  " + x for x in plan.stdout.splitlines() if x.startswith("in ")]
        if found:
            lines += found
            break
    errs = sorted((f for f in os.listdir(os.path.join(d, "logs")) if f.endswith(".err")),
                  key=lambda f: int(f.split(".")[1]) if f.split(".")[1].isdigit() else 0)
    if errs:
        tail = [x for x in open(os.path.join(d, "logs", errs[-1]), errors="replace")
                if x.startswith("[")]
        if tail:
            lines.append(f"  last job: {tail[-1].strip()}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", default=DEFAULT_RUNS, help="where runs live (default ../runs)")
    sub = ap.add_subparsers(dest="what", required=True)
    for what in ("start", "resume", "stop", "pause", "cont", "status"):
        p = sub.add_parser(what)
        p.add_argument("name", nargs="?" if what == "status" else None)
        if what == "start":
            p.add_argument("args", nargs=argparse.REMAINDER)
    ns = ap.parse_args(argv)
    try:
        if ns.what in ("start", "resume"):
            args = [a for a in getattr(ns, "args", []) if a != "--"] if ns.what == "start" else []
            start(ns.runs, ns.name, args)
        elif ns.what == "stop":
            stop(ns.runs, ns.name)
        elif ns.what in ("pause", "cont"):
            pause(ns.runs, ns.name, cont=ns.what == "cont")
        else:
            names = [ns.name] if ns.name else sorted(
                n for n in os.listdir(ns.runs) if os.path.isdir(os.path.join(ns.runs, n))) \
                if os.path.isdir(ns.runs) else []
            if not names:
                raise RunError(f"no runs under {ns.runs}")
            for n in names:
                print("\n".join(status(ns.runs, n)))
    except RunError as e:
        print(f"long_run: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
