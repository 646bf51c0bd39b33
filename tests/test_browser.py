"""The explorer in a real browser: headless Chromium loads a position, checks the board and the
move list, plays a winning move by a click on its link and one on the board, and saves a
screenshot."""

import urllib.parse

import pytest

from browser import find_chromium, start_browser
from morris.core.position import Position

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
found, why = find_chromium()
if found is None:
    pytest.skip(why, allow_module_level=True)

from test_server import start_server  # noqa: E402

WIN = "a1,d1,g1/a7,d7,g7 w"


@pytest.fixture(scope="session")  # (session: see conftest.SHARED_FIXTURES)
def site(solved):
    base, stop = start_server(solved)
    driver = start_browser()
    driver.set_page_load_timeout(60)
    yield base, driver
    driver.quit()
    stop()


def board_state(driver):
    from selenium.webdriver.common.by import By

    pieces = {}
    for g in driver.find_elements(By.CSS_SELECTOR, "#board .point"):
        owner = g.get_attribute("data-owner")
        if owner:
            pieces[g.get_attribute("data-point")] = owner
    return pieces


def shown_position(driver):
    q = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)
    return q["position"][0]


def wait_for_new_page(driver, old_url):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(lambda d: d.current_url != old_url and
                                    d.execute_script("return document.readyState") == "complete")


def test_load_click_a_winning_move_and_screenshot(site, tmp_path):
    from selenium.webdriver.common.by import By

    base, driver = site
    driver.get(f"{base}/?" + urllib.parse.urlencode({"position": WIN}))
    pos = Position.parse(WIN)
    assert board_state(driver) == {name: "w" for name in pos.board.names(pos.white)} | {
        name: "b" for name in pos.board.names(pos.black)}
    value = driver.find_element(By.ID, "value")
    assert value.get_attribute("data-value") == "win"
    links = driver.find_elements(By.CSS_SELECTOR, "#moves a.move")
    assert sorted(a.get_attribute("data-move") for a in links) == sorted(str(m) for m in pos.legal_moves())
    winning = driver.find_elements(By.CSS_SELECTOR, "#moves a.move.win")
    assert winning, "a won position shows its winning moves"
    token = winning[0].get_attribute("data-move")
    driver.save_screenshot(str(tmp_path / "explorer.png"))
    assert (tmp_path / "explorer.png").stat().st_size > 10_000
    old = driver.current_url
    winning[0].click()
    wait_for_new_page(driver, old)
    after = pos.play(token)
    assert Position.parse(shown_position(driver)) == after
    assert "last=" in driver.current_url
    assert board_state(driver) == {name: "w" for name in after.board.names(after.white)} | {
        name: "b" for name in after.board.names(after.black)}
    # black to move after white's winning move: lost for black, or the game is over
    assert driver.find_element(By.ID, "value").get_attribute("data-value") == "loss"


def test_playing_on_the_board_by_clicks(site, solved):
    from selenium.webdriver.common.by import By

    from morris.lookups.tablebase import open_tablebase

    base, driver = site
    start = Position.parse("a1,d1,g4/a7,d7,g7 w")  # g4-g1 closes a mill and removes
    driver.get(f"{base}/?" + urllib.parse.urlencode({"position": start.to_compact()}))
    old = driver.current_url
    for point in ("g4", "g1", "d7"):
        driver.find_element(By.CSS_SELECTOR, f'#board .point[data-point="{point}"]').click()
    wait_for_new_page(driver, old)
    assert Position.parse(shown_position(driver)) == start.play("g4-g1xd7")
    after = start.play("g4-g1xd7")  # black is left with 2 pieces: the game is over, lost
    with open_tablebase(solved) as tb:  # the page shows the database's value of the new position
        want = tb.probe(after)
    assert want == ("loss", 0) and after.outcome() == "loss"
    value = driver.find_element(By.ID, "value")
    assert value.get_attribute("data-value") == want.value
    assert "Game over" in value.text


def test_flip_and_start_links_and_a_bad_position(site):
    from selenium.webdriver.common.by import By

    base, driver = site
    driver.get(f"{base}/?" + urllib.parse.urlencode({"position": WIN}))
    a1 = driver.find_element(By.CSS_SELECTOR, '#board .point[data-point="a1"] circle').get_attribute("cy")
    driver.find_element(By.ID, "flip").click()
    assert "flip=1" in driver.current_url
    a1_flipped = driver.find_element(By.CSS_SELECTOR, '#board .point[data-point="a1"] circle').get_attribute("cy")
    assert float(a1_flipped) < float(a1)  # a1 moved from the bottom to the top
    driver.find_element(By.ID, "start").click()
    assert shown_position(driver) == "start" and board_state(driver) == {}
    driver.get(f"{base}/?position=a1,z9/d2+w")
    assert "unknown point" in driver.find_element(By.ID, "error").text


GAME = "1. d2 b4 2. a4 g4 3. d7 f4 4. b2 a7 5. b6 a1 6. f2 xg4 g4 *"


def test_the_game_page_grades_steps_and_takes_a_pasted_game(site, tmp_path):
    """/game in the browser: the moves coloured by grade (the blunder at ply 6), forward and a
    click on a move step through the game with the board following, the pasted-game form grades
    what is pasted; a screenshot (MORRIS_SCREENSHOT=path keeps it, for the README)."""
    import os

    from selenium.webdriver.common.by import By

    from morris.core.records import read_games
    from morris.core.variants import get_variant

    base, driver = site
    game = read_games(GAME, get_variant("six"))[0][1]
    driver.get(f"{base}/game?" + urllib.parse.urlencode({"moves": GAME, "variant": "six", "ply": 6}))
    links = driver.find_elements(By.CSS_SELECTOR, "#movelist a")
    grades = {int(a.get_attribute("data-ply")): a.get_attribute("data-grade") for a in links}
    assert len(grades) == 12 and grades[6] == "blunder"
    assert "current" in driver.find_element(By.CSS_SELECTOR, '#movelist a[data-ply="6"]').get_attribute("class")
    shot = os.environ.get("MORRIS_SCREENSHOT") or str(tmp_path / "game.png")
    driver.set_window_size(1100, 900)
    driver.save_screenshot(shot)
    assert os.path.getsize(shot) > 10_000

    def board_is(ply):
        pos = game.positions[ply]
        assert board_state(driver) == {name: "w" for name in pos.board.names(pos.white)} | {
            name: "b" for name in pos.board.names(pos.black)}
        assert driver.find_element(By.ID, "ply").text == f"after ply {ply} of 12"

    board_is(6)
    old = driver.current_url
    driver.find_element(By.ID, "next").click()
    wait_for_new_page(driver, old)
    board_is(7)
    old = driver.current_url
    driver.find_element(By.CSS_SELECTOR, '#movelist a[data-ply="3"]').click()
    wait_for_new_page(driver, old)
    board_is(3)
    # a game pasted into the form
    box = driver.find_element(By.ID, "moves")
    box.clear()
    box.send_keys("d2 b4 a4 g4")
    old = driver.current_url
    driver.find_element(By.CSS_SELECTOR, "form button").click()
    wait_for_new_page(driver, old)
    assert driver.find_element(By.ID, "ply").text == "after ply 4 of 4"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#movelist a")) == 4
