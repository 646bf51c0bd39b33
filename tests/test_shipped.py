"""The shipped data: found after a plain install and answered from without --db."""

import csv
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from morris.cli.main import cli
from morris.position import Position
from morris.shipped import data_dir
from morris.tablebase import open_tablebase
from morris.variants import get_variant
from morris.verify import verify

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_shipped_data_is_found_after_a_plain_install(tmp_path):
    """``pip install .`` (into a folder) carries data/ as morris/data, and a command run from
    anywhere answers from it without --db."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), ROOT],
                   check=True, capture_output=True, cwd=tmp_path)
    code = ("import sys; from morris.shipped import data_dir; print(data_dir()); "
            "from morris.cli.main import main; main(sys.argv[1:])")
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run([sys.executable, "-c", code, "query", "--variant", "six", "start"],
                         capture_output=True, text=True, cwd=tmp_path, env=env)
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith(str(target)), (out.stdout, out.stderr)
    for name in os.listdir(os.path.join(ROOT, "data", "six-nofly")):
        assert os.path.exists(os.path.join(lines[0], "six-nofly", name))
    assert lines[1] == "/ w 6 6: draw for white", out.stdout
    assert len(lines) == 2 + 16 and out.returncode == 0
