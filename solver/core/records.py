"""Game records: the move lists people paste or export, read into games of the toolkit.

One reader for the toolkit's own move tokens and the lists that Sanmill exports:

- tag lines in square brackets, ``[Key "value"]``; a ``FEN`` tag starts the game from that
  position instead of the empty board;
- move numbers (``1.``, ``12...``, ``3.`` glued to the move as in ``3.d2``) and results (``*``,
  ``1-0``, ``0-1``, ``1/2-1/2``), which are skipped;
- the turn tokens of docs/rules.md (``d2``, ``d2-d3``, ``g1xd2``), a removal either glued to its
  move or as a token of its own (``d6 xb4``);
- several games in one text: a result token ends a game, and so do tags that follow moves.

:func:`read_games` checks every game against the rules as it reads it (the no-removal counter
and threefold repetition included, through :class:`~morris.core.game.Game`): a token that is not a
move, a move that is not legal, a count that does not add up is one :class:`RecordError` naming
the game, the ply and the token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import MorrisError, UsageError
from .game import Game
from .position import Position, glue_removals

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_NUMBER = re.compile(r"^[0-9]+\.+")
RESULTS = ("*", "1-0", "0-1", "1/2-1/2")


class RecordError(UsageError):
    """A game record that cannot be played: the game, the ply and the token are named."""


@dataclass
class Record:
    """One game as read: its tags, where it starts, and its turn tokens with their plies."""

    number: int
    tags: dict = field(default_factory=dict)
    tokens: list = field(default_factory=list)  # (ply, token) with removals glued on
    result: str | None = None


def split_records(text: str) -> list[Record]:
    """The games of a text, tokenised (no rules applied yet)."""
    games: list[Record] = []
    cur = Record(1)
    raw: list[str] = []

    def close():
        nonlocal cur, raw
        if raw or cur.tags or cur.result:
            cur.tokens = list(enumerate(glue_removals_named(raw, cur.number), start=1))
            games.append(cur)
            cur = Record(len(games) + 1)
        raw = []

    for line_no, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(("#", ";", "%")):
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                raise RecordError(f"game {cur.number}: line {line_no} is not a tag line: {line[:60]!r}")
            if raw or cur.result:  # tags after moves start the next game
                close()
            cur.tags[m.group(1)] = m.group(2)
            continue
        for word in line.split():
            word = _NUMBER.sub("", word)
            if not word:
                continue
            if word in RESULTS:
                cur.result = word
                close()
                continue
            raw.append(word)
    close()
    return games


def glue_removals_named(words, game: int) -> list[str]:
    """:func:`~morris.core.position.glue_removals`, the error naming the game."""
    try:
        return glue_removals(words)
    except MorrisError as exc:
        raise RecordError(f"game {game}: {exc}") from None


def play_record(record: Record, variant) -> Game:
    """The game of a record, every move checked against the rules."""
    fen = record.tags.get("FEN")
    try:
        start = Position.parse(fen, variant) if fen else Position.start(variant)
    except MorrisError as exc:
        raise RecordError(f"game {record.number}: its FEN tag: {exc}") from None
    game = Game(start)
    for ply, token in record.tokens:
        try:
            game.push(token)
        except MorrisError as exc:
            raise RecordError(f"game {record.number}, ply {ply}, {token!r}: {exc}") from None
    return game


def read_games(text: str, variant) -> list[tuple[Record, Game]]:
    """Every game of ``text``, read and played; :class:`RecordError` for the first bad one."""
    games = [(r, play_record(r, variant)) for r in split_records(text)]
    if not games:
        raise RecordError("no game in the input (expected move tokens such as: d2 f4 d6xb4 ...)")
    return games
