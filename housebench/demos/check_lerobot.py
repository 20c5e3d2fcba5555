"""Open an exported dataset with LeRobot's own loader and print what it reads, as JSON.

Run it in LeRobot's environment (it imports nothing of housebench, so housebench need not be installed
there)::

    python3.12 -m venv .venv-lerobot && .venv-lerobot/bin/pip install "lerobot[dataset]"
    .venv-lerobot/bin/python housebench/demos/check_lerobot.py datasets/demos/<task>

It loads ``LeRobotDataset`` from the folder (no hub), reads every frame (video frames decoded with PyAV),
and prints, per dataset folder given, the totals and, per episode, its length, the first and last frame's
vectors, its subtask rows and the image shape, and the shapes of a training batch of action chunks drawn through
LeRobot's collate (one JSON object per folder, a line each);
``tests/demos/test_lerobot_load.py`` compares them with the recording.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def check(root: Path) -> dict:
    from lerobot.datasets.lerobot_dataset import LeRobotDataset

    ds = LeRobotDataset(repo_id=f"housebench/{root.name}", root=root, video_backend="pyav")
    vectors = [k for k, f in ds.features.items() if f["dtype"] == "float32"]
    episodes = []
    for ep in range(ds.num_episodes):  # the first and last frame of each episode, videos decoded
        meta = ds.meta.episodes[ep]
        first, last = ds[meta["dataset_from_index"]], ds[meta["dataset_to_index"] - 1]
        episodes.append(
            {
                "length": meta["length"],
                "provenance": {k: v for k, v in meta.items() if k.startswith("housebench/")},  # as the export wrote it
                "first": {k: first[k].tolist() for k in vectors},
                "last": {k: last[k].tolist() for k in vectors},
                "task": first["task"],
                "subtasks": [row["content"] for row in first.get("language_persistent") or []],
                "images": {k: list(first[k].shape) for k in ds.meta.video_keys},
                "done": bool(last["next.done"]),
                "success": bool(last["next.success"]),
            }
        )
    # a training batch as lerobot-train draws it: action chunks of 10 steps, LeRobot's collate (language rows)
    import torch
    from lerobot.utils.collate import lerobot_collate_fn

    chunks = LeRobotDataset(
        repo_id=f"housebench/{root.name}",
        root=root,
        video_backend="pyav",
        delta_timestamps={"action": [i / ds.fps for i in range(10)]},
    )
    loader = torch.utils.data.DataLoader(chunks, batch_size=4, shuffle=True, collate_fn=lerobot_collate_fn)
    batch = next(iter(loader))
    return {
        "batch": {k: list(v.shape) for k, v in batch.items() if hasattr(v, "shape")},
        "episodes": ds.num_episodes,
        "frames": ds.num_frames,
        "fps": ds.fps,
        "video_keys": list(ds.meta.video_keys),
        "stats_keys": sorted(ds.meta.stats or {}),
        "per_episode": episodes,
    }


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit("usage: check_lerobot.py <dataset folder>...")
    for folder in sys.argv[1:]:
        print(json.dumps(check(Path(folder))))
