"""Load on ``morris serve``: C concurrent clients for T seconds over random positions of a solved
database (movement and placement), after a warm-up, while I idle connections that never send a
byte stay open. Prints requests/s, latency percentiles and errors (any status but 200, a reset,
a timeout).

    python3 bench/bench_load.py --db tb --clients 50 --seconds 60 --idle 20 [--think-ms 0]

Each client is a thread with its own keep-alive connection, sending its next request as soon as
the last one is answered (plus ``--think-ms``); the server runs in its own process
(``morris serve --quiet``), so the clients and the server share the machine's cores.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.parse


def positions(db, n, seed=1):
    """Random positions of the database's files: movement and placement (compact notation)."""
    from morris.format.fileformat import TableFile
    from morris.database.folders import find_tables
    from morris.hashing.index import Hasher
    from morris.core.position import Position
    from morris.hashing.subspaces import Subspace
    from morris.core.variants import BOARDS, variant_from_fields

    rng = random.Random(seed)
    # the rulesets the API names by --variant alone: standard (flying) and six (no flying)
    names = {"standard": "standard", "six-nofly": "six"}
    files = [p for p in find_tables(db) if os.path.basename(os.path.dirname(p)) in names]
    by_phase = [[p for p in files if "+" not in os.path.basename(p)],
                [p for p in files if "+" in os.path.basename(p)]]
    out = []
    while len(out) < n:
        path = rng.choice(by_phase[len(out) % 2] or files)  # movement and placement alike
        with TableFile(path) as tf:
            h = tf.header
        variant = variant_from_fields(h)
        hasher = Hasher(BOARDS[h["board"]])
        sub = Subspace.parse(h["subspace"])
        slot = rng.randrange(h["slots"])
        mover, opp, used = hasher.unindex_py(sub, slot, hasher.anchor_reps(sub.o))
        if not used:
            continue
        pos = Position.from_masks(variant, mover, opp, 0, sub.hm, sub.ho)
        if pos.outcome() is None:
            out.append((names[h["ruleset"]], pos.to_compact()))
    return out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def client(port, work, stop_at, think, lat, errors):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rng = random.Random(threading.get_ident())
    while time.perf_counter() < stop_at:
        variant, pos = rng.choice(work)
        q = urllib.parse.urlencode({"position": pos, "variant": variant})
        t0 = time.perf_counter()
        try:
            conn.request("GET", f"/api/probe?{q}")
            r = conn.getresponse()
            body = r.read()
            if r.status != 200 or "value" not in json.loads(body):
                errors.append(f"{r.status} {body[:100]!r}")
        except Exception as exc:  # a reset, a timeout: counted, then a new connection
            errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        lat.append(time.perf_counter() - t0)
        if think:
            time.sleep(think)
    conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--idle", type=int, default=20, help="connections that send nothing")
    ap.add_argument("--think-ms", type=float, default=0.0)
    ap.add_argument("--positions", type=int, default=2000)
    a = ap.parse_args()
    work = positions(a.db, a.positions)
    port = free_port()
    srv = subprocess.Popen([sys.executable, "-m", "morris.cli.main", "serve", "--db", a.db,
                            "--port", str(port), "--quiet"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(a.idle)]
        # warm-up: every position once, so the blocks are cached (a warm server)
        lat, errors = [], []
        client(port, work, time.perf_counter() + 10, 0, [], [])
        t0 = time.perf_counter()
        threads = [threading.Thread(target=client, args=(port, work, t0 + a.seconds,
                                                           a.think_ms / 1000, lat, errors))
                   for _ in range(a.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        for s in idle:
            s.close()
    finally:
        srv.terminate()
        srv.wait(10)
    lat.sort()

    def pct(p):
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    kinds = sorted({w for w, _ in work})
    print(f"{a.clients} clients, {a.seconds:.0f} s, {a.idle} idle connections, think {a.think_ms} ms, "
          f"positions of {', '.join(kinds)} ({sum(1 for _, p in work if len(p.split()) == 4)} of "
          f"{len(work)} in placement); cores: {os.cpu_count()}")
    print(f"requests {len(lat):,} in {wall:.1f} s: {len(lat) / wall:.1f} req/s; latency p50 "
          f"{pct(50):.1f} ms, p90 {pct(90):.1f} ms, p99 {pct(99):.1f} ms, max {1000 * lat[-1]:.1f} ms; "
          f"errors {len(errors)}")
    for e in errors[:5]:
        print("  error:", e)


if __name__ == "__main__":
    main()
