"""The catalog a planner or a vision-language model reads: every SkillNode with its contract in words
and as predicates, its paths and its relations; one versioned JSON file plus one file per skill, and a
JSON Schema for each (pydantic's, from the models below)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from housebench.io import write_json
from housebench.skill_library.choose import table_rows
from housebench.skill_library.library import library, library_version
from housebench.skill_library.model import Arg, Family, Output, SkillNode, SkillPath, Step
from housebench.skill_library.relations import edge_rows, relations
from housebench.skill_library.subgraph import Subgraph

CATALOG_VERSION = 1
PHRASES = {  # a condition in words; {field} is the field's value as written in the template
    "on": "{items} rests on {support}",
    "near": "{items} rest on {support} within {distance} m of each other",
    "inside": "{items} is inside {container}",
    "upright": "{items} stands upright",
    "not_dropped": "nothing has fallen to the floor",
    "heated": "{items} is at least {min_c} C",
    "chilled": "{items} is at most {max_c} C",
    "lifted": "{items} is at least {height} m above where it started",
    "placed_in_zone": "{items} is in the zone {zone}",
    "closed": "{parts} is closed",
    "open": "{parts} is open",
    "pressed": "{parts} is pressed",
    "holding": "the gripper holds {items}",
    "hand_empty": "the gripper holds nothing",
    "base_near": "the base is within {distance} m of {target}",
    "stacked": "{items} rests on top of {base}",
    "lying": "{items} lies on its side",
    "in_view": "{items} is in the head camera's view",
    "arm_pose": "the robot is in the {pose} pose",
    "at_edge": "{items} overhangs an edge of {support}",
}


def words(template: dict[str, Any]) -> str:
    """A condition template as a sentence (lists joined, ``$arg`` kept as the argument's name)."""
    fields = {k: " and ".join(map(str, v)) if isinstance(v, list) else v for k, v in template.items()}
    fields.setdefault("distance", 1.0)
    text = PHRASES[template["predicate"]].format_map(fields)
    if template.get("min_distance"):
        text += f" and at least {template['min_distance']} m away"
    if template.get("max_bearing_deg") is not None:
        text += f", facing it within {template['max_bearing_deg']} deg"
    return text


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Condition(Strict):
    words: str
    predicate: dict[str, Any]  # a goal condition template (housebench.tasks.goal)


class Relation(Strict):
    to: str
    verb: str
    on: str


class SkillEntry(Strict):
    """One skill as a model reads it (``skills/<id>.json``)."""

    catalog_version: Literal[1] = CATALOG_VERSION
    library_version: str
    id: str
    verb: str
    noun: str
    family: Family
    description: str
    inputs: list[Arg]
    outputs: list[Output]
    pre: list[Condition]
    post: list[Condition]
    access: list[str]
    paths: list[SkillPath]
    calls: list[Step]
    for_each: str | None = None
    relations: dict[Literal["next", "previous", "fallback", "alternative", "calls"], list[Relation]]


class CatalogFile(Strict):
    """``catalog.json``: the whole vocabulary."""

    catalog_version: Literal[1] = CATALOG_VERSION
    library_version: str
    predicates: dict[str, str]  # name -> the sentence pattern
    skills: list[SkillEntry]
    relations: list[dict[str, str]]  # every edge: from, to, kind, on
    choices: list[dict[str, str]]  # the choice table: which way of a verb a noun gets (verb, way, when)


def _entry(skill: SkillNode, rows: list[dict[str, str]], verbs: dict[str, str], version: str) -> SkillEntry:
    kinds: dict[str, list[Relation]] = {k: [] for k in ("next", "previous", "fallback", "alternative", "calls")}
    for r in rows:
        if r["from"] == skill.id:
            kinds[r["kind"]].append(Relation(to=r["to"], verb=verbs[r["to"]], on=r["on"]))
    conds = {k: [Condition(words=words(t), predicate=t) for t in getattr(skill, k)] for k in ("pre", "post")}
    return SkillEntry(
        library_version=version,
        **skill.model_dump(include={"id", "verb", "noun", "family", "description", "access", "for_each"}),
        inputs=skill.inputs,
        outputs=skill.outputs,
        paths=skill.paths,
        calls=skill.calls,
        relations=kinds,
        **conds,
    )


def build_catalog() -> CatalogFile:
    skills = library().skills
    rows = edge_rows(relations(skills))
    verbs = {s.id: s.verb for s in skills}
    version = library_version()
    return CatalogFile(
        library_version=version,
        predicates=dict(sorted(PHRASES.items())),
        skills=[_entry(s, rows, verbs, version) for s in skills],
        relations=rows,
        choices=table_rows(),
    )


def write_catalog(out: Path) -> CatalogFile:
    """``out/catalog.json``, ``out/skills/<id>.json`` and ``out/schema/{catalog,skill,subgraph}.schema.json``
    (the last: the format a planner or model answers in)."""
    catalog = build_catalog()
    write_json(out / "catalog.json", catalog.model_dump(mode="json", exclude_none=True))
    for entry in catalog.skills:
        write_json(out / "skills" / f"{entry.id}.json", entry.model_dump(mode="json", exclude_none=True))
    write_json(out / "schema" / "catalog.schema.json", CatalogFile.model_json_schema())
    write_json(out / "schema" / "skill.schema.json", SkillEntry.model_json_schema())
    write_json(out / "schema" / "subgraph.schema.json", Subgraph.model_json_schema(by_alias=True))
    return catalog
