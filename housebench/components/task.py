"""A component task: a scenario's start state and a goal made of the verb's grounded postconditions.

The goal is the skill's contract (``skills.yaml``: ``post``) grounded on the start's arguments in the
scene, judged by the task evaluator like any task's goal (``lifted`` against the start state). The
:class:`ComponentEpisode` is an :class:`~housebench.rollout.env.Episode` of the base scene that applies the
start at every reset and ends on success or at the component's short horizon. The component's node rides in
the variant's ``choices`` (``component.verb``, ``component.args``), so the results' ``choices`` table names it
and a solver reads it from the task as a scripted policy reads the goal.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from housebench.paths import Layout
from housebench.rollout.env import Episode
from housebench.rollout.tracks import view
from housebench.skill_library.contracts import World, ground, judge_grounded
from housebench.skill_library.library import skills
from housebench.skills.base import failed_items
from housebench.state import Observation, SimState
from housebench.tasks.goal import AllOf, Goal
from housebench.tasks.spec import TaskVariant

from .scenario import Component, Start
from .start import apply_start

PREFIX = "component:"  # a rollout task name ``component:<name>`` (variant: the start's id)


def world_of(base: TaskVariant, episode_scene, state: SimState | None) -> World:
    return World(episode_scene, dict(base.goal.roles), {k: list(v) for k, v in base.goal.places.items()}, state)


def component_task(component: Component, start: Start, base: TaskVariant, world: World) -> TaskVariant:
    """The component's start as a task variant: the base variant's objects and thermal setup, the verb's
    grounded postconditions as its goal."""
    grounded = ground(skills()[component.verb], dict(start.args), world, access=False)
    goal = Goal(
        roles=world.roles,
        places={**world.places, **grounded.places},
        condition=AllOf(all_of=grounded.post),
    )
    robot = start.robot.base if start.robot is not None and start.robot.base is not None else base.robot_start
    return TaskVariant(
        task=component.name,
        variant=start.id,
        seed=component.spec.seed,
        instruction=component.instruction(start),
        spec_hash=hashlib.sha256(component.path.read_bytes()).hexdigest(),
        robot_start=robot,
        objects=base.objects,
        dropped=base.dropped,
        choices={
            "component.verb": component.verb,
            "component.args": json.dumps(grounded.args, sort_keys=True),
            "component.scene": start.scene,
        },
        thermal=base.thermal,
        horizon_s=component.spec.horizon_s,
        goal=goal,
    )


def scene_files(layout: Layout, component: Component, start_id: str) -> tuple[Path, Path, Path]:
    """The settled scene, task variant and annotations of a start's base scene under ``layout``."""
    task, variant = component.start(start_id)[1].scene.split("/")
    return (
        layout.settled_scene(task, variant),
        layout.task_dir(task, variant) / "task.json",
        layout.scene_annotations(task, variant),
    )


class ComponentEpisode(Episode):
    """An episode of one component start: the base scene reset by the seed (pose noise), the start applied
    and settled, the goal the verb's postconditions; done at success, a stop or the horizon."""

    def __init__(self, component: Component, start_id: str, files: tuple[Path, Path, Path], **kwargs) -> None:
        """``files``: the base scene's settled scene, task variant and annotations (:func:`scene_files`)."""
        self.component = component
        self.index, start = component.start(start_id)
        kwargs["horizon_s"] = kwargs.get("horizon_s") or component.spec.horizon_s
        super().__init__(*files, **kwargs)
        self.base_task = self.task
        self.task = component_task(component, start, self.base_task, world_of(self.base_task, self.scene, None))
        self.success = False

    @property
    def start(self) -> Start:
        return self.component.spec.starts[self.index]

    @property
    def done(self) -> bool:
        return super().done or self.success

    def reset(self, seed: int) -> Observation:
        super().reset(seed)
        apply_start(self, self.component, self.index)
        self._last = self._observe()
        self.initial = self._last.state
        self.events, self.steps, self.stopped, self.success = [], 0, False, False
        world = world_of(self.base_task, self.scene, self.initial)
        self.task = component_task(self.component, self.start, self.base_task, world)
        grounded = ground(skills()[self.component.verb], dict(self.start.args), world)
        pre = judge_grounded(grounded, "pre", world, self.initial)
        self.log("component_start", component=self.component.name, start=self.start.id, pre_ok=pre.success,
                 pre_failed=failed_items(pre))  # fmt: skip
        self.success = self.verdict().success
        # the start's own words on the observation (it was observed before the task was grounded on it)
        self._last = dataclasses.replace(self._last, instruction=self.task.instruction)
        return view(self._last, self.track)

    def step(self, action=None) -> Observation:
        obs = super().step(action)
        self.success = self.verdict().success
        return obs
