"""The episode API over a real (small) scene in MuJoCo: seeded resets, actions that drive the robot's
actuators, observations, the task's horizon, policy events, and the Gymnasium env over the same loop."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pxr import Gf, Usd, UsdPhysics
from task_world import SPEC

from housebench.annotations.schema import PlacedObject, SceneAnnotations
from housebench.io import write_json
from housebench.pipeline.tasks import layer_props
from housebench.policy import registry
from housebench.policy.base import PolicyParams
from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, TORSO_JOINT
from housebench.rollout.env import Episode
from housebench.rollout.episode import EpisodeJob, run_episode
from housebench.rollout.gym_env import ACTION_LAYOUT, HousebenchEnv
from housebench.rollout.records import records
from housebench.sim.offscreen import use_offscreen_gl
from housebench.state import Action
from housebench.tasks.sampler import SamplerParams, sample_variant
from housebench.tasks.spec import load_spec
from housebench.usd.task_layer import write_task_layer


@pytest.fixture
def files(usd_world, house, assets, tmp_path):
    """A sampled variant of the fruit task over the small world: scene, task.json and annotations."""
    for asset in (usd_world / "assets_built/sim").glob("*/asset.usda"):  # make the props simulable
        stage = Usd.Stage.Open(str(asset))
        mass = UsdPhysics.MassAPI(stage.GetPrimAtPath("/Asset"))
        mass.CreateDiagonalInertiaAttr(Gf.Vec3f(2e-4, 2e-4, 2e-4))
        mass.CreateCenterOfMassAttr(Gf.Vec3f(0, 0, 0.02))
        stage.Save()
    variant = sample_variant("put", load_spec(SPEC), "h", "v000", 0, house, assets, SamplerParams())
    variant = variant.model_copy(update={"horizon_s": 0.6})
    scene = usd_world / "scenes/tasks/put/v000/task.usda"
    write_task_layer(scene, layer_props(variant), usd_world / "scenes/house/house.usda", usd_world / "assets_built/sim")
    objects = {
        name: PlacedObject(asset=assets.assets[o.asset], pos=o.pos, quat=o.quat, support=o.support)
        for name, o in variant.objects.items()
    }
    write_json(tmp_path / "task.json", variant.model_dump(mode="json"))
    write_json(
        tmp_path / "scene.json",
        SceneAnnotations(scene="put/v000", house=house, objects=objects).model_dump(mode="json"),
    )
    return scene, tmp_path / "task.json", tmp_path / "scene.json"


def test_reset_is_seeded_and_the_horizon_is_the_tasks(files):
    episode = Episode(*files, pose_noise_m=0.01)
    assert episode.horizon_s == 0.6
    first = episode.reset(3).objects
    episode.step(Action())
    assert episode.reset(3).objects == first and episode.steps == 0
    assert episode.reset(4).objects != first
    while not episode.done:
        episode.step(None)
    assert episode.time >= 0.6 and episode.steps == 6 * episode.substeps
    assert Episode(*files, horizon_s=0.2).horizon_s == 0.2


def test_actions_drive_the_robots_actuators(files):
    episode = Episode(*files)
    start = episode.reset(0)
    assert start.joints[BASE_JOINTS[0]] == start.base[0] and set(start.finger_contacts) == {"left", "right"}
    assert start.gripper_opening == pytest.approx(0.1, abs=1e-3)
    x, y, yaw = start.base
    action = Action(base=(x + 0.3, y, yaw), joints={TORSO_JOINT: 0.25}, gripper=0.0)
    obs = start
    for _ in range(20):
        obs = episode.step(action)
    assert obs.base[0] == pytest.approx(x + 0.3, abs=0.01) and obs.base[1] == pytest.approx(y, abs=0.01)
    assert obs.joints[TORSO_JOINT] == pytest.approx(0.25, abs=0.01)
    assert obs.gripper_opening < 0.005  # the fingers closed on nothing
    assert obs.ee_pos[2] - start.ee_pos[2] == pytest.approx(0.2, abs=0.02)  # torso 0.05 -> 0.25 lifts the hand
    assert obs.state.joints[TORSO_JOINT] == obs.joints[TORSO_JOINT] and obs.parts == {}


def test_an_episode_stops_when_the_policy_says_so(files):
    episode = Episode(*files, horizon_s=5.0)
    episode.reset(0)
    episode.step(Action(stop=True))
    assert episode.done and episode.time == pytest.approx(0.1)


def test_head_and_third_person_cameras(files):
    use_offscreen_gl()
    episode = Episode(*files, cameras=("head", "third"), image_size=(64, 48))
    obs = episode.reset(0)
    assert obs.images["head/rgb"].shape == (48, 64, 3) and obs.images["head/rgb"].dtype == np.uint8
    assert obs.images["third/depth"].shape == (48, 64) and np.isfinite(obs.images["third/depth"]).all()
    assert obs.images["third/rgb"].std() > 5  # not a blank frame


class LoggingPolicy:
    """A real policy for the loop's sake: raises the torso, logs what it does, stops after 0.3 s."""

    name = "logging"
    Params = PolicyParams

    def __init__(self, params):
        self.ctx = None

    def reset(self, ctx, obs):
        self.ctx = ctx
        ctx.log("skill_start", skill="lift", target=ctx.task.task)

    def act(self, obs):
        if obs.time >= 0.3 - 1e-9:
            self.ctx.log("skill_end", skill="lift", torso=round(obs.joints[TORSO_JOINT], 3))
            return Action(stop=True)
        return Action(joints={TORSO_JOINT: 0.3})


def test_policy_events_land_in_the_events_table(files):
    scene, task, annotations = files
    job = EpisodeJob(
        run="t", task="put", variant="v000", seed=0, policy="logging", backend="mujoco", scene=scene,
        task_file=task, annotations=annotations, horizon_s=5.0, control_dt=0.1, pose_noise_m=0.0,
        policy_entry={"class": f"{__name__}:LoggingPolicy"},
    )  # fmt: skip
    outcome = run_episode(job)
    assert outcome.crash is None, outcome.crash
    assert outcome.policy_class == f"{__name__}:LoggingPolicy"
    kinds = [(kind, round(t, 3)) for t, kind, _ in outcome.events]
    assert kinds == [("episode_start", 0.0), ("skill_start", 0.0), ("skill_end", 0.3), ("episode_end", 0.4)]
    assert outcome.events[2][2]["torso"] > 0.1  # the torso rose by its actuator
    rows = records([outcome])["events"]
    assert [r["kind"] for r in rows] == ["episode_start", "skill_start", "skill_end", "episode_end"]


def test_unknown_policy_params_are_one_line_errors():
    with pytest.raises(ValueError, match=r"^policies\.noop\.speed: Extra inputs are not permitted$"):
        registry.make_policy("noop", {"speed": 2})


def test_the_gymnasium_env_passes_gymnasiums_checker(files):
    use_offscreen_gl()
    env = HousebenchEnv(Episode(*files), render_size=(64, 48))
    check_env(env, skip_render_check=False)
    obs, info = env.reset(seed=5)
    assert env.action_space.shape == (len(ACTION_LAYOUT),) and obs["objects"].shape == (2, 13)
    action = np.concatenate([[obs["joints"][env.robot_joints.index(j)] for j in (*ARM_JOINTS, TORSO_JOINT)],
                             obs["base"], [0.1]]).astype(np.float32)  # fmt: skip
    done, steps = False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert steps == 6 and truncated and reward == 0.0
    assert info["verdict"]["success"] is False and {c["predicate"] for c in info["verdict"]["conditions"]}
    assert env.render().shape == (48, 64, 3)
