"""Each rule field declared once (morris.core.rulefields): every field, at values other than its
default, round-trips through its ``morris`` option, the header fields of its files, its ruleset
folder, the explorer's query parameters and ``get_variant``; the stats page's links keep their
files' rules."""

import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import click
import pytest
from click.testing import CliRunner

from morris.core.errors import UnknownVariantError
from morris.core.variants import RULE_FIELDS, VARIANTS, Rules, get_variant, variant_from_fields


def _samples(f):
    """Values of field ``f`` other than its default (the ends of a range, each choice, the
    other truth value)."""
    if f.kind is bool:
        return [not f.default]
    if f.kind is int:
        return sorted({f.lo, f.lo + 1, f.hi} - {f.default})
    return [c for c in f.choices if c != f.default]


def _variants():
    """(base name, field, value, variant) for every sample value of every field, on each
    built-in variant where the rules allow it."""
    out = []
    for f in RULE_FIELDS:
        for value in _samples(f):
            for name in ("standard", "six", "morabaraba", "lasker"):
                if getattr(VARIANTS[name].rules, f.name) == value:
                    continue  # (the variant's own: Six does not fly)
                try:
                    v = get_variant(name, **{f.name: value})
                except UnknownVariantError:
                    continue  # (12 a side on Six's 16 points; place-or-move without the hand)
                out.append((name, f, value, v))
    return out


CASES = _variants()


def test_the_table_is_the_rules_dataclass():
    import dataclasses

    assert [f.name for f in RULE_FIELDS] == [f.name for f in dataclasses.fields(Rules)]
    assert all(getattr(Rules(), f.name) == f.default for f in RULE_FIELDS)
    assert len(CASES) >= 3 * len(RULE_FIELDS)
    # every field is set somewhere by get_variant, count_hand included (it could not be)
    assert {f.name for _, f, _, _ in CASES} == {f.name for f in RULE_FIELDS}


def _cli_variant(flags: str):
    """(repr of the rules, board) that a command with the shared rule options makes of ``flags``."""
    from cli.options import make_variant, variant_options

    @click.command()
    @variant_options
    def probe(**kw):
        v = make_variant(kw)
        click.echo(repr(v.rules))
        click.echo(v.board.name)

    r = CliRunner().invoke(probe, flags.split())
    assert r.exit_code == 0, (flags, r.output)
    return r.output.splitlines()


@pytest.mark.parametrize("base,f,value,v", CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_each_field_round_trips(base, f, value, v):
    assert getattr(v.rules, f.name) == value
    # the morris option: the flags the variant prints select it again
    flags = v.cli_flags()
    assert _cli_variant(flags) == [repr(v.rules), v.board.name], flags
    # the header's fields and the folder: the rules back, but the piece count (files serve every
    # count, so a header names none and takes the most the board holds)
    from morris.database.folders import ruleset_fields

    fields = ruleset_fields(v)
    back = variant_from_fields(fields)
    assert back.ruleset_id == fields["ruleset"] == v.ruleset_id
    assert {k: getattr(back.rules, k) for k in _file_fields()} == {k: getattr(v.rules, k) for k in _file_fields()}
    assert v.board == back.board
    if f.header == "never":
        assert f.name not in fields and v.ruleset_id == get_variant(base).ruleset_id
    else:
        assert v.ruleset_id != get_variant(base).ruleset_id  # its own folder
        assert fields[f.name] == value
    # the explorer's parameters
    from morris.apps.explorer import variant_of

    q = variant_of(v.query_params())
    assert q.ruleset_id == v.ruleset_id and q.board == v.board
    # describe(), as a worker process receives it
    assert variant_from_fields(v.describe()) == v


def _file_fields():
    return [f.name for f in RULE_FIELDS if f.header != "never"]


def test_folders_of_different_rules_differ():
    """No two rule sets share a folder: the ruleset name tells every field apart."""
    seen = {}
    for _, _, _, v in CASES:
        key = (v.board.name, tuple(getattr(v.rules, k) for k in _file_fields()))
        seen.setdefault(v.ruleset_id, set()).add(key)
    assert all(len(keys) == 1 for keys in seen.values()), {k: s for k, s in seen.items() if len(s) > 1}


def test_the_builtins_keep_their_folders_and_flags():
    """The folder names and option flags of the built-in variants, as every database and hint
    before the table had them."""
    folders = {"standard": "standard", "six": "six-nofly", "morabaraba": "morabaraba-hand",
               "twelve": "morabaraba-nofly-hand", "lasker": "standard-hand-lasker",
               **{f"standard-{k}": "standard" for k in range(3, 9)}}
    assert {n: VARIANTS[n].ruleset_id for n in folders} == folders
    assert all(VARIANTS[n].cli_flags() == f"--variant {n}" for n in VARIANTS)
    assert get_variant("six", double_mill_removes=2).cli_flags() == "--variant six --double-mill-removes 2"
    assert get_variant("standard", no_removal_limit=50, endgame_no_removal_limit=10).ruleset_id == \
        "standard-limit50-endgame10"


def test_unknown_options_and_bad_values_are_named():
    with pytest.raises(TypeError, match="count_hands"):
        get_variant("six", count_hands=True)
    with pytest.raises(UnknownVariantError, match="full board"):
        get_variant("standard", full_board="win")
    with pytest.raises(UnknownVariantError, match="flying"):
        get_variant("standard", flying="yes")
    with pytest.raises(UnknownVariantError, match="needs count_hand"):
        get_variant("standard", place_or_move=True)


def test_the_stats_page_links_keep_their_rules(tmp_path):
    """Every link of /stats opens the explorer on its file's rules (it once sent every ruleset but
    Six's to the standard rules)."""
    from morris.apps.explorer import variant_of
    from morris.apps.statspage import stats_page
    from morris.hashing.subspaces import Subspace
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve

    rules = [get_variant("morabaraba"), get_variant("lasker"), get_variant("six", no_removal_limit=8),
             get_variant("six", double_mill_removes=2, full_board="loss"),
             get_variant("standard", flying=False, double_mill_removes=2), get_variant("six", count_hand=True)]
    for v in rules:
        solve(tmp_path, v, targets=[Subspace(3, 3)], reporter=Reporter(quiet=True), dtw=not v.limited)

    class Tables:
        paths = [str(tmp_path)]

    page, status = stats_page(Tables(), {})
    assert status == 200
    found = {}
    for row in re.findall(r'<tr class="subspace".*?</tr>', page):
        ruleset = re.search(r'<td class="l">([^<]*)</td>', row).group(1)
        for href in re.findall(r'<a href="(/\?[^"]*)"', row):
            params = {k: vs[0] for k, vs in parse_qs(urlparse(unescape(href)).query).items()}
            found.setdefault(ruleset, set()).add(variant_of(params).ruleset_id)
    # (the links are to the longest dtw wins and losses: rules with a limit have no dtw)
    assert found == {v.ruleset_id: {v.ruleset_id} for v in rules if not v.limited}
