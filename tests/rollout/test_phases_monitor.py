"""The phase monitor's rules on phases whose postconditions hold over given spans of time (the state passed
through is the time itself): strands, implied navigates, a postcondition true from the start, the time split."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from housebench.rollout.phases import Phase, PhaseMonitor, strands


@dataclass(frozen=True)
class Spans(Phase):
    spans: tuple[tuple[float, float], ...] = ()  # [from, to) while its postconditions hold

    def holds(self, state, scene, initial) -> bool:
        return any(a <= state < b for a, b in self.spans)


def phases(*calls) -> list[Phase]:
    return [Spans(i, verb, targets, None, spans) for i, (verb, targets, spans) in enumerate(calls)]


def follow(plan: list[Phase], until: float, every: int = 1) -> PhaseMonitor:
    """Judge times 0, 0.5, 1, ... (a control period of 0.5 s) until ``until``."""
    monitor = PhaseMonitor(plan, scene=None, every=every)
    monitor.start(0.0)
    steps = round(until / 0.5)
    for i in range(1, steps):
        monitor.observe(i * 0.5, i * 0.5)
    monitor.finish(until, until)
    return monitor


ALWAYS = ((0.0, math.inf),)
MILK_THEN_OATS = phases(
    ("navigate", ("milk",), ((1.0, 2.0),)),
    ("pick", ("milk",), ((2.0, 4.0),)),
    ("navigate", ("table",), ((3.0, 4.0),)),
    ("place", ("milk", "table"), ((4.0, math.inf),)),
    ("navigate", ("oats",), ((5.0, 6.0),)),
    ("pick", ("oats",), ((6.0, 8.0),)),
    ("place", ("oats", "microwave"), ((8.0, math.inf),)),
)


def test_strands_follow_the_object_and_a_navigate_the_phase_after_it():
    assert strands(MILK_THEN_OATS) == ["milk", "milk", "milk", "milk", "oats", "oats", "oats"]


def test_the_plan_in_order_is_reached_in_order_with_the_time_split():
    monitor = follow(MILK_THEN_OATS, 10.0)
    got = [(r.reached, r.implied, r.t_reached, r.time_s) for r in monitor.records]
    assert got == [
        (True, False, 1.0, 1.0),
        (True, False, 2.0, 1.0),
        (True, False, 3.0, 1.0),
        (True, False, 4.0, 1.0),
        (True, False, 5.0, 1.0),
        (True, False, 6.0, 1.0),
        (True, False, 8.0, 2.0),
    ]
    assert monitor.info()["verb"] == "done"


def test_another_order_across_objects_still_reaches_every_phase():
    oats_first = phases(
        ("navigate", ("milk",), ((5.0, 6.0),)),
        ("pick", ("milk",), ((6.0, 7.0),)),
        ("place", ("milk", "table"), ((7.0, math.inf),)),
        ("navigate", ("oats",), ((1.0, 2.0),)),
        ("pick", ("oats",), ((2.0, 3.0),)),
        ("place", ("oats", "microwave"), ((3.0, math.inf),)),
    )
    monitor = follow(oats_first, 10.0)
    assert [r.t_reached for r in monitor.records] == [5.0, 6.0, 7.0, 1.0, 2.0, 3.0]
    assert [r.time_s for r in monitor.records] == [2.0, 1.0, 1.0, 1.0, 1.0, 1.0]


def test_a_navigate_is_implied_by_the_next_phase_of_its_strand():
    plan = phases(("navigate", ("apple",), ()), ("pick", ("apple",), ((3.0, math.inf),)))
    monitor = follow(plan, 5.0)
    assert [(r.reached, r.implied, r.t_reached, r.time_s) for r in monitor.records] == [
        (True, True, 3.0, 0.0),
        (True, False, 3.0, 3.0),  # the interval goes to the phase seen reached
    ]


def test_a_phase_true_from_the_start_waits_for_its_strand():
    plan = phases(("open", ("door",), ((2.0, 5.0),)), ("close", ("door",), ((0.0, 2.0), (5.0, math.inf))))
    monitor = follow(plan, 4.0)
    assert [(r.reached, r.t_reached) for r in monitor.records] == [(True, 2.0), (False, None)]
    assert [r.time_s for r in monitor.records] == [2.0, 2.0]  # stuck in the close for the rest
    assert monitor.info() == {"index": 1, "verb": "close", "targets": ["door"], "count": 2, "reached": 1}
    monitor = follow(plan, 6.0)
    assert [r.t_reached for r in monitor.records] == [2.0, 5.0]


def test_judging_every_nth_step_makes_the_times_that_coarse_and_the_end_is_judged():
    plan = phases(("pick", ("apple",), ((1.0, math.inf),)), ("place", ("apple", "table"), ((4.2, math.inf),)))
    monitor = follow(plan, 4.3, every=4)  # judged at 0, 2, 4 and the end
    assert [r.t_reached for r in monitor.records] == [2.0, 4.3]


def test_a_monitor_needs_phases_and_a_start():
    with pytest.raises(ValueError, match="at least one phase"):
        PhaseMonitor([], scene=None)
    with pytest.raises(RuntimeError, match="before start"):
        PhaseMonitor(phases(("pick", ("apple",), ALWAYS)), scene=None).observe(0.5, 0.5)
