"""Top pinches of a fallen item chosen from its pose: a can lying on its side is taken across its
diameter whichever way it rolled (its world box, the grasp before, fitted the fingers only when it lay
square to the world axes), and in contact physics (slow: needs the built scenes of ``dvc repro
annotate``) a can laid on its side by ``lay`` is picked again from above."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from housebench.annotations.schema import AssetAnnotation, GraspPrimitive
from housebench.skills.grasp import FINGER_HALF, extent, grasps
from housebench.skills.hand import start_support
from housebench.skills.lay import Lay
from housebench.skills.pick import Pick
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation
from tests.conftest import built_episode, run_skill

CAN = AssetAnnotation(
    name="can",
    category="soda_can",
    size=(0.066, 0.066, 0.122),
    mass=0.37,
    grasps=[GraspPrimitive(kind="top_pinch", point=(0.0, 0.0, 0.102), axis=(1.0, 0.0, 0.0), width=0.066)],
)


def lying(yaw: float, floor: float = 0.0) -> ObjectState:
    """The can on its side on a floor at ``floor``, its axis along ``yaw``, its origin (bottom centre) low."""
    quat = Rotation.from_euler("ZY", [yaw, math.pi / 2]).as_quat(scalar_first=True)
    axis = rotation(tuple(quat))[:, 2]
    pos = np.array([1.0, 2.0, floor + 0.033]) - axis * 0.061  # the can's middle over the floor by its radius
    return ObjectState(pos=tuple(pos), quat=tuple(quat))


@pytest.mark.parametrize("yaw", [0.0, 0.4, math.pi / 4, 2.0])
def test_a_lying_can_is_pinched_across_its_diameter_at_its_middle(yaw):
    (grasp,) = grasps(CAN, lying(yaw))
    across = [np.array([math.cos(y), math.sin(y), 0.0]) for y in grasp.yaws]
    assert all(extent(CAN, rotation(lying(yaw).quat), d) == pytest.approx(0.066, abs=0.002) for d in across[:2])
    assert abs(math.cos(grasp.yaws[0] - yaw)) < 0.02  # the fingers close across the can's axis
    assert grasp.pad[:2] == pytest.approx([1.0, 2.0], abs=1e-6)
    assert grasp.pad[2] == pytest.approx(
        FINGER_HALF + tuning().grasp.tip_clearance_m
    )  # the tips just clear of the floor


def test_a_lying_box_too_wide_every_way_offers_no_pinch():
    wide = CAN.model_copy(update={"size": (0.12, 0.1, 0.2)})
    assert grasps(wide, lying(0.3)) == []


@pytest.mark.slow
def test_a_can_laid_on_its_side_is_picked_again_from_above():
    episode, ctx, obs = built_episode("throw_can_away", "v000", horizon_s=400.0)
    failure, obs = run_skill(episode, ctx, obs, Pick("can"))
    assert failure is None, failure
    failure, obs = run_skill(episode, ctx, obs, Lay("can", start_support(ctx, obs, "can")))
    assert failure is None, failure
    assert rotation(obs.objects["can"].quat)[2, 2] < tuning().grasp.tilted  # on its side
    failure, obs = run_skill(episode, ctx, obs, Pick("can"))
    assert failure is None, failure
    assert all("can" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
