"""Reading a database directory whole, for tests that compare two runs byte for byte."""

import os


def files_of(d, suffix="") -> dict:
    """{relative path: bytes} of every file under ``d`` whose name ends with ``suffix``."""
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            if n.endswith(suffix):
                p = os.path.join(root, n)
                out[os.path.relpath(p, d)] = open(p, "rb").read()
    return out
