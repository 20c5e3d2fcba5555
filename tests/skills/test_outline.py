"""An item's hull sections and the level pinch by its outline: the sections of stacked boxes (a narrow head on
a wide body) and their world band at a pose, the pinch that closes on the head where the body is too wide for
the fingers, none from the side the body hides the head behind; and (slow, contact physics on the built scenes
of ``dvc repro annotate``) clear_shelf's rubber duck taken by its head from under the bookcase level."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import trimesh

from housebench.annotations.schema import SECTION_HEIGHT, AssetAnnotation, AssetsFile, Support
from housebench.assets.sections import sections
from housebench.jsonfile import SpecError, load_model
from housebench.skills.base import SkillContext
from housebench.skills.edge import Edge
from housebench.skills.outline import band
from housebench.skills.side.entries import outline_entries
from housebench.skills.side.pick import SidePick
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from tests.conftest import built_episode, run_skill

SIDE = tuning().side  # the defaults

LEVEL = Support(name="shelf/level", owner="shelf", height=0.8, box=(0.0, 0.0, 0.34, 0.86), clearance=0.38)
FRONT = Edge(LEVEL, (1.0, 0.0), 0.34)  # the open side faces +x: straight in is yaw pi


def _box(lo, hi) -> tuple[np.ndarray, np.ndarray]:
    mesh = trimesh.creation.box(bounds=[lo, hi])
    return np.asarray(mesh.vertices), np.asarray(mesh.faces)


# a body 0.12 x 0.1 x 0.06 m, a head 0.04 x 0.04 x 0.03 m on its +x end: a duck whose body no pinch spans
HULLS = [_box((-0.06, -0.05, 0.0), (0.06, 0.05, 0.06)), _box((0.01, -0.02, 0.06), (0.05, 0.02, 0.09))]
DUCK = AssetAnnotation(name="duck", category="toy", size=(0.12, 0.1, 0.09), mass=0.1, sections=sections(HULLS, 0.0))


def at(yaw: float, x: float = 0.2, y: float = 0.43) -> ObjectState:
    return ObjectState(pos=(x, y, 0.8), quat=(math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)))


def test_sections_outline_each_slab_of_the_hulls_from_the_bottom_up():
    found = sections(HULLS, 0.0)
    assert [s.z for s in found] == pytest.approx([k * SECTION_HEIGHT for k in range(18)])
    body, head = np.array(found[5].outline), np.array(found[15].outline)
    assert body.min(0) == pytest.approx((-0.06, -0.05), abs=1e-4) and body.max(0) == pytest.approx((0.06, 0.05))
    assert head.min(0) == pytest.approx((0.01, -0.02), abs=1e-4) and head.max(0) == pytest.approx((0.05, 0.02))
    # the slab the body's top and the head's bottom share holds both
    assert np.array(found[11].outline).max(0)[0] == pytest.approx(0.06, abs=1e-4)


def test_the_band_of_an_item_turned_a_quarter_turn_lies_across_and_a_toppled_one_has_none():
    head = band(DUCK, at(math.pi / 2), 0.07, 0.08)
    assert head.min(0) == pytest.approx((0.2 - 0.02, 0.43 + 0.01), abs=1e-4)
    assert head.max(0) == pytest.approx((0.2 + 0.02, 0.43 + 0.05), abs=1e-4)
    toppled = ObjectState(pos=(0.2, 0.43, 0.85), quat=(math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0))
    assert band(DUCK, toppled, 0.0, 1.0).shape == (0, 2)


def test_a_level_pinch_closes_on_the_head_where_the_body_is_too_wide():
    entries = outline_entries(DUCK, at(math.pi / 2), LEVEL, [FRONT])  # the head on the +y side: seen side on
    assert entries
    best = entries[0]
    assert best.width <= tuning().grasp.max_width_m and best.width == pytest.approx(
        0.04, abs=2e-3
    )  # across the head's 4 cm
    assert best.pad[2] - 0.8 > 0.06  # the fingers over the body's top
    assert best.pad[0] == pytest.approx(0.2 + 0.05 - SIDE.palm_back_m, abs=1e-3)  # the palm off the body's near face
    assert best.pad[1] == pytest.approx(0.43 + 0.03, abs=2e-3)  # centred on the head
    assert best.rot[0, 0] == pytest.approx(-1.0, abs=1e-6)  # level, straight in


def test_no_pinch_reaches_a_head_the_body_hides_from_the_fingers():
    # the head on the far end: the palm stops 2.7 cm into the body, the fingertips reach 0.45 cm of the head
    assert SIDE.hold_m > 0.0045
    assert outline_entries(DUCK, at(math.pi), LEVEL, [FRONT]) == []


@pytest.mark.slow
def test_side_pick_takes_the_rubber_duck_by_its_head_from_under_a_bookcase_level():
    episode, ctx, obs = built_episode("clear_shelf", "v006", horizon_s=200.0)  # the duck 56 deg off straight in
    log = []
    ctx = SkillContext(ctx.task, ctx.scene, ctx.control_dt, lambda kind, **d: log.append((kind, d)), ctx.initial)
    start = obs.objects["duck"].pos
    failure, obs = run_skill(episode, ctx, obs, SidePick("duck"))
    assert failure is None, failure
    assert ("decision", {"skill": "pick", "target": "duck", "choice": "outline", "after": "aslant"}) in log
    assert all("duck" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["duck"].pos[2] > start[2] + 0.2  # out of the shelf, in the carry pose


@pytest.mark.parametrize(
    "section, field",
    [
        ({"z": 0.0, "outline": [[0.0, 0.0]], "width": 1}, "assets.duck.sections[0].width"),  # an unknown key
        ({"z": -0.005, "outline": [[0.0, 0.0]]}, "assets.duck.sections[0].z"),  # under the bottom
        ({"z": float("nan"), "outline": [[0.0, 0.0]]}, "NaN is not a number"),
        ({"z": 0.0, "outline": [[0.0, 1e9]]}, "assets.duck.sections[0].outline[0][1]"),  # beyond 10 km
        ({"z": 0.0, "outline": [[0.0, 0.0]] * 65}, "assets.duck.sections[0].outline"),  # too many corners
    ],
)
def test_a_bad_section_in_an_assets_file_is_one_line_naming_the_file_and_the_field(tmp_path, section, field):
    path = tmp_path / "assets.json"
    entry = {**DUCK.model_dump(mode="json"), "sections": [section]}
    path.write_text(json.dumps({"version": 1, "assets": {"duck": entry}}))
    with pytest.raises(SpecError) as err:
        load_model(AssetsFile, path)
    message = str(err.value)
    assert message.startswith(f"{path}: ") and field in message and "\n" not in message
