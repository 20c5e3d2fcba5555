"""A new verb takes two places (README "Adding a skill"): a skill that names the verb it carries out, and its entry
in skills.yaml. A throwaway verb, ``settle`` (hold still a moment), given only those two, is in the catalog with
its relations, has its verification scenario, validates in a subgraph and is run by the runtime in physics with its
contract measured; no other module is touched (the library file is swapped for a copy with the entry added)."""

from __future__ import annotations

import pytest
import yaml

from housebench.skill_library import library as library_module
from housebench.skill_library import runtime as runtime_module
from housebench.skill_library.catalog import build_catalog
from housebench.skill_library.library import SKILLS_FILE, load_library, skills
from housebench.skill_library.subgraph import PlanNode
from housebench.skill_library.verification import load_scenarios
from housebench.skills.base import VERBS, Skill
from housebench.state import Action
from tests.skill_library.test_runtime import _run

ENTRY = {
    "verb": "settle",
    "noun": "duration",
    "family": "base",
    "description": "Hold still for a moment so what was set down comes to rest.",
    "inputs": [{"name": "seconds", "type": "seconds", "doc": "how long"}],
    "post": [{"predicate": "hand_empty"}],
    "paths": [{"name": "hold_still", "doc": "send no motion"}],
    "scenarios": [{"scene": "put_fruit_in_container/v000", "setup": [], "args": {"seconds": 0.5}}],
}


@pytest.fixture
def settle(tmp_path, monkeypatch):
    """Place one: the entry, appended to a copy of the library (the next id). Place two: the skill, whose class
    names the verb (defining it registers it)."""
    data = yaml.safe_load(SKILLS_FILE.read_text())
    data["skills"].append({"id": f"skill_{len(data['skills']) + 1:03d}", **ENTRY})
    path = tmp_path / "skills.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    monkeypatch.setattr(library_module, "load_library", lambda *_: load_library(path))

    class Settle(Skill):
        name = "settle"
        verb = "settle"

        def __init__(self, seconds: float) -> None:
            self.seconds = seconds

        @classmethod
        def for_call(cls, args):
            return cls(float(args["seconds"]))

        def body(self, ctx, obs):
            start = obs.time
            while obs.time - start < self.seconds:
                obs = yield Action()
            return obs

    caches = (library_module.library, library_module.skills, runtime_module._fallbacks)
    for cached in caches:
        cached.cache_clear()
    yield Settle
    VERBS.pop("settle", None)
    monkeypatch.undo()
    for cached in caches:
        cached.cache_clear()


def test_a_skill_and_its_entry_are_all_a_new_verb_takes(settle, files):
    entry = next(e for e in build_catalog().skills if e.verb == "settle")
    assert [p.name for p in entry.paths] == ["hold_still"]
    assert entry.relations["next"], "its hand_empty leads to no pick: relations not generated"
    assert [s.scene for s in load_scenarios() if s.verb == "settle"] == ["put_fruit_in_container/v000"]

    episode, run = _run(files, [PlanNode(id="n1", verb="settle", args={"seconds": 0.5})], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "settle", "ok": True}]
    path = next(d for _, kind, d in episode.events if kind == "node_path")
    assert path["path"] == "hold_still" and 0.5 <= episode.time < 1.0
    assert "settle" in skills()
