"""The shipped component scenario files, made by a seeded rule over the built task scenes.

``python -m housebench.components.generate [--root .] [--out housebench/components/scenarios] [--starts 20]
[--seed 0] [--pool SCENE:WHAT ...]`` writes one file per component. Start ``i`` takes the ``i``-th entry of the
component's pool (scene and arguments, cycled; ``--pool`` narrows it to the entries named) and draws its jitter
from ``numpy.random.default_rng([seed, i])``; :data:`RULES_TEXT` says how for each component. The rule, the pool
and the seed are written into each file; the files are plain YAML, for people to edit. Two seeds give disjoint
start sets of one pool (a learner's training starts and its held-out ones).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import yaml

from housebench.house.stance import stance_free
from housebench.jsonfile import load_model
from housebench.paths import Layout
from housebench.rollout.env import Episode
from housebench.skill_library.contracts import World
from housebench.skill_library.executors import stance
from housebench.skills.base import SkillContext
from housebench.skills.navigate import obstacle_boxes
from housebench.state import SimState
from housebench.tasks.spec import TaskVariant
from housebench.tasks.splits import SPLITS

from .scenario import SCENARIO_DIR

SEED = 0  # the shipped files' seed
ITEMS = [  # (scene, item): small items a top pinch takes from a table, narrower than the open fingers
    ("put_fruit_in_container/v000", "apple"),
    ("collect_fruits/v000", "apple"),
    ("collect_fruits/v000", "orange"),
    ("sort_items/v000", "apple"),
    ("sort_items/v000", "block"),
    ("throw_can_away/v000", "can"),
    ("heat_soda_can/v000", "can"),
    ("stack_blocks/v000", "block"),
    ("arrange_drinks/v000", "can"),
    ("recycle_and_store/v000", "soda_can"),
]
PLACES = [  # (scene, target) from the variant's robot start
    ("put_fruit_in_container/v000", "apple"),
    ("put_fruit_in_container/v000", "bowl"),
    ("collect_fruits/v000", "coffee_table"),
    ("heat_breakfast/v000", "fridge"),
    ("shelve_books/v000", "book"),
    ("clear_shelf/v000", "bookcase_tall"),
    ("desk_prep/v000", "notebook"),
    ("heat_breakfast_preloaded/v000", "microwave"),
    ("toys_off_floor/v000", "duck"),
    ("stack_books/v000", "book_blue"),
]
DOORS = [  # (scene, door): the house is the same in every scene, its props differ
    ("heat_breakfast/v000", "fridge/door"),
    ("heat_breakfast/v000", "microwave/door"),
    ("chill_drink/v000", "fridge/door"),
    ("heat_soda_can/v000", "microwave/door"),
    ("restock_fridge/v000", "fridge/door"),
]
RULES_TEXT = {
    "pick_item": "start i: entry i of the pool (scene, item), cycled; the robot at the variant's reachable base pose "
    "for the item (task.json) moved by up to 5 cm and turned by up to 0.15 rad, arm tucked; the item at its settled "
    "pose moved by up to 2 cm and turned to any yaw; jitter from numpy default_rng([seed, i])",
    "place_item": "start i: entry i of the pool (scene, item), cycled; the robot at the variant's reachable base pose "
    "for the item moved by up to 5 cm and 0.15 rad, the arm in the carry pose holding the item; set down on the "
    "support it started on; jitter from numpy default_rng([seed, i])",
    "navigate_to": "start i: entry i of the pool (scene, target: a prop or a piece of furniture), cycled; the robot at "
    "the variant's start moved by up to 5 cm and 0.15 rad, arm tucked; jitter from numpy default_rng([seed, i])",
    "open_door": "start i: entry i of the pool (scene, door), cycled; the robot, arm tucked, at the skills' own stance "
    "for the closed door (a free ring pose within 0.9 m of it) moved by up to 5 cm and 0.1 rad where the footprint "
    "stays free; jitter from numpy default_rng([seed, i])",
    "close_door": "start i: entry i of the pool (scene, door), cycled; the door open by 50-100 % of its open value; "
    "the robot, arm tucked, at the skills' own stance for the open door moved by up to 5 cm and 0.1 rad where the "
    "footprint stays free; jitter from numpy default_rng([seed, i])",
}
HEADER = {
    "pick_item": ("pick", "Pick up the $object.", 60.0),
    "place_item": ("place", "Put the $object down on the $support.", 60.0),
    "navigate_to": ("navigate", "Go to the $target.", 90.0),
    "open_door": ("open", "Open the $part.", 90.0),
    "close_door": ("close", "Close the $part.", 90.0),
}


Draw = tuple[int, tuple[str, str], np.random.Generator]  # start index, pool entry, its jitter


def _round(values, digits: int = 4) -> list[float]:
    return [round(float(v), digits) for v in values]


class Scenes:
    """Episodes of the built scenes, loaded once each, and their settled states."""

    def __init__(self, layout: Layout) -> None:
        self.layout, self.cache = layout, {}

    def episode(self, scene: str) -> Episode:
        if scene not in self.cache:
            task, variant = scene.split("/")
            ep = Episode(
                self.layout.settled_scene(task, variant),
                self.layout.task_dir(task, variant) / "task.json",
                self.layout.scene_annotations(task, variant),
                horizon_s=10.0,
            )
            ep.reset(0)
            self.cache[scene] = ep
        return self.cache[scene]

    def variant(self, scene: str) -> TaskVariant:
        task, variant = scene.split("/")
        return load_model(TaskVariant, self.layout.task_dir(task, variant) / "task.json")


def _jitter(rng: np.random.Generator, pose, xy: float, yaw: float) -> list[float]:
    dx, dy = rng.uniform(-xy, xy, 2)
    return _round([pose[0] + dx, pose[1] + dy, math.remainder(pose[2] + rng.uniform(-yaw, yaw), 2 * math.pi)])


def pick_or_place(scenes: Scenes, draw: Draw, place: bool) -> dict:
    i, (scene, item), rng = draw
    placed = scenes.variant(scene).objects[item]
    base = _jitter(rng, placed.base, 0.05, 0.15)
    start: dict = {"id": f"s{i:03d}", "scene": scene}
    if place:
        start["args"] = {"object": item, "support": placed.support}
        start["robot"] = {"base": base, "arm": "carry"}
        start["held"] = item
        return start
    settled = scenes.episode(scene).state().objects[item]
    dx, dy = rng.uniform(-0.02, 0.02, 2)
    yaw = rng.uniform(-math.pi, math.pi)
    quat = [math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)]
    pos = [settled.pos[0] + dx, settled.pos[1] + dy, settled.pos[2]]
    start["args"] = {"object": item}
    start["robot"] = {"base": base, "arm": "tuck"}
    start["props"] = {item: {"pos": _round(pos), "quat": _round(quat, 6)}}
    return start


def navigate(scenes: Scenes, draw: Draw) -> dict:
    i, (scene, target), rng = draw
    base = _jitter(rng, scenes.variant(scene).robot_start, 0.05, 0.15)
    return {"id": f"s{i:03d}", "scene": scene, "args": {"target": target}, "robot": {"base": base, "arm": "tuck"}}


def door(scenes: Scenes, draw: Draw, close: bool) -> dict:
    i, (scene, part_name), rng = draw
    episode = scenes.episode(scene)
    part = next(p for p in episode.scene.house.articulated if p.name == part_name)
    q = part.closed + (part.open - part.closed) * rng.uniform(0.5, 1.0) if close else part.closed
    episode.reset(0)
    episode.sim.set_state(SimState(time=0.0, joints={part_name: q}))
    obs = episode.sim.observe()
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1)
    world = World(episode.scene, dict(episode.task.goal.roles), {}, obs.state)
    pose = stance(world, ctx, obs, part_name)
    boxes = obstacle_boxes(ctx, obs)
    for _ in range(20):  # a jitter that keeps the footprint free, else the stance itself
        jittered = _jitter(rng, pose, 0.05, 0.1)
        if stance_free(tuple(jittered), boxes):
            break
    else:
        jittered = _round(pose)
    start = {"id": f"s{i:03d}", "scene": scene, "args": {"part": part_name}}
    start["robot"] = {"base": jittered, "arm": "tuck"}
    if close:
        start["parts"] = {part_name: round(float(q), 4)}
    return start


RULES = {
    "pick_item": lambda s, d: pick_or_place(s, d, place=False),
    "place_item": lambda s, d: pick_or_place(s, d, place=True),
    "navigate_to": navigate,
    "open_door": lambda s, d: door(s, d, close=False),
    "close_door": lambda s, d: door(s, d, close=True),
}
POOLS = {"pick_item": ITEMS, "place_item": ITEMS, "navigate_to": PLACES, "open_door": DOORS, "close_door": DOORS}


def pool_of(name: str, only: list[str] | None = None) -> list[tuple[str, str]]:
    """The component's pool, narrowed to the ``scene:what`` entries of ``only`` (in the pool's order)."""
    pool = POOLS[name]
    if not only:
        return pool
    unknown = sorted(set(only) - {f"{scene}:{what}" for scene, what in pool})
    if unknown:
        raise ValueError(
            f"--pool: {unknown[0]!r} is not an entry of {name}'s pool (scene:what, e.g. {pool[0][0]}:{pool[0][1]})"
        )
    return [(scene, what) for scene, what in pool if f"{scene}:{what}" in only]


def draws(pool: list[tuple[str, str]], seed: int, starts: int) -> list[Draw]:
    """Start ``i``'s index, pool entry (cycled) and jitter generator."""
    return [(i, pool[i % len(pool)], np.random.default_rng([seed, i])) for i in range(starts)]


def generate(
    layout: Layout,
    out: Path,
    starts: int = 20,
    names: list[str] | None = None,
    seed: int = SEED,
    only: list[str] | None = None,
    split: str | None = None,
) -> list[Path]:
    scenes = Scenes(layout)
    written = []
    for name in names or list(RULES):
        verb, instruction, horizon = HEADER[name]
        pool = pool_of(name, only)
        rule = RULES_TEXT[name] + (f"; pool: {', '.join(f'{s}:{w}' for s, w in pool)}" if only else "")
        doc = {
            "version": 1,
            "verb": verb,
            "instruction": instruction,
            "horizon_s": horizon,
            "rule": f"python -m housebench.components.generate: {rule}",
            "seed": seed,
            **({"split": split} if split else {}),
            "starts": [RULES[name](scenes, draw) for draw in draws(pool, seed, starts)],
        }
        path = Path(out) / f"{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=120)
        path.write_text(f"# Generated by python -m housebench.components.generate; edit freely.\n{text}")
        written.append(path)
        print(f"{path}: {starts} starts", flush=True)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--out", type=Path, default=SCENARIO_DIR)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=SEED, help="the jitter's seed (another seed, other starts)")
    parser.add_argument("--split", choices=SPLITS, help="every start's split (default: its base scene's)")
    parser.add_argument("--pool", action="append", help="only this pool entry, scene:what (repeatable)")
    parser.add_argument("names", nargs="*", default=[], help=f"components to write (default: all of {list(RULES)})")
    args = parser.parse_args()
    try:
        generate(Layout(root=args.root), args.out, args.starts, args.names or None, args.seed, args.pool, args.split)
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    main()
