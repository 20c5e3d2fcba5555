"""Component scenario files: a skill's single node and the start states it is tried from (strict YAML).

A file ``housebench/components/scenarios/<verb>_<what>.yaml`` names one component task (its stem is the
component's name) and lists its starts. Every key is checked (unknown keys, NaN, an unknown verb or argument
are refused with one line naming the file and the key)::

    version: 1
    verb: pick                       # a verb of the skill library (housebench/skill_library/skills.yaml)
    instruction: Pick up the $object.
    horizon_s: 60                    # simulated seconds a start may take
    rule: ...                        # how the starts were made (the generator's words); seed: its seed
    seed: 0
    split: test                      # optional: every start's split (default: its base scene's, by params' rule)
    starts:
      - id: s000
        scene: put_fruit_in_container/v003          # a settled task scene of the tasks stage
        args: {object: apple}                        # the verb's arguments (a skill-library node)
        robot: {base: [4.8, 1.9, -0.7], arm: tuck}   # base x, y, yaw; arm tuck | carry | ready | {joint: value}
        parts: {fridge/door: 1.2}                    # joint values (rad, m), or open | closed
        props: {apple: {pos: [5.2, 1.6, 0.76], quat: [1, 0, 0, 0]}}
        held: apple                                  # set between the open fingers at the pad, closed in physics
      - id: s001
        scene: put_fruit_in_container/v003
        args: {object: apple}
        from: {state: states/after_pick.json}        # a SimState file, or {recording: <dir>, step: N}

``from`` is applied first, the other fields on top of it. Paths are relative to the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator

from housebench.inputs import InputError
from housebench.jsonfile import SpecError, one_line
from housebench.numbers import Finite, Quat, Vec3
from housebench.skill_library.contracts import ContractError, with_defaults
from housebench.skill_library.library import skills
from housebench.tasks.goal import Name, Strict
from housebench.tasks.splits import SPLITS
from housebench.yamlfile import load_yaml

SCENARIO_DIR = Path(__file__).with_name("scenarios")
SCENE = r"^[A-Za-z]\w*/[A-Za-z]\w*$"  # <task>/<variant>
ArmPose = Literal["tuck", "carry", "ready"]
Value = str | float | list[float]


class Robot(Strict):
    """The robot at the start: base pose, arm (a named pose or joint values), torso, head, finger gap."""

    base: tuple[Finite, Finite, Finite] | None = None  # x, y, yaw (default: the scene's robot start)
    arm: ArmPose | dict[str, Finite] = "tuck"
    torso: Annotated[float, Field(ge=0.0, le=0.4)] | None = None  # m (default: the arm pose's)
    head: tuple[Finite, Finite] | None = None  # pan, tilt (rad)
    gripper: Annotated[float, Field(ge=0.0, le=0.1)] | None = None  # finger gap (default: open, closed on ``held``)


class PropPose(Strict):
    pos: Vec3
    quat: Quat = (1.0, 0.0, 0.0, 0.0)


class Recorded(Strict):
    """A state taken from elsewhere: a SimState JSON file (``housebench results state``), or a step of a
    recorded episode (``housebench dataset record``)."""

    state: Path | None = None
    recording: Path | None = None
    step: Annotated[int, Field(ge=0)] | None = None

    @model_validator(mode="after")
    def _one(self) -> Recorded:
        if (self.state is None) == (self.recording is None):
            raise ValueError("give either state or recording")
        if (self.recording is None) != (self.step is None):
            raise ValueError("recording and step go together")
        return self


class Start(Strict):
    id: Name
    scene: Annotated[str, StringConstraints(pattern=SCENE)]
    args: dict[Name, Value]
    source: Recorded | None = Field(None, alias="from")
    robot: Robot | None = None
    parts: dict[str, Finite | Literal["open", "closed"]] = Field(default_factory=dict)
    props: dict[Name, PropPose] = Field(default_factory=dict)
    held: Name | None = None
    settle_s: Annotated[float, Field(ge=0.0, le=5.0)] | None = None  # physics before the start counts

    @property
    def settle(self) -> float:
        """Seconds of physics after arranging (fingers close, props come to rest): 0.5 s by default, none for
        a state taken whole from elsewhere (it continues as recorded)."""
        if self.settle_s is not None:
            return self.settle_s
        arranged = self.robot is not None or self.parts or self.props or self.held is not None
        return 0.5 if arranged or self.source is None else 0.0

    @property
    def task(self) -> str:
        return self.scene.split("/")[0]

    @property
    def variant(self) -> str:
        return self.scene.split("/")[1]


class ScenarioFile(Strict):
    version: Literal[1]
    verb: Name
    doc: str = ""
    instruction: Annotated[str, Field(min_length=1)]  # ``$<arg>`` filled with the start's arguments
    horizon_s: Annotated[float, Field(gt=0.0, le=600.0)]
    rule: str = ""  # how the starts were generated
    seed: int = 0  # the generator's seed
    split: Literal[SPLITS] | None = None  # every start's split; None: its base scene's
    starts: Annotated[list[Start], Field(min_length=1)]


@dataclass(frozen=True)
class Component:
    """A loaded scenario file: the component's name (the file's stem), where it came from, its content."""

    name: str
    path: Path
    spec: ScenarioFile

    @property
    def verb(self) -> str:
        return self.spec.verb

    @property
    def gym_id(self) -> str:
        from .envs import gym_id

        return gym_id(self.name)

    def start(self, start_id: str) -> tuple[int, Start]:
        for i, start in enumerate(self.spec.starts):
            if start.id == start_id:
                return i, start
        raise SpecError(f"{self.path}: starts: no start '{start_id}' (has {self.spec.starts[0].id}..)")

    def where(self, index: int, key: str = "") -> str:
        """``<file>: starts[i].<key>`` for one-line errors."""
        return f"{self.path}: starts[{index}]" + (f".{key}" if key else "")

    def instruction(self, start: Start) -> str:
        text = self.spec.instruction
        for name, value in sorted(start.args.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(f"${name}", str(value).replace("_", " "))
        return text

    def resolve(self, path: Path) -> Path:
        return path if path.is_absolute() else self.path.parent / path


def load_component(path: Path) -> Component:
    """A scenario file, strictly: one-line :class:`SpecError` naming the file and the key."""
    path = Path(path)
    try:
        spec = ScenarioFile.model_validate(load_yaml(path))
    except InputError as err:
        raise SpecError(str(err)) from None
    except ValidationError as err:
        raise SpecError(one_line(path, err)) from None
    library = skills()
    if spec.verb not in library:
        raise SpecError(f"{path}: verb: unknown verb '{spec.verb}'")
    if path.stem.partition("_")[0] != spec.verb:
        raise SpecError(f"{path}: verb: the file's name must start with '{spec.verb}_' (the component's verb)")
    seen: set[str] = set()
    for i, start in enumerate(spec.starts):
        if start.id in seen:
            raise SpecError(f"{path}: starts[{i}].id: '{start.id}' is given twice")
        seen.add(start.id)
        try:
            with_defaults(library[spec.verb], start.args)
        except ContractError as err:
            raise SpecError(f"{path}: starts[{i}].args: {err}") from None
    return Component(path.stem, path, spec)


@cache
def components(folder: Path = SCENARIO_DIR) -> dict[str, Component]:
    """The shipped component tasks by name."""
    return {p.stem: load_component(p) for p in sorted(Path(folder).glob("*.yaml"))}


def component(name: str, folder: Path | None = None) -> Component:
    """A shipped component by name, or a scenario file by path (``*.yaml``)."""
    if name.endswith((".yaml", ".yml")):
        return load_component(Path(name))
    found = components(folder or SCENARIO_DIR)
    if name not in found:
        raise SpecError(f"component: unknown component '{name}' (known: {', '.join(found) or 'none'})")
    return found[name]
