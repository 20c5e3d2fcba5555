"""The skill contract (housebench.skills.base): a skill's pre- and postconditions are judged by the
task evaluator on the observed state, and its runner turns a broken contract, a time-out or a raised
failure into a typed SkillFailure; the actions it yields reach the caller unchanged."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from task_world import ROLES, state_of

from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.drive import Stepper, tried
from housebench.state import Action, Observation
from housebench.tasks import goal as g


def _obs(scene, t: float, contacts: dict) -> Observation:
    state = state_of(scene, contacts=contacts).model_copy(update={"time": t})
    return Observation(
        time=t,
        joints={},
        joint_velocities={},
        base=(0.0, 0.0, 0.0),
        ee_pos=(0.0, 0.0, 0.0),
        ee_quat=(1.0, 0.0, 0.0, 0.0),
        gripper_opening=0.0,
        finger_contacts={k: tuple(v) for k, v in contacts.items()},
        objects=state.objects,
        parts={},
        temperatures_c={},
        images={},
        state=state,
    )


class Squeeze(Skill):
    """Closes the hand for ``steps`` actions (then raises ``fail_with`` if given)."""

    name = "squeeze"

    def __init__(self, steps: int, fail_with: Reason | None = None, timeout_s: float = 60.0) -> None:
        self.steps, self.fail_with, self.timeout_s = steps, fail_with, timeout_s

    def preconditions(self, ctx):
        return [g.HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx):
        return [g.Holding(predicate="holding", items=["apple"])]

    def body(self, ctx, obs):
        for _ in range(self.steps):
            obs = yield Action(gripper=0.0)
        if self.fail_with:
            raise self.fail(self.fail_with, gap=0.001)
        return obs


def _ctx(scene) -> SkillContext:
    task = SimpleNamespace(goal=g.Goal(roles=ROLES, condition={"predicate": "not_dropped"}))
    return SkillContext(task=task, scene=scene, control_dt=0.1)


def _run(skill: Skill, scene, contacts_after: dict, dt: float = 0.1) -> tuple[list[Action], SkillFailure | None]:
    obs = _obs(scene, 0.0, {"left": [], "right": []})
    runner, actions = Stepper(tried(skill, _ctx(scene), obs)), []
    t = 0.0
    while (action := runner.step(obs)) is not None:
        actions.append(action)
        t += dt
        obs = _obs(scene, t, contacts_after)
    return actions, runner.result[0]


def test_postcondition_judged_by_the_evaluator(scene):
    held = {"left": ["apple"], "right": ["apple"]}
    actions, failure = _run(Squeeze(3), scene, held)
    assert failure is None and [a.gripper for a in actions] == [0.0, 0.0, 0.0]
    _, failure = _run(Squeeze(3), scene, {"left": ["apple"], "right": []})
    assert failure.reason is Reason.POSTCONDITION and "holding apple" in failure.detail["failed"][0]


def test_precondition_fails_before_any_action(scene):
    obs = _obs(scene, 0.0, {"left": ["orange"], "right": []})
    runner = Stepper(tried(Squeeze(3), _ctx(scene), obs))
    assert runner.step(obs) is None
    failure = runner.result[0]
    assert failure.reason is Reason.PRECONDITION and failure.skill == "squeeze"


def test_a_raised_failure_keeps_its_reason_and_measurement(scene):
    _, failure = _run(Squeeze(2, fail_with=Reason.MISSED), scene, {"left": [], "right": []})
    assert failure.reason is Reason.MISSED and failure.detail == {"gap": 0.001}
    assert str(failure) == "squeeze: missed (gap=0.001)"


def test_the_runner_times_a_skill_out_in_sim_time(scene):
    actions, failure = _run(Squeeze(100, timeout_s=1.0), scene, {"left": [], "right": []})
    assert failure.reason is Reason.TIMEOUT and 10 <= len(actions) <= 12
    assert np.isclose(failure.detail["elapsed_s"], 1.1, atol=0.11)
