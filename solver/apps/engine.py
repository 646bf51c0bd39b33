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

``go`` takes UCI's limits: ``depth N`` (plies, for a searching player), ``movetime MS``,
``wtime``/``btime``/``winc``/``binc``/``movestogo`` (the mover's clock: a twentieth of it, or of
``movestogo`` moves, plus most of the increment), ``infinite`` (until ``stop``). A ``go`` runs
while the engine reads on: ``stop`` ends a search at once with the deepest ply it finished,
``isready`` answers at once, and any other command waits for the ``bestmove``. The perfect
player's lookups ignore the limits.

Options: ``Seed`` (tie-breaking), ``Variant`` (a built-in variant's name, ``morris --help``),
``Rules`` (a preset, ``morris rules``: its variant and options at once), ``DatabasePath``, and
one option per rule field (core/rulefields.py), named as the field in CamelCase: ``Flying``,
``DoubleMillRemoves``, ``NoRemovalLimit`` and ``EndgameNoRemovalLimit`` (plies, 0 for none;
limits.py), ``Pieces``, ``CountHand``, ``FullBoard``, ``PlaceOrMove``; a rule set so is kept when a
GUI names a variant afterwards. Under a limit a
FEN's no-removal counter is read, every move counts it, and ``go`` plays for the value at the
counter (``bestmove none`` with "drawn by the no-removal limit" once it is reached).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from collections import Counter

from ..core import rules
from .bot import PerfectPlayer
from ..core.errors import IllegalMoveError, MorrisError, UsageError
from ..core.position import Move, Position, WHITE, glue_removals
from ..lookups.tablebase import open_tablebase
from ..core.inputs import parse_int
from ..core.variants import PRESETS, RULE_FIELDS, Variant, get_variant
from .players import SearchPlayer, make_player

NAME = "morris perfect player"


def uci_name(field) -> str:
    """A rule field's UCI option: ``no_removal_limit`` -> ``NoRemovalLimit``."""
    return "".join(part.capitalize() for part in field.name.split("_"))


def uci_option(field, value) -> str:
    """The ``option`` line of a rule field with its current value (a limit: 0 for none)."""
    head = f"option name {uci_name(field)}"
    if field.kind is bool:
        return f"{head} type check default {'true' if value else 'false'}"
    if field.kind is int:
        lo = 0 if field.optional else field.lo
        return f"{head} type spin default {value or 0} min {lo} max {field.hi}"
    return f"{head} type combo default {value} " + " ".join(f"var {c}" for c in field.choices)


#: setoption's name (lower case) -> the rule field it sets
RULE_OPTIONS = {uci_name(f).lower(): f for f in RULE_FIELDS if f.flag}


class Engine:
    def __init__(self, db: str | None, variant=None, out=None, use_search=False, background=False):
        """``background``: each ``go`` runs on a thread while commands are read on (``stop``,
        ``isready``), as over stdin (:func:`run`); otherwise ``handle("go")`` returns after the
        bestmove."""
        self.out = out or sys.stdout
        self.background = background
        self.use_search = use_search
        self.db = db
        self.variant = variant or get_variant("standard")
        #: the rule flags the engine was started with where they differ from the variant's own:
        #: kept when a GUI names a variant (``setoption name Variant value standard``)
        self.overrides = {k: v for k, v in self.variant.changed_fields().items() if k != "pieces"}
        self.seed = None
        #: the player that moves (players.py): "perfect", or a weaker one for practice
        self.strength = "perfect"
        self.tb = None
        self._worker = None  # the thread of the go under way
        self._searcher = None  # the searching player of that go, which stop() ends
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
        if cmd in ("stop", "quit"):
            self._halt()
            return cmd != "quit"
        if cmd != "isready":
            self._wait()
        try:
            if cmd == "uci":
                self.send(f"id name {NAME}")
                self.send("id author the morris toolkit developers")
                self.send("option name Seed type spin default 0 min 0 max 2147483647")
                self.send("option name Variant type string default standard")
                names = " ".join(f"var {n}" for n in PRESETS)
                self.send(f"option name Rules type combo default standard {names}")
                self.send(f"option name DatabasePath type string default {self.db or ''}")
                for f in RULE_FIELDS:
                    if f.flag:
                        self.send(uci_option(f, getattr(self.variant.rules, f.name)))
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
                limits = go_limits(args, self.positions[-1].turn)
                if self.background:
                    self._worker = threading.Thread(target=self._go_reporting, args=limits, daemon=True)
                    self._worker.start()
                else:
                    self._go_reporting(*limits)
            elif cmd == "d":
                for row in self.positions[-1].diagram().splitlines():
                    self.send(f"# {row}")
                self.send(f"# fen {self.positions[-1].to_fen()}")
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
            self.variant = get_variant(value, **self.overrides)
            self.player = None
            self._reset()
        elif name == "rules":  # a preset: its variant and options, replacing the ones set before
            self.variant = get_variant(rules=value.strip())
            self.overrides = {}
            self.player = None
            self._reset()
        elif name in RULE_OPTIONS:  # a rule field (rulefields.py), the others kept
            f = RULE_OPTIONS[name]
            given = f.parse_text(value)
            if given is None and not f.optional:
                raise UsageError(f"{uci_name(f)} needs a value: {f.expected()}")
            changed = dataclasses.replace(self.variant.rules, **{f.name: given})
            self.variant = Variant(self.variant.name, self.variant.board, changed)
            self.overrides[f.name] = given  # (kept when a GUI names a variant next)
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

    def _wait(self):
        """Let the go under way finish (its bestmove comes first)."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def _halt(self):
        """``stop``: end the search under way now (it answers with what it finished)."""
        searcher = self._searcher
        if searcher is not None:
            searcher.stop()
        self._wait()

    def _go_reporting(self, depth, movetime):
        """A ``go`` on the worker thread: every failure is one ``info string`` and ``bestmove
        none``, never a thread that dies without an answer."""
        try:
            self._go(depth, movetime)
        except MorrisError as exc:
            self.send(f"info string error {type(exc).__name__}: {exc}")
            self.send("bestmove none")
        except Exception as exc:  # noqa: BLE001 (a GUI waits for a bestmove whatever happened)
            self.send(f"info string internal error {type(exc).__name__}: {exc}")
            self.send("bestmove none")
        finally:
            self._searcher = None

    def _go(self, depth=None, movetime=None):
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
            return self._go_weaker(pos, depth, movetime)
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

    def _go_weaker(self, pos, depth=None, movetime=None):
        """The move of a weaker player (``setoption name Strength``): its turn, or the removal
        that completes the turn the GUI played for it. A searching player keeps to ``depth``
        and ``movetime`` (seconds) where given, and says how deep it got."""
        if self.tb is None:
            self._player()
        player = make_player(self.strength, self.tb, self.variant, self.seed, movetime)
        if isinstance(player, SearchPlayer):
            player.depth = depth or player.depth
            self._searcher = player
        if self.pending is not None:  # a mill closed, its removal ours to choose: only removals
            fits = self._completes_pending(pos)
            planned = getattr(self, "_planned", None)
            if planned is None or not fits(planned):
                planned = player.choose(pos, fits)
                self._say_depth(player)
            self._planned = planned
            self.send(f"info string {self.strength} player; full turn {planned}")
            self.send(f"bestmove x{self._next_removal(pos, planned)}")
            return
        mv = player.choose(pos)
        self._say_depth(player)
        self._planned = mv
        self.send(f"info string {self.strength} player; full turn {mv}")
        self.send(f"bestmove {mv.to if mv.frm is None else f'{mv.frm}-{mv.to}'}")

    def _say_depth(self, player):
        """For a searching player: the ply it finished, and whether time or stop cut it."""
        if isinstance(player, SearchPlayer):
            why = " (cut short by the time or stop)" if player.cut else ""
            self.send(f"info depth {player.reached} string searched {player.reached} of "
                      f"{player.depth} plies{why}")

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


#: the seconds of ``go infinite`` (until ``stop``)
INFINITE = 1e9


def go_limits(args, turn) -> tuple:
    """(depth, movetime in seconds) from ``go``'s arguments (None where not given); the side to
    move (``turn``) picks its clock from wtime/btime."""
    names = ("depth", "movetime", "wtime", "btime", "winc", "binc", "movestogo")
    vals, infinite = {}, False
    i = 0
    while i < len(args):
        word = args[i].lower()
        if word == "infinite":
            infinite = True
            i += 1
        elif word in names:
            if i + 1 >= len(args):
                raise UsageError(f"go {word} needs a number")
            top = 64 if word == "depth" else 10 ** 9
            vals[word] = parse_int(args[i + 1], f"go {word}", 1 if word in ("depth", "movestogo") else 0, top)
            i += 2
        else:
            raise UsageError(f"go: unknown argument {args[i]!r} (depth, movetime, wtime, btime, "
                             f"winc, binc, movestogo, infinite)")
    depth = vals.get("depth")
    if infinite:
        return depth, INFINITE
    if "movetime" in vals:
        return depth, vals["movetime"] / 1000
    clock = vals.get("wtime" if turn == WHITE else "btime")
    if clock is not None:
        inc = vals.get("winc" if turn == WHITE else "binc", 0)
        return depth, (clock / vals.get("movestogo", 20) + 0.8 * inc) / 1000
    return depth, None


def run(db, variant=None, stdin=None, stdout=None, use_search=False):
    engine = Engine(db, variant, stdout, use_search, background=True)
    for line in stdin or sys.stdin:
        if not engine.handle(line):
            break
    engine._wait()  # input ended: the go under way still answers
