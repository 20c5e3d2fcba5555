"""Demonstrations at scale: attempts over the train split's variants, kept in a store, resumed from it."""

from __future__ import annotations

from housebench.demos.generate import DemosParams, generate, split_variants
from housebench.demos.recording import find_recordings, load_recording
from housebench.params import load_section
from housebench.rollout.plan import RolloutParams
from housebench.tasks.splits import SplitParams, split_of
from tests.builtdata import built
from tests.demos.conftest import layout

TASK = "breakfast_setup"


def test_generation_walks_the_train_split_and_resumes_from_its_store(tmp_path):
    built(TASK, "v000")  # a train variant (v000 of breakfast_setup is train by the shipped splits)
    rollout = load_section("rollout", RolloutParams, layout().at("params.yaml"))
    splits = load_section("splits", SplitParams, layout().at("params.yaml"))
    variants = split_variants(layout(), TASK, "train", splits)
    assert variants and all(split_of(TASK, v, splits) == "train" for v in variants)
    params = DemosParams(
        policy="scripted",
        per_task=1,
        max_attempts=2,  # two short attempts, both too short to succeed: the task comes back short
        seed=7,
        split="train",
        tasks=[TASK],
        horizon_s=1.0,
        images=None,
        workers=1,
        store=tmp_path / "store",
    )
    chosen = generate(params, rollout, layout(), splits, {"attempts": 3}, progress=False)
    assert chosen == {TASK: []}
    found = find_recordings([tmp_path / "store"])
    assert [(p.parent.name, p.name) for p in found] == [
        (variants[0], "scripted-s000007"),
        (variants[1 % len(variants)], f"scripted-s{7 + 1 // len(variants):06d}"),
    ]
    metas = [load_recording(p).meta for p in found]
    assert {m["split"] for m in metas} == {"train"} and all(not m["success"] for m in metas)
    stamps = [(p / "frames.parquet").stat().st_mtime_ns for p in found]
    assert generate(params, rollout, layout(), splits, {"attempts": 3}, progress=False) == {TASK: []}
    assert [(p / "frames.parquet").stat().st_mtime_ns for p in find_recordings([tmp_path / "store"])] == stamps


def test_a_component_task_records_its_scenario_starts_and_exports_them(tmp_path):
    """``component:<file>`` in ``demos.tasks``: the file's starts are the variants, the skill runtime records them,
    and the export names the dataset after the component."""
    from housebench.components.jobs import DemoJobs
    from housebench.components.scenario import component
    from housebench.demos.generate import TaskJobs
    from housebench.demos.lerobot_v3 import export_lerobot

    built("put_fruit_in_container", "v000")
    rollout = load_section("rollout", RolloutParams, layout().at("params.yaml"))
    splits = load_section("splits", SplitParams, layout().at("params.yaml"))
    comp = component("pick_item")
    assert comp.spec.starts[0].scene == "put_fruit_in_container/v000"
    entry = {"class": "housebench.components.solver:SkillPolicy"}
    tasks = TaskJobs(layout(), rollout, splits, "train", "skill", entry)
    source = DemoJobs(tasks, layout(), rollout, "skill", entry)
    task = f"component:{comp.path}"
    assert source.variants(task) == [s.id for s in comp.spec.starts]
    params = DemosParams(
        policy="skill",
        per_task=1,
        max_attempts=1,
        seed=0,
        split="train",
        tasks=[task],
        horizon_s=None,
        images=None,
        workers=1,
        store=tmp_path / "store",
    )
    chosen = generate(params, rollout, layout(), splits, entry, progress=False, source=source)
    assert [p.relative_to(tmp_path / "store").as_posix() for p in chosen[task]] == [
        "component-pick_item/s000/skill-s000000"
    ]
    meta = load_recording(chosen[task][0]).meta
    assert meta["success"] and meta["task"] == "pick_item" and meta["instruction"] == "Pick up the apple."
    written = export_lerobot(chosen[task], tmp_path / "datasets")
    assert [w["path"] for w in written] == [str(tmp_path / "datasets" / "pick_item")]


def test_a_recording_made_under_other_skill_tuning_is_another_recording():
    """The store resumes by recording name: a demonstration recorded under the defaults must not stand for one
    that params.yaml's ``skills:`` overrides would record differently."""
    import dataclasses

    from housebench.demos.generate import recording_name
    from tests.conftest import built_job

    job = built_job("put_fruit_in_container", "v000", "scripted", horizon_s=10.0)
    plain = recording_name(job)
    assert plain == "put_fruit_in_container/v000/scripted-s000000"
    tuned = recording_name(dataclasses.replace(job, skills={"pick": {"timeout_s": 2.0}}))
    other = recording_name(dataclasses.replace(job, skills={"pick": {"timeout_s": 3.0}}))
    assert tuned.startswith(plain + "-t") and len({plain, tuned, other}) == 3
