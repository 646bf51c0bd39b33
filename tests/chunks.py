"""The compiled signatures of the kernels' chunk functions (kernels/jit.py), for the tests that
run them: a chunk function is called from Python, so the same argument is of the same type at
every call and the only second compile is for another array dtype (the dtc planes are uint8,
the dtw planes uint16)."""

import importlib
import pkgutil

from numba.core import types
from numba.core.registry import CPUDispatcher


def chunk_functions():
    """{"module.name": dispatcher} of every chunk function of morris.kernels."""
    import morris.kernels

    found = {}
    for info in pkgutil.iter_modules(morris.kernels.__path__):
        mod = importlib.import_module("morris.kernels." + info.name)
        for name, f in vars(mod).items():
            if (isinstance(f, CPUDispatcher) and f.__module__ == mod.__name__
                    and f.targetoptions.get("_nrt") is False):
                found[f"{info.name}.{name}"] = f
    return found


def _same_but_dtype(a, b):
    return (a == b or isinstance(a, types.Array) and isinstance(b, types.Array)
            and (a.ndim, a.layout, a.mutable) == (b.ndim, b.layout, b.mutable))


def signature_problems():
    """(the chunk functions compiled in this process, a line for each pair of signatures of one
    that differ in more than the dtype of an array)."""
    compiled, problems = set(), []
    for name, f in chunk_functions().items():
        sigs = f.signatures
        if sigs:
            compiled.add(name)
        for i, a in enumerate(sigs):
            for b in sigs[i + 1:]:
                for k, (x, y) in enumerate(zip(a, b)):
                    if not _same_but_dtype(x, y):
                        problems.append(f"{name} argument {k}: {x} and {y}")
    return compiled, problems
