"""Whether two databases hold the same values files: each values file (.mtb) of A against B's of
the same ruleset and name, the same bytes or else the same contents (header fields, anchors,
value codes, distances, and the curse plane under a no-removal limit, every slot). Prints one
line per ruleset with the files that were the same bytes and the sizes; exits 1 at the first
difference, naming it.

    python3 scripts/same_values.py A B       # e.g. files written before a writer's change

The check of a change that rewrites files' bytes and not their values (issue 31: the values
files' distances compressed by a tuned match finder). A ruleset of A that B does not hold is
named and skipped; a values file of A that B lacks is a difference.
"""

import argparse
import filecmp
import os
import sys
import time


def contents_differ(pa: str, pb: str) -> str | None:
    """None where the values files at ``pa`` and ``pb`` are the same bytes or hold the same
    contents; else what differs."""
    return None if filecmp.cmp(pa, pb, shallow=False) else planes_differ(pa, pb)


def planes_differ(pa: str, pb: str) -> str | None:
    """None where the values files at ``pa`` and ``pb`` hold the same contents, whatever their
    bytes; else what differs."""
    import numpy as np

    from morris.format.fileformat import LAYOUT_KEYS, TableFile

    with TableFile(pa) as ta, TableFile(pb) as tb:
        ha = {k: v for k, v in ta.header.items() if k not in LAYOUT_KEYS}
        hb = {k: v for k, v in tb.header.items() if k not in LAYOUT_KEYS}
        if ha != hb or ta.slots != tb.slots:
            return "the headers differ"
        if not np.array_equal(np.asarray(ta.anchors), np.asarray(tb.anchors)):
            return "the anchors differ"
        planes = [("values", lambda t: t.values_all()), ("dtc", lambda t: t.dtc_all())]
        if ("curse" in ta.header["sections"]) != ("curse" in tb.header["sections"]):
            return "one has a curse plane, the other not"
        if "curse" in ta.header["sections"]:
            planes.append(("curse", lambda t: t.curse_all()))
        for name, read in planes:
            a, b = read(ta), read(tb)
            if not np.array_equal(a, b):
                return f"the {name} planes differ on {int((a != b).sum()):,} slots"
    return None


def compare_ruleset(a: str, b: str) -> tuple:
    """(files, of them the same bytes, slots, bytes in a, bytes in b) of one ruleset folder's
    values files; exits at the first that differs."""
    from morris.format.fileformat import TableFile

    files = same = slots = size_a = size_b = 0
    for name in sorted(n for n in os.listdir(a) if n.endswith(".mtb")):
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if not os.path.exists(pb):
            sys.exit(f"{pb} is missing")
        same_bytes = filecmp.cmp(pa, pb, shallow=False)
        why = None if same_bytes else planes_differ(pa, pb)
        if why:
            sys.exit(f"{pa} and {pb}: {why}")
        files += 1
        same += same_bytes
        with TableFile(pa) as tf:
            slots += tf.slots
        size_a += os.path.getsize(pa)
        size_b += os.path.getsize(pb)
    return files, same, slots, size_a, size_b


def rulesets(argv=None):
    """The command line's two databases A and B: (name, A's folder, B's folder) of each ruleset
    of A, a ruleset that B lacks named and skipped (a script's main loop; same_dtw.py's too)."""
    ap = argparse.ArgumentParser(description=sys.modules["__main__"].__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args(argv)
    for ruleset in sorted(os.listdir(args.a)):
        ra, rb = os.path.join(args.a, ruleset), os.path.join(args.b, ruleset)
        if not os.path.isdir(ra):
            continue
        if not os.path.isdir(rb):
            print(f"{ruleset}: not in {args.b}, skipped")
            continue
        yield ruleset, ra, rb


def main():
    for ruleset, ra, rb in rulesets():
        t0 = time.perf_counter()
        files, same, slots, sa, sb = compare_ruleset(ra, rb)
        print(f"{ruleset}: {files} values files, the same contents ({same} the same bytes); "
              f"{sa:,} bytes ({8 * sa / max(1, slots):.3f} bits/slot) against {sb:,} "
              f"({8 * sb / max(1, slots):.3f}, {100 * (sb / max(1, sa) - 1):+.2f}%); "
              f"{time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
