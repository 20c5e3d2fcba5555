"""Turn scenes on disk and the rollout params into episode jobs."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from housebench import paths
from housebench.jsonfile import load_model
from housebench.names import name_problem
from housebench.params import MAX_WORKERS, Section
from housebench.paths import Layout
from housebench.policy.base import TRACKS
from housebench.policy.registry import REMOTE_CLASS, PolicySpec, resolve
from housebench.provenance import assets_hash, code_commit, scene_hash
from housebench.rollout.batch import EXECUTORS
from housebench.rollout.cache import EpisodeCacheParams
from housebench.rollout.cluster import RayParams
from housebench.rollout.episode import EpisodeJob
from housebench.sim.registry import BACKENDS, check_backend
from housebench.tasks.spec import TaskVariant
from housebench.tasks.splits import SplitParams, held_out_houses, split_of

MAX_EPISODES = 10_000  # episodes per variant and policy
MAX_POLICIES = 32  # policies in one run
MIN_IMAGE, MAX_IMAGE = 16, 1024  # pixels per side of the vision track's images


class RolloutParams(Section):
    """The ``rollout`` section of params.yaml (every key required, unknown keys rejected)."""

    seed: int = Field(ge=0)
    episodes_per_variant: int = Field(ge=1, le=MAX_EPISODES)
    policies: list[str] = Field(
        min_length=1, max_length=MAX_POLICIES
    )  # names of ``policies:``, built-ins, entry points
    components: list[str] = Field(default_factory=list, max_length=64)  # component tasks whose starts run too
    track: Literal[TRACKS]  # what the policies are shown: privileged state, or the robot's own sensors
    image_size: tuple[int, int] = Field((160, 120))  # the vision track's head RGB-D, width x height
    backend: Literal[BACKENDS]
    horizon_s: float = Field(gt=0, le=3600)  # for tasks whose spec names no horizon
    control_dt: float = Field(gt=0, le=10)
    pose_noise_m: float = Field(ge=0, le=0.1)
    executor: Literal[EXECUTORS]
    workers: int = Field(ge=0, le=MAX_WORKERS)  # 0: one per core (on Ray: the cluster's CPUs)
    ray: RayParams = RayParams()  # executor: ray: which Ray, and the code and files shipped to its nodes
    cache: EpisodeCacheParams = EpisodeCacheParams()  # finished episodes kept between runs (resume after a kill)

    @field_validator("policies")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        for name in names:
            if problem := name_problem(name):
                raise ValueError(problem)
        if len(set(names)) < len(names):
            raise ValueError("a policy is named twice")
        return names

    @field_validator("image_size")
    @classmethod
    def _image_size(cls, size: tuple[int, int]) -> tuple[int, int]:
        if not all(MIN_IMAGE <= side <= MAX_IMAGE for side in size):
            raise ValueError(f"each side in [{MIN_IMAGE}, {MAX_IMAGE}] pixels")
        return size


def check_policies(params: RolloutParams, entries: dict[str, dict] | None) -> list[PolicySpec]:
    """Every policy of the run resolved, its params validated, its track checked and a policy server reached (a
    handshake on the run's track): a configuration that cannot run is one line naming the key before any episode
    starts (or any output is touched)."""
    specs = []
    for name in params.policies:
        spec = resolve(name, (entries or {}).get(name))
        spec.make()
        if params.track not in spec.tracks:
            raise ValueError(
                f"rollout.track: policy '{name}' ({spec.class_path}) works on the {' or '.join(spec.tracks)} "
                f"track, not '{params.track}'"
            )
        if spec.class_path == REMOTE_CLASS:
            from housebench.remote.client import RemotePolicyError, check_reachable

            try:
                check_reachable(spec.params, params.track)
            except (RemotePolicyError, ValueError) as err:
                raise ValueError(f"policies.{name}: {err}") from None
        specs.append(spec)
    return specs


def job_provenance(
    layout: Layout, task_file: Path, scene: Path, commit: str, variant_file: TaskVariant | None = None
) -> dict[str, str]:
    """What a job's outcome is traced to (every episode row's ``code_commit``, ``scene_hash``, ``assets_hash``):
    the code, the scene's layers and the sim-ready assets of the variant's objects."""
    variant_file = variant_file or load_model(TaskVariant, task_file)
    return {
        "code_commit": commit,
        "scene_hash": scene_hash(layout.house_dir(variant_file.house) / "house.usda", task_file.parent, scene.parent),
        "assets_hash": assets_hash(layout.at(paths.ASSETS_SIM), [o.asset for o in variant_file.objects.values()]),
    }


def plan_jobs(
    run: str,
    params: RolloutParams,
    layout: Layout,
    policy_entries: dict[str, dict] | None = None,
    splits: SplitParams | None = None,
    split: str | None = None,
) -> list[EpisodeJob]:
    """One job per settled variant x policy x episode seed, in a stable order; ``policy_entries`` is the
    ``policies`` section of params.yaml (each policy's class and params). Each variant's split is ``split`` when
    given (a held-out run), else ``test`` in a held-out house, else the rule of ``splits``."""
    check_policies(params, policy_entries)
    check_backend(params.backend)  # not installed: one line, before anything is replaced
    splits = splits or SplitParams()
    commit = code_commit(layout.root)
    held, jobs = held_out_houses(layout), []
    for task, variant in layout.variants():
        task_file = layout.task_dir(task, variant) / "task.json"
        scene = layout.settled_scene(task, variant)
        variant_file = load_model(TaskVariant, task_file)
        provenance = job_provenance(layout, task_file, scene, commit, variant_file)
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
                        policy_entry=(policy_entries or {}).get(policy) or {},
                        provenance=provenance,
                        choices=variant_file.choices,
                        track=params.track,
                        split=split or split_of(task, variant, splits, variant_file.house in held),
                        house=variant_file.house,
                        image_size=params.image_size,
                    )
                )
    return jobs
