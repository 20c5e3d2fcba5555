"""The scenario generator's pool and seed: a narrowed pool keeps the pool's order, two seeds give other starts."""

import numpy as np
import pytest

from housebench.components.generate import ITEMS, draws, pool_of


def test_pool_narrows_in_the_pools_order_and_refuses_an_unknown_entry():
    wanted = [f"{ITEMS[3][0]}:{ITEMS[3][1]}", f"{ITEMS[0][0]}:{ITEMS[0][1]}"]
    assert pool_of("pick_item", wanted) == [ITEMS[0], ITEMS[3]]
    assert pool_of("pick_item") == ITEMS
    with pytest.raises(ValueError, match="--pool: 'kitchen/v000:spoon' is not an entry of pick_item's pool"):
        pool_of("pick_item", ["kitchen/v000:spoon"])


def test_draws_cycle_the_pool_and_a_seed_changes_every_jitter():
    pool = ITEMS[:2]
    one, two = draws(pool, 1, 5), draws(pool, 2, 5)
    assert [d[1] for d in one] == [pool[0], pool[1], pool[0], pool[1], pool[0]]
    a = np.array([d[2].uniform() for d in one])
    b = np.array([d[2].uniform() for d in two])
    assert not np.any(a == b)
    again = np.array([d[2].uniform() for d in draws(pool, 1, 5)])
    assert np.array_equal(a, again)
