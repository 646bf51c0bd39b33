"""The layer diagram of docs/architecture.md, enforced: every import of the library (at the top of
a module or inside a function) goes to the same layer or one below; the solver and the lookups,
side by side, never import each other; the rules layer imports no numba; every module has a
layer. And the file format document lists exactly the header keys the writer writes."""

import ast
import os
import re

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: layer of every module (the picture in docs/architecture.md, bottom first)
LAYERS = {
    0: "kernels",
    1: "rules",
    2: "hashing",
    3: "format",
    4: "folders",
    5: "solver|lookups",
    6: "apps",
}
MODULES = {
    "kernels": ["codes"],
    "rules": ["errors", "variants", "rules", "symmetry", "limits", "position", "game",
              "inputs", "atomic", "progress", "version", "draws", "counting"],
    "hashing": ["subspaces", "index", "perft"],
    "format": ["fileformat"],
    "folders": ["folders", "shipped"],
    "solver": ["jobs", "schedule", "retro", "placement", "verify", "cluster", "curse"],
    "lookups": ["tablebase", "search"],
    "apps": ["bot", "engine", "server", "explorer", "svg", "plots", "start_value", "advice", "reports",
             "console", "players", "statspage", "__init__", "cli.main", "cli.options", "cli.games", "cli.__init__"],
}
RANK = {"kernels": 0, "rules": 1, "hashing": 2, "format": 3, "folders": 4, "solver": 5,
        "lookups": 5, "apps": 6}


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
    if mod.startswith("kernels."):
        return "kernels"
    for layer, mods in MODULES.items():
        if mod in mods:
            return layer
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
                if mine == "rules":
                    out.append(f"{mod}:{line} imports numba (the rules layer is plain Python)")
                continue
            t = target
            while t and t not in known:
                t = t.rpartition(".")[0]
            if not t or t == mod:
                continue
            if t in ("kernels", "cli"):
                t = t + ".__init__"
            theirs = layer_of(t)
            if RANK[theirs] > RANK[mine] or {mine, theirs} == {"solver", "lookups"}:
                out.append(f"{mod}:{line} ({mine}) imports {t} ({theirs})")
    return sorted(set(out))


def test_every_module_has_a_layer():
    unknown = []
    for mod in _modules():
        try:
            layer_of(mod)
        except KeyError:
            unknown.append(mod)
    assert unknown == [], f"modules missing from the layer table: {unknown}"


def test_imports_run_down_the_layers():
    assert breaches() == []


def test_the_check_catches_an_upward_import(tmp_path, monkeypatch):
    """The checker itself: a lookup module importing the solver, and numba in the rules layer,
    are reported (a fake tree with one offending import each)."""
    for folder in ("solver", "cli"):
        (tmp_path / folder).mkdir()
    (tmp_path / "solver" / "tablebase.py").write_text("from .schedule import solve\n")
    (tmp_path / "solver" / "schedule.py").write_text("x = 1\n")
    (tmp_path / "solver" / "limits.py").write_text("import numba\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", str(tmp_path))
    found = breaches()
    assert any("tablebase" in b and "schedule" in b for b in found), found
    assert any("limits" in b and "numba" in b for b in found), found


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
    for mod in ("verify", "kernels.verify"):
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
    there is in some header written here (movement, placement, limited)."""
    from morris.fileformat import TableFile
    from morris.progress import Reporter
    from morris.schedule import solve
    from morris.subspaces import Subspace
    from morris.variants import get_variant

    written = {".mtb": set(), ".mtw": set()}
    for variant, subs in ((get_variant("six", no_removal_limit=8, endgame_no_removal_limit=6), [Subspace(3, 3)]),
                          (get_variant("six"), [Subspace(3, 3, 1, 0)])):
        solve(tmp_path, variant, targets=subs, phase="all", reporter=Reporter(quiet=True))
    solve(tmp_path, get_variant("six"), targets=[Subspace(3, 3)], reporter=Reporter(quiet=True), dtw=True)
    for d, _, files in os.walk(tmp_path):
        for f in files:
            if f[-4:] in written:
                with TableFile(os.path.join(d, f)) as tf:
                    written[f[-4:]] |= set(tf.header)
    for suffix, title in ((".mtb", "## Header"), (".mtw", "## dtw files")):
        documented = _documented_header_keys(title)
        assert written[suffix] - documented == set(), f"{suffix}: written but not documented"
        assert documented - written[suffix] == set(), f"{suffix}: documented but never written"
