import os

import pytest

os.environ.setdefault("NUMBA_NUM_THREADS", "2")


@pytest.fixture(scope="session")
def standard():
    from solver.variants import get_variant

    return get_variant("standard")


@pytest.fixture(scope="session")
def six():
    from solver.variants import get_variant

    return get_variant("six")
