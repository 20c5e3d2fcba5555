"""The skill library as data: the vocabulary the issue asks for, strict loading, checked templates."""

from __future__ import annotations

import pytest
import yaml

from housebench.jsonfile import SpecError
from housebench.skill_library.library import SKILLS_FILE, library, load_library

FAMILIES = {
    "base": {"navigate", "approach", "face", "retreat", "tuck", "reset", "wait"},
    "perception": {"look", "inspect", "search", "count"},
    "grasp": {"pick", "place", "drop", "stack", "release", "lift", "lower", "regrasp", "upright"},
    "contact": {"push", "pull", "slide", "sweep"},
    "articulation": {"open", "close", "press", "heat", "chill"},
    "multi": {"fetch", "collect", "arrange", "clear", "empty", "sort", "swap"},
}


def test_vocabulary_covers_every_family_of_the_issue():
    found = {}
    for s in library().skills:
        found.setdefault(s.family, set()).add(s.verb)
    assert len(library().skills) >= 30
    for family, verbs in FAMILIES.items():
        assert verbs <= found[family], (family, verbs - found[family])


def test_ids_are_stable_and_sequential():
    assert [s.id for s in library().skills] == [f"skill_{i:03d}" for i in range(1, len(library().skills) + 1)]


def test_nested_contracts_call_other_skills():
    by_verb = {s.verb: s for s in library().skills}
    assert [c.verb for c in by_verb["fetch"].calls] == ["navigate", "pick", "navigate", "place"]
    assert {c.verb for c in by_verb["sort"].calls} == {"collect"}


def _edited(tmp_path, edit):
    data = yaml.safe_load(SKILLS_FILE.read_text())
    edit(data)
    path = tmp_path / "skills.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(
    "edit, needle",
    [
        (lambda d: d["skills"][11]["post"][0].update(predicate="holds"), "skill_012 (pick).post[0]: expected all_of"),
        (lambda d: d["skills"][11]["post"][0].update(colour=1), "skill_012 (pick).post[0]: colour: Extra inputs"),
        (lambda d: d["skills"][12]["pre"][0].update(items=["$thing"]), "'$thing' is not an input of place"),
        (lambda d: d["skills"][1].update(verb="navigate"), "duplicate verb ['navigate']"),
        (lambda d: d["skills"][32]["calls"][0].update(verb="teleport"), "'teleport' is no skill"),
        (lambda d: d["skills"][0].update(description="two\nlines"), "skills[0].description"),
        (
            lambda d: d["skills"][30]["pre"][1].update(parts=["$appliance.colour"]),
            "'colour' is no attribute of type appliance",
        ),
    ],
)
def test_bad_library_is_one_line_error(tmp_path, edit, needle):
    path = _edited(tmp_path, edit)
    with pytest.raises(SpecError) as err:
        load_library(path)
    assert "\n" not in str(err.value) and needle in str(err.value), str(err.value)
