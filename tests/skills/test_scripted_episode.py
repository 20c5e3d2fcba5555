"""The scripted policy in contact physics, through the rollout's own episode loop (slow: needs the
built scenes of ``dvc repro annotate``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from housebench.rollout.episode import EpisodeJob, run_episode

ROOT = Path(__file__).resolve().parents[2]
TASK, VARIANT = "put_fruit_in_container", "v000"


@pytest.mark.slow
def test_scripted_puts_the_apple_in_the_bowl_by_contact():
    scene = ROOT / "scenes/settled" / TASK / VARIANT / "scene.usda"
    if not scene.exists():
        pytest.skip("built scenes missing: dvc repro annotate")
    job = EpisodeJob(
        run="test",
        task=TASK,
        variant=VARIANT,
        seed=0,
        policy="scripted",
        backend="mujoco",
        scene=scene,
        task_file=ROOT / "scenes/tasks" / TASK / VARIANT / "task.json",
        annotations=ROOT / "annotations/scenes" / f"{TASK}__{VARIANT}.json",
        horizon_s=200.0,
        control_dt=0.1,
        pose_noise_m=0.002,
    )
    out = run_episode(job)
    assert out.crash is None, out.crash
    assert out.verdict.success, [c.items for c in out.verdict.conditions if not c.ok]
    kinds = [(kind, d.get("skill"), d.get("ok")) for _, kind, d in out.events if kind == "skill_end"]
    assert ("skill_end", "pick", True) in kinds and ("skill_end", "place", True) in kinds
    assert out.sim_s < 200.0  # the policy said stop before the horizon
