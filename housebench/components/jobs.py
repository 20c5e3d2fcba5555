"""Component starts as rollout jobs: ``component:<name>`` tasks whose variants are the starts.

A :class:`ComponentJob` is an :class:`~housebench.rollout.episode.EpisodeJob` (plain data, it crosses
process boundaries) that opens a :class:`~housebench.components.task.ComponentEpisode`; ``run_episode`` and
the results writer treat it as any job. :func:`component_jobs` makes one per start x policy x episode seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from housebench.demos.generate import JobSource
from housebench.jsonfile import load_model
from housebench.paths import Layout
from housebench.provenance import code_commit
from housebench.rollout.episode import EpisodeJob
from housebench.rollout.plan import RolloutParams, check_policies, job_provenance
from housebench.tasks.spec import TaskVariant
from housebench.tasks.splits import SplitParams, held_out_houses, variant_split

from .scenario import Component, Start, component, load_component
from .task import PREFIX, ComponentEpisode, scene_files


@dataclass(frozen=True)
class ComponentJob(EpisodeJob):
    component_file: Path = Path()  # the scenario file (its stem is the component's name)

    def open(self) -> ComponentEpisode:
        return ComponentEpisode(
            load_component(self.component_file),
            self.variant,
            (self.scene, self.task_file, self.annotations),
            backend=self.backend,
            control_dt=self.control_dt,
            horizon_s=self.horizon_s,
            pose_noise_m=self.pose_noise_m,
            track=self.track,
            image_size=self.image_size,
        )


def start_job(
    run: str,
    params: RolloutParams,
    layout: Layout,
    comp: Component,
    start: Start,
    policy: str,
    seed: int,
    policy_entry: dict | None,
    split: str,
    commit: str,
) -> ComponentJob:
    """The job of one start of ``comp``, run by ``policy`` with episode seed ``seed``."""
    scene, task_file, annotations = scene_files(layout, comp, start.id)
    variant_file = load_model(TaskVariant, task_file)
    return ComponentJob(
        run=run,
        task=f"{PREFIX}{comp.name}",
        variant=start.id,
        seed=seed,
        policy=policy,
        backend=params.backend,
        scene=scene,
        task_file=task_file,
        annotations=annotations,
        horizon_s=comp.spec.horizon_s,
        control_dt=params.control_dt,
        pose_noise_m=params.pose_noise_m,
        policy_entry=policy_entry or {},
        provenance=job_provenance(layout, task_file, scene, commit, variant_file),
        choices={
            "component.verb": comp.verb,
            "component.args": json.dumps(start.args, sort_keys=True),
            "component.scene": start.scene,
        },
        track=params.track,
        split=split,
        house=variant_file.house,
        image_size=params.image_size,
        component_file=comp.path,
    )


def component_jobs(
    run: str,
    params: RolloutParams,
    layout: Layout,
    comps: list[Component],
    policy_entries: dict[str, dict] | None = None,
    splits: SplitParams | None = None,
    split: str | None = None,
) -> list[ComponentJob]:
    """One job per component start x policy x episode seed (``rollout.seed`` on), in a stable order; a start's
    split is ``split`` when given, else the file's ``split``, else its base scene's by the rule of ``splits``."""
    check_policies(params, policy_entries)
    splits = splits or SplitParams()
    commit, held = code_commit(layout.root), held_out_houses(layout)
    return [
        start_job(
            run,
            params,
            layout,
            comp,
            start,
            policy,
            params.seed + episode,
            (policy_entries or {}).get(policy),
            split or comp.spec.split or variant_split(layout, start.task, start.variant, splits, held),
            commit,
        )
        for comp in comps
        for start in comp.spec.starts
        for policy in params.policies
        for episode in range(params.episodes_per_variant)
    ]


@dataclass
class DemoJobs:
    """The demonstrations' job source (:class:`housebench.demos.generate.JobSource`) with component tasks:
    a task ``component:<name or scenario file>`` has the file's starts as its variants, every start of the
    file (a scenario file is its own split: write the training starts and the held-out ones to two files, and name
    the held-out file's ``split``: a file of another split than the demonstrations' is refused); any other task is
    ``tasks``'s."""

    tasks: JobSource
    layout: Layout
    rollout: RolloutParams
    policy: str
    policy_entry: dict | None = None
    split: str = "train"  # recorded as each start's split (the file is the split)
    comps: dict[str, Component] = field(default_factory=dict)

    def _component(self, task: str) -> Component:
        if task not in self.comps:
            self.comps[task] = component(task.removeprefix(PREFIX))
        return self.comps[task]

    def variants(self, task: str) -> list[str]:
        if not task.startswith(PREFIX):
            return self.tasks.variants(task)
        comp = self._component(task)
        if comp.spec.split not in (None, self.split):  # never learn from the starts a policy is scored on
            raise ValueError(f"{comp.path}: split: '{comp.spec.split}', not the demonstrations' '{self.split}'")
        return [start.id for start in comp.spec.starts]

    def job(self, task: str, variant: str, seed: int) -> EpisodeJob:
        if not task.startswith(PREFIX):
            return self.tasks.job(task, variant, seed)
        comp = self._component(task)
        _, start = comp.start(variant)
        commit = code_commit(self.layout.root)
        entry = self.policy_entry
        return start_job("demos", self.rollout, self.layout, comp, start, self.policy, seed, entry, self.split, commit)
