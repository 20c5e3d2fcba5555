"""The arm unfolds out of the tuck only where its carry band keeps off an open door's box (issue 31 item 6): in front of
an open microwave, beside its leaf, the unfolding elbow swung the leaf from 1.40 to 0.71 rad, half across the opening
the place then had to reach into (procedural house p003, heat_soda_can p003_v001). Pure geometry on the house the
generator draws from seed 3 (no build, no physics)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from housebench.annotations.schema import SceneAnnotations
from housebench.house.annotate import house_annotations
from housebench.house.params import HouseParams
from housebench.house.procedural import procedural_house
from housebench.params import load_section
from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, HOME
from housebench.skills.base import Skill, SkillContext
from housebench.skills.carry import approach, unfold_sweeps
from housebench.skills.front import opening_front
from housebench.skills.view import TUCK
from housebench.state import Observation
from tests.conftest import ROOT

DOOR = "microwave/door"
OPEN = 1.396  # rad: where the scripted Open leaves the microwave door (p003, measured)


class _Reach(Skill):
    """What an approach drives for (its name and target in the log)."""

    name = "reach"

    def target(self) -> str:
        return "can"

    def body(self, ctx, obs):
        return (yield from ())


@pytest.fixture(scope="module")
def p003() -> SkillContext:
    house = load_section("house", HouseParams, ROOT / "params.yaml").model_dump()
    scene = SceneAnnotations(
        scene="heat_soda_can/p003_v001", house=house_annotations(procedural_house(3, house)), objects={}
    )
    return SkillContext(task=SimpleNamespace(seed=0), scene=scene, control_dt=0.1)  # type: ignore[arg-type]


def _tucked_at(ctx: SkillContext, door: float, base=None) -> Observation:
    """The robot tucked at ``base`` (default: in front of the microwave's opening, where the flow leaves it after
    the Open), the microwave door at ``door`` rad."""
    parts = {p.name: p.closed for p in ctx.scene.house.articulated} | {DOOR: door}
    obs = Observation(0.0, {}, {}, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), 0.1, {}, {}, parts, {}, None)
    base = base or opening_front(ctx, obs, DOOR)
    joints = {**HOME, **dict(zip(BASE_JOINTS, base, strict=True))}
    return Observation(0.0, joints, {}, base, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), 0.1, {}, {}, parts, {}, None)


def test_in_front_of_an_open_microwave_the_carry_band_meets_its_leaf(p003):
    assert unfold_sweeps(p003, _tucked_at(p003, OPEN))  # the leaf's box within 0.45 m ahead, 0.40 m aside
    assert not unfold_sweeps(p003, _tucked_at(p003, 0.0))  # shut, nothing in the band


def test_from_there_the_base_drives_tucked_and_the_arm_unfolds_at_the_stance(p003):
    obs = _tucked_at(p003, OPEN)
    x, y, yaw = obs.base
    stance = (x - 0.4 * math.cos(yaw), y - 0.4 * math.sin(yaw), yaw)  # 0.4 m back from the opening
    first = next(approach(_Reach(), p003, obs, stance))
    assert first.base is not None  # driving first ...
    assert all(abs(first.joints.get(j, TUCK[j]) - TUCK[j]) < 1e-9 for j in ARM_JOINTS)  # ... the arm still tucked
