"""Record one episode job into a folder: the rollout's episode, its policy and seed, through the rollout's one
episode driver (:func:`housebench.rollout.episode.play`), with a :class:`~housebench.demos.recorder.Recorder` as
its ``on_step`` hook."""

from __future__ import annotations

import time
from pathlib import Path

from housebench.demos.recorder import ImageOptions, Recorder
from housebench.policy.registry import resolve
from housebench.rollout.episode import EpisodeJob, play
from housebench.sim.offscreen import use_offscreen_gl
from housebench.skills.tuning import from_overrides, using


def job_meta(job: EpisodeJob, class_path: str = "", version: str = "") -> dict:
    """The provenance of ``job``'s recording (meta.json)."""
    return {
        "seed": job.seed,
        "policy": job.policy,
        "policy_class": class_path,
        "policy_version": version,
        "policy_entry": dict(job.policy_entry),
        "backend": job.backend,
        "track": job.track,
        "split": job.split,
        "run": job.run,
        "pose_noise_m": job.pose_noise_m,
        **job.provenance,
    }


def record_episode(job: EpisodeJob, out: Path, images: ImageOptions | None = None) -> dict:
    """Run ``job`` and record it into ``out``; the summary written into meta.json (verdict, steps,
    sim and wall seconds). A crash records nothing and raises."""
    if images is not None:
        use_offscreen_gl()
    clock, cpu = time.perf_counter(), time.process_time()
    spec = resolve(job.policy, job.policy_entry)
    policy = spec.make()
    episode = job.open()
    recorder: Recorder | None = None

    def on_step(obs_full, action, obs_policy):
        recorder.on_step(obs_full, action, obs_policy)

    try:
        # the recorder needs the reset episode (thermal model, layout): reset once here, and play's own
        # reset with the same seed gives the same state (reset reloads the keyframe and the seed's noise)
        episode.reset(job.seed)
        recorder = Recorder(episode, out, job_meta(job, spec.class_path, spec.version), images)
        with using(from_overrides(job.skills)):  # the skills' tuning (housebench.skills.tuning)
            play(episode, policy, job.seed, on_step=on_step)
        verdict = episode.verdict()
        summary = {
            "verdict": verdict.model_dump(mode="json"),
            "success": verdict.success,
            "steps": episode.steps // episode.substeps,
            "sim_s": episode.time,
            "wall_s": time.perf_counter() - clock,
            "cpu_s": time.process_time() - cpu,  # this process's CPU (the renderer's threads included)
            "backend_version": episode.backend.version,
        }
        recorder.finish(episode.full_observation, summary)
        return summary
    except BaseException:
        if recorder is not None:
            recorder.abort()
        raise
    finally:
        for owner in (policy, episode.sim):  # a remote policy's connection, the renderers
            close = getattr(owner, "close", None)
            if callable(close):
                close()
