"""The shipped data: found after a plain install and answered from without --db."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_shipped_data_is_found_after_a_plain_install(tmp_path):
    """``pip install .`` (into a folder) carries data/ as morris/data, and a command run from
    anywhere answers from it without --db: Six Men's Morris, and the standard start from the
    opening book (no search)."""
    target = tmp_path / "site"
    # from a copy without build outputs: pip builds in the tree, and a build/ folder left by an
    # earlier install could carry files that the package data no longer names
    src = tmp_path / "src"
    # (nor the databases a long solve may be writing into the checkout: tb-*, gitignored)
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", "node_modules",
        "tb-*", "tb"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(src)],
                   check=True, capture_output=True, cwd=tmp_path)
    code = ("import sys; from morris.database.shipped import data_dir; print(data_dir()); "
            "from morris.cli.main import main; main(sys.argv[1:])")
    env = dict(os.environ, PYTHONPATH=str(target))

    def query(*args):
        out = subprocess.run([sys.executable, "-c", code, "query", *args],
                             capture_output=True, text=True, cwd=tmp_path, env=env)
        lines = out.stdout.splitlines()
        assert lines and lines[0].startswith(str(target)), (out.stdout, out.stderr)
        assert out.returncode == 0 and "search" not in out.stderr, out.stderr
        return lines

    lines = query("--variant", "six", "start")
    for name in os.listdir(os.path.join(ROOT, "data", "six-nofly")):
        assert os.path.exists(os.path.join(lines[0], "six-nofly", name))
    assert lines[1] == "/ w 6 6: draw for white", lines
    assert len(lines) == 2 + 16
    lines = query("start")
    assert os.path.exists(os.path.join(lines[0], "standard", "0-0+9+9.mtb"))
    # the book's draw values are installed with it: the start's draw value
    assert lines[1] == "/ w 9 9: draw (+0: can force a settlement worth +0) for white", lines
    assert len(lines) == 2 + 24
    # every file SHA256SUMS lists is installed (the book's dtw and draw-value files too)
    with open(os.path.join(ROOT, "data", "SHA256SUMS")) as f:
        listed = [line.split(None, 1)[1].strip().lstrip("*") for line in f if line.strip()]
    missing = [n for n in listed if not os.path.exists(os.path.join(lines[0], n))]
    assert not missing and any(n.endswith(".mtw") for n in listed), missing[:5]
    assert any(n.endswith(".mdv") for n in listed)
