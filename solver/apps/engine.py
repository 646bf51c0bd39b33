"""``morris engine``: the UCI-style protocol that Sanmill and its tools speak, over stdin/stdout.

Commands: ``uci``, ``isready``, ``setoption name N value V``, ``ucinewgame``,
``position startpos|fen <fen> [moves ...]``, ``go``, ``d``, ``stop``, ``quit``.

As in Sanmill, each token is one atomic action: a placement (``d6``), a move (``d6-d5``) or a
removal (``xb4``), so a turn that closes a mill is two tokens and leaves a removal pending in
between. ``go`` answers with ``bestmove <token>``: the next action of the perfect player's turn
(its placement or move, then, once the GUI has played that, its removal); ``bestmove draw`` after
threefold repetition, ``bestmove none`` when the game is over or no database covers the position
(an ``info string`` line says why). Scores are from White's point of view: ``score cp 0`` for a
draw, ``score cp +/-(1000 - dtc)`` for a win/loss with distance dtc.

Options: ``Seed`` (tie-breaking), ``Variant`` (standard, six, standard-N, morabaraba, twelve), ``DatabasePath``,
``NoRemovalLimit`` and ``EndgameNoRemovalLimit`` (plies, 0 for none; limits.py). Under a limit a
FEN's no-removal counter is read, every move counts it, and ``go`` plays for the value at the
counter (``bestmove none`` with "drawn by the no-removal limit" once it is reached).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections import Counter

from ..core import rules
from .bot import PerfectPlayer
from ..core.errors import IllegalMoveError, MorrisError, UsageError
from ..core.position import Move, Position, WHITE, glue_removals
from ..lookups.tablebase import open_tablebase
from ..core.inputs import parse_int
from ..core.variants import VARIANTS, Variant, get_variant
from .players import make_player

NAME = "morris perfect player"


class Engine:
    def __init__(self, db: str | None, variant=None, out=None, use_search=False):
        self.out = out or sys.stdout
        self.use_search = use_search
        self.db = db
        self.variant = variant or get_variant("standard")
        #: the rule flags the engine was started with where they differ from the variant's own:
        #: kept when a GUI names a variant (``setoption name Variant value standard``)
        base = VARIANTS.get(self.variant.name)
        self.overrides = {f: getattr(self.variant.rules, f) for f in ("flying", "double_mill_removes")
                          if base is None or getattr(base.rules, f) != getattr(self.variant.rules, f)}
        self.seed = None
        #: the player that moves (players.py): "perfect", or a weaker one for practice
        self.strength = "perfect"
        self.tb = None
        self._reset()

    # ------------------------------------------------------------------ io
    def send(self, line: str):
        self.out.write(line + "\n")
        self.out.flush()

    def _reset(self):
        self.start = Position.start(self.variant)
        self.positions = [self.start]
        self.pending = None  # (frm, to, removed-so-far) of a turn waiting for its removals
        self.player = None

    def _player(self):
        if self.player is None:
            if self.tb is None:
                self.tb = open_tablebase(self.db or None, search="always" if self.use_search else "auto")
                self.tb.prepare_search(self.variant)
            self.player = PerfectPlayer(self.tb, self.seed)
        return self.player

    # ------------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """Run one command line; False after ``quit``."""
        parts = line.strip().split()
        if not parts:
            return True
        cmd, args = parts[0], parts[1:]
        try:
            if cmd == "uci":
                self.send(f"id name {NAME}")
                self.send("id author the morris toolkit developers")
                self.send("option name Seed type spin default 0 min 0 max 2147483647")
                self.send("option name Variant type string default standard")
                self.send(f"option name DatabasePath type string default {self.db or ''}")
                r = self.variant.rules
                self.send(f"option name NoRemovalLimit type spin default {r.no_removal_limit or 0} min 0 max 10000")
                self.send(f"option name EndgameNoRemovalLimit type spin default {r.endgame_no_removal_limit or 0} "
                          f"min 0 max 10000")
                self.send(f"option name Strength type string default {self.strength}")
                self.send("uciok")
            elif cmd == "isready":
                self.send("readyok")
            elif cmd == "setoption":
                self._setoption(args)
            elif cmd == "ucinewgame":
                self._reset()
            elif cmd == "position":
                self._position(args)
            elif cmd == "go":
                self._go()
            elif cmd == "d":
                for row in self.positions[-1].diagram().splitlines():
                    self.send(f"# {row}")
                self.send(f"# fen {self.positions[-1].to_fen()}")
            elif cmd == "stop":
                pass  # lookups are immediate; nothing runs in the background
            elif cmd == "quit":
                return False
            else:
                self.send(f"info string unknown command {cmd}")
        except MorrisError as exc:
            self.send(f"info string error {type(exc).__name__}: {exc}")
            if cmd == "go":
                self.send("bestmove none")
        return True

    def _setoption(self, args):
        if "name" not in args:
            raise MorrisError("setoption needs: name <option> [value <value>]")
        i = args.index("name")
        j = args.index("value") if "value" in args else len(args)
        name = " ".join(args[i + 1 : j]).lower()
        value = " ".join(args[j + 1 :])
        if name == "seed":
            self.seed = parse_int(value, "Seed", 0, 2147483647)
            self.player = None
        elif name == "variant":
            r = self.variant.rules
            self.variant = get_variant(value, no_removal_limit=r.no_removal_limit,
                                       endgame_no_removal_limit=r.endgame_no_removal_limit,
                                       **self.overrides)
            self.player = None
            self._reset()
        elif name in ("noremovallimit", "endgamenoremovallimit"):
            plies = parse_int(value, f"{name} (plies; 0 for none)", 0, 10000)
            field = "no_removal_limit" if name == "noremovallimit" else "endgame_no_removal_limit"
            changed = dataclasses.replace(self.variant.rules, **{field: plies or None})
            self.variant = Variant(self.variant.name, self.variant.board, changed)
            self.player = None
            self._reset()
        elif name == "strength":

            make_player(value, None, self.variant)  # a bad name is refused here
            self.strength = value
            self.player = None
        elif name in ("databasepath", "perfectdatabasepath"):
            if value and not os.path.isdir(value):  # refused here, the old path kept
                raise UsageError(f"{name}: {value} is not a directory (the database path "
                                 f"stays {self.db or 'unset'})")
            self.db = value or None
            self.tb = None
            self.player = None
        else:
            self.send(f"info string unknown option {name}")

    def _position(self, args):
        if not args:
            raise MorrisError("position needs startpos or fen <fen>")
        if args[0] == "startpos":
            start = Position.start(self.variant)
            rest = args[1:]
        elif args[0] == "fen":
            k = args.index("moves") if "moves" in args else len(args)
            fen = " ".join(a for a in args[1:k] if a != "ids:nodes")
            start = Position.from_fen(fen, self.variant)
            rest = args[k:]
        else:
            raise MorrisError(f"position {args[0]!r}: expected startpos or fen")
        if rest and rest[0] != "moves":
            raise MorrisError(f"unexpected {rest[0]!r} after the position (expected moves)")
        positions = [start]
        pending = None
        for tok in glue_removals(rest[1:]):
            positions, pending = self._action(positions, pending, tok)
        self.start, self.positions, self.pending = start, positions, pending

    def _action(self, positions, pending, tok):
        """Apply one atomic action; return the new history and pending turn."""
        pos = positions[-1]
        board = pos.board
        if pending is not None:
            raise IllegalMoveError(f"{tok}: the previous move still has to remove a piece")
        mv = Move.parse(tok)
        if mv.removes:  # a glued token is a whole turn
            return positions + [pos.play(mv)], None
        if mv.to not in board.index or (mv.frm and mv.frm not in board.index):
            raise IllegalMoveError(f"{tok}: not a point of the board")
        frm, to = -1 if mv.frm is None else board.index[mv.frm], board.index[mv.to]
        turns = pos.legal_turns()
        if (frm, to, 0) in turns:
            return positions + [pos.play_turn((frm, to, 0))], None
        if any(t[0] == frm and t[1] == to and t[2] for t in turns):
            return positions, (frm, to, 0)  # a mill closed: its removal comes next
        pos.turn_of_move(tok)  # raises with the reason
        raise IllegalMoveError(f"illegal action {tok}")

    def _go(self):
        pos = self.positions[-1]
        if pos.outcome() is not None:
            by_rules = rules.terminal(pos.variant, *pos.state)
            why = (f"drawn by the no-removal limit ({pos.limit} plies without a removal)"
                   if by_rules is None else "the game is over")
            self.send(f"info string {why}")
            self.send("bestmove none")
            return
        if Counter(p.key for p in self.positions)[pos.key] >= 3:
            self.send("info string threefold repetition")
            self.send("bestmove draw")
            return
        if self.strength != "perfect":
            return self._go_weaker(pos)
        choice = self._player().choose(pos, Counter(p.key for p in self.positions))
        a = choice.analysis
        if a.source == "search":
            why = f"no database holds {a.missing}" if a.missing else "search forced"
            self.send(f"info string search: {why}; valued by exact search in {a.search_seconds:.2f} s")
        if self.pending is not None:
            # the GUI played our move; pick the best removal that goes with it
            fits = self._completes_pending(pos)
            best = next(m for m in choice.analysis.moves if fits(m.move))  # sorted best first
            self._score(pos, best.value, best.dtc, best.dtw, best.draw)
            self.send(f"bestmove x{self._next_removal(pos, best.move)}")
            return
        self._score(pos, choice.value, choice.dtc, choice.dtw, choice.info.draw)
        mv = choice.move
        head = mv.to if mv.frm is None else f"{mv.frm}-{mv.to}"
        self.send(f"info string {choice.rule}; full turn {mv}")
        self.send(f"bestmove {head}")

    def _go_weaker(self, pos):
        """The move of a weaker player (``setoption name Strength``): its turn, or the removal
        that completes the turn the GUI played for it."""
        if self.tb is None:
            self._player()
        if self.pending is not None:  # a mill closed, its removal ours to choose: only removals
            fits = self._completes_pending(pos)
            planned = getattr(self, "_planned", None)
            if planned is None or not fits(planned):
                planned = make_player(self.strength, self.tb, self.variant, self.seed).choose(pos, fits)
            self._planned = planned
            self.send(f"info string {self.strength} player; full turn {planned}")
            self.send(f"bestmove x{self._next_removal(pos, planned)}")
            return
        mv = make_player(self.strength, self.tb, self.variant, self.seed).choose(pos)
        self._planned = mv
        self.send(f"info string {self.strength} player; full turn {mv}")
        self.send(f"bestmove {mv.to if mv.frm is None else f'{mv.frm}-{mv.to}'}")

    def _completes_pending(self, pos):
        """A predicate on moves of ``pos``: the whole turns that complete the pending one (its
        slide or placement, the removals made so far among theirs)."""
        frm, to, removed = self.pending

        def fits(move):
            f, t, r = pos.turn_of_move(move)
            return (f, t) == (frm, to) and r & removed == removed

        return fits

    def _next_removal(self, pos, move) -> str:
        """The first removal of ``move`` that the pending turn has not made yet."""
        removed = self.pending[2]
        return next(r for r in move.removes if not removed >> pos.board.index[r] & 1)

    def _score(self, pos, value, dtc, dtw=None, draw=None):
        """The info line: a score in centipawns for White (a draw's draw value, docs/draws.md,
        where the files hold it), then the value and its distances."""
        cp = (draw or 0) if value == "draw" else (1000 - (dtc or 0)) * (1 if value == "win" else -1)
        if pos.turn != WHITE:
            cp = -cp
        extra = ("" if dtc is None else f" dtc {dtc}") + ("" if dtw is None else f" dtw {dtw}")
        extra += "" if draw is None else f" drawvalue {draw}"
        self.send(f"info depth 0 score cp {cp} string {value}{extra}")


def run(db, variant=None, stdin=None, stdout=None, use_search=False):
    engine = Engine(db, variant, stdout, use_search)
    for line in stdin or sys.stdin:
        if not engine.handle(line):
            break
