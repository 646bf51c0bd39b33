"""Write a measured section into docs/benchmarks.md between BEGIN/END markers."""

import os
import platform

import numba

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")


def machine() -> str:
    return f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), numba {numba.__version__}, {numba.get_num_threads()} threads"


def write_section(name: str, text: str, path: str = DOC):
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    body = f"{begin}\n{text.rstrip()}\n{end}"
    old = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    if begin in old and end in old:
        new = old[: old.index(begin)] + body + old[old.index(end) + len(end):]
    else:
        new = old.rstrip() + "\n\n" + body + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, path)
