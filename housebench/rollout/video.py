"""An episode as a video: the head camera beside a third-person view, one frame every few control
steps, written as mp4 (imageio with its ffmpeg plugin). The episode runs through the same loop,
physics and evaluator as the rollout; rendering does not change what happens."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from housebench.paths import Layout
from housebench.policy.registry import make_policy
from housebench.rollout.env import Episode
from housebench.rollout.episode import play


def record(
    layout: Layout,
    task: str,
    variant: str,
    policy: str,
    out: Path,
    seed: int = 0,
    horizon_s: float | None = None,
    every: int = 3,
    size: tuple[int, int] = (512, 384),
    entry: dict | None = None,
    track: str = "state",
) -> dict:
    """Run one episode of ``policy`` (its ``policies.<name>`` ``entry`` of params.yaml: class and params) on
    ``track`` and write ``out`` (mp4: head | third person); returns the verdict summary (success, progress,
    sim seconds, frames)."""
    import imageio.v3 as iio

    episode = Episode(
        layout.settled_scene(task, variant),
        layout.task_dir(task, variant) / "task.json",
        layout.scene_annotations(task, variant),
        horizon_s=horizon_s,
        default_horizon_s=400.0,
        track=track,
    )
    frames = []

    def film(full, action, shown) -> None:
        del full, action, shown
        if episode.steps // episode.substeps % every == 0:
            frames.append(np.concatenate([episode.render(cam, *size) for cam in ("head", "third")], axis=1))

    play(episode, make_policy(policy, entry), seed, on_step=film)
    out.parent.mkdir(parents=True, exist_ok=True)
    iio.imwrite(out, np.stack(frames), fps=max(1, round(1.0 / (episode.control_dt * every))), codec="libx264")
    verdict = episode.verdict()
    return {"success": verdict.success, "progress": verdict.progress, "sim_s": episode.time, "frames": len(frames)}
