"""A verb added in two places, the skill and its catalog entry: ``present`` (housebench/skills/present.py names the
verb it carries out; skills.yaml holds its contract and its verification scenario), run by the runtime in physics
as the verify stage runs it."""

from __future__ import annotations

from housebench.pipeline.verify import VerifyParams, run_scenario
from housebench.skill_library.executors import EXECUTORS, executor
from housebench.skill_library.library import skills
from housebench.skill_library.verification import load_scenarios
from housebench.skills.present import Present
from tests.builtdata import built


def test_the_verb_is_found_from_the_skill_and_its_entry_alone():
    assert "present" in skills() and "present" not in EXECUTORS
    made = executor("present")({"object": "apple"}, None, None, None, "carry_and_look")
    assert isinstance(made, Present) and made.target() == "apple"
    assert [s.scene for s in load_scenarios() if s.verb == "present"] == ["put_fruit_in_container/v000"]
    assert executor("no_such_verb") is None


def test_a_held_apple_is_shown_to_the_head_camera_in_physics():
    scenario = next(s for s in load_scenarios() if s.verb == "present")
    task, variant = scenario.scene.split("/")
    params = VerifyParams(seed=0, control_dt=0.1, horizon_s=150.0, attempts=1, verbs=[])
    row = run_scenario(scenario, built(task, variant), params)
    assert row["status"] == "passed", row["reason"]
    assert row["path"] == "carry_and_look"
