"""What the values files' distance sections would weigh, and cost to write, at other zstd levels.

    python3 bench/compression_levels.py --db tb [--variant standard] [--levels 6 8 9]

For every values file of --db (the rule set of --variant) whose distances are stored (codec
uint8 or uint16; not ``ones``), the distance plane is read back and compressed again in the
writer's own blocks (``fileformat._compress_blocks``, ``DTC_BLOCK`` slots a block, on the
writer's threads) at each level and at the writer's own settings (``DTC_LEVEL``: a zstd level
or a ``fileformat.Tuning``). Prints per setting the bytes and the seconds of compressing,
beside the bytes the files hold. At the writer's settings the bytes must be the files' own,
byte for byte in sum and per file, for files this writer wrote (the script fails otherwise:
then it does not compress as the writer does, and its other levels say nothing; files of an
older writer are compared with ``--older``).
"""

import argparse
import os
import sys
import time


def study(paths, levels) -> tuple[dict, int, list]:
    """({level: [bytes, seconds]}, the bytes the files' distance sections hold, [files whose
    bytes at the writer's level are not their own])."""
    import numpy as np

    from morris.format import fileformat as F

    out = {lv: [0, 0.0] for lv in levels}
    held, wrong = 0, []
    for path in paths:
        with F.TableFile(path) as tf:
            if tf.header["sections"]["dtc"]["codec"] == "ones":
                continue
            offs = tf.offsets("dtc")
            own = int(offs[-1] - offs[0])
            dist = np.ascontiguousarray(tf.dtc_all())
        held += own
        for lv in levels:
            t = time.perf_counter()
            blocks = F._compress_blocks(F._chunks(dist, F.DTC_BLOCK * dist.itemsize), lv)
            out[lv][1] += time.perf_counter() - t
            size = sum(len(b) for b in blocks)
            out[lv][0] += size
            if lv == F.DTC_LEVEL and size != own:  # (an int level or the writer's Tuning)
                wrong.append(os.path.basename(path))
    return out, held, wrong


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--levels", type=int, nargs="+", default=[6, 8, 9])
    ap.add_argument("--older", action="store_true",
                    help="the files were written with other settings: do not require the "
                         "writer's bytes to be theirs")
    args = ap.parse_args(argv)

    from morris.core.variants import get_variant
    from morris.database.folders import find_tables, ruleset_dir
    from morris.format.fileformat import DTC_LEVEL

    levels = [lv for lv in sorted(set(args.levels)) if lv != DTC_LEVEL] + [DTC_LEVEL]
    paths = find_tables(ruleset_dir(args.db, get_variant(args.variant)))
    if not paths:
        sys.exit(f"no values files in {ruleset_dir(args.db, get_variant(args.variant))}")
    out, held, wrong = study(paths, levels)
    print(f"{len(paths)} values files; their distance sections hold {held:,} bytes")
    print(f"{'level':>5} {'bytes':>15} {'vs today':>9} {'seconds':>8}")
    for lv in levels:
        size, secs = out[lv]
        name = lv if isinstance(lv, int) else "tuned"
        print(f"{name:>5} {size:>15,} {100 * (size / max(1, held) - 1):>+8.2f}% {secs:>8.1f}"
              + (f"  (the writer's: {lv})" if lv == DTC_LEVEL else ""))
    if wrong and not args.older:
        print(f"at the writer's settings these files' bytes differ from their own: "
              f"{', '.join(wrong)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
