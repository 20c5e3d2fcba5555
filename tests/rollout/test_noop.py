"""The noop control ends its episode once nothing in the scene changes, with the verdict of the horizon."""

from __future__ import annotations

import numpy as np
import pytest

from housebench.policy.base import REST_S, NoopPolicy, PolicyContext, PolicyParams
from housebench.state import ObjectState, Observation, SimState
from tests.conftest import built_job


def obs(t: float, x: float = 1.0, temp: float = 21.0) -> Observation:
    state = SimState(time=t, objects={"box": ObjectState(pos=(x, 2.0, 0.5), quat=(1, 0, 0, 0))})
    return Observation(
        time=t,
        joints={"robot0:torso_lift_joint": 0.1},
        joint_velocities={},
        base=(0.0, 0.0, 0.0),
        ee_pos=(0.0, 0.0, 1.0),
        ee_quat=(1.0, 0.0, 0.0, 0.0),
        gripper_opening=0.1,
        finger_contacts={},
        objects=dict(state.objects),
        parts={"fridge/door": 0.0},
        temperatures_c={"box": temp},
        state=state,
    )


def steps(policy: NoopPolicy, frames) -> list[float]:
    """The times at which the policy asked to stop."""
    return [o.time for o in frames if (a := policy.act(o)) is not None and a.stop]


def test_noop_stops_after_rest_and_restarts_the_window_on_any_change():
    policy = NoopPolicy(PolicyParams())
    policy.reset(PolicyContext(None, None, 0.1, 10.0, lambda *a, **k: None), obs(0.0))
    ticks = [round(0.1 * k, 1) for k in range(1, 60)]
    moved = [obs(t, x=1.0 + (1e-5 if t >= 1.0 else 0.0)) for t in ticks]  # moves 10 um at 1 s
    assert steps(policy, moved)[0] == pytest.approx(1.0 + REST_S)
    policy.reset(PolicyContext(None, None, 0.1, 10.0, lambda *a, **k: None), obs(0.0))
    warming = [obs(t, temp=21.0 + 0.01 * t) for t in ticks]  # a temperature that changes keeps it going
    assert steps(policy, warming) == []


def test_noop_on_a_built_scene_stops_early_with_the_horizons_verdict():
    job = built_job("stack_blocks", "v000", "noop", horizon_s=30.0)
    from housebench.rollout.episode import run_episode

    early = run_episode(job)
    assert early.crash is None and early.sim_s < 6.0  # at rest within seconds, not 30 s
    episode = job.open()  # the same episode, stepped to the horizon without ever stopping
    episode.reset(job.seed)
    while not episode.done:
        episode.step(None)
    full = episode.verdict()
    assert episode.time >= 30.0 and full.model_dump() == early.verdict.model_dump()
    for name, obj in episode.state().objects.items():
        assert np.allclose(obj.pos, early.final.objects[name].pos, atol=1e-5), name
