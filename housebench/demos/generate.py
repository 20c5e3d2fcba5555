"""Demonstrations at scale: N successful recorded episodes per task, from the train split's variants.

Attempts are numbered per task: attempt ``k`` runs variant ``k mod V`` of the task's V variants in the split
(``train``: :mod:`housebench.tasks.splits`, by the rule of params.yaml's ``splits``)
with episode seed ``seed + k div V``. Attempts run in waves over worker processes until the task has
``per_task`` successes or ``max_attempts`` attempts; the demonstrations are the first ``per_task``
successes in attempt order, so the chosen set does not depend on how many workers ran them.

Every finished attempt (success or failure) stays in the ``store`` folder, one recording folder each,
named by task, variant, policy and seed; a rerun skips those already there (resumable; a folder exists
only once complete). Keep the store outside any DVC output: DVC deletes outputs before running a stage.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
from pathlib import Path
from typing import Literal, Protocol

from pydantic import Field

from housebench.demos.record import record_episode
from housebench.demos.recorder import ImageOptions
from housebench.demos.recording import META
from housebench.jsonfile import load_model
from housebench.params import Section
from housebench.paths import Layout
from housebench.procs import die_with_parent
from housebench.progress import Progress
from housebench.provenance import code_commit
from housebench.rollout.episode import EpisodeJob
from housebench.rollout.plan import RolloutParams, job_provenance
from housebench.skills.tuning import config_hash, from_overrides
from housebench.tasks.spec import TaskVariant
from housebench.tasks.splits import SPLITS, SplitParams, held_out_houses, variant_split


class ImageParams(Section):
    camera: Literal["head", "third"] = "head"
    width: int = Field(160, gt=0, multiple_of=2)
    height: int = Field(120, gt=0, multiple_of=2)
    every: int = Field(1, ge=1)  # one image every N control steps

    def options(self) -> ImageOptions:
        return ImageOptions(self.camera, (self.width, self.height), self.every)


class DemosParams(Section):
    """The ``demos`` section of params.yaml."""

    policy: str  # a name of rollout.policies' kind (builtin, params entry, entry point)
    per_task: int = Field(ge=1, le=100_000)  # successful demonstrations per task
    max_attempts: int = Field(ge=1)  # per task: stop there even if short of per_task
    seed: int = Field(ge=0)  # the first episode seed
    split: Literal[SPLITS]  # the variants' split to draw from (train), by the rule of params.yaml's splits
    tasks: list[str]  # empty: every task
    horizon_s: float | None = Field(gt=0)  # cut every episode here (null: each task's own horizon)
    images: ImageParams | None  # null: no images
    workers: int = Field(ge=0)  # 0: one per core
    store: Path  # finished recordings, kept between runs (outside the stage's outputs)


@dataclasses.dataclass(frozen=True)
class Attempt:
    job: EpisodeJob
    out: Path
    index: int  # the attempt's number within its task
    images: ImageOptions | None


def recording_name(job: EpisodeJob) -> str:
    """``<task>/<variant>/<policy>-s<seed>``, with ``-t<hash>`` of the skills' tuning overrides when there are any
    (a recording made under other tuning is another recording); a component task's ``component:<name>`` as
    ``component-<name>``."""
    tuned = f"-t{config_hash(from_overrides(job.skills))[:8]}" if job.skills else ""
    return f"{job.task.replace(':', '-')}/{job.variant}/{job.policy}-s{job.seed:06d}{tuned}"


def split_variants(layout: Layout, task: str, split: str, splits: SplitParams) -> list[str]:
    """The task's settled variants in ``split`` (by the rule of ``splits``; a held-out house's are ``test``),
    sorted."""
    held = held_out_houses(layout)
    return sorted(
        v
        for t, v in layout.variants()
        if t == task and variant_split(layout, t, v, splits, held) == split and layout.settled_scene(t, v).is_file()
    )


def make_job(
    layout: Layout,
    task: str,
    variant: str,
    policy: str,
    seed: int,
    rollout: RolloutParams,
    policy_entry: dict | None = None,
    split: str = "",
    run: str = "demos",
) -> EpisodeJob:
    """The rollout's episode job for one recording (its provenance as the rollout computes it)."""
    task_file = layout.task_dir(task, variant) / "task.json"
    scene = layout.settled_scene(task, variant)
    if not scene.is_file():
        raise ValueError(f"{scene}: no settled scene for {task}/{variant}")
    variant_file = load_model(TaskVariant, task_file)
    return EpisodeJob(
        run=run,
        task=task,
        variant=variant,
        seed=seed,
        policy=policy,
        backend=rollout.backend,
        scene=scene,
        task_file=task_file,
        annotations=layout.scene_annotations(task, variant),
        horizon_s=variant_file.horizon_s or rollout.horizon_s,
        control_dt=rollout.control_dt,
        pose_noise_m=rollout.pose_noise_m,
        provenance=job_provenance(layout, task_file, scene, code_commit(layout.root), variant_file),
        choices=variant_file.choices,
        policy_entry=dict(policy_entry or {}),
        track=rollout.track,
        split=split,
        image_size=rollout.image_size,
    )


class JobSource(Protocol):
    """Where a task's attempts come from: its variants (in attempt order) and the job of one."""

    def variants(self, task: str) -> list[str]: ...

    def job(self, task: str, variant: str, seed: int) -> EpisodeJob: ...


@dataclasses.dataclass(frozen=True)
class TaskJobs:
    """The task variants of ``split``, each as the rollout would run it."""

    layout: Layout
    rollout: RolloutParams
    splits: SplitParams
    split: str
    policy: str
    policy_entry: dict | None = None

    def variants(self, task: str) -> list[str]:
        return split_variants(self.layout, task, self.split, self.splits)

    def job(self, task: str, variant: str, seed: int) -> EpisodeJob:
        return make_job(self.layout, task, variant, self.policy, seed, self.rollout, self.policy_entry, self.split)


def _run(attempt: Attempt) -> tuple[int, bool, str]:
    """One attempt in a worker: (index, success, error) -- a crash is a failure, not an abort."""
    try:
        summary = record_episode(attempt.job, attempt.out, attempt.images)
        return attempt.index, bool(summary["success"]), ""
    except Exception as err:  # noqa: BLE001 - a crashed attempt counts as a failed one
        return attempt.index, False, f"{type(err).__name__}: {err}"


def _finished(out: Path) -> bool | None:
    """A finished recording's success; None when there is none."""
    meta = out / META
    return bool(json.loads(meta.read_text()).get("success")) if meta.is_file() else None


def generate(
    params: DemosParams,
    rollout: RolloutParams,
    layout: Layout,
    splits: SplitParams,
    policy_entry: dict | None = None,
    progress: bool = True,
    source: JobSource | None = None,
    skills: dict | None = None,
) -> dict[str, list[Path]]:
    """Record until each task has ``params.per_task`` successes (see the module's doc); per task, the
    chosen recordings (the first ``per_task`` successes in attempt order). ``source`` makes the jobs (default:
    the task variants of ``params.split``; component tasks come from :mod:`housebench.components.jobs`)."""
    source = source or TaskJobs(layout, rollout, splits, params.split, params.policy, policy_entry)
    tasks = params.tasks or sorted({t for t, _ in layout.variants()})
    store = layout.at(params.store)
    images = params.images.options() if params.images else None
    workers = params.workers or os.cpu_count() or 1
    chosen: dict[str, list[Path]] = {}
    bar = Progress("demos", params.per_task * len(tasks), "demo", display=progress)
    pool = None
    try:
        for task in tasks:
            variants = source.variants(task)
            if not variants:
                raise ValueError(f"demos: {task}: no settled variants in split '{params.split}'")
            results: dict[int, bool] = {}
            outs: dict[int, Path] = {}
            k = 0
            while sum(results.values()) < params.per_task and k < params.max_attempts:
                need = params.per_task - sum(results.values())
                wave, stop = [], min(k + max(need, workers), params.max_attempts)
                for index in range(k, stop):
                    variant, seed = variants[index % len(variants)], params.seed + index // len(variants)
                    job = source.job(task, variant, seed)
                    if params.horizon_s is not None:
                        job = dataclasses.replace(job, horizon_s=params.horizon_s)
                    if skills:
                        job = dataclasses.replace(job, skills=skills)
                    out = outs[index] = store / recording_name(job)
                    done = _finished(out)
                    if done is None:
                        wave.append(Attempt(job, out, index, images))
                    else:
                        results[index] = done
                        bar.update(int(done))
                k = stop
                if wave and pool is None and workers > 1:
                    ctx = multiprocessing.get_context("spawn")  # never a forked GL or simulator context
                    pool = ctx.Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),))
                runs = pool.imap_unordered(_run, wave) if pool is not None else map(_run, wave)
                for index, success, error in runs:
                    results[index] = success
                    bar.update(int(success))
                    if error:
                        bar.write(f"demos: {task} attempt {index}: {error}")
            winners = sorted(i for i, ok in results.items() if ok)[: params.per_task]
            chosen[task] = [outs[i] for i in winners]
    finally:
        bar.close()
        if pool is not None:
            pool.close()
            pool.join()
    return chosen
