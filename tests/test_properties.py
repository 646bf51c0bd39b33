"""Property tests over random legal games (hypothesis)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris.core import rules
from morris.core.position import WHITE, Position
from morris.core.variants import FLY_AT, get_variant

VARIANTS = [
    get_variant("standard"),
    get_variant("six"),
    get_variant("standard", double_mill_removes=2),
    get_variant("standard", flying=False),
    get_variant("standard-4"),
]


@st.composite
def games(draw):
    variant = draw(st.sampled_from(VARIANTS))
    length = draw(st.integers(0, 80))
    pos = Position.start(variant)
    steps = []
    for _ in range(length):
        moves = pos.legal_moves()
        if not moves:
            break
        move = moves[draw(st.integers(0, len(moves) - 1))]
        nxt = pos.play(move)
        steps.append((pos, move, nxt))
        pos = nxt
    return variant, steps


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_notations_round_trip(game):
    variant, steps = game
    for pos, move, _ in steps:
        assert Position.parse(pos.to_compact(), variant) == pos
        assert Position.parse(pos.to_fen(), variant) == pos
        assert str(type(move).parse(str(move))) == str(move)


@SETTINGS
@given(games())
def test_piece_counts_never_go_wrong(game):
    variant, steps = game
    removed = [0, 0]
    for pos, move, nxt in steps:
        victim = 1 - pos.turn
        removed[victim] += len(move.removes)
        for color in (0, 1):
            hand = nxt.white_hand if color == WHITE else nxt.black_hand
            assert nxt.count(color) + hand + removed[color] == variant.pieces
        assert nxt.count(pos.turn) == pos.count(pos.turn) + (1 if pos.in_placement else 0)


@SETTINGS
@given(games())
def test_every_removal_obeys_the_mill_rule(game):
    variant, steps = game
    board = variant.board
    for pos, move, _ in steps:
        opp = pos.opponent
        for name in move.removes:
            bit = 1 << board.index[name]
            assert opp & bit
            in_mill = rules.pieces_in_mills(board, opp)
            if bit & in_mill:
                assert opp & ~in_mill == 0, "a piece in a mill was taken while others were free"
            opp ^= bit
        if move.removes:
            to = board.index[move.to]
            after = pos.mover | (1 << to)
            if move.frm:
                after ^= 1 << board.index[move.frm]
            closed = rules.mills_closed(board, after, to)
            assert closed >= 1
            expected = 1 if variant.rules.double_mill_removes == 1 else closed
            assert len(move.removes) == min(expected, pos.count(1 - pos.turn))


@SETTINGS
@given(games())
def test_flying_only_with_exactly_three_after_placement(game):
    variant, steps = game
    board = variant.board
    for pos, move, _ in steps:
        if move.frm is None:
            assert pos.mover_hand > 0
            continue
        assert not pos.in_placement
        a, b = board.index[move.frm], board.index[move.to]
        if not board.adjacency[a] >> b & 1:
            assert variant.rules.flying and pos.count(pos.turn) == FLY_AT


@SETTINGS
@given(games())
def test_has_turns_agrees_with_listing_turns(game):
    variant, steps = game
    for pos, _, nxt in steps:
        for p in (pos, nxt):
            state = (p.mover, p.opponent, p.mover_hand, p.opponent_hand)
            assert rules.has_turns(variant, *state) == bool(rules.turns(variant, *state))
