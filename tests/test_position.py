import pytest

from morris.core.errors import IllegalMoveError, IllegalPositionError
from morris.core.position import BLACK, WHITE, Move, Position

START_FEN = "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1"


def test_start_position_fen_is_sanmills():
    assert Position.start().to_fen() == START_FEN
    assert Position.from_fen(START_FEN) == Position.start()
    assert Position.parse(START_FEN) == Position.start()


@pytest.mark.parametrize("text", ["start", "startpos", " START "])
def test_start_keyword_parses_to_the_start_position(text):
    assert Position.parse(text, "six") == Position.start("six")
    assert Position.parse(text) != Position.start("six")


def test_compact_round_trip_and_defaults():
    p = Position.parse("a1,d1,g1/a7,d7,g7 w")
    assert p.turn == WHITE and p.white_hand == 0 and p.black_hand == 0
    assert p.to_compact() == "a1,d1,g1/a7,d7,g7 w"
    q = Position.parse("d1,a1/d2 w 7 8")
    assert q.to_compact() == "a1,d1/d2 w 7 8"
    assert Position.parse(q.to_compact()) == q
    assert Position.parse("/ w 9 9") == Position.start()
    assert Position.parse("a1/ b 8 9").turn == BLACK


def test_fen_board_order_is_inner_middle_outer_from_d_file_clockwise():
    p = Position.parse("d5,a7,g1/e5,b2,f2 b")
    fen = p.to_fen()
    board = fen.split()[0]
    inner, middle, outer = board.split("/")
    assert inner == "O@******"  # d5 white, e5 black
    assert outer[-1] == "O"  # a7 is the last point of the outer ring
    assert Position.from_fen(fen) == p
    assert fen.split()[1:4] == ["b", "m", "s"]


def test_fen_counts_are_checked():
    with pytest.raises(IllegalPositionError, match="white has 2 on the board"):
        Position.from_fen("O*******/********/******** b p p 2 8 0 9 0 0 -1 -1 -1 -1 0 0 1")


def test_fen_with_pending_removal_is_refused_clearly():
    with pytest.raises(IllegalPositionError, match="middle of a removal"):
        Position.from_fen("********/********/***OOO** w p r 3 6 0 9 1 0 -1 -1 -1 -1 0 0 3")


@pytest.mark.parametrize(
    "text, message",
    [
        ("a1,z9/d2 w 7 8", "unknown point 'z9'"),
        ("a1,a1/d2 w 7 8", "point a1 is listed twice"),
        ("a1,d2/d2 w 7 8", "point d2 is listed as both white and black"),
        ("a1,a4,a7,b2,b4,b6,c3,c4,c5,d1/d2 w", "10 white pieces on the board"),
        ("a1,d1/d2 w 8 8", "white has 2 on the board and 8 in hand"),
        ("a1,d1/d2 w 0 5", "white to move with no piece in hand while black still has 5"),
        ("a1,d1/d2 x", "side to move 'x'"),
        ("a1,d1 w", "separated by one '/'"),
        ("a1,d1/d2 w 7", "malformed position"),
        ("a1/d2 w seven 8", "'seven' is not a number"),
        ("", "empty position"),
    ],
)
def test_bad_positions_name_the_problem(text, message):
    with pytest.raises(IllegalPositionError, match=message):
        Position.parse(text)


def test_six_mens_positions_and_fen():
    p = Position.parse("a1,d1/b2 b 4 5", "six")
    assert Position.parse(p.to_fen(), "six") == p
    # a FEN's side to move must be the one placement alternation gives its hands (compact
    # notation takes any state; a Sanmill FEN comes from a game)
    with pytest.raises(IllegalPositionError, match="so black places next"):
        Position.parse(Position.parse("a1,d1/b2 w 4 5", "six").to_fen(), "six")
    with pytest.raises(IllegalPositionError, match="unknown point .d5. \\(the six board"):
        Position.parse("d5/a1 w", "six")
    with pytest.raises(IllegalPositionError, match="7 white pieces"):
        Position.parse("a1,a4,a7,b2,b4,b6,d1/g1 w", "six")


@pytest.mark.parametrize("token", ["d2", "d2-d3", "g1xd2", "a4-a7xd2", "g1xd2xf4"])
def test_move_tokens_round_trip(token):
    assert str(Move.parse(token)) == token


@pytest.mark.parametrize("token, message", [("xd2", "removal on its own"), ("d2-", "malformed"), ("h1", "malformed")])
def test_bad_move_tokens(token, message):
    with pytest.raises(IllegalMoveError, match=message):
        Move.parse(token)
