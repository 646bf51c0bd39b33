import os
import sys

import pytest

if os.environ.get("PYTEST_XDIST_WORKER"):
    # a core per worker under ``-n 2``: two workers with two OpenMP threads each oversubscribe
    # the two cores (their threads spin): 47 tests of four files took 255 s so, 175 s with one
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if "numba" in sys.modules:  # (a plugin imported it first: numba read the variable then)
        import numba

        numba.set_num_threads(1)
else:
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (minutes each)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes minutes; run with --runslow")
    config.addinivalue_line("markers", "xdist_group(name): run in one worker with its group (pytest-xdist)")


#: Under ``-n 2 --dist loadgroup`` (pytest-xdist: the README's test command), the tests that
#: share one of these session fixtures run in one worker, so each is built once, not once per
#: worker: (group, the fixtures that put a test in it), the first match wins.
#: A test that uses a module- or session-scoped fixture of its own file (and none of these) runs
#: in one worker with the other tests of that file that use one (the Lasker solve was built in
#: both workers, 110 s each, before this). Heavy fixtures of a file are session-scoped: under
#: xdist the tests of a file need not run one after the other, and a module fixture is torn
#: down whenever the next test is another file's.
SHARED_FIXTURES = (("six-small", {"graph_job", "graphs", "horizons", "six_small", "draws_db", "dtw_db", "six16"}),
                   ("whole-game", {"whole_game"}),
                   ("standard-5", {"standard5"}))


def xdist_group_of(item):
    """The xdist group of a test: its shared fixture's (SHARED_FIXTURES), or its file's when it
    uses a module- or session-scoped fixture defined in that file, or None."""
    names = set(item.fixturenames)
    for group, fixtures in SHARED_FIXTURES:
        if fixtures & names:
            return group
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    here = item.nodeid.split("::", 1)[0]  # the file's node id: a fixture defined there has it as baseid
    if any(d.scope in ("module", "session") and d.baseid == here
           for name in names for d in defs.get(name, ())):
        return "module:" + item.module.__name__
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the group into the test's id
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = xdist_group_of(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if config.getoption("--runslow") or os.environ.get("MORRIS_RUNSLOW"):
        return
    skip = pytest.mark.skip(reason="slow; run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def standard():
    from morris.core.variants import get_variant

    return get_variant("standard")


@pytest.fixture(scope="session")
def six():
    from morris.core.variants import get_variant

    return get_variant("six")


@pytest.fixture(scope="session")
def solved(tmp_path_factory):
    """A database directory with the standard game up to 4 a side and all of Six Men's Morris."""
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.core.variants import get_variant

    out = str(tmp_path_factory.mktemp("tb"))
    solve(out, get_variant("standard"), max_pieces=4, reporter=Reporter(quiet=True))
    solve(out, get_variant("six"), reporter=Reporter(quiet=True))
    return out


@pytest.fixture(scope="session")
def placed(solved):
    """``solved`` plus the placement phase of Six Men's Morris, standard-3 and standard-4."""
    from morris.solving.schedule import solve_placement
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant

    for name in ("six", "standard-3", "standard-4"):
        solve_placement(solved, get_variant(name), reporter=Reporter(quiet=True))
    return solved


@pytest.fixture(scope="session")
def graph_job():
    """The move graphs of Six Men's Morris up to 4 a side, without and with flying (naive.py;
    about 45 s in plain Python), being built in a process of their own from the first test of
    the group that needs them: ``six_small`` asks for it, so they are built while it solves.
    Torn down unfinished where no test waited for them."""
    import multiprocessing

    import naive

    pool = multiprocessing.get_context("spawn").Pool(1)
    yield pool.apply_async(naive.six_move_graphs, (4,))
    pool.terminate()
    pool.join()


@pytest.fixture(scope="session")
def graphs(graph_job):
    """``graphs[flying]``: the move graph of Six Men's Morris up to 4 a side (naive.move_graph),
    for the limit, dtw and draw-value tests (read only)."""
    return graph_job.get()


@pytest.fixture(scope="session")
def horizons(graphs):
    """``horizons(flying)``: naive.dtw_by_horizon of ``graphs[flying]`` (value, dtw), computed
    once for the tests that compare values, dtc, dtw and draw values with it (read only)."""
    import naive

    done = {}

    def get(flying):
        if flying not in done:
            done[flying] = naive.dtw_by_horizon(graphs[flying])
            for a in done[flying]:
                a.setflags(write=False)
        return done[flying]

    return get


@pytest.fixture(scope="session")
def six_small(tmp_path_factory, graph_job):
    """Six Men's Morris up to 4 a side, without and with flying: values, dtw and draw values,
    solved once for every test that reads them (a test that changes a file works on a copy;
    ``graph_job`` builds the naive move graphs meanwhile)."""
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.solving.schedule import solve

    out = tmp_path_factory.mktemp("six-small")
    for fly in (False, True):
        solve(out, get_variant("six", flying=fly), max_pieces=4, reporter=Reporter(quiet=True),
              dtw=True, draws=True)
    return out


@pytest.fixture(scope="session")
def whole_game(tmp_path_factory):
    """``whole_game(name)``: a database directory with the whole game of the variant ``name``
    (both phases) with values, dtw and draw values, solved once per name in the session and
    read only (``six`` and ``standard-4`` serve the placement tests and the shipped data's)."""
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.solving.schedule import solve

    done = {}

    def get(name):
        if name not in done:
            out = tmp_path_factory.mktemp("whole-" + name)
            solve(out, get_variant(name), phase="all", reporter=Reporter(quiet=True), dtw=True, draws=True)
            done[name] = out
        return done[name]

    return get


@pytest.fixture(scope="session")
def standard5(tmp_path_factory):
    """The standard game's movement phase up to 5 a side (9 files, 62 M positions), solved once
    for the tests that kill a solve, a worker, or run out of memory on it (read only)."""
    from morris.core.progress import Reporter
    from morris.core.variants import get_variant
    from morris.solving.schedule import solve

    out = tmp_path_factory.mktemp("standard5")
    solve(str(out), get_variant("standard"), max_pieces=5, reporter=Reporter(quiet=True))
    return out
