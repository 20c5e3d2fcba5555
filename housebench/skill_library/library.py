"""The skill library as data: ``skills.yaml`` read into :class:`Library`, checked, looked up by verb.

Every contract template is checked at load: with each argument replaced by a value of its type, every
pre- and postcondition must be a valid goal condition (a typo in a predicate or a field is an error
naming the skill and the condition, never a silently weaker contract).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from housebench.hashing import file_hash
from housebench.inputs import InputError
from housebench.jsonfile import SpecError, one_line
from housebench.skill_library.model import PLACEHOLDER, Library, SkillNode
from housebench.tasks.goal import Node
from housebench.yamlfile import load_yaml

SKILLS_FILE = Path(__file__).with_name("skills.yaml")
NODE = TypeAdapter(Node)
SAMPLE = {  # a value of each argument type, to check templates with
    "object": "x",
    "container": "x",
    "support": "x/top",
    "furniture": "x",
    "part": "x/door",
    "button": "x/button",
    "appliance": "x",
    "place": "x",
    "role": "x",
    "seconds": 1.0,
    "metres": 0.5,
    "celsius": 50.0,
    "zone": [0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
}
SAMPLE_ATTR = {"cavity": [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]}


def fill(value, lookup):
    """``value`` with every placeholder replaced: a whole-string ``"$x"`` / ``"$x.a"`` by ``lookup(x, a)``
    (any JSON), one inside a longer string by its text; dicts and lists recursively."""
    if isinstance(value, dict):
        return {k: fill(v, lookup) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, lookup) for v in value]
    if not isinstance(value, str) or "$" not in value:
        return value
    whole = PLACEHOLDER.fullmatch(value)
    if whole:
        return lookup(whole[1], whole[2])
    return PLACEHOLDER.sub(lambda m: str(lookup(m[1], m[2])), value)


def _check(skill: SkillNode) -> None:
    types = {a.name: a.type for a in skill.inputs}

    def sample(name: str, attr: str | None):
        if name == "each":
            return ["x"]
        return SAMPLE_ATTR.get(attr, "x") if attr else SAMPLE[types[name]]

    for key in ("pre", "post"):
        for i, template in enumerate(getattr(skill, key)):
            try:
                NODE.validate_python(fill(template, sample))
            except ValidationError as err:
                raise SpecError(one_line(f"{SKILLS_FILE}: {skill.id} ({skill.verb}).{key}[{i}]", err)) from None


def load_library(path: Path = SKILLS_FILE) -> Library:
    """Read and check a skill library file (one-line :class:`SpecError` naming file and key)."""
    try:
        data = load_yaml(Path(path))  # strict YAML (no duplicate keys, anchors or aliases), bounded
    except InputError as err:
        raise SpecError(str(err)) from None
    try:
        library = Library.model_validate(data)
    except ValidationError as err:
        raise SpecError(one_line(path, err)) from None
    for skill in library.skills:
        _check(skill)
    return library


@cache
def library() -> Library:
    """The package's own library (read once)."""
    return load_library()


@cache
def skills() -> dict[str, SkillNode]:
    """The package's skills by verb."""
    return {s.verb: s for s in library().skills}


def library_version() -> str:
    """A short content hash of ``skills.yaml``: the catalog's version of the vocabulary."""
    return file_hash(SKILLS_FILE)[:12]
