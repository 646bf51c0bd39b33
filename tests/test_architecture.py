"""The layer diagram of docs/architecture.md, enforced on the folders: a module's layer is the
folder it lies in; every import of the library (at the top of a module or inside a function)
goes to the same layer or one below; the solver and the lookups, side by side, never import each
other; the core layer imports no numba; no module lies outside the layer folders. And the file format document lists exactly the header keys the writer writes."""

import ast
import os
import re

import pytest


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: the layers, bottom first: a folder of the package each (docs/architecture.md); the solver
#: and the lookups side by side. A module's layer is the folder it lies in.
RANK = {"core": 0, "kernels": 1, "hashing": 2, "format": 3, "database": 4, "solving": 5,
        "lookups": 5, "apps": 6}
#: the public surface (solver/__init__.py) and the command line belong with the apps
APPS = ("__init__", "cli")


def _modules():
    out = {}
    for folder, prefix in (("solver", ""), ("cli", "cli.")):
        for d, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), os.path.join(ROOT, folder))[:-3]
                    out[prefix + rel.replace(os.sep, ".")] = os.path.join(d, f)
    return out


def layer_of(mod: str) -> str:
    """The layer of a module: the folder it lies in (``core.position``: core)."""
    top = mod.split(".")[0]
    if top in RANK:
        return top
    if top in APPS:
        return "apps"
    raise KeyError(mod)


def _imports(mod: str, path: str):
    """(imported module of the library, line) for every import in the file; '<numba>' too."""
    pkg = mod.rpartition(".")[0]
    if mod.endswith("__init__"):
        pkg = mod[: -len("__init__")].rstrip(".")
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = pkg.split(".") if pkg else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            if n.split(".")[0] == "numba":
                yield "<numba>", node.lineno
            if n.startswith("morris."):
                n = n[len("morris."):]
            elif n == "morris":
                continue
            yield n, node.lineno


def breaches():
    mods = _modules()
    known = set(mods) | {m.rpartition(".")[0] for m in mods}
    out = []
    for mod, path in sorted(mods.items()):
        mine = layer_of(mod)
        for target, line in _imports(mod, path):
            if target == "<numba>":
                if mine == "core":
                    out.append(f"{mod}:{line} imports numba (the core layer is plain Python)")
                continue
            t = target
            while t and t not in known:
                t = t.rpartition(".")[0]
            if not t or t == mod:
                continue
            theirs = layer_of(t)
            if RANK[theirs] > RANK[mine] or {mine, theirs} == {"solving", "lookups"}:
                out.append(f"{mod}:{line} ({mine}) imports {t} ({theirs})")
    return sorted(set(out))


def test_every_module_has_a_layer():
    unknown = []
    for mod in _modules():
        try:
            layer_of(mod)
        except KeyError:
            unknown.append(mod)
    assert unknown == [], f"modules outside the layer folders: {unknown}"


def test_imports_run_down_the_layers():
    assert breaches() == []


def test_the_check_catches_an_upward_import(tmp_path, monkeypatch):
    """The checker itself: a lookup module importing the solver, numba in the core layer, and a
    module outside the layer folders, are reported (a fake tree with one offence each)."""
    for folder in ("solver/lookups", "solver/solving", "solver/core", "cli"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "solver" / "lookups" / "tablebase.py").write_text("from ..solving.schedule import solve\n")
    (tmp_path / "solver" / "solving" / "schedule.py").write_text("x = 1\n")
    (tmp_path / "solver" / "core" / "limits.py").write_text("import numba\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", str(tmp_path))
    found = breaches()
    assert any("tablebase" in b and "schedule" in b for b in found), found
    assert any("limits" in b and "numba" in b for b in found), found
    (tmp_path / "solver" / "stray.py").write_text("x = 1\n")
    try:
        test_every_module_has_a_layer()
    except AssertionError as exc:
        assert "stray" in str(exc)
    else:
        raise AssertionError("a module outside the layer folders went unnoticed")


#: the solver's kernels: the verifier must reach none of them (its own route to every child)
SOLVER_KERNELS = {"kernels.turns", "kernels.retro", "kernels.dtw", "kernels.draws",
                  "kernels.placement", "kernels.search"}


def _reach(mod: str, mods: dict, known: set) -> set:
    """Every library module ``mod`` imports, directly or through others."""
    seen, todo = set(), [mod]
    while todo:
        cur = todo.pop()
        for target, _ in _imports(cur, mods[cur]):
            t = target
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t in mods and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def test_the_verifier_takes_no_route_of_the_solver():
    """verify.py and kernels/verify.py recompute every file by their own turn generator
    (bitboard.gen_turns and index_one): neither imports, even through another module, any of
    the solver's kernels, so a mistake in the solver's turns cannot hide in the check."""
    mods = _modules()
    known = set(mods) | {m.rpartition(".")[0] for m in mods}
    for mod in ("solving.verify", "kernels.verify"):
        reached = _reach(mod, mods, known)
        assert reached & SOLVER_KERNELS == set(), (mod, sorted(reached & SOLVER_KERNELS))
        assert "kernels.bitboard" in reached


def test_the_solver_kernels_take_their_turns_from_one_module():
    """Every forward step of the solving kernels goes through kernels/turns.py: no solving
    kernel walks the slides (``T.adj``) or calls the removal generator itself."""
    for name in ("retro", "dtw", "draws", "placement"):
        text = open(os.path.join(ROOT, "solver", "kernels", name + ".py"), encoding="utf-8").read()
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        assert "removal_turns" not in code and "removable(" not in code, name
        if name != "retro":  # retro.emit walks the un-moves (the backward step)
            assert "T.adj" not in code, name


def _documented_header_keys(title="## Header"):
    text = open(os.path.join(ROOT, "docs", "format.md"), encoding="utf-8").read()
    section = text.split(title, 1)[1].split("\n## ", 1)[0]
    keys = set()
    for row in section.splitlines():
        if row.startswith("| `"):
            keys |= set(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return keys


def test_the_format_document_lists_the_header_keys_a_file_has(tmp_path):
    """Every key the writer puts in a header is in docs/format.md's header table, and every key
    there is in some header written here (movement, placement, limited, round 4's rules)."""
    from morris.format.fileformat import TableFile
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.hashing.subspaces import Subspace
    from morris.core.variants import get_variant

    written = {".mtb": set(), ".mtw": set()}
    for variant, subs in ((get_variant("six", no_removal_limit=8, endgame_no_removal_limit=6), [Subspace(3, 3)]),
                          (get_variant("six"), [Subspace(3, 3, 1, 0)])):
        solve(tmp_path, variant, targets=subs, phase="all", reporter=Reporter(quiet=True))
    solve(tmp_path, get_variant("six"), targets=[Subspace(3, 3)], reporter=Reporter(quiet=True), dtw=True)
    # the fields of round 4's rules: the hand counted, a full board lost, the place-or-move turn
    for variant in (get_variant("morabaraba", pieces=3, full_board="loss"), get_variant("lasker", pieces=3)):
        solve(tmp_path, variant, targets=[Subspace(3, 3)], reporter=Reporter(quiet=True))
    for d, _, files in os.walk(tmp_path):
        for f in files:
            if f[-4:] in written:
                with TableFile(os.path.join(d, f)) as tf:
                    written[f[-4:]] |= set(tf.header)
    for suffix, title in ((".mtb", "## Header"), (".mtw", "## dtw files")):
        documented = _documented_header_keys(title)
        assert written[suffix] - documented == set(), f"{suffix}: written but not documented"
        assert documented - written[suffix] == set(), f"{suffix}: documented but never written"


def test_the_kernels_see_only_the_shared_constants_of_the_core():
    """The kernels (numba) take arrays and scalars; of the plain-Python core they import only
    ``core.codes``, the constants both share (value codes, FLY_AT, LOSE_BELOW), and
    ``core.threads``, the task runner of the kernels' chunks and the files' blocks alike."""
    mods = _modules()
    known = set(mods) | {m.rpartition(".")[0] for m in mods}
    for mod, path in mods.items():
        if layer_of(mod) != "kernels":
            continue
        for target, line in _imports(mod, path):
            t = target
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and layer_of(t) == "core":
                assert t in ("core.codes", "core.threads"), f"{mod}:{line} imports {t}"


def test_the_picture_matches_the_tree():
    """docs/architecture.svg is drawn from the layer folders (scripts/draw_architecture.py):
    a module added, moved or removed without drawing it again fails here."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "draw_architecture.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_public_alias_is_the_module_and_the_old_flat_names_are_gone():
    """``morris.openspiel`` is ``morris.apps.openspiel`` itself (one set of globals); the flat
    names of rounds 1-3 (``morris.tablebase``, ...) no longer import (round 5)."""
    import importlib

    import morris

    for name, layer in morris.PUBLIC_MODULES.items():
        moved = importlib.import_module(f"morris.{layer}.{name}")
        assert importlib.import_module(f"morris.{name}") is moved, name
        assert moved.__spec__.name == f"morris.{layer}.{name}"
    for old in ("tablebase", "schedule", "fileformat", "variants", "engine"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"morris.{old}")


def _chunk_calls(source: str) -> tuple[int, list[str]]:
    """(calls of a chunk function (``@njit(**CHUNK)``) in ``source``, those made from compiled
    code: a function under any ``@njit``, or a nested function inside one)."""
    tree = ast.parse(source)
    chunks = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)
              and any("CHUNK" in ast.unparse(d) for d in f.decorator_list)}
    calls, compiled = 0, []
    for f in tree.body:
        if not isinstance(f, ast.FunctionDef):
            continue
        jitted = any("njit" in ast.unparse(d) for d in f.decorator_list)
        for call in ast.walk(f):
            if isinstance(call, ast.Call) and ast.unparse(call.func) in chunks:
                calls += 1
                if jitted:
                    compiled.append(f"{f.name} calls {call.func.id} from compiled code")
    return calls, compiled


def test_a_chunk_function_is_called_from_python_only():
    """kernels/jit.py: a chunk function runs on ``run_chunks``' threads, called from a plain
    Python function; called from a compiled kernel (a ``prange`` loop, say) numba would generate
    its code again inside that kernel, the compile cost that the chunks were made to avoid."""
    calls = 0
    for name in sorted(os.listdir(os.path.join(ROOT, "solver", "kernels"))):
        if name.endswith(".py"):
            with open(os.path.join(ROOT, "solver", "kernels", name), encoding="utf-8") as fh:
                n, compiled = _chunk_calls(fh.read())
            calls += n
            assert not compiled, (name, compiled)
    assert calls >= 13  # the solver's and the verifier's parallel kernels


def test_the_chunk_check_catches_a_call_from_compiled_code():
    src = ("@njit(**CHUNK)\ndef _body(x, i):\n    x[i] = 1\n\n\n"
           "{}def kernel(x):\n    for i in range(4):\n        _body(x, i)\n")
    assert _chunk_calls(src.format("@njit(parallel=True)\n")) == (
        1, ["kernel calls _body from compiled code"])
    assert _chunk_calls(src.format("")) == (1, [])


@pytest.mark.parametrize("cache_dir", [False, True])
def test_a_kernel_runs_its_helpers_code_after_only_the_helper_changes(tmp_path, cache_dir):
    """numba keys a kernel's cached code on the kernel's own file, though the helpers it calls
    from other files are compiled into it; the kernels package drops the cache when any kernel
    source changes (kernels/__init__.py), so a kernel whose file did not change still runs its
    helper's new code in the next process."""
    import subprocess
    import sys

    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "import os\nfrom morris.kernels import drop_stale_cache\n"
        "drop_stale_cache(os.path.dirname(os.path.abspath(__file__)))\n")
    (pkg / "helper.py").write_text("from numba import njit\n\n@njit\ndef h():\n    return 1\n")
    (pkg / "kern.py").write_text("from numba import njit\nfrom .helper import h\n\n"
                                 "@njit(cache=True)\ndef k():\n    return h() * 10\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if cache_dir:  # (numba's cache under NUMBA_CACHE_DIR, not beside the sources)
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")

    def run():
        return subprocess.run([sys.executable, "-c", "from kpkg.kern import k; print(k())"],
                              cwd=tmp_path, env=env, capture_output=True, text=True,
                              check=True).stdout.strip()

    assert run() == "10"
    # it cached, beside the sources or under NUMBA_CACHE_DIR
    cached = [os.path.join(d, n) for d, _, files in os.walk(tmp_path) for n in files
              if n.endswith(".nbi")]
    assert cached and all(("numba-cache" in p) == cache_dir for p in cached), cached
    (pkg / "helper.py").write_text("from numba import njit\n\n@njit\ndef h():\n    return 2\n")
    assert run() == "20"


def test_the_kernel_cache_is_dropped_only_when_the_sources_change(tmp_path):
    """drop_stale_cache removes numba's files (.nbi, .nbc) and nothing else, once per change of
    the sources it digests."""
    from morris.kernels import drop_stale_cache

    src, cache = tmp_path / "src", tmp_path / "cache"
    src.mkdir(), cache.mkdir()
    (src / "a.py").write_text("x = 1\n")
    for name in ("a.k-3.py311.nbi", "a.k-3.py311.1.nbc", "a.cpython-311.pyc"):
        (cache / name).write_text("")
    assert drop_stale_cache(str(src), str(cache)) == 2
    assert sorted(os.listdir(cache)) == ["a.cpython-311.pyc", "kernel-sources.sha256"]
    (cache / "a.k-3.py311.nbi").write_text("")
    assert drop_stale_cache(str(src), str(cache)) == 0
    (src / "a.py").write_text("x = 2\n")
    assert drop_stale_cache(str(src), str(cache)) == 1
    assert drop_stale_cache(str(src), str(cache)) == 0
    # a file outside the folder that the kernels compile in (core/codes.py's constants)
    codes = tmp_path / "codes.py"
    codes.write_text("WIN = 1\n")
    (cache / "a.k-3.py311.nbi").write_text("")
    assert drop_stale_cache(str(src), str(cache), extra=[str(codes)]) == 1
    assert drop_stale_cache(str(src), str(cache), extra=[str(codes)]) == 0
    codes.write_text("WIN = 2\n")
    assert drop_stale_cache(str(src), str(cache), extra=[str(codes)]) == 0  # (nothing cached)
    (cache / "a.k-3.py311.nbi").write_text("")
    codes.write_text("WIN = 3\n")
    assert drop_stale_cache(str(src), str(cache), extra=[str(codes)]) == 1
