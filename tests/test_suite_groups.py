"""The suite's own set-up: under the README's command (``-n 2 --dist loadgroup``) the tests that
share a heavy fixture run in one worker (conftest.SHARED_FIXTURES), so it is built once."""

import os

import pytest


@pytest.fixture(scope="session")
def _shared():  # a fixture of this file: its tests form one group
    return object()


def _under_loadgroup(config):
    return bool(os.environ.get("PYTEST_XDIST_WORKER")) and bool(config.getvalue("loadgroup"))


@pytest.mark.parametrize("n", [1, 2])
def test_a_files_session_fixture_puts_its_tests_in_one_group(_shared, request, n):
    if not _under_loadgroup(request.config):
        pytest.skip("runs under pytest-xdist with --dist loadgroup (the README's command)")
    # xdist reads the group from this suffix (pytest 9.2 with xdist 3.8 dropped it silently)
    assert request.node.nodeid.endswith("@module:test_suite_groups")


def test_every_collected_test_carries_its_group_and_no_other(request):
    from conftest import xdist_group_of

    if not _under_loadgroup(request.config):
        pytest.skip("runs under pytest-xdist with --dist loadgroup (the README's command)")
    assert xdist_group_of(request.node) is None and "@" not in request.node.nodeid
    grouped = 0
    for item in request.session.items:
        group = xdist_group_of(item)
        assert item.nodeid.endswith("@" + group) if group else "@" not in item.nodeid, item.nodeid
        grouped += group is not None
    assert grouped >= 2
