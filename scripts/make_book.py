"""Regenerate the shipped opening book: the standard game's placement databases of the first plies.

    python3 scripts/make_book.py --db tb [--max-bytes 25000000] [--check 300]

--db must hold a complete standard solve (`morris solve --out tb --phase all`, with `--dtw` and
`--draws` for a book that answers dtw and draw values too). The book is every placement
subspace the start reaches within N plies (positions after 0 .. N plies; a position after N - 1
plies has all its moves' values in it), for the largest N whose values files fit in
--max-bytes; then the dtw and draw-value files (where --db holds them for every placement
subspace) for as many of those layers, from the start, as the bytes left hold. The files are
copied unchanged into data/standard/ (their own headers and checksums), data/SHA256SUMS is
rewritten, and --check random positions of the book's three deepest layers (reached by random
play from the start) are valued again by alpha-beta search over the movement databases
(search.py, code independent of the placement sweep): data/book-check.tsv keeps them with the
searched value, and the script fails on any disagreement.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

import numpy as np

from morris.database.folders import file_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def book_layers(db, variant, kinds, aside=None):
    """[(plies, subspaces placed in that many plies, the bytes of their files of ``kinds`` as
    the book ships them)] from the start onwards, each layer sized when it is reached (a
    generator: :func:`fit` stops at the first layer that does not fit); ``aside``: as in
    :func:`shipped_size`."""
    from morris.core.position import Position
    from morris.hashing.subspaces import Subspace, layer, placement_closure

    start = Position.start(variant)
    top = Subspace(0, 0, start.mover_hand, start.opponent_hand)
    by = {}
    for s in placement_closure(variant, [top]):
        by.setdefault(layer(variant, s), []).append(s)
    for plies in sorted(by):
        subs = sorted(by[plies])
        yield plies, subs, sum(shipped_size(file_path(db, variant, s, kind), kind, aside)
                               for s in subs for kind in kinds)


def shipped_size(path, kind, aside=None) -> int:
    """The bytes of the book's copy of ``path``: a pruned dtw file ships whole (the book lacks
    the children its wins come from: ``prune.write_full``), so it is written whole and measured
    (into the folder ``aside`` under its own name, where it stays for :func:`ship` to take,
    and is not written again; in a temporary folder without one); any other file ships as it
    is."""
    from morris.format.fileformat import TableFile
    from morris.solving.prune import write_full

    if kind == "dtw":
        with TableFile(path) as tf:
            pruned = tf.pruned()
        if pruned and aside is not None:
            dest = os.path.join(aside, os.path.basename(path))
            if not os.path.exists(dest):
                write_full(path, dest)
            return os.path.getsize(dest)
        if pruned:
            with tempfile.TemporaryDirectory() as d:
                return shipped_size(path, kind, d)
    return os.path.getsize(path)


def ship(src, kind, folder, aside) -> None:
    """Put the book's copy of ``src`` into ``folder``: a dtw file whole (its copy in ``aside``
    when :func:`shipped_size` wrote one, else written now), any other file as it is."""
    from morris.solving.prune import write_full

    dest = os.path.join(folder, os.path.basename(src))
    whole = os.path.join(aside, os.path.basename(src))
    if kind == "dtw" and os.path.exists(whole):
        shutil.move(whole, dest)
    elif kind == "dtw":  # whole: the book lacks the children a pruned file's wins come from
        write_full(src, dest)
    else:
        shutil.copyfile(src, dest)


def side_kinds(db, variant):
    """The kinds of file to ship: values, then dtw and draw values where every subspace the start
    reaches in placement has them."""
    from morris.core.position import Position
    from morris.hashing.subspaces import Subspace, placement_closure

    start = Position.start(variant)
    subs = placement_closure(variant, [Subspace(0, 0, start.mover_hand, start.opponent_hand)])
    return ["values"] + [k for k in ("dtw", "draw")
                         if all(os.path.isfile(file_path(db, variant, s, k)) for s in subs)]


def fit(layers, total, max_bytes, depth=None):
    """(total, deepest plies taken or -1, [subspaces]): ``layers`` (from :func:`book_layers`)
    taken from the start while ``total`` stays within ``max_bytes`` (and plies within
    ``depth``)."""
    kept, subs = -1, []
    for plies, ss, size in layers:
        if (depth is not None and plies > depth) or total + size > max_bytes:
            break
        total, kept = total + size, plies
        subs += ss
    return total, kept, subs


def choose(db, variant, kinds, max_bytes, aside=None):
    """(N, [(subspace, kind)]): the values files of every position after 0..N plies for
    the largest N that fits in ``max_bytes``; then each further kind (dtw, draw values) for as
    many of those layers, from the start, as the bytes left hold. Prints each kind's depth.
    ``aside``: where the whole copies of pruned dtw files stay (:func:`shipped_size`)."""
    total, depth, subs = fit(book_layers(db, variant, kinds[:1]), 0, max_bytes)
    if depth < 0:
        sys.exit(f"not even the start's file fits in {max_bytes:,.0f} bytes")
    files = [(s, kinds[0]) for s in subs]
    print(f"  values: positions after 0..{depth} plies, {len(files)} subspaces, {total:,} bytes")
    for kind in kinds[1:]:
        before = total
        total, kept, subs = fit(book_layers(db, variant, [kind], aside), total, max_bytes,
                                depth)
        files += [(s, kind) for s in subs]
        print(f"  {kind}: "
              + (f"0..{kept} plies, {total - before:,} bytes" if kept >= 0 else "none fits"))
    print(f"book: {len(files)} files, {total:,} bytes (at most {max_bytes:,.0f})")
    return depth, files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True, help="a complete standard solve (--phase all)")
    ap.add_argument("--max-bytes", type=float, default=25e6)
    ap.add_argument("--check", type=int, default=300, help="random book positions searched again")
    args = ap.parse_args()
    from make_data import write_checksums

    from morris.format.fileformat import check_file
    from morris.core.position import Position
    from morris.lookups.search import PlacementSearch
    from morris.lookups.tablebase import open_tablebase
    from morris.core.variants import get_variant

    v = get_variant("standard")
    kinds = side_kinds(args.db, v)
    print("files:", ", ".join(kinds))
    dest = os.path.join(DATA, v.ruleset_id)
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with tempfile.TemporaryDirectory(dir=DATA) as aside:
        plies, files = choose(args.db, v, kinds, args.max_bytes, aside)  # [(subspace, kind)]
        for s, kind in files:
            problem = check_file(file_path(args.db, v, s, kind))
            if problem:
                sys.exit(f"{s}: {problem}")
        for s, kind in files:
            ship(file_path(args.db, v, s, kind), kind, tmp, aside)
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)

    # the check: random positions of the book, valued again by search
    t0 = time.perf_counter()
    search = PlacementSearch(args.db, v)
    load = time.perf_counter() - t0
    rng = np.random.default_rng(2026)
    rows = []
    bad = 0
    with open_tablebase(DATA, shipped=False, search="never") as book:
        seen = set()
        while len(rows) < args.check:
            pos = Position.start(v)
            # the deepest three layers: the verifier cannot check the last one from the book
            # alone, and searches from there are quick
            for _ in range(int(rng.integers(max(0, plies - 2), plies + 1))):
                ms = pos.legal_moves()
                pos = pos.play(ms[int(rng.integers(len(ms)))])
            key = pos.to_compact()
            if key in seen or not pos.in_placement:
                continue
            seen.add(key)
            got = book.probe_wdl(pos)
            want = {1: "win", 0: "draw", -1: "loss"}[search.value(pos)]
            bad += got != want
            rows.append((key, want, got))
    secs = time.perf_counter() - t0 - load
    tmpf = os.path.join(DATA, "book-check.tsv.tmp")
    with open(tmpf, "w") as f:
        f.write("position\tvalue by search\n")
        for key, want, _ in rows:
            f.write(f"{key}\t{want}\n")
    os.replace(tmpf, os.path.join(DATA, "book-check.tsv"))
    count = write_checksums(DATA)
    print(f"checked {len(rows)} random book positions against the search: {bad} disagree "
          f"({secs:.1f} s searching, {load:.1f} s loading the movement values)")
    print(f"data/: {count} files in SHA256SUMS")
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
