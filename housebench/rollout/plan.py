"""Turn scenes on disk and the rollout params into episode jobs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from housebench import paths
from housebench.jsonfile import load_model
from housebench.params import MAX_WORKERS, Section
from housebench.paths import Layout
from housebench.policy.registry import POLICIES, make_policy
from housebench.provenance import assets_hash, code_commit, scene_hash
from housebench.rollout.batch import EXECUTORS
from housebench.rollout.episode import EpisodeJob
from housebench.sim.registry import BACKENDS
from housebench.tasks.spec import TaskVariant

MAX_EPISODES = 10_000  # episodes per variant and policy


class RolloutParams(Section):
    """The ``rollout`` section of params.yaml (every key required, unknown keys rejected)."""

    seed: int = Field(ge=0)
    episodes_per_variant: int = Field(ge=1, le=MAX_EPISODES)
    policies: list[Literal[tuple(POLICIES)]] = Field(min_length=1, max_length=len(POLICIES))
    backend: Literal[BACKENDS]
    horizon_s: float = Field(gt=0, le=3600)  # for tasks whose spec names no horizon
    control_dt: float = Field(gt=0, le=10)
    pose_noise_m: float = Field(ge=0, le=0.1)
    executor: Literal[EXECUTORS]
    workers: int = Field(ge=0, le=MAX_WORKERS)  # 0: one per core


def plan_jobs(
    run: str, params: RolloutParams, layout: Layout, policy_params: dict[str, dict] | None = None
) -> list[EpisodeJob]:
    """One job per settled variant x policy x episode seed, in a stable order; ``policy_params`` is the
    ``policies`` section of params.yaml (each policy's own params)."""
    for policy in params.policies:  # a bad param is one line now, not a crash in every episode
        make_policy(policy, (policy_params or {}).get(policy))
    commit = code_commit(layout.root)
    jobs = []
    for task, variant in layout.variants():
        task_file = layout.task_dir(task, variant) / "task.json"
        scene = layout.settled_scene(task, variant)
        variant_file = load_model(TaskVariant, task_file)
        assets = [o.asset for o in variant_file.objects.values()]
        provenance = {
            "code_commit": commit,
            "scene_hash": scene_hash(layout.at(paths.HOUSE_DIR / "house.usda"), task_file.parent, scene.parent),
            "assets_hash": assets_hash(layout.at(paths.ASSETS_SIM), assets),
        }
        for policy in params.policies:
            for episode in range(params.episodes_per_variant):
                jobs.append(
                    EpisodeJob(
                        run=run,
                        task=task,
                        variant=variant,
                        seed=params.seed + episode,
                        policy=policy,
                        backend=params.backend,
                        scene=scene,
                        task_file=task_file,
                        annotations=layout.scene_annotations(task, variant),
                        horizon_s=variant_file.horizon_s or params.horizon_s,
                        control_dt=params.control_dt,
                        pose_noise_m=params.pose_noise_m,
                        policy_params=(policy_params or {}).get(policy) or {},
                        provenance=provenance,
                        choices=variant_file.choices,
                    )
                )
    return jobs
