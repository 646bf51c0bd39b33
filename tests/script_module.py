"""A script of ``bench/`` (benchmarks) or ``scripts/`` (maintenance) loaded as a module, for the
tests that call its functions (no ``sys.path`` insert: the folders stay off the import path)."""

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = (os.path.join(ROOT, "bench"), os.path.join(ROOT, "scripts"))
SCRIPTS = FOLDERS[1]


def path_of(name: str) -> str:
    """``bench/<name>.py`` or ``scripts/<name>.py``, whichever exists."""
    for folder in FOLDERS:
        path = os.path.join(folder, name + ".py")
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"no {name}.py in bench/ or scripts/")


def load(name: str):
    """The script ``name`` as a module (run once per call), registered in ``sys.modules`` under
    its name: numba's cached code of a script's ``@njit`` function imports its module by name."""
    spec = importlib.util.spec_from_file_location(name, path_of(name))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod
