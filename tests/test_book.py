"""The shipped opening book of the standard game, checked against the search and the verifier
(found after a plain install: test_shipped.py)."""

import csv
import os

import pytest
from click.testing import CliRunner

from morris.cli.main import cli
from morris.core.position import Position
from morris.database.shipped import data_dir
from morris.lookups.tablebase import open_tablebase
from morris.core.variants import get_variant
from morris.solving.verify import verify

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def book_subspaces():
    d = os.path.join(data_dir(), "standard")
    return sorted(f[:-4] for f in os.listdir(d) if f.endswith(".mtb"))


def test_the_book_is_shipped():
    names = book_subspaces()
    assert "0-0+9+9" in names and "0-1+9+8" in names
    assert all("+" in n for n in names)  # placement files only
    size = sum(os.path.getsize(os.path.join(data_dir(), "standard", n + ".mtb")) for n in names)
    assert size <= 26e6


def test_the_start_and_its_moves_come_from_the_book_without_flags():
    result = CliRunner().invoke(cli, ["query", "--json", "start"])
    assert result.exit_code == 0, result.output
    import json

    obj = json.loads(result.output.splitlines()[-1])
    assert obj["value"] == "draw" and len(obj["moves"]) == 24
    assert {m["value"] for m in obj["moves"]} <= {"draw", "loss"}


def test_the_book_agrees_with_the_search():
    """data/book-check.tsv: random book positions valued by alpha-beta search over the movement
    databases when the book was made (scripts/make_book.py); the book must say the same."""
    path = os.path.join(data_dir(), "book-check.tsv")
    v = get_variant("standard")
    with open(path) as f, open_tablebase(None, search="never") as tb:
        rows = list(csv.DictReader(f, delimiter="\t"))
        assert len(rows) >= 100
        for row in rows:
            assert tb.probe_wdl(Position.parse(row["position"], v)) == row["value by search"], row


def test_the_book_verifies():
    """The independent verifier on a sample of every book file; the last layer's children are
    not shipped, so those files are skipped, and only those."""
    report = verify(os.path.join(data_dir(), "standard"), sample=3000)
    deepest = max(2 * 9 - int(n.split("+")[1]) - int(n.split("+")[2]) for n in book_subspaces())
    for f in report.files:
        hm, ho = (int(x) for x in f.subspace.split("+")[1:])
        assert f.checksum == "ok" and f.mismatches == 0, f
        if f.skipped:
            assert 18 - hm - ho == deepest, f
        else:
            assert f.checked > 0
    # the book carries dtw (scripts/make_book.py ships it from the start as deep as it fits):
    # checked as well
    dtw = {f.subspace for f in report.files if f.path.endswith(".mtw")}
    assert "0-0+9+9" in dtw and dtw <= set(book_subspaces())
    assert sum(f.checked for f in report.files if f.path.endswith(".mtw") and not f.skipped) > 10000
    # and draw values, from the start as deep as they fit
    dv = {f.subspace for f in report.files if f.path.endswith(".mdv")}
    assert "0-0+9+9" in dv and dv <= set(book_subspaces())
    assert sum(f.checked for f in report.files if f.path.endswith(".mdv") and not f.skipped) > 10000


def test_the_book_answers_dtw_without_db():
    """A won book position after 8 plies: dtw from the shipped files, odd for a win, and the
    fastest winning move's dtw the position's (moves are valued for the side playing them)."""
    import json

    result = CliRunner().invoke(cli, ["query", "--json", "a1,b2,d1,g1/a7,b6,d7,g7 w 5 5"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output.splitlines()[-1])
    assert obj["value"] == "win" and obj["dtw"] % 2 == 1
    wins = [m["dtw"] for m in obj["moves"] if m["value"] == "win"]
    assert min(wins) == obj["dtw"] and max(wins) > min(wins)


def test_the_book_answers_draw_values_without_db():
    """A drawn book position after 2 plies with draw value +47 (one drawing move keeps it, the
    others give less): the position's draw value is its best drawing move's, from the shipped
    files, and the bot plays that move."""
    import json

    pos = "b4/a1 w 8 8"
    result = CliRunner().invoke(cli, ["query", "--json", pos])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output.splitlines()[-1])
    assert obj["value"] == "draw" and obj["draw_value"] == 47
    draws = {m["move"]: m["draw_value"] for m in obj["moves"] if m["value"] == "draw"}
    best = max(draws.values())
    assert best == obj["draw_value"] and min(draws.values()) < best
    result = CliRunner().invoke(cli, ["bestmove", "--json", "--seed", "1", pos])
    assert result.exit_code == 0, result.output
    move = json.loads(result.output.splitlines()[-1])["move"]
    assert draws[move] == best


@pytest.mark.parametrize("args", [["query", "start"], ["bestmove", "start"]])
def test_commands_answer_the_start_without_db(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "MissingSubspaceError" not in result.output
