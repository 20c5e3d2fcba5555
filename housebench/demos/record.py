"""Record one episode job into a folder: the rollout's episode, its policy and seed, through the one
episode driver, with a :class:`~housebench.demos.recorder.Recorder` as its ``on_step`` hook."""

from __future__ import annotations

import time
from pathlib import Path

from housebench.demos.recorder import ImageOptions, Recorder
from housebench.policy.base import PolicyContext
from housebench.policy.registry import make_policy
from housebench.rollout.env import Episode
from housebench.rollout.episode import EpisodeJob
from housebench.sim.offscreen import use_offscreen_gl
from housebench.state import Observation

try:  # the rollout's one driver (issue 29's core seam); the same loop inline until it lands
    from housebench.rollout.episode import play
except ImportError:

    def play(episode: Episode, policy, seed: int, on_step=None) -> Observation:
        """Reset ``episode`` with ``seed``, then policy and physics in turn until it is done."""
        obs = episode.reset(seed)
        ctx = PolicyContext(episode.task, episode.scene, episode.control_dt, episode.horizon_s, episode.log)
        policy.reset(ctx, obs)
        while not episode.done:
            action = policy.act(obs)
            if on_step is not None:
                on_step(obs, action, obs)
            obs = episode.step(action)
        return obs


def job_meta(job: EpisodeJob) -> dict:
    """The provenance of ``job``'s recording (meta.json)."""
    return {
        "seed": job.seed,
        "policy": job.policy,
        "policy_params": _policy_entry(job),
        "backend": job.backend,
        "track": getattr(job, "track", "state"),
        "split": getattr(job, "split", ""),
        "run": job.run,
        "pose_noise_m": job.pose_noise_m,
        **job.provenance,
    }


def _policy_entry(job: EpisodeJob) -> dict:
    return dict(getattr(job, "policy_entry", None) or getattr(job, "policy_params", None) or {})


def record_episode(job: EpisodeJob, out: Path, images: ImageOptions | None = None) -> dict:
    """Run ``job`` and record it into ``out``; the summary written into meta.json (verdict, steps,
    sim and wall seconds). A crash records nothing and raises."""
    if images is not None:
        use_offscreen_gl()
    clock = time.perf_counter()
    episode = job.open()
    policy = make_policy(job.policy, _policy_entry(job))
    recorder: Recorder | None = None

    def on_step(obs_full, action, obs_policy):
        recorder.on_step(obs_full, action, obs_policy)

    try:
        # the recorder needs the reset episode (thermal model, layout): reset once here, and play's own
        # reset with the same seed gives the same state (reset reloads the keyframe and the seed's noise)
        episode.reset(job.seed)
        recorder = Recorder(episode, out, job_meta(job), images)
        final = play(episode, policy, job.seed, on_step=on_step)
        verdict = episode.verdict()
        summary = {
            "verdict": verdict.model_dump(mode="json"),
            "success": verdict.success,
            "steps": episode.steps // episode.substeps,
            "sim_s": episode.time,
            "wall_s": time.perf_counter() - clock,
            "backend_version": episode.backend.version,
        }
        recorder.finish(final, summary)
        return summary
    except BaseException:
        if recorder is not None:
            recorder.abort()
        raise
    finally:
        close = getattr(episode.sim, "close", None)
        if close:
            close()
