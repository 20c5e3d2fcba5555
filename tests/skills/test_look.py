"""The head aimed at what the running skill works on (``housebench/skills/look.py``) and the in-view measure the
recordings keep (``HeadCamera.sees`` of ``where``): the measure checked against MuJoCo's own segmentation render
of the head camera, the aim in contact physics through both skill drivers (the scripted policy's runner, the
planned policy's runtime)."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from housebench.robot.fetch import ARM_JOINTS, HEAD_CAMERA, HEAD_JOINTS
from housebench.robot.head import HeadCamera
from housebench.skills.drive import Stepper, drive, tried
from housebench.skills.look import look, where
from housebench.skills.pick import Pick
from housebench.state import Action
from tests.conftest import built_episode

TASK, VARIANT = "put_fruit_in_container", "v001"  # the frames: the apple beside the robot, the head ahead
SIZE = (160, 120)  # the vision track's head image


def rendered(episode, body: str) -> np.ndarray:
    """The (row, column) pixels of ``body``'s geoms in the head camera's segmentation render."""
    model, data = episode.sim.model, episode.sim.data
    renderer = mujoco.Renderer(model, SIZE[1], SIZE[0])
    try:
        renderer.enable_segmentation_rendering()
        renderer.update_scene(data, camera=HEAD_CAMERA)
        seg = renderer.render()
    finally:
        renderer.close()
    geoms = np.flatnonzero(model.geom_bodyid == model.body(body).id)
    mask = (seg[..., 1] == mujoco.mjtObj.mjOBJ_GEOM) & np.isin(seg[..., 0], geoms)
    return np.argwhere(mask)


def test_in_view_agrees_with_the_rendered_head_image():
    episode, ctx, obs = built_episode(TASK, VARIANT, horizon_s=30.0)
    head = HeadCamera()
    apple = where(ctx.scene, ctx.task.goal.places, obs, "apple")
    assert not head.sees(obs.joints, apple, SIZE), "at the start the head looks ahead, the apple is beside it"
    assert len(rendered(episode, "apple")) == 0, "... and the rendered head image has no apple pixel"
    targets = head.aim(obs.joints, apple)
    for _ in range(40):  # 4 s: the head's time constant is about 0.7 s
        obs = episode.step(Action(joints=targets))
    full = episode.full_observation
    apple = where(ctx.scene, ctx.task.goal.places, full, "apple")
    assert head.sees(full.joints, apple, SIZE)
    pixels = rendered(episode, "apple")
    assert len(pixels) > 0, "the apple is in the rendered head image"
    col, row = head.pixel(full.joints, apple, SIZE)
    (r0, c0), (r1, c1) = pixels.min(axis=0), pixels.max(axis=0)
    assert r0 - 1 <= row <= r1 + 1 and c0 - 1 <= col <= c1 + 1, "its projected centre lies on its rendered pixels"
    assert abs(col - SIZE[0] / 2) < 4 and abs(row - SIZE[1] / 2) < 4, "aimed: the apple is at the image centre"


def test_look_adds_the_aimed_head_and_keeps_every_other_target():
    _, ctx, obs = built_episode(TASK, VARIANT, horizon_s=5.0)
    events = []
    ctx.log = lambda kind, **detail: events.append((kind, detail))
    ctx.look = True
    action = Action(joints={ARM_JOINTS[0]: 0.3}, base=(1.0, 2.0, 0.5), gripper=0.04)
    out = look(Pick("apple"), ctx, obs, action)
    aimed = HeadCamera().aim(obs.joints, where(ctx.scene, ctx.task.goal.places, obs, "apple"))
    assert out.joints == {ARM_JOINTS[0]: 0.3, **aimed}
    assert (out.base, out.gripper, out.stop) == (action.base, action.gripper, action.stop)
    own = Action(joints={HEAD_JOINTS[0]: 0.0, HEAD_JOINTS[1]: 0.0})
    assert look(Pick("apple"), ctx, obs, own) == own, "a skill that commands the head keeps its own targets"
    ctx.look = False
    assert look(Pick("bowl"), ctx, obs, action) == action, "look off: the head is left alone"
    assert events == [("look", {"target": "apple"}), ("look", {"target": "bowl"})], "one event per change, on or off"


def _pick(driver: str, looking: bool) -> tuple[bool, float]:
    """Pick the apple through ``driver`` with the head aimed or fixed: (held at the end, share of frames whose
    head image shows the apple)."""
    episode, ctx, obs = built_episode(TASK, VARIANT, horizon_s=120.0)
    ctx.look = looking
    head, skill = HeadCamera(), Pick("apple")
    checked = driver == "scripted"  # the skill's own checks (the scripted policy); the runtime measures contracts
    runner = Stepper(tried(skill, ctx, obs) if checked else drive(skill, ctx, obs, checked=False))
    seen = []
    while (action := runner.step(obs)) is not None:
        seen.append(head.sees(obs.joints, where(ctx.scene, ctx.task.goal.places, obs, "apple"), SIZE))
        obs = episode.step(action)
        assert not episode.done, "the pick ran past its horizon"
    assert runner.done and (not checked or runner.result[0] is None), runner.result
    return obs.holding("apple"), float(np.mean(seen))


@pytest.mark.parametrize("driver", ["scripted", "runtime"])
def test_a_pick_in_physics_sees_its_item_in_most_frames(driver):
    held, share = _pick(driver, looking=True)
    assert held, "the pick still takes the apple with the head moving"
    assert share >= 0.8, f"the apple in {share:.0%} of the head's frames"


def test_a_pick_with_the_head_fixed_mostly_misses_its_item():
    held, share = _pick("scripted", looking=False)
    assert held
    assert share <= 0.5, f"with the head fixed the apple is in {share:.0%} of its frames (measured: about 20%)"
