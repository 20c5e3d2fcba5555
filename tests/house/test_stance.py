"""The stance footprint: the base slides under a tabletop facing it, not turned sideways."""

from __future__ import annotations

from housebench.house.stance import stance_free

TABLETOP = (1.0, -0.5, 0.72, 2.0, 0.5, 0.75)  # a slab 0.72-0.75 m high, edge at x = 1.0
CABINET = (1.0, -0.5, 0.0, 2.0, 0.5, 0.9)  # a full-height cabinet, same footprint


def test_facing_a_tabletop_the_base_stands_under_its_edge():
    assert stance_free((0.85, 0.0, 0.0), [TABLETOP])  # 0.15 m from the edge, facing it
    assert not stance_free((0.85, 0.0, 1.5708), [TABLETOP])  # turned sideways, the column hits it
    assert not stance_free((0.95, 0.0, 0.0), [TABLETOP])  # the torso column reaches 0.09 m ahead


def test_a_full_height_cabinet_keeps_the_base_disc_away():
    assert not stance_free((0.75, 0.0, 0.0), [CABINET])
    assert stance_free((0.65, 0.0, 0.0), [CABINET])
